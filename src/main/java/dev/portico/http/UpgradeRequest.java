package dev.portico.http;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;

import java.util.Locale;

/**
 * A request asking to switch its connection to another protocol (RFC 9110 section 7.8), as a proxy may forward it.
 * {@code Upgrade} is hop-by-hop: it counts only when the request's {@code Connection} lists {@code upgrade}, only in
 * HTTP/1.1 (HTTP/2 has no Upgrade; RFC 8441's extended CONNECT is another mechanism), and a proxy forwards it only by
 * writing both fields again itself. Forwarded only for {@code GET} without a body: every protocol switched to in
 * practice (WebSocket, RFC 6455 section 4.1) asks that way, and the switch must happen on a connection with no
 * request bytes still in flight. {@code h2c} is never forwarded: it would upgrade the hop between Portico and the
 * upstream, not the client's connection (RFC 9113 dropped it too).
 *
 * @param protocols the {@code Upgrade} value as the client sent it (one or more protocol tokens), sent upstream
 * @param webSocket whether the protocols offered include {@code websocket}
 */
public record UpgradeRequest(String protocols, boolean webSocket) {

    private static final String UPGRADE_TOKEN = "upgrade";

    /** The upgrade a request asks for and a proxy may forward, or null for a plain request. */
    public static UpgradeRequest of(HttpMethod method, HttpVersion version, MultiMap headers) {
        if (method != HttpMethod.GET || version != HttpVersion.HTTP_1_1) {
            return null;
        }
        String upgrade = headers.get(HttpHeaders.UPGRADE);
        if (upgrade == null || !connectionNominatesUpgrade(headers)
                || headers.contains(HttpHeaders.CONTENT_LENGTH) && !"0".equals(headers.get(HttpHeaders.CONTENT_LENGTH))
                || headers.contains(HttpHeaders.TRANSFER_ENCODING)) {
            return null;
        }
        String protocols = String.join(", ", headers.getAll(HttpHeaders.UPGRADE)).trim();
        boolean webSocket = false;
        boolean other = false;
        for (String token : protocols.split(",")) {
            String name = protocolName(token);
            if (name.isEmpty() || name.equals("h2c")) {
                continue;
            }
            webSocket |= name.equals("websocket");
            other = true;
        }
        return other ? new UpgradeRequest(protocols, webSocket) : null;
    }

    /** Whether one of the message's {@code Connection} fields lists {@code upgrade} (RFC 9110 section 7.6.1). */
    public static boolean connectionNominatesUpgrade(MultiMap headers) {
        for (String connection : headers.getAll(HttpHeaders.CONNECTION)) {
            for (String option : connection.split(",")) {
                if (option.trim().equalsIgnoreCase(UPGRADE_TOKEN)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A protocol token without its version ({@code websocket}, {@code foo/2}: {@code foo}), lower case. */
    private static String protocolName(String token) {
        String t = token.trim();
        int slash = t.indexOf('/');
        return (slash < 0 ? t : t.substring(0, slash)).toLowerCase(Locale.ROOT);
    }
}
