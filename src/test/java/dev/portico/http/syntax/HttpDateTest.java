package dev.portico.http.syntax;

import dev.portico.testing.Headers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;

class HttpDateTest {

    /** Sun, 06 Nov 1994 08:49:37 GMT. */
    private static final long T = 784111777000L;
    /** When the RFC 850 dates below are read, unless a test says otherwise. */
    private static final long NOW = Instant.parse("2026-06-01T00:00:00Z").toEpochMilli();

    private static long parse(String value) {
        return HttpDate.parse(value, NOW);
    }

    private static long at(String isoInstant) {
        return Instant.parse(isoInstant).toEpochMilli();
    }

    @Test
    void theThreeFormsOfRfc9110AreTheSameInstant() {
        assertEquals(T, parse("Sun, 06 Nov 1994 08:49:37 GMT"));
        assertEquals(T, parse("Sunday, 06-Nov-94 08:49:37 GMT"));
        assertEquals(T, parse("Sun Nov  6 08:49:37 1994"));
        // The grammar's date3 also allows a two-digit day.
        assertEquals(T, parse("Sun Nov 06 08:49:37 1994"));
        assertEquals(T, HttpDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"));
    }

    @Test
    void surroundingWhitespaceIsNotPartOfTheValue() {
        assertEquals(T, parse("  Sun, 06 Nov 1994 08:49:37 GMT\t"));
        assertEquals(T, parse(" Sun Nov  6 08:49:37 1994 "));
    }

    @Test
    void everyDayAndMonthNameIsRecognised() {
        String[] months = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
        for (int m = 0; m < 12; m++) {
            assertEquals(at(String.format("2024-%02d-01T00:00:00Z", m + 1)),
                    parse("Mon, 01 " + months[m] + " 2024 00:00:00 GMT"), months[m]);
        }
        for (String day : new String[] {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}) {
            assertEquals(at("2024-05-01T12:00:00Z"), parse(day + ", 01 May 2024 12:00:00 GMT"), day);
        }
        for (String day : new String[] {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
                "Sunday"}) {
            assertEquals(at("2024-05-01T12:00:00Z"), parse(day + ", 01-May-24 12:00:00 GMT"), day);
        }
    }

    @Test
    void aWrongDayNameIsAcceptedAsLongAsItIsADayName() {
        // 6 November 1994 was a Sunday; the weekday is redundant and not checked against the date.
        assertEquals(T, parse("Wed, 06 Nov 1994 08:49:37 GMT"));
        assertEquals(HttpDate.INVALID, parse("Xyz, 06 Nov 1994 08:49:37 GMT"));
    }

    @Test
    void boundariesOfTheCalendarAndTheClock() {
        assertEquals(at("2024-02-29T23:59:59Z"), parse("Thu, 29 Feb 2024 23:59:59 GMT"));
        assertEquals(at("2000-02-29T00:00:00Z"), parse("Tue, 29 Feb 2000 00:00:00 GMT"));
        assertEquals(at("1970-01-01T00:00:00Z"), parse("Thu, 01 Jan 1970 00:00:00 GMT"));
        assertEquals(at("1969-12-31T23:59:59Z"), parse("Wed, 31 Dec 1969 23:59:59 GMT"));
        // A leap second is allowed by the grammar and counts as the next minute's first second.
        assertEquals(at("2017-01-01T00:00:00Z"), parse("Sat, 31 Dec 2016 23:59:60 GMT"));
        assertEquals(at("9999-12-31T23:59:59Z"), parse("Fri, 31 Dec 9999 23:59:59 GMT"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            // UTC or another zone instead of GMT.
            "Sun, 06 Nov 1994 08:49:37 UTC",
            "Sun, 06 Nov 1994 08:49:37 CET",
            "Sun, 06 Nov 1994 08:49:37 +0000",
            "Sun, 06 Nov 1994 08:49:37 Z",
            "Sun, 06 Nov 1994 08:49:37 gmt",
            "Sun, 06 Nov 1994 08:49:37",
            "Sun, 06 Nov 1994 08:49:37 GMT+1",
            "Sunday, 06-Nov-94 08:49:37 UTC",
            "Sun Nov  6 08:49:37 1994 GMT",
            "Sun Nov  6 08:49:37 UTC 1994",
            // A two-digit year outside the RFC 850 form, or a four-digit one inside it.
            "Sun, 06 Nov 94 08:49:37 GMT",
            "Sunday, 06-Nov-1994 08:49:37 GMT",
            "Sun Nov  6 08:49:37 94",
            // A missing comma, or one too many.
            "Sun 06 Nov 1994 08:49:37 GMT",
            "Sunday 06-Nov-94 08:49:37 GMT",
            "Sun, 06 Nov 1994, 08:49:37 GMT",
            // Several spaces, or a tab, where one space belongs.
            "Sun,  06 Nov 1994 08:49:37 GMT",
            "Sun, 06  Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994  08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37  GMT",
            "Sun,\t06 Nov 1994 08:49:37 GMT",
            "Sunday,  06-Nov-94 08:49:37 GMT",
            "Sun Nov   6 08:49:37 1994",
            "Sun  Nov  6 08:49:37 1994",
            // Dashes in an IMF-fixdate, spaces in an RFC 850 date.
            "Sun, 06-Nov-1994 08:49:37 GMT",
            "Sunday, 06 Nov 94 08:49:37 GMT",
            // One-digit fields where the grammar has two.
            "Sun, 06 Nov 1994 8:49:37 GMT",
            "Sun, 6 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:9:37 GMT",
            "Sun, 06 Nov 1994 08:49:7 GMT",
            "Sun Nov  6 8:49:37 1994",
            "Sunday, 6-Nov-94 08:49:37 GMT",
            // Names in the wrong case, abbreviated or in full where the other is required.
            "sun, 06 Nov 1994 08:49:37 GMT",
            "SUN, 06 Nov 1994 08:49:37 GMT",
            "Sun, 06 nov 1994 08:49:37 GMT",
            "Sun, 06 NOV 1994 08:49:37 GMT",
            "Sun, 06 November 1994 08:49:37 GMT",
            "Sunday, 06 Nov 1994 08:49:37 GMT",
            "Sun, 06-Nov-94 08:49:37 GMT",
            "sunday, 06-Nov-94 08:49:37 GMT",
            "Sunday Nov  6 08:49:37 1994",
            // Values that are not a real time.
            "Sun, 32 Jan 1994 08:49:37 GMT",
            "Sun, 00 Nov 1994 08:49:37 GMT",
            "Sun, 31 Nov 1994 08:49:37 GMT",
            "Sun, 29 Feb 2023 08:49:37 GMT",
            "Sun, 29 Feb 1900 08:49:37 GMT",
            "Sun, 06 Nov 1994 24:00:00 GMT",
            "Sun, 06 Nov 1994 08:60:37 GMT",
            "Sun, 06 Nov 1994 08:49:61 GMT",
            "Sun Nov  0 08:49:37 1994",
            "Sunday, 31-Apr-94 08:49:37 GMT",
            // Other separators, signs and non-digits.
            "Sun, 06 Nov 1994 08.49.37 GMT",
            "Sun, 06 Nov 1994 08:49:37.5 GMT",
            "Sun, 06 Nov +994 08:49:37 GMT",
            "Sun, 0x Nov 1994 08:49:37 GMT",
            "Sun, 06/Nov/1994 08:49:37 GMT",
            "Sun Nov 6 08:49:37 1994",
            // Other formats entirely, a list, trailing text, nothing.
            "1994-11-06T08:49:37Z",
            "784111777",
            "0",
            "-1",
            "",
            "   ",
            "tomorrow",
            "Sun, 06 Nov 1994 08:49:37 GMT, Mon, 07 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 GMT;x",
            "Sun, 06 Nov 1994 08:49:37 GMTx",
            "Sun Nov  6 08:49:37 1994x",
            "Sunday, 06-Nov-94 08:49:37 GMT x",
            "Sun, 06 Nov 1994",
            "Sunday, ",
            "Sunday, 06-Nov-94",
            "Wednesday,",
    })
    void anythingElseIsInvalid(String value) {
        assertEquals(HttpDate.INVALID, parse(value), value);
        assertEquals(HttpDate.INVALID, HttpDate.parse(value), value);
    }

    @Test
    void nullIsInvalid() {
        assertEquals(HttpDate.INVALID, HttpDate.parse(null));
    }

    @Test
    void anRfc850YearMoreThanFiftyYearsAheadIsInThePastCentury() {
        assertEquals(at("1994-11-06T08:49:37Z"), parse("Sunday, 06-Nov-94 08:49:37 GMT"));
        assertEquals(at("2076-05-31T00:00:00Z"), parse("Sunday, 31-May-76 00:00:00 GMT"));
        assertEquals(at("1976-06-02T00:00:00Z"), parse("Tuesday, 02-Jun-76 00:00:00 GMT"));
        assertEquals(at("2000-01-01T00:00:00Z"), parse("Saturday, 01-Jan-00 00:00:00 GMT"));
        assertEquals(at("2026-05-31T00:00:00Z"), parse("Sunday, 31-May-26 00:00:00 GMT"));
        // Late in a century, a small two-digit year is in the next one.
        long late = at("2090-01-01T00:00:00Z");
        assertEquals(at("2105-03-01T00:00:00Z"), HttpDate.parse("Thursday, 01-Mar-05 00:00:00 GMT", late));
        assertEquals(at("2089-03-01T00:00:00Z"), HttpDate.parse("Tuesday, 01-Mar-89 00:00:00 GMT", late));
        // 29 February exists only in the year the two digits resolve to.
        assertEquals(at("2000-02-29T00:00:00Z"), parse("Tuesday, 29-Feb-00 00:00:00 GMT"));
        assertEquals(HttpDate.INVALID, HttpDate.parse("Monday, 29-Feb-00 00:00:00 GMT", late));
    }

    @Test
    void aFieldWithConflictingRepeatsIsInvalid() {
        String date = "Sun, 06 Nov 1994 08:49:37 GMT";
        assertEquals(T, HttpDate.field(Headers.of("Expires", date, "Expires", "Sunday, 06-Nov-94 08:49:37 GMT"),
                "Expires"));
        assertEquals(HttpDate.INVALID, HttpDate.field(Headers.of("Expires", date, "Expires",
                "Mon, 07 Nov 1994 08:49:37 GMT"), "Expires"));
        assertEquals(HttpDate.INVALID, HttpDate.field(Headers.of("Expires", date, "Expires", "0"), "Expires"));
        assertEquals(HttpDate.INVALID, HttpDate.field(Headers.of(), "Expires"));
    }
}
