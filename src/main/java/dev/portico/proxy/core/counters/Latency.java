package dev.portico.proxy.core.counters;

import org.HdrHistogram.Histogram;

/** Latency percentiles of an interval, in milliseconds (null fields when nothing was recorded). */
public record Latency(Double p50, Double p90, Double p99, Double max) {

    public static final Latency NONE = new Latency(null, null, null, null);

    public static Latency of(Histogram micros) {
        if (micros.getTotalCount() == 0) {
            return NONE;
        }
        return new Latency(ms(micros.getValueAtPercentile(50)), ms(micros.getValueAtPercentile(90)),
                ms(micros.getValueAtPercentile(99)), ms(micros.getMaxValue()));
    }

    private static double ms(long micros) {
        return Math.round(micros / 10.0) / 100.0;
    }

}
