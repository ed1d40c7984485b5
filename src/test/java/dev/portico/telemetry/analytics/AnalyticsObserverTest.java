package dev.portico.telemetry.analytics;

import dev.portico.http.TrustedProxies;
import dev.portico.telemetry.Drops;
import dev.portico.telemetry.analytics.offloop.Sample;
import dev.portico.telemetry.analytics.offloop.TopCounter;
import dev.portico.telemetry.analytics.offloop.TopItem;
import dev.portico.telemetry.analytics.offloop.TrafficMinute;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The observer's threads: minutes are written as they close, and the partial minute at shutdown. */
class AnalyticsObserverTest {

    private static final UUID VHOST = UUID.randomUUID();

    @Test
    void writesThePartialMinuteAtStop() {
        List<TrafficMinute> stored = new CopyOnWriteArrayList<>();
        AnalyticsObserver observer = new AnalyticsObserver(settings(true), TrustedProxies.NONE, stored::addAll,
                new Drops());
        observer.start(2);
        long now = System.currentTimeMillis();
        for (int i = 0; i < 7; i++) {
            observer.offer(i % 2, new Sample(VHOST, now, 200, 1, 2, "/p?i=" + i, "127.0.0.1", null, "curl/8.0",
                    null));
        }
        observer.stop();

        assertEquals(7, stored.stream().mapToLong(m -> m.counts().requests()).sum());
        assertEquals(14, stored.stream().mapToLong(m -> m.counts().bytesOut()).sum());
        TopCounter paths = new TopCounter();
        stored.forEach(minute -> paths.add(minute.paths()));
        assertEquals(List.of(new TopItem("/p", 7)), paths.top(5));
    }

    @Test
    void disabledAnalyticsTakeNoSamples() {
        List<TrafficMinute> stored = new CopyOnWriteArrayList<>();
        AnalyticsObserver observer = new AnalyticsObserver(settings(false), TrustedProxies.NONE, stored::addAll,
                new Drops());
        observer.start(1);
        observer.offer(0, new Sample(VHOST, System.currentTimeMillis(), 200, 0, 0, "/", "::1", null, null, null));
        observer.stop();
        assertEquals(List.of(), stored);
    }

    /** The defaults, with an hour-long bucket so nothing closes before stop. */
    private static AnalyticsSettings settings(boolean enabled) {
        return new AnalyticsSettings() {
            public boolean enabled() {
                return enabled;
            }

            public Duration retention() {
                return Duration.ofDays(7);
            }

            public Duration purgeInterval() {
                return Duration.ofMinutes(10);
            }

            public Duration bucket() {
                return Duration.ofHours(1);
            }

            public int queueSize() {
                return 16;
            }

            public Duration drainInterval() {
                return Duration.ofMillis(50);
            }

            public int sketchSize() {
                return 64;
            }

            public int top() {
                return 20;
            }

            public int maxPendingBuckets() {
                return 10;
            }
        };
    }
}
