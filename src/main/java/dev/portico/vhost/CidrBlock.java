package dev.portico.vhost;

import io.netty.util.NetUtil;

/**
 * One address block ({@code 10.0.0.0/8}, {@code 2001:db8::/32}, or a bare address: {@code /32}, {@code /128}), held
 * as a 128-bit network and mask in the IPv6 space: an IPv4 block is kept as its IPv4-mapped form
 * ({@code ::ffff:10.0.0.0/104}), so an IPv4-mapped IPv6 peer matches IPv4 rules with no special case, and a match
 * is two masked compares of longs.
 *
 * @param high the network's upper 64 bits, host bits cleared
 * @param low the network's lower 64 bits, host bits cleared
 * @param prefix the prefix length as written (0-32 for IPv4, 0-128 for IPv6)
 * @param ipv4 whether the block was written as IPv4
 */
public record CidrBlock(long high, long low, int prefix, boolean ipv4) {

    /** The upper 64 bits of every IPv4-mapped address ({@code ::ffff:0:0/96} has them all zero). */
    public static final long MAPPED_HIGH = 0L;
    /** The lower 64 bits of {@code ::ffff:0.0.0.0}, to which an IPv4 address's 32 bits are added. */
    public static final long MAPPED_LOW = 0xffffL << 32;

    /**
     * Parses {@code address} or {@code address/prefix}; IPv6 may be in brackets. Host bits are cleared, as
     * nginx does, so {@code 10.1.2.3/8} is {@code 10.0.0.0/8}.
     *
     * @throws IllegalArgumentException saying what is wrong, for an API field error
     */
    public static CidrBlock parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("must be an IP address or CIDR block, e.g. 10.0.0.0/8 or 2001:db8::/32");
        }
        String trimmed = text.trim();
        int slash = trimmed.indexOf('/');
        String address = slash < 0 ? trimmed : trimmed.substring(0, slash);
        if (address.startsWith("[") && address.endsWith("]")) {
            address = address.substring(1, address.length() - 1);
        }
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(address);
        if (bytes == null || address.indexOf('%') >= 0) {
            throw new IllegalArgumentException("not a CIDR block: '" + address
                    + "' is not an IP address (e.g. 10.0.0.0/8 or 2001:db8::/32)");
        }
        int max = bytes.length * 8;
        int prefix = max;
        if (slash >= 0) {
            String digits = trimmed.substring(slash + 1);
            if (digits.isEmpty() || digits.length() > 3 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("not a CIDR block: the prefix length must be a number 0-" + max);
            }
            prefix = Integer.parseInt(digits);
            if (prefix > max) {
                throw new IllegalArgumentException("prefix too long: at most /" + max + " for an "
                        + (bytes.length == 4 ? "IPv4" : "IPv6") + " address");
            }
        }
        boolean ipv4 = bytes.length == 4;
        long high = ipv4 ? MAPPED_HIGH : word(bytes, 0);
        long low = ipv4 ? MAPPED_LOW | (word(bytes, 0) >>> 32) : word(bytes, 8);
        int wide = ipv4 ? 96 + prefix : prefix;
        return new CidrBlock(high & maskHigh(wide), low & maskLow(wide), prefix, ipv4);
    }

    /** Whether the 128-bit address (IPv4 as its mapped form) lies in the block. */
    public boolean contains(long addressHigh, long addressLow) {
        int wide = ipv4 ? 96 + prefix : prefix;
        return (addressHigh & maskHigh(wide)) == high && (addressLow & maskLow(wide)) == low;
    }

    /** The normal text: the network address and its prefix length, always written. */
    public String text() {
        byte[] bytes = new byte[ipv4 ? 4 : 16];
        if (ipv4) {
            int v4 = (int) low;
            for (int i = 0; i < 4; i++) {
                bytes[i] = (byte) (v4 >>> (24 - 8 * i));
            }
        } else {
            for (int i = 0; i < 8; i++) {
                bytes[i] = (byte) (high >>> (56 - 8 * i));
                bytes[8 + i] = (byte) (low >>> (56 - 8 * i));
            }
        }
        return NetUtil.bytesToIpAddress(bytes) + "/" + prefix;
    }

    /** The mask of the upper 64 bits for a prefix of {@code wide} bits out of 128. */
    public static long maskHigh(int wide) {
        return wide >= 64 ? -1L : wide == 0 ? 0L : -1L << (64 - wide);
    }

    /** The mask of the lower 64 bits for a prefix of {@code wide} bits out of 128. */
    public static long maskLow(int wide) {
        return wide <= 64 ? 0L : wide == 128 ? -1L : -1L << (128 - wide);
    }

    /** Eight bytes from {@code from} as a big-endian long; fewer when the array ends first (left-aligned). */
    public static long word(byte[] bytes, int from) {
        long word = 0;
        for (int i = 0; i < 8; i++) {
            int index = from + i;
            word = (word << 8) | (index < bytes.length ? bytes[index] & 0xffL : 0);
        }
        return word;
    }
}
