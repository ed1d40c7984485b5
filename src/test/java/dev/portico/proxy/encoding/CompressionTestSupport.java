package dev.portico.proxy.encoding;

import dev.portico.testing.Api;
import dev.portico.testing.Decode;
import dev.portico.testing.OriginAndClientFixture;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.TextOrigin;
import io.vertx.core.json.JsonObject;

/**
 * Shared set-up of the compression tests: a text origin on loopback, a real client and a clean configuration (from
 * {@link OriginAndClientFixture}), a vhost helper and the decoding of a reply.
 */
abstract class CompressionTestSupport extends OriginAndClientFixture<TextOrigin> {

    CompressionTestSupport() {
        super(TextOrigin::start);
    }

    /** A compression block with {@code enabled: true} and the given settings. */
    static JsonObject compression(Object... settings) {
        return Api.enabled(settings);
    }

    /** A vhost named after {@code host} in front of the origin. */
    JsonObject vhost(String host, JsonObject compression) {
        return Api.vhost(host.replace('.', '-'), host, origin.url()).put("compression", compression);
    }

    /** The body decoded per its Content-Encoding. */
    static byte[] decoded(ProxyClient.Reply reply) {
        return Decode.body(reply.header("Content-Encoding"), reply.body().getBytes());
    }
}
