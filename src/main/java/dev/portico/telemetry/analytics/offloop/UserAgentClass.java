package dev.portico.telemetry.analytics.offloop;

import java.util.Locale;

/**
 * A coarse class of a {@code User-Agent}, the way log analysers such as GoAccess group them. Crawlers are checked
 * first because most of them announce themselves inside a browser-like {@code Mozilla/5.0 (compatible; ...)}.
 * Classified on the analytics thread, and only for the user agents that make a top list.
 */
public enum UserAgentClass {
    BROWSER("browser"),
    BOT("bot"),
    TOOL("tool"),
    OTHER("other"),
    /** No {@code User-Agent} at all, or an empty one. */
    UNKNOWN("unknown");

    /** The key counted for requests without a {@code User-Agent}, as nginx writes it in its logs. */
    public static final String MISSING = "-";

    private static final String[] BOT_MARKERS = {
            "bot", "crawl", "spider", "slurp", "facebookexternalhit", "mediapartners-google", "ia_archiver",
            "feedfetcher", "headlesschrome", "phantomjs", "lighthouse", "scrapy", "google-inspectiontool"};

    // Tools put their own name first: "curl/8.0", "python-requests/2.31", "Go-http-client/1.1".
    private static final String[] TOOL_PREFIXES = {
            "curl/", "wget/", "python-requests/", "python-urllib/", "python-httpx/", "python/", "aiohttp/",
            "go-http-client/", "okhttp/", "java/", "java-http-client/", "apache-httpclient/", "jakarta commons",
            "libwww-perl/", "lwp::", "httpie/", "postmanruntime/", "insomnia/", "axios/", "node-fetch/", "node",
            "undici", "got ", "ruby", "faraday ", "guzzlehttp/", "php", "dart:io", "reactor-netty/",
            "vert.x-webclient/", "k6/", "apachebench/", "wrk", "hey/", "powershell", "rest-client/", "restsharp/"};

    private final String code;

    UserAgentClass(String code) {
        this.code = code;
    }

    /** The name the API and the stored top lists use: {@code browser}, {@code bot}, {@code tool}, ... */
    public String code() {
        return code;
    }

    /** Classifies a {@code User-Agent} value; null, blank and {@link #MISSING} are {@link #UNKNOWN}. */
    public static UserAgentClass of(String userAgent) {
        if (userAgent == null || userAgent.isBlank() || userAgent.equals(MISSING)) {
            return UNKNOWN;
        }
        String ua = userAgent.strip().toLowerCase(Locale.ROOT);
        for (String marker : BOT_MARKERS) {
            if (ua.contains(marker)) {
                return BOT;
            }
        }
        for (String prefix : TOOL_PREFIXES) {
            if (ua.startsWith(prefix)) {
                return TOOL;
            }
        }
        if (ua.startsWith("mozilla/") || ua.startsWith("opera/") || ua.startsWith("opera ")) {
            return BROWSER;
        }
        return OTHER;
    }
}
