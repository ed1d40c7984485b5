package dev.portico.proxy.upstream.balance;

/**
 * Upstreams as a selector sees them in unit tests: all available, with upstream {@code ramping} (if any) at
 * {@code share} of its weight.
 */
record TestUpstreams(int size, int ramping, double share) implements UpstreamAvailability {

    static TestUpstreams all(int size) {
        return new TestUpstreams(size, -1, 1.0);
    }

    @Override
    public boolean available(int index, long nowNanos) {
        return true;
    }

    @Override
    public double weightShare(int index, long nowNanos) {
        return index == ramping ? share : 1.0;
    }
}
