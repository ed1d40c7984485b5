package dev.portico.control.api.vhost;

import dev.portico.control.api.error.ApiProblem;

/**
 * The {@code If-Match} precondition of {@code PUT} and {@code DELETE} (RFC 9110 section 13.1.1): {@code *}, or a list
 * of entity tags of which one must be the vhost's current ETag. Entity tags are quoted ({@code "3"}); a bare
 * {@code 3} is not an entity tag and is refused with 400 rather than guessed at. Comparison is strong, as the RFC
 * requires for If-Match, so a weak tag ({@code W/"3"}) never matches: the API only hands out strong ones.
 */
final class IfMatch {

    static final String FIELD = "If-Match";
    private static final String SYNTAX = "must be * or a list of quoted entity tags, such as \"3\" (the ETag of a GET)";

    private IfMatch() {
    }

    /**
     * @param header the If-Match value; null or blank means the change is unconditional
     * @throws ApiProblem 400 when the header is not {@code *} or a list of entity tags
     */
    static boolean allows(String header, long version) {
        if (header == null || header.isBlank()) {
            return true;
        }
        String h = header.strip();
        if (h.equals("*")) {
            return true;
        }
        String current = Long.toString(version);
        boolean matched = false;
        boolean anyTag = false;
        int i = 0;
        while (i < h.length()) {
            char c = h.charAt(i);
            // RFC 9110 section 5.6.1: list elements are separated by OWS "," OWS, and empty elements are allowed.
            if (c == ',' || c == ' ' || c == '\t') {
                i++;
                continue;
            }
            boolean weak = h.startsWith("W/", i);
            int open = weak ? i + 2 : i;
            int close = open < h.length() && h.charAt(open) == '"' ? closingQuote(h, open + 1) : -1;
            if (close < 0) {
                throw ApiProblem.invalid(FIELD, SYNTAX);
            }
            anyTag = true;
            matched |= !weak && h.substring(open + 1, close).equals(current);
            i = close + 1;
            while (i < h.length() && (h.charAt(i) == ' ' || h.charAt(i) == '\t')) {
                i++;
            }
            if (i < h.length() && h.charAt(i) != ',') {
                throw ApiProblem.invalid(FIELD, SYNTAX);
            }
        }
        if (!anyTag) {
            throw ApiProblem.invalid(FIELD, SYNTAX);
        }
        return matched;
    }

    /** The index of the quote ending an opaque tag whose characters start at {@code from}, or -1. */
    private static int closingQuote(String h, int from) {
        for (int i = from; i < h.length(); i++) {
            char c = h.charAt(i);
            if (c == '"') {
                return i;
            }
            // etagc = %x21 / %x23-7E / obs-text
            if (c < 0x21 || c == 0x7f) {
                return -1;
            }
        }
        return -1;
    }
}
