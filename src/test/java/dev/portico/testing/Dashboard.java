package dev.portico.testing;

import io.restassured.RestAssured;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

/**
 * The console as a user sees it, in the shared {@link Browser}: opening pages by route, signing in, finding fields by
 * the JSON path the API names, and waiting for what the page shows rather than sleeping.
 */
public final class Dashboard {

    public static final Duration WAIT = Duration.ofSeconds(10);

    private ChromeDriver driver;

    /** The browser, started on first use (so a test class can hold a Dashboard before its tests run). */
    public ChromeDriver driver() {
        if (driver == null) {
            driver = Browser.get();
        }
        return driver;
    }

    /**
     * The console of the Portico the test runs: the management API's test port, known once Quarkus has started (so
     * read on each use, not when a test instance is made).
     */
    public String base() {
        return "http://localhost:" + RestAssured.port + "/";
    }

    /** Loads the console afresh (a new document: live history and CSRF token start over) at a route. */
    public void load(String route) {
        driver().get(base() + route);
        driver().navigate().refresh();
    }

    /** Goes to a route within the loaded console, as a link would. */
    public void go(String route) {
        ((JavascriptExecutor) driver()).executeScript("location.hash = arguments[0]", route);
    }

    /** Loads the console at a route, signing in first when it asks. */
    public void signedIn(String route) {
        load(route);
        WebElement shown = waitFor(By.cssSelector("#token, #nav:not([hidden])"));
        if ("token".equals(shown.getAttribute("id"))) {
            signIn(Api.TOKEN);
            waitFor(By.cssSelector("#nav:not([hidden])"));
        }
        waitFor(By.cssSelector("main h1"));
    }

    public void signIn(String token) {
        WebElement field = waitFor(By.id("token"));
        field.clear();
        field.sendKeys(token, Keys.ENTER);
    }

    /** The first element matching, once there and displayed. */
    public WebElement waitFor(By by) {
        return Eventually.value(WAIT, () -> displayed(by), e -> e != null);
    }

    /** The text of the element, once it satisfies the condition. */
    public String waitForText(By by, Predicate<String> condition) {
        return Eventually.value(WAIT, () -> text(by), t -> t != null && condition.test(t));
    }

    /** The element's text now, or null while it is not there. */
    public String text(By by) {
        try {
            return driver().findElement(by).getText();
        } catch (NoSuchElementException | StaleElementReferenceException e) {
            return null;
        }
    }

    public List<WebElement> all(By by) {
        return driver().findElements(by);
    }

    private WebElement displayed(By by) {
        try {
            for (WebElement element : driver().findElements(by)) {
                if (element.isDisplayed()) {
                    return element;
                }
            }
            return null;
        } catch (StaleElementReferenceException e) {
            return null;
        }
    }

    /** The vhost form's control for a JSON path such as {@code name} or {@code upstreams[0].url}. */
    public WebElement field(String path) {
        By by = By.cssSelector("[data-path='" + path + "']");
        return Eventually.value(WAIT, () -> all(by).stream().findFirst().orElse(null), e -> e != null);
    }

    /** Waits until the form control for a JSON path holds the value (the form was filled from the API). */
    public void waitForValue(String path, String value) {
        Eventually.value(WAIT, () -> field(path).getDomProperty("value"), value::equals);
    }

    /** Opens or folds a section of the vhost form, as a click on its heading does. */
    public void toggleSection(String name) {
        WebElement heading = waitFor(By.xpath("//details[@class='section']/summary[.='" + name + "']"));
        // Into the middle of the window: at the bottom the form's sticky Save bar would take the click.
        script("arguments[0].scrollIntoView({block: 'center'})", heading);
        heading.click();
    }

    /** Replaces the text of a form control. */
    public void type(String path, String text) {
        WebElement field = field(path);
        field.clear();
        field.sendKeys(text);
    }

    /** Puts a long text into a control at once, as pasting does (typing it key by key takes seconds). */
    public void paste(WebElement control, String text) {
        script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))",
                control, text);
    }

    /** The error line of a form control: the element its aria-describedby names last. */
    public WebElement errorOf(WebElement control) {
        String[] ids = control.getAttribute("aria-describedby").split(" ");
        return driver().findElement(By.id(ids[ids.length - 1]));
    }

    public Object script(String script, Object... args) {
        return ((JavascriptExecutor) driver()).executeScript(script, args);
    }

    public Object asyncScript(String script, Object... args) {
        return ((JavascriptExecutor) driver()).executeAsyncScript(script, args);
    }
}
