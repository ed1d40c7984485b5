package dev.portico.testing;

import io.restassured.RestAssured;

import java.net.URL;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads series from the Prometheus endpoint on the management port. */
public final class Scrape {

    private final String text;

    private Scrape(String text) {
        this.text = text;
    }

    public static Scrape of(URL metrics) {
        return new Scrape(RestAssured.given().get(metrics).then().statusCode(200).extract().asString());
    }

    /** The value of one series, e.g. {@code portico_cache_entries{vhost="a"}}; fails when it is absent. */
    public double value(String series) {
        Matcher m = Pattern.compile("^" + Pattern.quote(series) + " ([0-9.eE+-]+)$", Pattern.MULTILINE).matcher(text);
        if (!m.find()) {
            throw new AssertionError("no series " + series + " in\n" + text);
        }
        return Double.parseDouble(m.group(1));
    }

    /** The value of a series, or 0 when it is absent (counters that only appear once non-zero). */
    public double valueOrZero(String series) {
        return text.contains(series + " ") ? value(series) : 0;
    }

    @Override
    public String toString() {
        return text;
    }
}
