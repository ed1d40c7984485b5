package dev.portico.http;

import io.netty.util.NetUtil;

import java.util.ArrayList;
import java.util.List;

/**
 * The peers whose forwarding headers Portico keeps and extends, as a list of CIDR blocks. Matching works on the
 * raw address bytes, so {@code ::ffff:10.0.0.1} does not match {@code 10.0.0.0/8}: list both forms if both occur.
 */
public final class TrustedProxies {

    public static final TrustedProxies NONE = new TrustedProxies(List.of());

    private final List<Block> blocks;

    private TrustedProxies(List<Block> blocks) {
        this.blocks = blocks;
    }

    /**
     * Parses {@code address} or {@code address/prefix} entries.
     *
     * @throws IllegalArgumentException naming the first entry that is not a valid address or prefix
     */
    public static TrustedProxies parse(List<String> entries) {
        List<Block> blocks = new ArrayList<>();
        for (String entry : entries) {
            String text = entry.trim();
            if (text.isEmpty()) {
                continue;
            }
            int slash = text.indexOf('/');
            String address = slash < 0 ? text : text.substring(0, slash);
            if (address.startsWith("[") && address.endsWith("]")) {
                address = address.substring(1, address.length() - 1);
            }
            byte[] bytes = NetUtil.createByteArrayFromIpAddressString(address);
            if (bytes == null) {
                throw new IllegalArgumentException("not an IP address: " + entry);
            }
            int prefix = bytes.length * 8;
            if (slash >= 0) {
                try {
                    prefix = Integer.parseInt(text.substring(slash + 1));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("not a prefix length: " + entry);
                }
                if (prefix < 0 || prefix > bytes.length * 8) {
                    throw new IllegalArgumentException("prefix length out of range: " + entry);
                }
            }
            blocks.add(new Block(bytes, prefix));
        }
        return new TrustedProxies(List.copyOf(blocks));
    }

    public boolean isEmpty() {
        return blocks.isEmpty();
    }

    /** Whether the peer address (textual IPv4 or IPv6) lies in one of the trusted blocks. */
    public boolean contains(String address) {
        if (blocks.isEmpty() || address == null) {
            return false;
        }
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(address);
        if (bytes == null) {
            return false;
        }
        for (Block block : blocks) {
            if (block.contains(bytes)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The client behind a chain of proxies: the peer, or when {@code forwardedFor} has entries the right-most one
     * that is not a trusted proxy (nginx {@code real_ip_recursive on}). Entries left of that were written by the
     * client and prove nothing. Only for a peer that is itself trusted.
     */
    public String forwardedClient(String peer, String forwardedFor) {
        if (forwardedFor == null || forwardedFor.isEmpty()) {
            return peer;
        }
        String candidate = peer;
        int end = forwardedFor.length();
        while (end > 0) {
            int comma = forwardedFor.lastIndexOf(',', end - 1);
            String entry = forwardedFor.substring(comma + 1, end).trim();
            end = comma < 0 ? 0 : comma;
            if (entry.isEmpty()) {
                continue;
            }
            candidate = entry;
            if (!contains(entry)) {
                break;
            }
        }
        return candidate;
    }

    private record Block(byte[] network, int prefix) {
        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = 0xff << (8 - rest);
            return (address[full] & mask) == (network[full] & mask);
        }
    }
}
