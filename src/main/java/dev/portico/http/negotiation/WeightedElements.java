package dev.portico.http.negotiation;

/**
 * The elements of an {@code Accept}-style list (RFC 9110 section 12.4.2): a token, parameters, and a q-value weight,
 * shared by the content codings' and the media types' negotiation.
 */
final class WeightedElements {

    private WeightedElements() {
    }

    /** Sees one element of the list: its trimmed token and its weight in thousandths. */
    interface Visitor {
        void visit(String token, int weight);
    }

    /** Calls {@code visitor} for every element with a token and a well-formed q-value, in order. */
    static void forEach(String list, Visitor visitor) {
        int i = 0;
        int n = list.length();
        while (i < n) {
            int end = list.indexOf(',', i);
            if (end < 0) {
                end = n;
            }
            int semicolon = list.indexOf(';', i);
            int tokenEnd = semicolon >= 0 && semicolon < end ? semicolon : end;
            String token = list.substring(i, tokenEnd).trim();
            int weight = tokenEnd == end ? 1000 : qValue(list, tokenEnd + 1, end);
            i = end + 1;
            if (!token.isEmpty() && weight >= 0) {
                visitor.visit(token, weight);
            }
        }
    }

    /**
     * The weight in thousandths from parameters {@code s[from, to)}, 1000 when there is no {@code q}, -1 when the
     * q-value is malformed (RFC 9110 section 12.4.2: {@code 0[.ddd]} or {@code 1[.000]}).
     */
    private static int qValue(String s, int from, int to) {
        int weight = 1000;
        for (String param : s.substring(from, to).split(";")) {
            String p = param.trim();
            if (p.length() < 2 || (p.charAt(0) != 'q' && p.charAt(0) != 'Q') || p.charAt(1) != '=') {
                continue;
            }
            weight = parseQ(p.substring(2).trim());
            if (weight < 0) {
                return -1;
            }
        }
        return weight;
    }

    private static int parseQ(String v) {
        if (v.isEmpty() || v.length() > 5 || (v.charAt(0) != '0' && v.charAt(0) != '1')) {
            return -1;
        }
        int whole = v.charAt(0) - '0';
        if (v.length() == 1) {
            return whole * 1000;
        }
        if (v.charAt(1) != '.') {
            return -1;
        }
        int fraction = 0;
        int scale = 100;
        for (int i = 2; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            fraction += (c - '0') * scale;
            scale /= 10;
        }
        int weight = whole * 1000 + fraction;
        return weight > 1000 ? -1 : weight;
    }
}
