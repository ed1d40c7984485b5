package dev.portico.http.coding;

import dev.portico.http.negotiation.AcceptEncoding.Coding;
import dev.portico.testing.Decode;
import dev.portico.testing.Prefix;
import dev.portico.vhost.CompressionSpec;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each codec, fed a body in pieces, produces what its reference decoder turns back into the body. */
public class BodyEncoderTest {

    private static final CompressionPolicy POLICY = new CompressionPolicy(new CompressionSpec(true,
            CompressionSpec.DEFAULT_ENCODINGS, CompressionSpec.DEFAULT_TYPES, 1024, 6, 5, 3));

    public static byte[] text(int size, long seed) {
        Random random = new Random(seed);
        String[] words = {"portico ", "proxy ", "vhost ", "upstream ", "cache ", "{\"id\": ", "42, ", "\"name\": ",
                "<div class=\"row\">", "</div>\n", "compress ", "stream "};
        StringBuilder out = new StringBuilder(size + 32);
        while (out.length() < size) {
            out.append(words[random.nextInt(words.length)]);
        }
        return out.substring(0, size).getBytes(StandardCharsets.UTF_8);
    }

    private static String token(Coding coding) {
        return coding.token();
    }

    @ParameterizedTest
    @EnumSource(Coding.class)
    void piecesOfUnknownTotalRoundTrip(Coding coding) {
        byte[] body = text(300_000, 1);
        BodyEncoder encoder = POLICY.encoder(coding, -1);
        Buffer out = Buffer.buffer();
        int nonEmpty = 0;
        for (int offset = 0; offset < body.length; offset += 8192) {
            Buffer piece = encoder.encode(Buffer.buffer().appendBytes(body, offset,
                    Math.min(8192, body.length - offset)));
            nonEmpty += piece.length() > 0 ? 1 : 0;
            out.appendBuffer(piece);
        }
        out.appendBuffer(encoder.finish());
        assertArrayEquals(body, Decode.body(token(coding), out.getBytes()));
        assertTrue(out.length() < body.length / 3, "compressed to " + out.length());
        // Flushed per piece: a streamed body is never held back waiting for more input.
        assertEquals((body.length + 8191) / 8192, nonEmpty);
    }

    @ParameterizedTest
    @EnumSource(Coding.class)
    void aBodyOfKnownLengthEndsWithItsLastPiece(Coding coding) {
        byte[] body = text(5000, 2);
        BodyEncoder encoder = POLICY.encoder(coding, body.length);
        Buffer first = encoder.encode(Buffer.buffer().appendBytes(body, 0, 3000));
        Buffer last = encoder.encode(Buffer.buffer().appendBytes(body, 3000, 2000));
        assertEquals(0, encoder.finish().length(), "the stream ended with the last piece");
        assertArrayEquals(body, Decode.body(token(coding), first.copy().appendBuffer(last).getBytes()));
    }

    @ParameterizedTest
    @EnumSource(Coding.class)
    void everyFlushedPrefixDecodesToWhatWasGiven(Coding coding) throws Exception {
        byte[] body = text(40_000, 3);
        BodyEncoder encoder = POLICY.encoder(coding, -1);
        Buffer sent = encoder.encode(Buffer.buffer().appendBytes(body, 0, 20_000));
        // Only a prefix of the stream: a streaming decoder must still give back all 20,000 bytes.
        byte[] decoded = Prefix.decode(token(coding), sent.getBytes(), 20_000);
        assertArrayEquals(java.util.Arrays.copyOf(body, 20_000), decoded);
        encoder.release();
        encoder.release();
    }
}
