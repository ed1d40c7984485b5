package dev.portico.control.web;

import dev.portico.testing.Browser;
import dev.portico.testing.Dashboard;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the console costs a browser, read from the browser's own Performance API with its cache off: every file of
 * every page (the document, the modules, the stylesheet, uPlot) under 300 KiB transferred, and the first paint of a
 * cold load. The figures go to target/screenshots/performance.txt (and the README).
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class DashboardPerformanceTest extends DataPlaneTestSupport {

    private static final long BUDGET_BYTES = 300 * 1024;
    /** The goal is 100 ms on an idle machine; the bound leaves room for a test machine busy with other work. */
    private static final double FIRST_PAINT_BOUND_MS = 1000;

    private final Dashboard console = new Dashboard();

    @AfterEach
    void cacheBackOn() {
        console.driver().executeCdpCommand("Network.setCacheDisabled", Map.of("cacheDisabled", false));
    }

    @Test
    void everyPageTogetherStaysUnderTheBudgetAndPaintsFast() throws IOException {
        String id = vhost("shop", "shop.test", origin("shop"));
        console.signedIn("#/overview");
        console.driver().executeCdpCommand("Network.enable", Map.of());
        console.driver().executeCdpCommand("Network.setCacheDisabled", Map.of("cacheDisabled", true));

        console.load("#/overview");
        console.waitForText(By.cssSelector("main h1"), "Overview"::equals);
        console.go("#/vhosts");
        console.waitForText(By.cssSelector("main h1"), "Vhosts"::equals);
        console.go("#/vhosts/new");
        console.waitForText(By.cssSelector("main h1"), "New vhost"::equals);
        console.go("#/vhost/" + id);
        console.waitFor(By.cssSelector("#chart-status canvas"));
        console.go("#/analytics/" + id);
        console.waitFor(By.cssSelector("#chart-minutes canvas"));

        @SuppressWarnings("unchecked")
        Map<String, Object> measured = (Map<String, Object>) console.script("""
                const ui = e => !new URL(e.name).pathname.startsWith('/api/');
                const files = [performance.getEntriesByType('navigation')[0],
                  ...performance.getEntriesByType('resource').filter(ui)];
                const paint = name => (performance.getEntriesByName(name)[0] || {}).startTime;
                return {
                  files: files.length,
                  transferred: files.reduce((sum, e) => sum + e.transferSize, 0),
                  decoded: files.reduce((sum, e) => sum + e.decodedBodySize, 0),
                  uplot: files.filter(e => e.name.includes('/webjars/uplot/')).reduce((s, e) => s + e.transferSize, 0),
                  firstPaint: paint('first-paint'),
                  firstContentfulPaint: paint('first-contentful-paint'),
                  domContentLoaded: performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,
                };""");
        long transferred = ((Number) measured.get("transferred")).longValue();
        double firstPaint = ((Number) measured.get("firstPaint")).doubleValue();
        double firstContentfulPaint = ((Number) measured.get("firstContentfulPaint")).doubleValue();
        String report = String.format("""
                files: %s
                transferred: %d bytes (%.1f KiB), of which uPlot %s bytes; decoded %s bytes
                first paint: %.0f ms; first contentful paint: %.0f ms; DOMContentLoaded: %.0f ms
                """, measured.get("files"), transferred, transferred / 1024.0, measured.get("uplot"),
                measured.get("decoded"), firstPaint, firstContentfulPaint,
                ((Number) measured.get("domContentLoaded")).doubleValue());
        Files.createDirectories(Browser.SCREENSHOTS);
        Files.writeString(Browser.SCREENSHOTS.resolve("performance.txt"), report);
        System.out.print(report);

        assertTrue(((Number) measured.get("uplot")).longValue() > 0, "uPlot was loaded and counted");
        assertTrue(transferred > 0 && transferred < BUDGET_BYTES, report);
        assertTrue(firstContentfulPaint > 0 && firstContentfulPaint < FIRST_PAINT_BOUND_MS, report);
        assertEquals(0L, console.script("return performance.getEntriesByType('resource')"
                + ".filter(e => new URL(e.name).origin !== location.origin).length"), "nothing from another origin");
    }
}
