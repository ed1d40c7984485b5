package dev.portico.testing;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * One headless Chromium for every browser test of the run: Debian's {@code chromium}, driven through its
 * {@code chromedriver} by Selenium, both named by path so that Selenium Manager never downloads a browser or a driver.
 * Started by the first test that asks, quit when the JVM exits.
 * <p>
 * Without the packages the tests are skipped locally, but fail under CI ({@code CI=true}), so CI cannot silently skip
 * the browser tests; {@code .ci/run} installs them.
 */
public final class Browser {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    /** Every run writes a screenshot of each page here; docs/screenshots/ holds copies for the README. */
    public static final Path SCREENSHOTS = Path.of("target", "screenshots");
    public static final Dimension DESKTOP = new Dimension(1280, 900);
    public static final Dimension PHONE = new Dimension(390, 844);

    private static ChromeDriver driver;

    private Browser() {
    }

    /** Skips the test when chromium or chromedriver is missing, unless under CI, where that is a failure. */
    public static void assumeInstalled() {
        boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        if ("true".equals(System.getenv("CI"))) {
            Assertions.assertTrue(installed, "CI=true but " + CHROMIUM + " or " + CHROMEDRIVER
                    + " is missing (apt-get install chromium chromium-driver)");
        }
        Assumptions.assumeTrue(installed, "chromium is not installed (apt-get install chromium chromium-driver)");
    }

    /** The shared browser, started on first use. */
    public static synchronized ChromeDriver get() {
        assumeInstalled();
        if (driver == null) {
            ChromeOptions options = new ChromeOptions();
            options.setBinary(CHROMIUM.toFile());
            // --no-sandbox: the tests may run as root, where Chromium's sandbox refuses to start. The page under test
            // is Portico's own, on loopback. The --disable-* switches keep the browser off the network: nothing but
            // the page's own requests, as the console must work offline.
            options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                    "--window-size=" + DESKTOP.width + "," + DESKTOP.height, "--lang=en-GB", "--no-first-run",
                    "--disable-extensions", "--disable-background-networking", "--disable-sync",
                    "--disable-default-apps", "--disable-component-update", "--hide-scrollbars");
            ChromeDriverService service = new ChromeDriverService.Builder()
                    .usingDriverExecutable(CHROMEDRIVER.toFile())
                    .usingAnyFreePort()
                    .build();
            driver = new ChromeDriver(service, options);
            ChromeDriver started = driver;
            Runtime.getRuntime().addShutdownHook(new Thread(started::quit));
        }
        return driver;
    }

    /**
     * Saves the whole page (the window stretched to its height for the shot) as {@code target/screenshots/name.png}.
     */
    public static void screenshot(String name) {
        ChromeDriver browser = get();
        Dimension size = browser.manage().window().getSize();
        // The window's height includes the browser's own bars: the page needs its height plus theirs.
        Number height = (Number) ((JavascriptExecutor) browser).executeScript(
                "return Math.min(4000, document.documentElement.scrollHeight) + window.outerHeight - window.innerHeight");
        try {
            browser.manage().window().setSize(new Dimension(size.width, Math.max(size.height, height.intValue())));
            Path shot = browser.getScreenshotAs(OutputType.FILE).toPath();
            Files.createDirectories(SCREENSHOTS);
            Files.copy(shot, SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
            Files.delete(shot);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            browser.manage().window().setSize(size);
        }
    }
}
