package dev.portico.proxy.upstream.balance;

import java.util.Arrays;
import java.util.List;

/**
 * A ketama consistent-hash ring (libketama, nginx's {@code hash ... consistent}, HAProxy's {@code hash-type
 * consistent}): each upstream owns points on a 64-bit circle, as many as its weight asks, placed by hashing its
 * identity (its URL), not its position; a key goes to the owner of the first point at or after the key's hash. An
 * upstream that joins or leaves takes or gives back only its own arcs, about 1/n of the keys, and every replica
 * builds the same ring from the same upstreams. Immutable.
 */
public final class KetamaRing {

    /** Points per unit of weight (nginx's 160), fewer when the weights add up to much. */
    static final int POINTS_PER_WEIGHT = 160;
    static final int POINT_BUDGET = 16_384;

    private final long[] points;
    private final byte[] owners;

    /**
     * @param identities what each upstream's points are placed by (stable across replicas and reorderings)
     * @param weights    each upstream's weight, in the same order
     */
    public KetamaRing(List<String> identities, int[] weights) {
        int totalWeight = Arrays.stream(weights).sum();
        int perWeight = Math.max(4, Math.min(POINTS_PER_WEIGHT, POINT_BUDGET / Math.max(1, totalWeight)));
        int count = 0;
        for (int weight : weights) {
            count += weight * perWeight;
        }
        long[][] pairs = new long[count][];
        int at = 0;
        for (int i = 0; i < weights.length; i++) {
            for (int p = 0; p < weights[i] * perWeight; p++) {
                pairs[at++] = new long[]{hash(identities.get(i) + "-" + p), i};
            }
        }
        Arrays.sort(pairs, (x, y) -> x[0] != y[0] ? Long.compareUnsigned(x[0], y[0]) : Long.compare(x[1], y[1]));
        points = new long[count];
        owners = new byte[count];
        for (int k = 0; k < count; k++) {
            points[k] = pairs[k][0];
            owners[k] = (byte) pairs[k][1];
        }
    }

    /** The owner of {@code keyHash}: the upstream of the first point at or after it on the circle. */
    public int owner(long keyHash) {
        return owners[start(keyHash)];
    }

    /**
     * The first upstream at or after {@code keyHash}, going round the circle, that is neither excluded nor out; -1
     * when there is none. Each upstream is looked at once at most.
     *
     * @param excluded bit i set when upstream i may not be used for this request
     */
    public int owner(long keyHash, long excluded, UpstreamAvailability upstreams, long nowNanos) {
        int start = start(keyHash);
        long seen = excluded;
        for (int k = 0; k < points.length; k++) {
            int owner = owners[(start + k) % points.length];
            long bit = 1L << owner;
            if ((seen & bit) != 0) {
                continue;
            }
            if (upstreams.available(owner, nowNanos)) {
                return owner;
            }
            seen |= bit;
        }
        return -1;
    }

    private int start(long keyHash) {
        int low = 0;
        int high = points.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (Long.compareUnsigned(points[mid], keyHash) < 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low == points.length ? 0 : low;
    }

    /**
     * A 64-bit hash of text, the same in every JVM: FNV-1a over the UTF-16 code units, then MurmurHash3's finaliser
     * so that close texts (host names differing in one digit) land far apart.
     */
    public static long hash(CharSequence text) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < text.length(); i++) {
            h ^= text.charAt(i);
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
