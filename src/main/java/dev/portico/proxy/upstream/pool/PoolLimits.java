package dev.portico.proxy.upstream.pool;

/**
 * How a vhost's requests use an upstream's pool on one event loop.
 *
 * @param connectTimeoutMillis the TCP connect timeout of the pool's new connections
 * @param maxPending           requests that may wait for a connection while the pool is at its size (Vert.x's wait
 *                             queue, so part of the pool's identity, like the connect timeout)
 * @param queueTimeoutMillis   the longest one of those waits; per request, so vhosts sharing a pool may differ
 */
public record PoolLimits(int connectTimeoutMillis, int maxPending, long queueTimeoutMillis) {

    public PoolLimits {
        if (connectTimeoutMillis < 1 || maxPending < 1 || queueTimeoutMillis < 1) {
            throw new IllegalArgumentException("pool limits must be positive");
        }
    }
}
