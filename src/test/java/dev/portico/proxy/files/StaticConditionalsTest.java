package dev.portico.proxy.files;

import dev.portico.proxy.server.DataPlaneServer;
import dev.portico.testing.Api;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.ProxyClient.Reply;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RFC 9110 conditionals and ranges on files: every precondition and their precedence (412, 304), single, suffix,
 * open and multiple ranges (multipart/byteranges), 416, If-Range; on a file held in memory and on a large file sent
 * with sendfile and streamed.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class StaticConditionalsTest {

    private static final String HOST = "conditional.test";
    private static final String STREAMED = "streamed.test";
    private static final String ETAG = Site.etag(12);
    private static final String EARLIER = "Wed, 01 May 2024 11:59:59 GMT";
    private static final String LATER = "Wed, 01 May 2024 12:00:01 GMT";
    private static Site site;
    private static byte[] big;

    @Inject
    DataPlaneServer dataPlane;

    ProxyClient client;

    @BeforeAll
    static void createSite() throws Exception {
        site = Site.create();
        big = java.nio.file.Files.readAllBytes(site.root.resolve("big.bin"));
    }

    @AfterAll
    static void removeSite() {
        site.close();
    }

    @BeforeEach
    void createVhosts() {
        Api.create(site.vhost("conditional", HOST));
        Api.create(site.vhost("streamed", STREAMED).put("static", new JsonObject()
                .put("root", site.root.toString()).put("sendfile", false)));
        client = new ProxyClient(dataPlane.port());
    }

    @AfterEach
    void cleanUp() {
        Api.deleteAll();
        client.close();
    }

    private Reply get(String host, String path, String... headerPairs) {
        return send(HttpMethod.GET, host, path, headerPairs);
    }

    private Reply send(HttpMethod method, String host, String path, String... headerPairs) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < headerPairs.length; i += 2) {
            headers.put(headerPairs[i], headerPairs[i + 1].replace("ETAG", ETAG).replace("WEAK", "W/" + ETAG));
        }
        return client.send(method, host, path, headers, null);
    }

    /** Each row: request headers (name=value pairs, ETAG and WEAK standing for the file's tag), expected status. */
    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "                                                        | 200",
            "If-None-Match=ETAG                                      | 304",
            "If-None-Match=WEAK                                      | 304",
            "If-None-Match=\"other\"                                 | 200",
            "If-None-Match=*                                         | 304",
            "If-None-Match=\"a\", ETAG                               | 304",
            "If-Modified-Since=Wed, 01 May 2024 12:00:00 GMT         | 304",
            "If-Modified-Since=Wed, 01 May 2024 12:00:01 GMT         | 304",
            "If-Modified-Since=Wed, 01 May 2024 11:59:59 GMT         | 200",
            "If-Modified-Since=yesterday                             | 200",
            "If-Modified-Since=Wed, 01 May 2024 12:00:01 UTC         | 200",
            "If-Modified-Since=Wed, 01 May 24 12:00:01 GMT           | 200",
            "If-Modified-Since=Wed 01 May 2024 12:00:01 GMT          | 200",
            "If-Modified-Since=Wed, 01-May-2024 12:00:01 GMT         | 200",
            "If-Modified-Since=Wed, 01 May 2024  12:00:01 GMT        | 200",
            "If-Modified-Since=Wed, 01 May 2024 12:00:01 Europe/Paris | 200",
            "If-Modified-Since=Wednesday, 01-May-24 12:00:01 GMT     | 304",
            "If-Modified-Since=Wed May  1 12:00:01 2024              | 304",
            "If-None-Match=\"other\";If-Modified-Since=Wed, 01 May 2024 12:00:01 GMT | 200",
            "If-None-Match=ETAG;If-Modified-Since=Wed, 01 May 2024 11:59:59 GMT      | 304",
            "If-Match=ETAG                                           | 200",
            "If-Match=*                                              | 200",
            "If-Match=\"other\"                                      | 412",
            "If-Match=WEAK                                           | 412",
            "If-Match=\"other\", ETAG                                | 200",
            "If-Unmodified-Since=Wed, 01 May 2024 12:00:00 GMT       | 200",
            "If-Unmodified-Since=Wed, 01 May 2024 12:00:01 GMT       | 200",
            "If-Unmodified-Since=Wed, 01 May 2024 11:59:59 GMT       | 412",
            "If-Unmodified-Since=not a date                          | 200",
            "If-Unmodified-Since=Wed, 01 May 2024 11:59:59 UTC       | 200",
            "If-Match=ETAG;If-Unmodified-Since=Wed, 01 May 2024 11:59:59 GMT | 200",
            "If-Match=\"other\";If-Unmodified-Since=Wed, 01 May 2024 12:00:01 GMT | 412",
            "If-Match=\"other\";If-None-Match=ETAG                   | 412",
            "If-Unmodified-Since=Wed, 01 May 2024 11:59:59 GMT;If-None-Match=ETAG | 412",
            "If-Match=ETAG;If-None-Match=ETAG                        | 304",
    })
    void conditionalsFollowRfc9110Precedence(String headers, int status) {
        List<String> pairs = new ArrayList<>();
        if (headers != null) {
            for (String header : headers.split(";")) {
                int eq = header.indexOf('=');
                pairs.add(header.substring(0, eq));
                pairs.add(header.substring(eq + 1));
            }
        }
        for (String host : List.of(HOST, STREAMED)) {
            Reply reply = get(host, "/hello.txt", pairs.toArray(new String[0]));
            assertEquals(status, reply.status(), host);
            switch (status) {
                case 200 -> assertEquals("hello world\n", reply.text());
                case 304 -> {
                    assertEquals(0, reply.body().length());
                    assertEquals(ETAG, reply.header("ETag"));
                    assertEquals(Site.LAST_MODIFIED, reply.header("Last-Modified"));
                    assertNull(reply.header("Content-Type"));
                }
                default -> {
                    assertEquals("precondition_failed", reply.json().getString("reason"));
                    assertEquals(ETAG, reply.header("ETag"));
                }
            }
        }
    }

    @Test
    void headIsConditionalToo() {
        assertEquals(304, send(HttpMethod.HEAD, HOST, "/hello.txt", "If-None-Match", "ETAG").status());
        assertEquals(412, send(HttpMethod.HEAD, HOST, "/hello.txt", "If-Match", "\"x\"").status());
    }

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "bytes=0-4        | hello        | bytes 0-4/12",
            "bytes=6-         | 'world\n'    | bytes 6-11/12",
            "bytes=-6         | 'world\n'    | bytes 6-11/12",
            "bytes=-100       | 'hello world\n' | bytes 0-11/12",
            "bytes=4-4        | o            | bytes 4-4/12",
            "bytes=6-1000     | 'world\n'    | bytes 6-11/12",
            "bytes=0-2,1-4    | hello        | bytes 0-4/12",
            "bytes=20-30,0-0  | h            | bytes 0-0/12",
    })
    void aSingleRangeIs206(String range, String body, String contentRange) {
        for (String host : List.of(HOST, STREAMED)) {
            Reply reply = get(host, "/hello.txt", "Range", range);
            assertEquals(206, reply.status(), host);
            assertEquals(body, reply.text());
            assertEquals(contentRange, reply.header("Content-Range"));
            assertEquals(Integer.toString(body.length()), reply.header("Content-Length"));
            assertEquals("text/plain; charset=utf-8", reply.header("Content-Type"));
            assertEquals(ETAG, reply.header("ETag"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {HOST, STREAMED})
    void rangesOfALargeFile(String host) {
        Reply single = get(host, "/big.bin", "Range", "bytes=100000-100099");
        assertEquals(206, single.status());
        assertEquals("bytes 100000-100099/" + Site.BIG, single.header("Content-Range"));
        assertArrayEquals(java.util.Arrays.copyOfRange(big, 100000, 100100), single.body().getBytes());

        Reply suffix = get(host, "/big.bin", "Range", "bytes=-70000");
        assertEquals(70000, suffix.body().length());
        assertArrayEquals(java.util.Arrays.copyOfRange(big, Site.BIG - 70000, Site.BIG), suffix.body().getBytes());

        Reply multi = get(host, "/big.bin", "Range", "bytes=0-9, 150000-229999");
        assertEquals(206, multi.status());
        List<Part> parts = parts(multi);
        assertEquals(2, parts.size());
        assertEquals("bytes 0-9/" + Site.BIG, parts.get(0).contentRange());
        assertArrayEquals(java.util.Arrays.copyOfRange(big, 0, 10), parts.get(0).body());
        assertEquals("bytes 150000-" + (Site.BIG - 1) + "/" + Site.BIG, parts.get(1).contentRange());
        assertArrayEquals(java.util.Arrays.copyOfRange(big, 150000, Site.BIG), parts.get(1).body());
    }

    @ParameterizedTest
    @ValueSource(strings = {HOST, STREAMED})
    void adjacentRangesAreSentAsOne(String host) {
        Reply reply = get(host, "/hello.txt", "Range", "bytes=6-10,-1,0-5");

        assertEquals(206, reply.status());
        assertEquals("bytes 0-11/12", reply.header("Content-Range"));
        assertEquals("hello world\n", reply.text());
    }

    @ParameterizedTest
    @ValueSource(strings = {HOST, STREAMED})
    void severalRangesAreMultipartByteranges(String host) {
        Reply reply = get(host, "/hello.txt", "Range", "bytes=6-9, 0-0,-1");

        assertEquals(206, reply.status());
        assertTrue(reply.header("Content-Type").startsWith("multipart/byteranges; boundary="));
        assertNull(reply.header("Content-Range"));
        assertEquals(Integer.toString(reply.body().length()), reply.header("Content-Length"));
        List<Part> parts = parts(reply);
        assertEquals(3, parts.size());
        assertEquals(new Part("text/plain; charset=utf-8", "bytes 6-9/12", "worl".getBytes()), parts.get(0));
        assertEquals(new Part("text/plain; charset=utf-8", "bytes 0-0/12", "h".getBytes()), parts.get(1));
        assertEquals(new Part("text/plain; charset=utf-8", "bytes 11-11/12", "\n".getBytes()), parts.get(2));
    }

    @ParameterizedTest
    @CsvSource({"/hello.txt, bytes=12-, 12", "/hello.txt, 'bytes=20-30,40-', 12", "/hello.txt, bytes=-0, 12",
            "/empty.txt, bytes=0-, 0", "/big.bin, bytes=300000-, 204800"})
    void anUnsatisfiableRangeIs416(String path, String range, long size) {
        Reply reply = get(HOST, path, "Range", range);

        assertEquals(416, reply.status());
        assertEquals("bytes */" + size, reply.header("Content-Range"));
        assertEquals("range_not_satisfiable", reply.json().getString("reason"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"bytes=5-2", "bytes=abc", "items=0-1", "bytes=0-1;x"})
    void aMalformedRangeIsIgnored(String range) {
        Reply reply = get(HOST, "/hello.txt", "Range", range);

        assertEquals(200, reply.status());
        assertEquals("hello world\n", reply.text());
    }

    @ParameterizedTest(name = "[{index}] If-Range {0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "ETAG                            | 206",
            "WEAK                            | 200",
            "\"other\"                       | 200",
            "Wed, 01 May 2024 12:00:00 GMT   | 206",
            "Wed, 01 May 2024 12:00:01 GMT   | 200",
            "garbage                         | 200",
    })
    void ifRangeSendsTheRangeOnlyForTheSameFile(String ifRange, int status) {
        Reply reply = get(HOST, "/hello.txt", "Range", "bytes=0-4", "If-Range", ifRange);

        assertEquals(status, reply.status());
        assertEquals(status == 206 ? "hello" : "hello world\n", reply.text());
    }

    @Test
    void headAndConditionalsComeBeforeRanges() {
        Reply head = send(HttpMethod.HEAD, HOST, "/hello.txt", "Range", "bytes=0-4");
        assertEquals(200, head.status());
        assertEquals("12", head.header("Content-Length"));

        assertEquals(304, get(HOST, "/hello.txt", "Range", "bytes=0-4", "If-None-Match", "ETAG").status());
        assertEquals(412, get(HOST, "/hello.txt", "Range", "bytes=50-", "If-Match", "\"x\"").status());
    }

    /** One part of a multipart/byteranges body. */
    record Part(String contentType, String contentRange, byte[] body) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Part p && p.contentType.equals(contentType) && p.contentRange.equals(contentRange)
                    && java.util.Arrays.equals(p.body, body);
        }

        @Override
        public int hashCode() {
            return contentRange.hashCode();
        }
    }

    /** Parses the body strictly: delimiter lines, part headers, CRLF framing and the close delimiter. */
    static List<Part> parts(Reply reply) {
        String type = reply.header("Content-Type");
        String boundary = type.substring(type.indexOf("boundary=") + "boundary=".length());
        String body = reply.body().toString(StandardCharsets.ISO_8859_1);
        String delimiter = "--" + boundary;
        assertTrue(body.startsWith(delimiter + "\r\n"), body);
        assertTrue(body.endsWith("\r\n" + delimiter + "--\r\n"), body);
        List<Part> parts = new ArrayList<>();
        int at = delimiter.length() + 2;
        String close = "\r\n" + delimiter + "--\r\n";
        while (at < body.length() - close.length()) {
            int headersEnd = body.indexOf("\r\n\r\n", at);
            Map<String, String> headers = new LinkedHashMap<>();
            for (String line : body.substring(at, headersEnd).split("\r\n")) {
                int colon = line.indexOf(':');
                headers.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
            }
            String range = headers.get("Content-Range");
            String[] span = range.substring("bytes ".length(), range.indexOf('/')).split("-");
            int length = (int) (Long.parseLong(span[1]) - Long.parseLong(span[0]) + 1);
            int dataStart = headersEnd + 4;
            byte[] data = body.substring(dataStart, dataStart + length).getBytes(StandardCharsets.ISO_8859_1);
            parts.add(new Part(headers.get("Content-Type"), range, data));
            at = dataStart + length;
            String next = "\r\n" + delimiter + "\r\n";
            if (body.startsWith(next, at)) {
                at += next.length();
            } else {
                assertEquals(close, body.substring(at), "after the last part");
                break;
            }
        }
        return parts;
    }
}
