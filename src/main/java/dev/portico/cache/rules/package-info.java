/**
 * The HTTP caching rules of a shared cache (RFC 9111, with RFC 9110 conditionals and ranges, RFC 5861 stale
 * extensions, RFC 9211 {@code Cache-Status} and RFC 9213 targeted cache control), as pure functions of headers,
 * statuses and times.
 *
 * <p>Nothing here stores state or performs I/O, and only {@link dev.portico.http.syntax.HttpDate} reads the clock,
 * for an obsolete RFC 850 date whose two-digit year RFC 9110 places relative to the present (tests pin it through
 * a package-private overload). Every other time is an epoch-millisecond value the caller passes in, so the
 * data-plane cache stage can call these on the event loop and tests can pin every instant. All types are
 * immutable and safe to share between threads. The rules parse each header once, without regular expressions or
 * streams, because they run for every cacheable request.
 */
package dev.portico.cache.rules;
