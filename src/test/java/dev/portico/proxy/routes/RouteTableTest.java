package dev.portico.proxy.routes;

import dev.portico.proxy.core.Stage;
import dev.portico.vhost.RouteSpec;
import io.vertx.core.MultiMap;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The route table and the normalised path on their own: which route takes which target, and what it captures. */
class RouteTableTest {

    static RouteTable table(List<RouteSpec.Match> matches) {
        List<RouteSpec> routes = new ArrayList<>();
        for (int i = 0; i < matches.size(); i++) {
            routes.add(new RouteSpec("r" + i, matches.get(i), null, null, null, null));
        }
        return RouteTable.of(routes, route -> new Stage[0]);
    }

    static RouteSpec.Match path(String pattern) {
        return new RouteSpec.Match(pattern, null, null, null, null, false);
    }

    private static String taken(RouteTable table, String target) throws RequestPath.Invalid {
        MatchedRoute matched = table.match("GET", MultiMap.caseInsensitiveMultiMap(), target);
        return matched == null ? null : matched.route().spec().name() + " " + matched.capture();
    }

    @Test
    void amongAHundredPrefixRoutesTheFirstListedThatMatchesWins() throws Exception {
        List<RouteSpec.Match> matches = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            matches.add(path("/service" + i + "/*"));
        }
        matches.add(path("/service7/special/*"));
        matches.add(0, path("/service42/first/*"));
        RouteTable table = table(matches);
        assertEquals("r8 a/b", taken(table, "/service7/a/b"));
        assertEquals("r8 special/x", taken(table, "/service7/special/x"), "listed later: the shorter prefix wins");
        assertEquals("r0 x", taken(table, "/service42/first/x"), "listed first, so it wins over /service42/*");
        assertEquals("r100 ", taken(table, "/SERVICE99"));
        assertNull(taken(table, "/service100/x"));
        assertNull(taken(table, "/other"));
    }

    @Test
    void theCaptureKeepsTheClientsCaseAndIsDecoded() throws Exception {
        RouteTable table = table(List.of(path("/old/*"), path("/files/*.pdf"),
                new RouteSpec.Match(null, "^/u/([0-9]+)$", null, null, null, false)));
        assertEquals("r0 A/b c", taken(table, "/OLD/A/b%20c"));
        assertEquals("r1 report", taken(table, "/files/report.pdf"));
        assertEquals("r2 42", taken(table, "/u/42"));
    }

    @Test
    void caseSensitiveRoutesCompareCase() throws Exception {
        RouteTable table = table(List.of(new RouteSpec.Match("/Docs/*", null, null, null, null, true)));
        assertEquals("r0 x", taken(table, "/Docs/x"));
        assertNull(taken(table, "/docs/x"));
    }

    @Test
    void methodsHeadersAndQueryAllMustHold() throws Exception {
        RouteTable table = table(List.of(new RouteSpec.Match("/a/*", null, List.of("POST"), Map.of("x-env", "beta"),
                Map.of("v", "*"), false)));
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("X-Env", "beta");
        assertEquals("r0", table.match("POST", headers, "/a/b?v=1").route().spec().name());
        assertNull(table.match("GET", headers, "/a/b?v=1"));
        assertNull(table.match("POST", MultiMap.caseInsensitiveMultiMap(), "/a/b?v=1"));
        assertNull(table.match("POST", headers, "/a/b?w=1"));
    }

    @Test
    void theNormalisedPathAndTheSuffixKeptForARewrite() throws Exception {
        RequestPath path = RequestPath.parse("/api//x/./y/../%7Ez;p=1/?q=1");
        assertEquals("/api/x/~z/", path.matchForm());
        assertEquals("/x/%7Ez;p=1/", path.suffix(1), "the client's bytes of the segments kept");
        assertEquals("q=1", path.query());
        RequestPath split = RequestPath.parse("/api%2Fx/y");
        assertEquals("/api/x/y", split.matchForm());
        assertNull(split.suffix(1), "an encoded slash splits the first segment: no single reading");
        assertEquals("/y", split.suffix(2));
        assertThrows(RequestPath.Invalid.class, () -> RequestPath.parse("/a/../../b"));
        assertThrows(RequestPath.Invalid.class, () -> RequestPath.parse("/a%0a"));
        assertThrows(RequestPath.Invalid.class, () -> RequestPath.parse("/a%g0"));
        assertNull(RequestPath.parse("*"));
    }
}
