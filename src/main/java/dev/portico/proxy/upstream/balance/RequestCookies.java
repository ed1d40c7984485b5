package dev.portico.proxy.upstream.balance;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;

import java.util.List;

/**
 * Finds one cookie in a request's {@code Cookie} fields (RFC 6265 section 4.2.1: {@code name=value} pairs separated by
 * "; "; HTTP/2 clients may split them over several fields, RFC 9113 section 8.2.3) without parsing the others.
 */
final class RequestCookies {

    private RequestCookies() {
    }

    /** The value of the first cookie named {@code name} (names compare case-sensitively), or null. */
    static String value(MultiMap headers, String name) {
        List<String> fields = headers.getAll(HttpHeaders.COOKIE);
        for (int f = 0; f < fields.size(); f++) {
            String field = fields.get(f);
            int at = 0;
            while (at < field.length()) {
                while (at < field.length() && (field.charAt(at) == ' ' || field.charAt(at) == ';')) {
                    at++;
                }
                int end = field.indexOf(';', at);
                if (end < 0) {
                    end = field.length();
                }
                int equals = field.indexOf('=', at);
                if (equals > at && equals < end && equals - at == name.length() && field.startsWith(name, at)) {
                    String value = field.substring(equals + 1, end).trim();
                    return value.length() > 1 && value.charAt(0) == '"' && value.endsWith("\"")
                            ? value.substring(1, value.length() - 1) : value;
                }
                at = end + 1;
            }
        }
        return null;
    }
}
