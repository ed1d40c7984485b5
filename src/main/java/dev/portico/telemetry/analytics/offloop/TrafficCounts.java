package dev.portico.telemetry.analytics.offloop;

import java.util.LinkedHashMap;
import java.util.Map;

/** Request count, body bytes and status mix of a vhost over a bucket, or summed over several. */
public record TrafficCounts(long requests, long bytesIn, long bytesOut, long status1xx, long status2xx,
                            long status3xx, long status4xx, long status5xx) {

    public static final TrafficCounts ZERO = new TrafficCounts(0, 0, 0, 0, 0, 0, 0, 0);

    public TrafficCounts plus(TrafficCounts other) {
        return new TrafficCounts(requests + other.requests, bytesIn + other.bytesIn, bytesOut + other.bytesOut,
                status1xx + other.status1xx, status2xx + other.status2xx, status3xx + other.status3xx,
                status4xx + other.status4xx, status5xx + other.status5xx);
    }

    /** {@code {"1xx": n, ..., "5xx": n}}, as the live statistics show the status mix. */
    public Map<String, Long> statusMix() {
        Map<String, Long> mix = new LinkedHashMap<>();
        mix.put("1xx", status1xx);
        mix.put("2xx", status2xx);
        mix.put("3xx", status3xx);
        mix.put("4xx", status4xx);
        mix.put("5xx", status5xx);
        return mix;
    }
}
