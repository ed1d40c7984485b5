package dev.portico.proxy.server;

import java.util.concurrent.ThreadLocalRandom;

/** The {@code X-Request-Id} rule: keep a sane incoming id, otherwise make a 32-hex-digit one like nginx's. */
public final class RequestId {

    static final int MAX_LENGTH = 128;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private RequestId() {
    }

    static String acceptOrGenerate(String incoming) {
        return incoming != null && isValid(incoming) ? incoming : generate();
    }

    /** 1 to 128 characters of letters, digits and {@code - _ . : + / = @}: safe in logs, headers and JSON. */
    public static boolean isValid(String id) {
        int length = id.length();
        if (length == 0 || length > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = id.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "-_.:+/=@".indexOf(c) >= 0)) {
                return false;
            }
        }
        return true;
    }

    public static String generate() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        char[] out = new char[32];
        long high = random.nextLong();
        long low = random.nextLong();
        for (int i = 0; i < 16; i++) {
            out[i] = HEX[(int) (high >>> (60 - 4 * i)) & 0xf];
            out[16 + i] = HEX[(int) (low >>> (60 - 4 * i)) & 0xf];
        }
        return new String(out);
    }
}
