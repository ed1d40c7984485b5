package dev.portico.proxy.upstream;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code grpc-timeout} as gRPC's PROTOCOL-HTTP2 defines it: 1 to 8 digits, then one of six units. */
class GrpcDeadlineTest {

    @Test
    void everyUnitIsRead() {
        assertEquals(2L * 3_600_000_000_000L, GrpcDeadline.timeoutNanos("2H"));
        assertEquals(3L * 60_000_000_000L, GrpcDeadline.timeoutNanos("3M"));
        assertEquals(1_000_000_000L, GrpcDeadline.timeoutNanos("1S"));
        assertEquals(499_000_000L, GrpcDeadline.timeoutNanos("499m"));
        assertEquals(250_000L, GrpcDeadline.timeoutNanos("250u"));
        assertEquals(99_999_999L, GrpcDeadline.timeoutNanos("99999999n"));
    }

    @Test
    void malformedValuesAreNoDeadline() {
        for (String value : new String[] {null, "", "m", "100", "10s", "-5m", "1.5S", "123456789m", " 5S", "5S "}) {
            assertEquals(-1, GrpcDeadline.timeoutNanos(value), String.valueOf(value));
        }
    }

    @Test
    void aDeadlineTooFarForNanosecondsIsTheLongest() {
        assertEquals(Long.MAX_VALUE, GrpcDeadline.timeoutNanos("99999999H"));
    }
}
