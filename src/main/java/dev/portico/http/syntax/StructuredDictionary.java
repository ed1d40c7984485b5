package dev.portico.http.syntax;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict parser of Structured Field Dictionaries (RFC 8941 sections 3.2 and 4.2.2), as targeted cache-control
 * fields are (RFC 9213 section 2.1). It follows the RFC's parsing algorithms step by step and fails on the first
 * deviation, because RFC 8941 section 4.2 says a field that fails to parse is ignored as a whole, not repaired.
 *
 * <p>Only what a Dictionary can hold is implemented: keys, Items (Integer, Decimal, String, Token, Byte Sequence,
 * Boolean), Inner Lists and Parameters. Parameters and Inner Lists are checked and then dropped, since no cache
 * directive uses them (RFC 9213 section 2.1: parameters on directives are ignored); a member keeps its value's
 * type and, for the types directives use, the value. Later duplicates of a key replace earlier ones, as section
 * 4.2.2 says.
 */
public final class StructuredDictionary {

    /** The type of a member's value. */
    public enum Kind { INTEGER, DECIMAL, STRING, TOKEN, BYTE_SEQUENCE, BOOLEAN, INNER_LIST }

    /**
     * A member's value.
     *
     * @param integer an Integer's value, or a Boolean's as 1 (true) or 0 (false); 0 for the other types
     * @param text a String's unescaped characters, a Token, a Decimal or Byte Sequence as written; null otherwise
     */
    public record Value(Kind kind, long integer, String text) {

        static final Value TRUE = new Value(Kind.BOOLEAN, 1, null);
        static final Value FALSE = new Value(Kind.BOOLEAN, 0, null);
        static final Value INNER_LIST = new Value(Kind.INNER_LIST, 0, null);

        /** Whether this is the Boolean true, what a bare key means. */
        public boolean isTrue() {
            return kind == Kind.BOOLEAN && integer == 1;
        }
    }

    /** Largest Integer: 15 digits (RFC 8941 section 3.3.1). */
    private static final int MAX_INTEGER_DIGITS = 15;

    private final String input;
    private int pos;

    private StructuredDictionary(String input) {
        this.input = input;
    }

    /**
     * Parses the field lines of one Dictionary field, combined as RFC 8941 section 4.2 says (joined with a comma),
     * into its members in order; null when they do not form a valid Dictionary. An empty or absent field gives an
     * empty map.
     */
    public static Map<String, Value> parse(List<String> fieldLines) {
        if (fieldLines == null || fieldLines.isEmpty()) {
            return Map.of();
        }
        String combined = fieldLines.size() == 1 ? fieldLines.get(0) : String.join(",", fieldLines);
        if (combined == null) {
            return Map.of();
        }
        return new StructuredDictionary(combined).dictionary();
    }

    /** Section 4.2: leading and trailing SP are discarded; then the whole rest must be one Dictionary. */
    private Map<String, Value> dictionary() {
        int end = input.length();
        while (end > 0 && input.charAt(end - 1) == ' ') {
            end--;
        }
        skipSpaces();
        Map<String, Value> members = new LinkedHashMap<>();
        while (pos < end) {
            String key = key();
            if (key == null) {
                return null;
            }
            Value value;
            if (pos < end && input.charAt(pos) == '=') {
                pos++;
                value = itemOrInnerList();
            } else {
                value = parameters() ? Value.TRUE : null;
            }
            if (value == null) {
                return null;
            }
            members.put(key, value);
            skipOws();
            if (pos >= end) {
                break;
            }
            if (input.charAt(pos++) != ',') {
                return null;
            }
            skipOws();
            if (pos >= end) {
                // A trailing comma.
                return null;
            }
        }
        return members;
    }

    private Value itemOrInnerList() {
        if (pos < input.length() && input.charAt(pos) == '(') {
            return innerList() ? Value.INNER_LIST : null;
        }
        Value value = bareItem();
        return value != null && parameters() ? value : null;
    }

    /** Section 4.2.1.2: items separated by single-or-more SP, closed by {@code )}, then parameters. */
    private boolean innerList() {
        pos++;
        while (pos < input.length()) {
            skipSpaces();
            if (pos < input.length() && input.charAt(pos) == ')') {
                pos++;
                return parameters();
            }
            if (bareItem() == null || !parameters()) {
                return false;
            }
            if (pos >= input.length()) {
                return false;
            }
            char c = input.charAt(pos);
            if (c != ' ' && c != ')') {
                return false;
            }
        }
        return false;
    }

    /** Section 4.2.3.2: any number of {@code ;key[=bare-item]}; false on a malformed one. */
    private boolean parameters() {
        while (pos < input.length() && input.charAt(pos) == ';') {
            pos++;
            skipSpaces();
            if (key() == null) {
                return false;
            }
            if (pos < input.length() && input.charAt(pos) == '=') {
                pos++;
                if (bareItem() == null) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Section 4.2.3.3: {@code (lcalpha / "*") *(lcalpha / DIGIT / "_" / "-" / "." / "*")}, or null. */
    private String key() {
        int start = pos;
        if (pos >= input.length()) {
            return null;
        }
        char first = input.charAt(pos);
        if (!(first >= 'a' && first <= 'z') && first != '*') {
            return null;
        }
        pos++;
        while (pos < input.length()) {
            char c = input.charAt(pos);
            if (!(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9') && c != '_' && c != '-' && c != '.'
                    && c != '*') {
                break;
            }
            pos++;
        }
        return input.substring(start, pos);
    }

    /** Section 4.2.3.1, the types of RFC 8941 (not RFC 9651's Date and Display String). */
    private Value bareItem() {
        if (pos >= input.length()) {
            return null;
        }
        char c = input.charAt(pos);
        if (c == '-' || (c >= '0' && c <= '9')) {
            return number();
        }
        if (c == '"') {
            return string();
        }
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '*') {
            return token();
        }
        if (c == ':') {
            return byteSequence();
        }
        if (c == '?') {
            return bool();
        }
        return null;
    }

    /** Section 4.2.4: at most 15 integer digits, or a Decimal of at most 12 + 3 digits. */
    private Value number() {
        int start = pos;
        boolean negative = input.charAt(pos) == '-';
        if (negative) {
            pos++;
        }
        if (pos >= input.length() || !isDigit(input.charAt(pos))) {
            return null;
        }
        int digitsStart = pos;
        int dot = -1;
        while (pos < input.length()) {
            char c = input.charAt(pos);
            if (isDigit(c)) {
                pos++;
            } else if (c == '.' && dot < 0) {
                if (pos - digitsStart > 12) {
                    return null;
                }
                dot = pos++;
            } else {
                break;
            }
            int length = pos - digitsStart;
            if (dot < 0 ? length > MAX_INTEGER_DIGITS : length > 16) {
                return null;
            }
        }
        if (dot >= 0) {
            int fraction = pos - dot - 1;
            return fraction < 1 || fraction > 3 ? null : new Value(Kind.DECIMAL, 0, input.substring(start, pos));
        }
        long value = 0;
        for (int i = digitsStart; i < pos; i++) {
            value = value * 10 + (input.charAt(i) - '0');
        }
        return new Value(Kind.INTEGER, negative ? -value : value, null);
    }

    /** Section 4.2.5: printable ASCII between quotes; backslash escapes only a quote or a backslash. */
    private Value string() {
        pos++;
        StringBuilder text = null;
        int start = pos;
        while (pos < input.length()) {
            char c = input.charAt(pos++);
            if (c == '\\') {
                if (pos >= input.length()) {
                    return null;
                }
                char escaped = input.charAt(pos++);
                if (escaped != '"' && escaped != '\\') {
                    return null;
                }
                if (text == null) {
                    text = new StringBuilder().append(input, start, pos - 2);
                }
                text.append(escaped);
            } else if (c == '"') {
                return new Value(Kind.STRING, 0, text == null ? input.substring(start, pos - 1) : text.toString());
            } else if (c < 0x20 || c > 0x7e) {
                return null;
            } else if (text != null) {
                text.append(c);
            }
        }
        return null;
    }

    /** Section 4.2.6: {@code (ALPHA / "*") *(tchar / ":" / "/")}. */
    private Value token() {
        int start = pos++;
        while (pos < input.length() && (isTchar(input.charAt(pos)) || input.charAt(pos) == ':'
                || input.charAt(pos) == '/')) {
            pos++;
        }
        return new Value(Kind.TOKEN, 0, input.substring(start, pos));
    }

    /** Section 4.2.7: base64 between colons; missing padding is accepted, as the section recommends. */
    private Value byteSequence() {
        int start = pos++;
        while (pos < input.length()) {
            char c = input.charAt(pos++);
            if (c == ':') {
                return new Value(Kind.BYTE_SEQUENCE, 0, input.substring(start, pos));
            }
            if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || isDigit(c) || c == '+' || c == '/'
                    || c == '=')) {
                return null;
            }
        }
        return null;
    }

    /** Section 4.2.8: {@code ?1} or {@code ?0}. */
    private Value bool() {
        pos++;
        if (pos >= input.length()) {
            return null;
        }
        char c = input.charAt(pos++);
        return c == '1' ? Value.TRUE : c == '0' ? Value.FALSE : null;
    }

    private void skipSpaces() {
        while (pos < input.length() && input.charAt(pos) == ' ') {
            pos++;
        }
    }

    private void skipOws() {
        pos = FieldSyntax.skipOws(input, pos);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** RFC 9110 section 5.6.2 {@code tchar}. */
    private static boolean isTchar(char c) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c)) {
            return true;
        }
        return "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }
}
