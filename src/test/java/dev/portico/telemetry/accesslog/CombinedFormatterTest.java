package dev.portico.telemetry.accesslog;

import org.junit.jupiter.api.Test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** nginx's combined format, as log tools parse it, plus request id, request time and vhost. */
class CombinedFormatterTest {

    /** What tools such as GoAccess expect of {@code combined}, with Portico's three extra fields. */
    private static final Pattern COMBINED = Pattern.compile("^(\\S+) - - \\[([^]]+)] \"([^\"]*)\" (\\d{3}) (\\d+) "
            + "\"([^\"]*)\" \"([^\"]*)\" \"([^\"]*)\" (\\d+\\.\\d{3}) \"([^\"]*)\"\n$");

    private static Matcher parse(AccessRecord record) {
        String line = Records.format(CombinedFormatter.INSTANCE, record);
        Matcher m = COMBINED.matcher(line);
        assertTrue(m.matches(), line);
        return m;
    }

    @Test
    void writesNginxCombinedWithRequestIdTimeAndVhost() {
        assertEquals("203.0.113.7 - - [01/May/2024:12:34:56 +0000] \"GET /cart?id=1&token=secret HTTP/1.1\" 200 5120 "
                        + "\"https://shop.example.com/list?page=2\" \"Mozilla/5.0 (X11; Linux x86_64)\" "
                        + "\"4bf92f3577b34da6a3ce929d0e0e4736\" 0.012 \"shop\"\n",
                Records.format(CombinedFormatter.INSTANCE, Records.proxied()));
    }

    @Test
    void absentOrEmptyValuesAreDashes() {
        AccessRecord r = Records.proxied();
        r.vhost = null;
        r.referrer = null;
        r.userAgent = "";
        Matcher m = parse(r);
        assertEquals("-", m.group(6));
        assertEquals("-", m.group(7));
        assertEquals("-", m.group(10));
    }

    @Test
    void quotesBackslashesControlsAndNonAsciiAreHexEscapedAsNginxDoes() {
        AccessRecord r = Records.proxied();
        r.userAgent = "a\"b\\c\r\n\u001b" + Records.wire("é") + "\u007f";
        r.target = "/x\" 200 0 \"-";
        Matcher m = parse(r);
        assertEquals("a\\x22b\\x5Cc\\x0D\\x0A\\x1B\\xC3\\xA9\\x7F", m.group(7));
        assertEquals("GET /x\\x22 200 0 \\x22- HTTP/1.1", m.group(3));
    }

    @Test
    void theTargetIsTextAndEscapedAsTheUtf8BytesTheClientSent() {
        AccessRecord r = Records.proxied();
        r.target = "/stra\u00dfe/\u20ac";
        assertEquals("GET /stra\\xC3\\x9Fe/\\xE2\\x82\\xAC HTTP/1.1", parse(r).group(3));
    }

    @Test
    void charsBeyondLatin1AreEscapedAsTheirUtf8Bytes() {
        AccessRecord r = Records.proxied();
        r.vhost = "Ω🦊\ud800";
        assertEquals("\\xCE\\xA9\\xF0\\x9F\\xA6\\x8A\\xEF\\xBF\\xBD", parse(r).group(10));
    }

    @Test
    void longValuesAreCutAndMarked() {
        AccessRecord r = Records.proxied();
        r.userAgent = "u".repeat(2000);
        assertEquals("u".repeat(AccessRecord.MAX_USER_AGENT) + "...", parse(r).group(7));
    }

    @Test
    void redactionReplacesTheQueryOfPathAndReferrer() {
        AccessRecord r = Records.proxied();
        r.redactQuery = true;
        Matcher m = parse(r);
        assertEquals("GET /cart?REDACTED HTTP/1.1", m.group(3));
        assertEquals("https://shop.example.com/list?REDACTED", m.group(6));
    }

    @Test
    void requestTimeIsSecondsWithMilliseconds() {
        AccessRecord r = Records.proxied();
        r.durationNanos = 61_234_999_999L;
        assertEquals("61.234", parse(r).group(9));
    }
}
