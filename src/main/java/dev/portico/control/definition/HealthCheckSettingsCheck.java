package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;
import dev.portico.vhost.HealthCheckSpec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Validates and normalises a vhost's {@code healthCheck} block (every field named under {@code healthCheck.*}), and
 * turns the normal form into a {@link HealthCheckSpec}.
 */
final class HealthCheckSettingsCheck extends BlockCheck {

    static final Duration MIN_INTERVAL = Duration.ofMillis(100);
    static final int MAX_THRESHOLD = 100;
    static final int MAX_STATUSES = 20;
    static final int MAX_PATH = 2048;
    static final int MAX_BODY_TEXT = 1024;
    private static final List<String> DEFAULT_EXPECT = List.of("200-399");
    private static final Pattern STATUS = Pattern.compile("([1-5]\\d\\d)(?:-([1-5]\\d\\d))?|([1-5])xx");
    /** An origin-form target: a path and an optional query, visible ASCII only (RFC 9112 section 3.2.1). */
    private static final Pattern PATH = Pattern.compile("/[\\x21-\\x7e]*");

    private HealthCheckSettingsCheck(List<FieldError> errors) {
        super("healthCheck", errors);
    }

    /** The block with defaults filled in, or null when there is none (checks off). */
    static HealthCheckDefinition normalise(HealthCheckDefinition in, List<FieldError> errors) {
        if (in == null) {
            return null;
        }
        HealthCheckSettingsCheck check = new HealthCheckSettingsCheck(errors);
        String type = check.type(in.type());
        boolean http = !"tcp".equals(type);
        if (!http) {
            check.httpOnly("path", in.path());
            check.httpOnly("method", in.method());
            check.httpOnly("expectStatus", in.expectStatus());
            check.httpOnly("expectBody", in.expectBody());
            check.httpOnly("host", in.host());
        }
        Duration interval = check.duration("interval", in.interval(), Duration.ofSeconds(5), MIN_INTERVAL,
                DurationText.MAX);
        String jitterDefault = interval == null ? null : DurationText.format(interval.dividedBy(10));
        return new HealthCheckDefinition(type,
                http ? check.path(in.path()) : null,
                http ? check.method(in.method()) : null,
                http ? check.statuses(in.expectStatus()) : null,
                http ? check.bodyText(in.expectBody()) : null,
                http ? check.host(in.host()) : null,
                interval == null ? in.interval() : DurationText.format(interval),
                text(check.duration("timeout", in.timeout(), Duration.ofSeconds(2), Duration.ofMillis(1),
                        DurationText.MAX), in.timeout()),
                check.threshold("rise", in.rise(), 2),
                check.threshold("fall", in.fall(), 3),
                check.jitter(in.jitter(), interval, jitterDefault));
    }

    /** For a normalised block; null for none. */
    static HealthCheckSpec toSpec(HealthCheckDefinition d) {
        if (d == null) {
            return null;
        }
        boolean tcp = "tcp".equals(d.type());
        List<int[]> ranges = new ArrayList<>();
        if (!tcp) {
            for (String status : d.expectStatus()) {
                ranges.add(range(status));
            }
        }
        return new HealthCheckSpec(tcp ? HealthCheckSpec.Type.TCP : HealthCheckSpec.Type.HTTP, d.path(), d.method(),
                ranges, d.expectBody(), d.host(), DurationText.parse(d.interval(), DurationText.MAX, false),
                DurationText.parse(d.timeout(), DurationText.MAX, false), d.rise(), d.fall(),
                DurationText.parse(d.jitter(), DurationText.MAX, true));
    }

    private String type(String raw) {
        if (raw == null) {
            return "http";
        }
        String type = raw.trim().toLowerCase(Locale.ROOT);
        if (!type.equals("http") && !type.equals("tcp")) {
            error("type", "must be http or tcp");
        }
        return type;
    }

    private void httpOnly(String field, Object value) {
        if (value != null) {
            error(field, "applies to http checks only (type is tcp)");
        }
    }

    private String path(String raw) {
        if (raw == null) {
            return "/";
        }
        if (raw.length() > MAX_PATH || !PATH.matcher(raw).matches()) {
            error("path", "must start with / and be at most " + MAX_PATH + " visible ASCII characters "
                    + "(no spaces; percent-encode the rest)");
        }
        return raw;
    }

    private String method(String raw) {
        if (raw == null) {
            return "GET";
        }
        String method = raw.trim().toUpperCase(Locale.ROOT);
        if (!method.equals("GET") && !method.equals("HEAD")) {
            error("method", "must be GET or HEAD");
        }
        return method;
    }

    private List<String> statuses(List<String> raw) {
        if (raw == null) {
            return DEFAULT_EXPECT;
        }
        if (raw.isEmpty() || raw.size() > MAX_STATUSES) {
            error("expectStatus", "must list 1 to " + MAX_STATUSES + " statuses or ranges");
            return raw;
        }
        List<String> out = new ArrayList<>(raw.size());
        for (int i = 0; i < raw.size(); i++) {
            String entry = raw.get(i) == null ? "" : raw.get(i).trim().toLowerCase(Locale.ROOT);
            int[] range = range(entry);
            if (range == null) {
                error("expectStatus[" + i + "]", "must be a status (200), a range (200-399) or a class (2xx), "
                        + "within 100-599");
            } else {
                out.add(range[0] == range[1] ? Integer.toString(range[0]) : range[0] + "-" + range[1]);
            }
        }
        return out;
    }

    /** {@code [low, high]} of "200", "200-399" or "2xx"; null when it is none of those, or a range runs backwards. */
    static int[] range(String text) {
        Matcher m = STATUS.matcher(text);
        if (!m.matches()) {
            return null;
        }
        if (m.group(3) != null) {
            int hundreds = Integer.parseInt(m.group(3)) * 100;
            return new int[] {hundreds, hundreds + 99};
        }
        int low = Integer.parseInt(m.group(1));
        int high = m.group(2) == null ? low : Integer.parseInt(m.group(2));
        return high < low ? null : new int[] {low, high};
    }

    private String bodyText(String raw) {
        if (raw == null) {
            return null;
        }
        if (raw.isEmpty() || raw.length() > MAX_BODY_TEXT) {
            error("expectBody", "must be 1 to " + MAX_BODY_TEXT + " characters (leave it out for any body)");
        }
        return raw;
    }

    private String host(String raw) {
        if (raw == null) {
            return null;
        }
        String host = raw.trim().toLowerCase(Locale.ROOT);
        String name = host;
        int colon = host.lastIndexOf(':');
        if (colon > 0 && !host.endsWith("]")) {
            String port = host.substring(colon + 1);
            name = host.substring(0, colon);
            if (!port.matches("\\d{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
                error("host", "has an invalid port");
                return raw;
            }
        }
        String problem = name.startsWith("*") ? "must not be a wildcard" : VhostValidator.hostnameProblem(name);
        if (problem != null) {
            error("host", problem);
        }
        return host;
    }

    private Integer threshold(String field, Integer value, int fallback) {
        return count(field, value, fallback, 1, MAX_THRESHOLD);
    }

    private String jitter(String raw, Duration interval, String fallback) {
        if (raw == null) {
            return fallback;
        }
        try {
            Duration d = DurationText.parse(raw, DurationText.MAX, true);
            if (interval != null && d.compareTo(interval) > 0) {
                error("jitter", "must be at most the interval (" + DurationText.format(interval) + ")");
            }
            return DurationText.format(d);
        } catch (IllegalArgumentException e) {
            error("jitter", e.getMessage());
            return raw;
        }
    }
}
