package dev.portico.proxy.upstream;

import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.outcome.LocalReason;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;

import java.math.BigInteger;
import java.util.List;

/**
 * {@code Max-Forwards} on {@code OPTIONS} (RFC 9110 section 7.6.2): an intermediary must check and decrement it
 * before forwarding, and answer as the final recipient when it is zero, so a client can ask any hop of a chain what it
 * allows. Portico answers {@code 200} with the methods it forwards in {@code Allow}, no body. {@code TRACE} is refused
 * before routing, and other methods are forwarded with the field as they came (the RFC gives it meaning for these two
 * only). nginx and HAProxy ignore the field; a value that is not one decimal number is refused with 400, as it could be
 * neither checked nor decremented.
 */
final class MaxForwards {

    static final CharSequence NAME = HttpHeaders.createOptimized("Max-Forwards");

    private MaxForwards() {
    }

    /** Answers the request here when its {@code Max-Forwards} says so or is malformed; true when it did. */
    static boolean answeredHere(Exchange exchange) {
        if (exchange.request().method() != HttpMethod.OPTIONS) {
            return false;
        }
        List<String> values = exchange.request().headers().getAll(NAME);
        if (values.isEmpty()) {
            return false;
        }
        BigInteger remaining = values.size() == 1 ? parse(values.get(0)) : null;
        if (remaining == null) {
            exchange.replyLocal(LocalReason.BAD_REQUEST, "Max-Forwards must be one non-negative decimal number");
            return true;
        }
        if (remaining.signum() > 0) {
            return false;
        }
        HttpServerResponse response = exchange.response();
        response.setStatusCode(200);
        response.headers().set(HttpHeaders.ALLOW, Exchange.FORWARDED_METHODS).set(HttpHeaders.CONTENT_LENGTH, "0");
        exchange.sendHead();
        response.end();
        exchange.request().resume();
        return true;
    }

    /** Sets the field of an {@code OPTIONS} request going upstream to one less than received (checked before). */
    static void decrement(HttpMethod method, MultiMap received, MultiMap out) {
        if (method != HttpMethod.OPTIONS) {
            return;
        }
        String value = received.get(NAME);
        BigInteger remaining = value == null ? null : parse(value);
        if (remaining != null && remaining.signum() > 0) {
            out.set(NAME, remaining.subtract(BigInteger.ONE).toString());
        }
    }

    /** The value as a number: {@code 1*DIGIT} (whitespace around it is not part of a field value), else null. */
    private static BigInteger parse(String value) {
        String digits = value.strip();
        if (digits.isEmpty()) {
            return null;
        }
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
        }
        return new BigInteger(digits);
    }
}
