package dev.portico.http.negotiation;

import java.util.Locale;

/**
 * Whether a request's {@code Accept} (RFC 9110 section 12.5.1) prefers HTML to JSON, for answers Portico writes in
 * either (error pages). Each of the two gets the weight of the most specific range that covers it
 * ({@code text/html} over {@code text/*} over {@code *}{@code /*}; for JSON also {@code application/*+json} types such
 * as {@code application/problem+json}). HTML wins only with a greater weight than JSON's: a browser
 * ({@code text/html,...,*}{@code /*;q=0.8}) gets HTML, while no {@code Accept}, {@code *}{@code /*} (curl) or a tie
 * gets JSON, which programs read. Pure.
 */
public final class AcceptMediaType {

    /** No range covers the type: weight 0, not acceptable. */
    private static final int NONE = 0;

    private AcceptMediaType() {
    }

    /** @param accept the request's {@code Accept} lines joined with commas; null when absent */
    public static boolean prefersHtml(String accept) {
        if (accept == null) {
            return false;
        }
        // Per type: the weight of the most specific range seen so far and its specificity (3 exact, 2 subtype
        // wildcard, 1 full wildcard).
        int[] html = {NONE, 0};
        int[] json = {NONE, 0};
        WeightedElements.forEach(accept, (token, weight) -> {
            String range = token.toLowerCase(Locale.ROOT);
            consider(html, weight, range.equals("text/html") ? 3 : range.equals("text/*") ? 2 : wildcard(range));
            consider(json, weight, range.equals("application/json") || range.startsWith("application/")
                    && range.endsWith("+json") ? 3 : range.equals("application/*") ? 2 : wildcard(range));
        });
        return html[0] > json[0];
    }

    private static int wildcard(String range) {
        return range.equals("*/*") ? 1 : 0;
    }

    private static void consider(int[] best, int weight, int specificity) {
        if (specificity > best[1]) {
            best[0] = weight;
            best[1] = specificity;
        }
    }
}
