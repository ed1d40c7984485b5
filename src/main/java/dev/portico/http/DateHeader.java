package dev.portico.http;

import io.netty.handler.codec.DateFormatter;
import io.vertx.core.http.HttpHeaders;

import java.util.Date;

/**
 * The {@code Date} field an origin server must send (RFC 9110 section 6.6.1), formatted once per second and shared
 * by every event loop, like nginx's cached time strings.
 */
public final class DateHeader {

    private record Stamp(long second, CharSequence text) {
    }

    private static volatile Stamp current = new Stamp(-1, "");

    private DateHeader() {
    }

    public static CharSequence now() {
        long millis = System.currentTimeMillis();
        long second = millis / 1000;
        Stamp stamp = current;
        if (stamp.second() != second) {
            // A race only formats the same second twice.
            stamp = new Stamp(second, HttpHeaders.createOptimized(DateFormatter.format(new Date(second * 1000))));
            current = stamp;
        }
        return stamp.text();
    }
}
