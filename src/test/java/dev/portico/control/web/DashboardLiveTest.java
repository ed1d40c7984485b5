package dev.portico.control.web;

import dev.portico.testing.Api;
import dev.portico.testing.Browser;
import dev.portico.testing.Dashboard;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginAndClientFixture;
import dev.portico.testing.Pacing;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The live pages in a real browser: traffic sent through the data plane moves the overview's numbers and sparklines
 * and the vhost's charts within two seconds; the cache panel shows what is stored and purges it.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class DashboardLiveTest extends OriginAndClientFixture<ScriptedOrigin> {

    /** What the issue asks: traffic shows within this long. */
    private static final Duration LIVE = Duration.ofSeconds(2);

    private final Dashboard console = new Dashboard();
    private final AtomicBoolean sending = new AtomicBoolean();
    private CompletableFuture<Void> traffic = CompletableFuture.completedFuture(null);

    DashboardLiveTest() {
        super(ScriptedOrigin::start);
    }

    @AfterEach
    void stopTraffic() {
        sending.set(false);
        traffic.join();
        console.driver().manage().window().setSize(Browser.DESKTOP);
    }

    @Test
    void theOverviewShowsEachVhostsTrafficAsItHappens() throws InterruptedException {
        origin.on("/", Reply.of(200, "home"));
        Api.create(Api.vhost("alpha", "alpha.test", origin.url()));
        Api.create(Api.vhost("beta", "beta.test", origin.url()));
        console.signedIn("#/overview");
        console.waitForText(By.id("live-state"), "Live"::equals);
        By alphaRate = By.cssSelector("tr[data-vhost='alpha'] td[data-metric='rps'] .metric-value");
        console.waitForText(alphaRate, t -> !t.isEmpty());

        sendSteadily("alpha.test", "/");
        Eventually.value(LIVE, () -> console.text(alphaRate), t -> t != null && number(t) > 0);
        assertFalse(console.driver().findElement(
                By.cssSelector("tr[data-vhost='alpha'] td[data-metric='rps'] path")).getAttribute("d").isEmpty(),
                "the sparkline draws");
        assertEquals("0.0", console.waitForText(
                By.cssSelector("tr[data-vhost='beta'] td[data-metric='rps'] .metric-value"), t -> true));
        console.waitForText(By.cssSelector("[data-check='Database'] .badge"), "OK"::equals);
        Pacing.pause(Duration.ofSeconds(3), "a few seconds of sparkline for the screenshot");
        Browser.screenshot("overview");

        console.driver().manage().window().setSize(Browser.PHONE);
        assertEquals(Boolean.TRUE, console.script(
                "return document.documentElement.scrollWidth <= window.innerWidth"), "no sideways scrolling on a phone");
        Browser.screenshot("overview-phone");
    }

    @Test
    void theVhostPageChartsTrafficAndPurgesItsCache() throws InterruptedException {
        origin.on("/page", Reply.of(200, "hello", "Cache-Control", "max-age=300"));
        String id = Api.create(Api.vhost("shop", "shop.test", origin.url()).put("cache", Api.enabled()));
        console.signedIn("#/vhost/" + id);
        console.waitForText(By.id("live-state"), "Live"::equals);
        console.waitFor(By.cssSelector("#chart-status canvas"));

        long started = System.nanoTime();
        sendSteadily("shop.test", "/page");
        Eventually.value(LIVE, () -> console.text(By.id("live-requests")), t -> t != null && number(t) > 0);
        // The chart's own line of latest values: the status chart has a 2xx rate above zero.
        Duration left = LIVE.minusNanos(System.nanoTime() - started);
        Eventually.value(left, () -> console.text(By.cssSelector("#chart-status .chart-now")),
                t -> t != null && number(t.replaceAll("(?s).*2xx ([0-9.]+)/s.*", "$1")) > 0);

        console.waitForText(By.id("cache-entries"), "1"::equals);
        console.waitForText(By.id("cache-hit-ratio"), t -> !t.equals("0.0%"));
        Pacing.pause(Duration.ofSeconds(3), "a few seconds of chart for the screenshot");
        sending.set(false);
        traffic.join();
        Browser.screenshot("vhost-detail");

        console.waitFor(By.id("purge-path")).click();
        console.waitFor(By.id("purge-target")).sendKeys("page");
        console.driver().findElement(By.id("purge")).click();
        assertEquals("must start with /", console.waitForText(By.id("purge-target-error"), t -> !t.isEmpty()));
        // Read once it is there: each live refresh re-renders the figure, and a read in between finds no element.
        assertEquals("1", console.waitForText(By.id("cache-entries"), t -> true));

        console.driver().findElement(By.id("purge-prefix")).click();
        console.driver().findElement(By.id("purge-target")).clear();
        console.driver().findElement(By.id("purge-target")).sendKeys("/");
        console.driver().findElement(By.id("purge")).click();
        String purged = console.waitForText(By.id("purge-result"), t -> !t.isEmpty());
        assertTrue(purged.startsWith("Purged 1 URI"), purged);
        console.waitForText(By.id("cache-entries"), "0"::equals);
        int before = origin.count("/page");
        assertEquals(200, client.get("shop.test", "/page").status());
        assertEquals(before + 1, origin.count("/page"), "purged: the next request went to the origin");
    }

    /** A request every 20 ms until the test ends, from a thread of its own. */
    private void sendSteadily(String host, String path) {
        sending.set(true);
        traffic = CompletableFuture.runAsync(() -> {
            try {
                while (sending.get()) {
                    client.get(host, path);
                    Pacing.pause(Duration.ofMillis(20), "steady traffic, as a live chart shows it");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private static double number(String text) {
        try {
            return Double.parseDouble(text.replace(",", "").replace("%", "").trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
