package dev.portico.proxy.upstream;

import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.H2cProfile;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.TestVertx;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.Http2Settings;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A response body whose last piece reaches Portico while the client cannot take it. The relay holds the upstream
 * socket back for the client, then the body ends, and the client's side sends no drain once its response has ended:
 * the upstream connection must still go back to its pool reading, or the next request given to it waits for the
 * upstream read timeout. (This is what stalled the 100 MiB download of {@code StreamingTest} now and then: a slow
 * moment of the client right at the end of the first body left the second request on a deaf socket.)
 *
 * <p>An HTTP/2 client with a 1 KiB stream window makes that moment certain: every piece larger than what is left of
 * the window, the last one included, finds the stream unable to take it. It also shows the stream closing before the
 * write of its end reports; the upstream's response is complete by then, and its connection must be kept, not reset.
 */
@QuarkusTest
@TestProfile(H2cProfile.class)
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class HeldBackUpstreamReuseTest extends DataPlaneTestSupport {

    private static final int BODY = 40_000;

    @Test
    void anUpstreamConnectionHeldBackWhenItsBodyEndedServesTheNextRequest() throws Exception {
        OriginServer origin = origin("held-back");
        vhost("held-back", "held.test", origin);
        HttpClient client = TestVertx.get().createHttpClient(new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_2).setHttp2ClearTextUpgrade(false).setHttp2MaxPoolSize(1)
                .setInitialSettings(new Http2Settings().setInitialWindowSize(1024)));
        try {
            for (int round = 0; round < 3; round++) {
                Buffer body = TestVertx.await(client.request(new RequestOptions().setMethod(HttpMethod.GET)
                                .setHost("held.test").setPort(dataPlane.port()).setURI("/bytes/" + BODY)
                                .setServer(SocketAddress.inetSocketAddress(dataPlane.port(), "127.0.0.1")))
                        .compose(request -> request.send().compose(HttpClientResponse::body)));
                assertEquals(BODY, body.length(), "round " + round);
                for (int i = 0; i < BODY; i++) {
                    assertEquals(OriginServer.pattern(i), body.getByte(i), "round " + round + ", byte " + i);
                }
            }
            // One upstream connection served all three: the pool kept it, reading.
            int first = origin.nextSeen().remotePort();
            assertEquals(first, origin.nextSeen().remotePort(), "the second request's upstream connection");
            assertEquals(first, origin.nextSeen().remotePort(), "the third request's upstream connection");
        } finally {
            TestVertx.await(client.close());
        }
    }
}
