package dev.portico.control.api.body;

import dev.portico.control.api.error.ApiProblem;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Counts the bytes of every request body as it is read and stops at the limit with a 413 problem. A body with a
 * {@code Content-Length} over the limit never gets here ({@link DeclaredBodyLimit}); this catches chunked bodies,
 * whose size is known only once read. The token has been checked before any body is read.
 */
@Provider
public class CountedBodyLimit implements ReaderInterceptor {

    private final ApiBodyLimit limit;

    public CountedBodyLimit(ApiBodyLimit limit) {
        this.limit = limit;
    }

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        context.setInputStream(new Capped(context.getInputStream(), limit.bytes()));
        return context.proceed();
    }

    /** Passes at most {@code limit} bytes; reading one more throws {@link ApiProblem#bodyTooLarge}. */
    private static final class Capped extends FilterInputStream {

        private final long limit;
        private long count;

        Capped(InputStream in, long limit) {
            super(in);
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                counted(1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                counted(n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = super.skip(n);
            counted(skipped);
            return skipped;
        }

        @Override
        public boolean markSupported() {
            // A reset would count bytes twice.
            return false;
        }

        private void counted(long n) {
            count += n;
            if (count > limit) {
                // Unchecked, so Jackson passes it through unchanged to the problem mappers.
                throw ApiProblem.bodyTooLarge(limit);
            }
        }
    }
}
