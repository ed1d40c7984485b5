package dev.portico.proxy.access;

import dev.portico.vhost.CidrBlock;
import dev.portico.vhost.AccessSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The compiled matcher and the block parser on their own: prefixes at byte and bit edges, both families. */
class AddressRulesTest {

    private static AddressRules rules(List<String> allow, List<String> deny) {
        return AddressRules.compile(new AccessSpec(allow.stream().map(CidrBlock::parse).toList(),
                deny.stream().map(CidrBlock::parse).toList()));
    }

    @Test
    void prefixesMatchOnBitBoundaries() {
        AddressRules rules = rules(List.of("10.0.0.0/8", "192.168.1.128/25", "2001:db8:8000::/33"), List.of());
        assertTrue(rules.allows("10.255.255.255"));
        assertFalse(rules.allows("11.0.0.0"));
        assertTrue(rules.allows("192.168.1.200"));
        assertFalse(rules.allows("192.168.1.127"));
        assertTrue(rules.allows("2001:db8:ffff::1"));
        assertFalse(rules.allows("2001:db8:7fff::1"));
        assertTrue(rules.allows("::ffff:10.1.2.3"), "an IPv4-mapped client matches IPv4 rules");
    }

    @Test
    void denyWinsAndAnEmptyAllowAdmitsTheRest() {
        AddressRules rules = rules(List.of(), List.of("192.0.2.7", "2001:db8::/32"));
        assertFalse(rules.allows("192.0.2.7"));
        assertTrue(rules.allows("192.0.2.8"));
        assertFalse(rules.allows("2001:db8::1"));
        assertTrue(rules.allows("2001:db9::1"));
        AddressRules both = rules(List.of("0.0.0.0/0"), List.of("192.0.2.0/24"));
        assertFalse(both.allows("192.0.2.1"));
        assertTrue(both.allows("198.51.100.1"));
        assertFalse(both.allows("2001:db8::1"), "0.0.0.0/0 is every IPv4 address, not every address");
        assertTrue(rules(List.of("::/0"), List.of()).allows("198.51.100.1"), "::/0 is every address");
    }

    @Test
    void whatIsNotAnAddressNeverPasses() {
        AddressRules open = rules(List.of(), List.of("192.0.2.7"));
        for (String garbage : new String[]{"unknown", "1.2.3", "1.2.3.4.5", "256.1.1.1", "1..2.3", "", "::g", null}) {
            assertFalse(open.allows(garbage), String.valueOf(garbage));
        }
        assertEquals(0x7f000001L, AddressRules.ipv4("127.0.0.1"));
    }

    @Test
    void blocksAreNormalisedAndBadOnesExplained() {
        assertEquals("10.0.0.0/8", CidrBlock.parse(" 10.1.2.3/8 ").text());
        assertEquals("192.0.2.7/32", CidrBlock.parse("192.0.2.7").text());
        assertEquals("2001:db8::/32", CidrBlock.parse("[2001:DB8::1]/32").text());
        assertEquals("::/0", CidrBlock.parse("::/0").text());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CidrBlock.parse("10.0.0.0/33"))
                .getMessage().contains("prefix too long"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CidrBlock.parse("2001:db8::/129"))
                .getMessage().contains("/128"));
        assertThrows(IllegalArgumentException.class, () -> CidrBlock.parse("10.0.0.0/-1"));
        assertThrows(IllegalArgumentException.class, () -> CidrBlock.parse("example.com"));
        assertThrows(IllegalArgumentException.class, () -> CidrBlock.parse("fe80::1%eth0"));
    }
}
