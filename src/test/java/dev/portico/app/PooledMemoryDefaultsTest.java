package dev.portico.app;

import org.junit.jupiter.api.Test;

import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PooledMemoryDefaultsTest {

    @Test
    void cachesBuffersAsLargeAsTheLargestReadUnlessTheOperatorChose() {
        Properties unset = new Properties();
        PooledMemoryDefaults.apply(unset);
        assertEquals("65536", unset.getProperty("io.netty.allocator.maxCachedBufferCapacity"));

        Properties chosen = new Properties();
        chosen.setProperty("io.netty.allocator.maxCachedBufferCapacity", "16384");
        PooledMemoryDefaults.apply(chosen);
        assertEquals("16384", chosen.getProperty("io.netty.allocator.maxCachedBufferCapacity"));
    }
}
