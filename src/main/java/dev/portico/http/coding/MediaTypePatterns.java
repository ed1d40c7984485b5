package dev.portico.http.coding;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A list of media-type patterns compiled for matching a {@code Content-Type}: {@code type/subtype} exactly,
 * {@code type/*} for every subtype, {@code type/*+suffix} for structured-syntax suffixes such as {@code +json}.
 * Parameters of the {@code Content-Type} ({@code ; charset=utf-8}) and case do not matter. Immutable.
 */
final class MediaTypePatterns {

    private final Set<String> exact = new HashSet<>();
    private final List<String> typePrefixes = new ArrayList<>();
    private final List<String[]> suffixes = new ArrayList<>();

    /** @param patterns validated, lower-case patterns */
    MediaTypePatterns(List<String> patterns) {
        for (String pattern : patterns) {
            int slash = pattern.indexOf('/');
            String subtype = pattern.substring(slash + 1);
            if (subtype.equals("*")) {
                typePrefixes.add(pattern.substring(0, slash + 1));
            } else if (subtype.startsWith("*+")) {
                suffixes.add(new String[]{pattern.substring(0, slash + 1), subtype.substring(1)});
            } else {
                exact.add(pattern);
            }
        }
    }

    /** The media type of a {@code Content-Type} value, lower case and without parameters; null when absent. */
    static String mediaType(String contentType) {
        if (contentType == null) {
            return null;
        }
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim();
        return type.isEmpty() ? null : type.toLowerCase(Locale.ROOT);
    }

    /** @param mediaType as {@link #mediaType} returns it */
    boolean matches(String mediaType) {
        if (exact.contains(mediaType)) {
            return true;
        }
        for (int i = 0, n = typePrefixes.size(); i < n; i++) {
            if (mediaType.startsWith(typePrefixes.get(i))) {
                return true;
            }
        }
        for (int i = 0, n = suffixes.size(); i < n; i++) {
            String[] s = suffixes.get(i);
            if (mediaType.startsWith(s[0]) && mediaType.endsWith(s[1])) {
                return true;
            }
        }
        return false;
    }
}
