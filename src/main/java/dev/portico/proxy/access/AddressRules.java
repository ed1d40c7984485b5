package dev.portico.proxy.access;

import dev.portico.vhost.CidrBlock;
import dev.portico.vhost.AccessSpec;
import io.netty.util.NetUtil;

import java.util.List;

/**
 * A vhost's {@code access} lists compiled once per snapshot into flat arrays of 128-bit networks and masks, so a
 * request's check is a loop of masked compares: deny wins, then a non-empty allow list admits only what it names.
 * An IPv4 client (and an IPv4-mapped IPv6 one) is looked up as {@code ::ffff:a.b.c.d}; dotted IPv4, the common case,
 * is parsed without allocating.
 */
final class AddressRules {

    private final long[] allow;
    private final long[] deny;

    private AddressRules(long[] allow, long[] deny) {
        this.allow = allow;
        this.deny = deny;
    }

    static AddressRules compile(AccessSpec spec) {
        return new AddressRules(flatten(spec.allow()), flatten(spec.deny()));
    }

    /** Four longs a block: network high, low, mask high, low. */
    private static long[] flatten(List<CidrBlock> blocks) {
        long[] out = new long[blocks.size() * 4];
        for (int i = 0; i < blocks.size(); i++) {
            CidrBlock block = blocks.get(i);
            int wide = block.ipv4() ? 96 + block.prefix() : block.prefix();
            out[4 * i] = block.high();
            out[4 * i + 1] = block.low();
            out[4 * i + 2] = CidrBlock.maskHigh(wide);
            out[4 * i + 3] = CidrBlock.maskLow(wide);
        }
        return out;
    }

    /** Whether {@code address} (textual IPv4 or IPv6) may pass; one that does not parse never does. */
    boolean allows(String address) {
        if (address == null) {
            return false;
        }
        long v4 = ipv4(address);
        long high;
        long low;
        if (v4 >= 0) {
            high = CidrBlock.MAPPED_HIGH;
            low = CidrBlock.MAPPED_LOW | v4;
        } else {
            String bare = address.startsWith("[") && address.endsWith("]")
                    ? address.substring(1, address.length() - 1) : address;
            byte[] bytes = bare.indexOf(':') < 0 ? null : NetUtil.createByteArrayFromIpAddressString(bare);
            if (bytes == null || bytes.length != 16) {
                return false;
            }
            high = CidrBlock.word(bytes, 0);
            low = CidrBlock.word(bytes, 8);
        }
        if (matches(deny, high, low)) {
            return false;
        }
        return allow.length == 0 || matches(allow, high, low);
    }

    private static boolean matches(long[] blocks, long high, long low) {
        for (int i = 0; i < blocks.length; i += 4) {
            if ((high & blocks[i + 2]) == blocks[i] && (low & blocks[i + 3]) == blocks[i + 1]) {
                return true;
            }
        }
        return false;
    }

    /** The 32 bits of a dotted IPv4 address, or -1 when the text is not one. */
    static long ipv4(String text) {
        long value = 0;
        int octet = -1;
        int dots = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                octet = octet < 0 ? c - '0' : octet * 10 + (c - '0');
                if (octet > 255) {
                    return -1;
                }
            } else if (c == '.' && octet >= 0 && dots < 3) {
                value = (value << 8) | octet;
                octet = -1;
                dots++;
            } else {
                return -1;
            }
        }
        if (dots != 3 || octet < 0) {
            return -1;
        }
        return (value << 8) | octet;
    }
}
