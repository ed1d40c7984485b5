package dev.portico.proxy.upstream.pool;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

class KeepAliveFieldTest {

    @Test
    void theTimeoutParameterIsReadInSeconds() {
        assertEquals(TimeUnit.SECONDS.toNanos(5), KeepAliveField.timeoutNanos("timeout=5, max=100"));
        assertEquals(TimeUnit.SECONDS.toNanos(15), KeepAliveField.timeoutNanos("max=100, Timeout=15"));
    }

    @Test
    void anAbsentOrMalformedTimeoutIsNone() {
        assertEquals(0, KeepAliveField.timeoutNanos(null));
        assertEquals(0, KeepAliveField.timeoutNanos("max=100"));
        assertEquals(0, KeepAliveField.timeoutNanos("timeout="));
        assertEquals(0, KeepAliveField.timeoutNanos("timeout=5s"));
        assertEquals(0, KeepAliveField.timeoutNanos("timeout=-5"));
        assertEquals(0, KeepAliveField.timeoutNanos("timeout=99999999999999999999"));
    }

    @Test
    void aVeryLongTimeoutIsCappedAtADay() {
        assertEquals(TimeUnit.HOURS.toNanos(24), KeepAliveField.timeoutNanos("timeout=999999"));
    }
}
