package dev.portico.proxy.upstream.balance;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The consistent-hash ring: an even spread, and about 1/n of the keys moving when one of n upstreams joins or leaves. */
class KetamaRingTest {

    private static final int KEYS = 20_000;

    private static List<String> urls(int n) {
        List<String> urls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            urls.add("http://10.0.0." + (i + 1) + ":8080");
        }
        return urls;
    }

    private static int[] ones(int n) {
        int[] weights = new int[n];
        Arrays.fill(weights, 1);
        return weights;
    }

    /** Which URL each of the keys goes to. */
    private static String[] owners(List<String> urls, int[] weights) {
        KetamaRing ring = new KetamaRing(urls, weights);
        String[] owners = new String[KEYS];
        for (int k = 0; k < KEYS; k++) {
            owners[k] = urls.get(ring.owner(KetamaRing.hash("client-" + k)));
        }
        return owners;
    }

    @Test
    void spreadsKeysEvenlyAndByWeight() {
        String[] owners = owners(urls(5), ones(5));
        for (String url : urls(5)) {
            long share = Arrays.stream(owners).filter(url::equals).count();
            assertTrue(share > KEYS / 5 * 0.8 && share < KEYS / 5 * 1.2, url + " got " + share + " of " + KEYS);
        }
        String[] weighted = owners(urls(2), new int[]{3, 1});
        long heavy = Arrays.stream(weighted).filter(urls(2).get(0)::equals).count();
        assertTrue(heavy > KEYS * 0.7 && heavy < KEYS * 0.8, "weight 3 of 4 got " + heavy + " of " + KEYS);
    }

    @Test
    void anUpstreamLeavingMovesOnlyItsOwnKeysAboutOneInN() {
        List<String> five = urls(5);
        String[] before = owners(five, ones(5));
        List<String> four = new ArrayList<>(five);
        String gone = four.remove(2);
        String[] after = owners(four, ones(4));
        int moved = 0;
        for (int k = 0; k < KEYS; k++) {
            if (!before[k].equals(after[k])) {
                moved++;
                assertEquals(gone, before[k], "only the keys of the upstream that left move");
            }
        }
        double share = (double) moved / KEYS;
        assertTrue(share > 0.15 && share < 0.25, "moved " + share + ", expected about 1/5");
    }

    @Test
    void anUpstreamJoiningTakesAboutOneInNOfTheKeysAndNothingElseMoves() {
        List<String> five = urls(5);
        String[] before = owners(five, ones(5));
        List<String> six = urls(6);
        // The newcomer listed first: positions shift, the ring does not care.
        six.add(0, six.remove(5));
        String[] after = owners(six, ones(6));
        int moved = 0;
        for (int k = 0; k < KEYS; k++) {
            if (!before[k].equals(after[k])) {
                moved++;
                assertEquals(six.get(0), after[k], "keys move only to the upstream that joined");
            }
        }
        double share = (double) moved / KEYS;
        assertTrue(share > 1.0 / 6 * 0.75 && share < 1.0 / 6 * 1.25, "moved " + share + ", expected about 1/6");
    }

    @Test
    void anUpstreamThatIsOutOrTriedPassesItsKeysToTheNextRoundTheRing() {
        List<String> urls = urls(3);
        KetamaRing ring = new KetamaRing(urls, ones(3));
        UpstreamAvailability all = TestUpstreams.all(3);
        for (int k = 0; k < 200; k++) {
            long hash = KetamaRing.hash("key-" + k);
            int owner = ring.owner(hash);
            assertEquals(owner, ring.owner(hash, 0, all, 0));
            int next = ring.owner(hash, 1L << owner, all, 0);
            assertTrue(next >= 0 && next != owner);
            assertEquals(-1, ring.owner(hash, 0b111, all, 0));
        }
    }

    @Test
    void theHashIsTheSameInEveryJvm() {
        // Replicas must agree: a fixed value, not String.hashCode or an identity hash.
        assertEquals(0xad8532473b5770daL, KetamaRing.hash("portico"));
    }
}
