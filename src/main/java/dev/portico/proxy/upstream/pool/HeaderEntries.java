package dev.portico.proxy.upstream.pool;

import io.netty.handler.codec.http.HttpHeaders;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.vertx.core.MultiMap;
import io.vertx.core.http.impl.headers.HeadersAdaptor;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.Iterator;
import java.util.Map;

/**
 * Iterates a Vert.x {@link MultiMap} as the {@code CharSequence}s the HTTP decoder produced. Vert.x's own iteration
 * turns every name and value into a new {@code String}; copying headers from one message to another needs no
 * {@code String} at all, and a proxy copies every header of every request and response. Hand the result to
 * {@link dev.portico.http.HopByHopHeaders#copyEndToEnd(Iterator, MultiMap, String, String)}.
 *
 * <p>Lives with the upstream transport because the HTTP client's headers are a Vert.x internal
 * ({@link HeadersAdaptor}) wrapping Netty's, with no public way to reach them.
 */
@RegisterForReflection(targets = HeadersAdaptor.class, fields = true)
public final class HeaderEntries {

    // Responses from the HTTP client wrap Netty's headers in a HeadersAdaptor that does not expose them.
    private static final MethodHandle ADAPTED = adaptedHeaders();

    private HeaderEntries() {
    }

    /** The entries without conversion when the map is of a kind this knows, else Vert.x's own (String) iteration. */
    public static Iterator<? extends Map.Entry<? extends CharSequence, ? extends CharSequence>> of(MultiMap headers) {
        if (headers instanceof HttpHeaders netty) {
            return netty.iteratorCharSequence();
        }
        if (ADAPTED != null && headers instanceof HeadersAdaptor) {
            try {
                return ((HttpHeaders) ADAPTED.invoke((HeadersAdaptor) headers)).iteratorCharSequence();
            } catch (Throwable e) {
                return headers.iterator();
            }
        }
        return headers.iterator();
    }

    private static MethodHandle adaptedHeaders() {
        try {
            var field = HeadersAdaptor.class.getDeclaredField("headers");
            field.setAccessible(true);
            return MethodHandles.lookup().unreflectGetter(field);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
