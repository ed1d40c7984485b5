package dev.portico.telemetry.accesslog;

import java.nio.charset.StandardCharsets;

/** Access records and formatted lines for the formatter and writer tests. */
final class Records {

    /** 2024-05-01T12:34:56.789Z */
    static final long TIME = 1_714_566_896_789L;

    private Records() {
    }

    /** A proxied GET as a browser sends it. */
    static AccessRecord proxied() {
        AccessRecord r = new AccessRecord();
        r.timeMillis = TIME;
        r.requestId = "4bf92f3577b34da6a3ce929d0e0e4736";
        r.vhost = "shop";
        r.client = "203.0.113.7";
        r.method = "GET";
        r.target = "/cart?id=1&token=secret";
        r.protocol = "HTTP/1.1";
        r.status = 200;
        r.bytesIn = 12;
        r.bytesOut = 5120;
        r.durationNanos = 12_345_678;
        r.upstreamNanos = 11_002_999;
        r.upstream = "http://10.0.0.5:8080";
        r.userAgent = "Mozilla/5.0 (X11; Linux x86_64)";
        r.referrer = "https://shop.example.com/list?page=2";
        r.scheme = "https";
        r.tls = "TLSv1.3/TLS_AES_128_GCM_SHA256";
        r.sni = "shop.example.com";
        r.attempts = 1;
        r.route = "api";
        return r;
    }

    /** A value as Vert.x hands it over: the UTF-8 bytes of {@code text}, one char per byte. */
    static String wire(String text) {
        return new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    static String format(LineFormatter formatter, AccessRecord record) {
        LineBuffer out = new LineBuffer(16);
        formatter.format(record, new LogClock(), out);
        byte[] bytes = java.util.Arrays.copyOf(out.bytes(), out.length());
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** The line's bytes, for checks of the encoding itself. */
    static byte[] formatBytes(LineFormatter formatter, AccessRecord record) {
        LineBuffer out = new LineBuffer(16);
        formatter.format(record, new LogClock(), out);
        return java.util.Arrays.copyOf(out.bytes(), out.length());
    }
}
