package dev.portico.control.api.error;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a resource class every method of which reads or writes PostgreSQL: while the database is known to be
 * unreachable, {@link DatabaseGate} answers 503 {@code database-unavailable} at once instead of letting the
 * request wait for the pool to give up. Resources that answer from memory (status, stats, upstreams, cache
 * purges) do not carry it, so they keep working through an outage.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface NeedsDatabase {
}
