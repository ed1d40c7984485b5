package dev.portico.control.web;

import dev.portico.testing.Api;
import dev.portico.testing.Browser;
import dev.portico.testing.Dashboard;
import dev.portico.testing.Eventually;
import dev.portico.testing.OriginAndClientFixture;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.http.HttpMethod;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The analytics page in a real browser, once the test profile's two-second "minute" has closed: the totals, the top
 * lists with user-agent classes, the per-minute chart, and attacker-chosen user agents and referrers shown as text:
 * no element made of them, no script run.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class DashboardAnalyticsTest extends OriginAndClientFixture<ScriptedOrigin> {

    private static final String SCRIPT_AGENT = "<script>alert(1)</script>";
    private static final String IMAGE_AGENT = "<img src=x onerror=\"document.title='pwned'\">";
    private static final String CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
            + "Chrome/120.0.0.0 Safari/537.36";

    private final Dashboard console = new Dashboard();

    DashboardAnalyticsTest() {
        super(ScriptedOrigin::start);
    }

    @Test
    void theTrafficOfAClosedMinuteIsShownAndHostileValuesStayText() {
        origin.on("/products", Reply.of(200, "products")).on("/", Reply.of(200, "home"));
        String id = Api.create(Api.vhost("shop", "shop.test", origin.url()));
        for (int i = 0; i < 5; i++) {
            send("/products", SCRIPT_AGENT, "https://evil.example/<b>bold</b>");
        }
        for (int i = 0; i < 3; i++) {
            send("/", "curl/8.5.0", null);
        }
        send("/products?page=2", CHROME, null);
        send("/products", IMAGE_AGENT, null);

        console.signedIn("#/analytics/" + id + "?range=1h");
        // The page reads the stored minutes; the test profile closes one every two seconds.
        Eventually.within(Duration.ofSeconds(20), () -> {
            console.driver().findElement(By.id("analytics-refresh")).click();
            assertEquals("10", console.waitForText(By.id("analytics-requests"), t -> !t.isEmpty()));
        });

        List<String> agents = column("top-agents", 1);
        assertTrue(agents.contains(SCRIPT_AGENT), "shown as the text it is: " + agents);
        assertTrue(agents.contains(IMAGE_AGENT), agents.toString());
        assertEquals("tool", classOf("curl/8.5.0"));
        assertEquals("browser", classOf(CHROME));
        assertEquals(List.of("/products", "/"), column("top-paths", 1));
        assertTrue(column("top-referrers", 1).contains("https://evil.example/<b>bold</b>"));
        // Nothing of what the requests carried became an element, and nothing ran.
        assertEquals(List.of(), console.all(By.cssSelector("#analytics-results script, #analytics-results img, "
                + "#analytics-results b")));
        assertThrows(NoAlertPresentException.class, () -> console.driver().switchTo().alert());
        assertEquals("Analytics of shop · Portico", console.driver().getTitle());
        console.waitFor(By.cssSelector("#chart-minutes canvas"));
        Browser.screenshot("analytics");
    }

    /** One request through the data plane with the given User-Agent and Referer (null: none). */
    private void send(String path, String agent, String referrer) {
        int status = referrer == null
                ? client.send(HttpMethod.GET, "shop.test", path, "User-Agent", agent).status()
                : client.send(HttpMethod.GET, "shop.test", path, "User-Agent", agent, "Referer", referrer).status();
        assertEquals(200, status);
    }

    /** The texts of one column of a top list's table (1-based). */
    private List<String> column(String list, int column) {
        return console.all(By.cssSelector("#" + list + " tbody tr td:nth-child(" + column + ")")).stream()
                .map(WebElement::getText).toList();
    }

    private String classOf(String agent) {
        for (WebElement row : console.all(By.cssSelector("#top-agents tbody tr"))) {
            List<WebElement> cells = row.findElements(By.tagName("td"));
            if (cells.get(0).getText().equals(agent)) {
                return cells.get(1).getText();
            }
        }
        return null;
    }
}
