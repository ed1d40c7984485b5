package dev.portico.http.syntax;

import io.vertx.core.MultiMap;

import java.util.List;

/**
 * HTTP-date fields (RFC 9110 section 5.6.7) as epoch milliseconds, parsed strictly: exactly one of the three forms
 * of the grammar, character for character, and nothing else.
 * <ul>
 *   <li>IMF-fixdate: {@code Sun, 06 Nov 1994 08:49:37 GMT};</li>
 *   <li>obsolete RFC 850: {@code Sunday, 06-Nov-94 08:49:37 GMT}, whose two-digit year is the one that puts the
 *       date no more than 50 years in the future (RFC 9110: a date more than 50 years ahead is in the past
 *       century);</li>
 *   <li>obsolete asctime: {@code Sun Nov  6 08:49:37 1994} (a one-digit day padded with a space).</li>
 * </ul>
 * Day and month names are case-sensitive, as the grammar's {@code %s"..."} says; the separators are single
 * characters; day, hour, minute and second have exactly two digits and years four (two in RFC 850); the zone is
 * the literal {@code GMT}. So {@code UTC}, {@code +0000}, a zone name, a two-digit year in an IMF-fixdate, a
 * missing comma, doubled spaces, dashes in an IMF-fixdate, a one-digit hour, trailing text or a list are all
 * invalid, and each field's rule for an invalid date applies (RFC 9111 section 5.3: an invalid {@code Expires} is
 * already expired; RFC 9110 section 13.1.3: an invalid {@code If-Modified-Since} is ignored). The values must also
 * be a real time: day 01 to the month's length (29 February only in leap years), hour 00-23, minute 00-59, second
 * 00-60 (60 is a leap second, counted as the next minute's first).
 *
 * <p>The day name is checked for syntax but not against the date, as Go's {@code net/http} and nginx do: it is
 * redundant, and RFC 9110 does not ask recipients to reject a date over it; turning an {@code Expires} with a
 * wrong weekday into "already expired" would punish a harmless origin bug.
 *
 * <p>Parsing allocates nothing: it reads the characters in place and computes the instant arithmetically. Only an
 * RFC 850 date reads the clock, to place its two-digit year; every other form is a pure function of its text.
 */
public final class HttpDate {

    /** No valid date: absent, invalid or a list. Not a real instant, unlike -1. */
    public static final long INVALID = Long.MIN_VALUE;

    private static final String[] SHORT_DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] LONG_DAYS =
            {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};
    private static final String MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";

    /** Length of an IMF-fixdate, {@code Sun, 06 Nov 1994 08:49:37 GMT}. */
    private static final int IMF_LENGTH = 29;
    /** Length of an asctime date, {@code Sun Nov  6 08:49:37 1994}. */
    private static final int ASCTIME_LENGTH = 24;
    /** Length of an RFC 850 date after its day name and {@code ", "}: {@code 06-Nov-94 08:49:37 GMT}. */
    private static final int RFC850_TAIL_LENGTH = 22;

    private static final long DAY_MILLIS = 86_400_000L;
    /** 50 years of 365.2425 days: how far ahead an RFC 850 date may be before it counts as last century. */
    private static final long FIFTY_YEARS_MILLIS = 1_577_847_600_000L;
    /** Tells {@link #parse(String, long)} to read the clock when (and only when) it needs the present. */
    private static final long NOW_UNKNOWN = Long.MIN_VALUE;

    private HttpDate() {
    }

    /** The instant of an HTTP-date, or {@link #INVALID} for null and anything that is not exactly one. */
    public static long parse(String value) {
        return parse(value, NOW_UNKNOWN);
    }

    /**
     * Like {@link #parse(String)}, with the present pinned at {@code nowMillis} for an RFC 850 date's year.
     * Leading and trailing whitespace is not part of a field value (RFC 9110 section 5.5) and is skipped.
     */
    static long parse(String value, long nowMillis) {
        if (value == null) {
            return INVALID;
        }
        int start = FieldSyntax.skipOws(value, 0);
        int end = FieldSyntax.trimEnd(value, start, value.length());
        int length = end - start;
        if (length < ASCTIME_LENGTH) {
            return INVALID;
        }
        char fourth = value.charAt(start + 3);
        if (fourth == ',') {
            return length == IMF_LENGTH ? imfFixdate(value, start) : INVALID;
        }
        if (fourth == ' ') {
            return length == ASCTIME_LENGTH ? asctime(value, start) : INVALID;
        }
        return rfc850(value, start, end, nowMillis);
    }

    /**
     * The date in a field that must occur once: {@link #INVALID} when absent, invalid, or repeated with different
     * values (RFC 9111 section 4.2.1 lets a cache treat conflicting duplicates as stale).
     */
    public static long field(MultiMap headers, CharSequence name) {
        String first = headers.get(name);
        if (first == null) {
            return INVALID;
        }
        long millis = parse(first);
        if (millis != INVALID) {
            List<String> all = headers.getAll(name);
            for (int i = 1, n = all.size(); i < n; i++) {
                if (parse(all.get(i)) != millis) {
                    return INVALID;
                }
            }
        }
        return millis;
    }

    /** {@code day-name "," SP day SP month SP 4DIGIT SP hh:mm:ss SP "GMT"}, 29 characters from {@code i}. */
    private static long imfFixdate(String s, int i) {
        if (!dayName(s, i, SHORT_DAYS) || s.charAt(i + 4) != ' ' || s.charAt(i + 7) != ' '
                || s.charAt(i + 11) != ' ' || s.charAt(i + 16) != ' ' || s.charAt(i + 25) != ' '
                || !s.startsWith("GMT", i + 26)) {
            return INVALID;
        }
        return instant(digits(s, i + 12, 4), month(s, i + 8), digits(s, i + 5, 2), s, i + 17);
    }

    /** {@code day-name SP month SP (2DIGIT / SP DIGIT) SP hh:mm:ss SP 4DIGIT}, 24 characters from {@code i}. */
    private static long asctime(String s, int i) {
        if (!dayName(s, i, SHORT_DAYS) || s.charAt(i + 7) != ' ' || s.charAt(i + 10) != ' '
                || s.charAt(i + 19) != ' ') {
            return INVALID;
        }
        int day = s.charAt(i + 8) == ' ' ? digits(s, i + 9, 1) : digits(s, i + 8, 2);
        return instant(digits(s, i + 20, 4), month(s, i + 4), day, s, i + 11);
    }

    /** {@code day-name-l "," SP day "-" month "-" 2DIGIT SP hh:mm:ss SP "GMT"}. */
    private static long rfc850(String s, int start, int end, long nowMillis) {
        int comma = start + 6;
        while (comma < end && s.charAt(comma) != ',') {
            comma++;
        }
        int i = comma + 2;
        if (end - i != RFC850_TAIL_LENGTH || s.charAt(comma + 1) != ' ' || !longDayName(s, start, comma)
                || s.charAt(i + 2) != '-' || s.charAt(i + 6) != '-' || s.charAt(i + 9) != ' '
                || s.charAt(i + 18) != ' ' || !s.startsWith("GMT", i + 19)) {
            return INVALID;
        }
        int twoDigitYear = digits(s, i + 7, 2);
        int month = month(s, i + 3);
        int day = digits(s, i, 2);
        long timeOfDay = timeOfDay(s, i + 10);
        if (twoDigitYear < 0 || month < 0 || day < 0 || timeOfDay < 0) {
            return INVALID;
        }
        long now = nowMillis == NOW_UNKNOWN ? System.currentTimeMillis() : nowMillis;
        long latest = now + FIFTY_YEARS_MILLIS;
        int nowYear = yearOf(now);
        int year = nowYear - Math.floorMod(nowYear, 100) + twoDigitYear;
        // The one year with these last two digits that is at most 50 years ahead and as late as possible.
        if (roughInstant(year, month, day, timeOfDay) > latest) {
            year -= 100;
        } else if (roughInstant(year + 100, month, day, timeOfDay) <= latest) {
            year += 100;
        }
        return day > daysIn(year, month) ? INVALID : roughInstant(year, month, day, timeOfDay);
    }

    private static long instant(int year, int month, int day, String s, int timeAt) {
        long timeOfDay = timeOfDay(s, timeAt);
        if (year < 0 || month < 0 || day < 1 || day > daysIn(year, month) || timeOfDay < 0) {
            return INVALID;
        }
        return roughInstant(year, month, day, timeOfDay);
    }

    /** The instant of a date whose day may overflow its month (it then runs into the next one). */
    private static long roughInstant(int year, int month, int day, long timeOfDayMillis) {
        return daysSinceEpoch(year, month, day) * DAY_MILLIS + timeOfDayMillis;
    }

    /** {@code hh:mm:ss} at {@code i} in milliseconds, or -1. */
    private static long timeOfDay(String s, int i) {
        if (s.charAt(i + 2) != ':' || s.charAt(i + 5) != ':') {
            return -1;
        }
        int hour = digits(s, i, 2);
        int minute = digits(s, i + 3, 2);
        int second = digits(s, i + 6, 2);
        if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) {
            return -1;
        }
        return ((hour * 60L + minute) * 60 + second) * 1000;
    }

    /** The value of exactly {@code count} ASCII digits at {@code i}, or -1. */
    private static int digits(String s, int i, int count) {
        int value = 0;
        for (int end = i + count; i < end; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /** The month 1-12 of the three-letter name at {@code i}, or -1. */
    private static int month(String s, int i) {
        for (int m = 0; m < 12; m++) {
            if (s.regionMatches(i, MONTHS, m * 3, 3)) {
                return m + 1;
            }
        }
        return -1;
    }

    private static boolean dayName(String s, int i, String[] names) {
        for (String name : names) {
            if (s.startsWith(name, i)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code s[start, end)} is exactly a full day name. */
    private static boolean longDayName(String s, int start, int end) {
        for (String name : LONG_DAYS) {
            if (end - start == name.length() && s.startsWith(name, start)) {
                return true;
            }
        }
        return false;
    }

    private static int daysIn(int year, int month) {
        if (month == 2) {
            return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
        }
        return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
    }

    /** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil). */
    private static long daysSinceEpoch(int year, int month, int day) {
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yearOfEra = y - era * 400;
        long dayOfYear = (153L * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146_097 + dayOfEra - 719_468;
    }

    /** The Gregorian year of an instant (H. Hinnant's civil_from_days, year only). */
    private static int yearOf(long millis) {
        long z = Math.floorDiv(millis, DAY_MILLIS) + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long monthIndex = (5 * dayOfYear + 2) / 153;
        return (int) (yearOfEra + era * 400 + (monthIndex >= 10 ? 1 : 0));
    }
}
