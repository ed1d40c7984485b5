/**
 * The HTTP caching rules of a shared cache (RFC 9111, with RFC 9110 conditionals and ranges, RFC 5861 stale
 * extensions and RFC 9211 {@code Cache-Status}), as pure functions of headers, statuses and times.
 *
 * <p>Nothing here reads the clock, stores state or performs I/O: every time is an epoch-millisecond value the
 * caller passes in, so the data-plane cache stage can call these on the event loop and tests can pin every
 * instant. All types are immutable and safe to share between threads. The rules parse each header once, without
 * regular expressions or streams, because they run for every cacheable request.
 */
package dev.portico.cache.rules;
