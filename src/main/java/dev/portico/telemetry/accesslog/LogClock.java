package dev.portico.telemetry.accesslog;

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Renders timestamps for one event loop. The date and time down to the second are rendered once per second and
 * copied into every line of that second; only the milliseconds are formatted per line. Always UTC. Confined to its
 * loop.
 */
final class LogClock {

    private static final byte[][] MONTHS = new byte[12][];

    static {
        String[] names = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
        for (int i = 0; i < 12; i++) {
            MONTHS[i] = names[i].getBytes(StandardCharsets.US_ASCII);
        }
    }

    private long second = Long.MIN_VALUE;
    /** {@code 2024-05-01T12:34:56} */
    private final LineBuffer iso = new LineBuffer(19);
    /** {@code 01/May/2024:12:34:56 +0000} */
    private final LineBuffer common = new LineBuffer(26);

    /** RFC 3339 with milliseconds: {@code 2024-05-01T12:34:56.789Z}. */
    void rfc3339(LineBuffer out, long epochMillis) {
        refresh(epochMillis);
        out.raw(iso.bytes(), iso.length()).ascii('.').padded(Math.floorMod(epochMillis, 1000L), 3).ascii('Z');
    }

    /** Common Log Format, as nginx's {@code $time_local} in UTC: {@code 01/May/2024:12:34:56 +0000}. */
    void common(LineBuffer out, long epochMillis) {
        refresh(epochMillis);
        out.raw(common.bytes(), common.length());
    }

    private void refresh(long epochMillis) {
        long s = Math.floorDiv(epochMillis, 1000L);
        if (s == second) {
            return;
        }
        second = s;
        LocalDateTime t = LocalDateTime.ofEpochSecond(s, 0, ZoneOffset.UTC);
        iso.reset();
        iso.padded(t.getYear(), 4).ascii('-').padded(t.getMonthValue(), 2).ascii('-').padded(t.getDayOfMonth(), 2)
                .ascii('T').padded(t.getHour(), 2).ascii(':').padded(t.getMinute(), 2).ascii(':')
                .padded(t.getSecond(), 2);
        common.reset();
        common.padded(t.getDayOfMonth(), 2).ascii('/').raw(MONTHS[t.getMonthValue() - 1], 3).ascii('/')
                .padded(t.getYear(), 4).ascii(':').padded(t.getHour(), 2).ascii(':').padded(t.getMinute(), 2)
                .ascii(':').padded(t.getSecond(), 2).ascii(" +0000");
    }
}
