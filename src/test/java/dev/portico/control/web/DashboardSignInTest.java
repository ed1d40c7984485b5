package dev.portico.control.web;

import dev.portico.testing.Api;
import dev.portico.testing.Browser;
import dev.portico.testing.Dashboard;
import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Signing in and out of the console in a real browser: a wrong token is refused in the form, the right one opens the
 * console with an HttpOnly session cookie and leaves nothing for scripts to read, and signing out ends the session.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class DashboardSignInTest {

    private final Dashboard console = new Dashboard();

    @Test
    void aWrongTokenIsRefusedAndTheRightOneOpensTheConsole() {
        console.driver().manage().deleteAllCookies();
        console.load("#/vhosts");

        console.signIn("not-the-admin-token");
        assertEquals("That token is not valid.", console.waitForText(By.id("token-error"), t -> !t.isEmpty()));
        assertEquals("true", console.driver().findElement(By.id("token")).getAttribute("aria-invalid"));
        assertFalse(console.driver().findElement(By.id("nav")).isDisplayed(), "no navigation before signing in");
        assertFalse(console.driver().findElement(By.id("sign-out")).isDisplayed());
        assertNull(console.driver().manage().getCookieNamed("portico_session"), "no cookie for a wrong token");
        Browser.screenshot("signin");

        console.signIn(Api.TOKEN);
        console.waitForText(By.cssSelector("main h1"), "Vhosts"::equals);
        assertTrue(console.driver().findElement(By.id("sign-out")).isDisplayed());

        Cookie session = console.driver().manage().getCookieNamed("portico_session");
        assertNotNull(session, "signed in with a cookie");
        assertTrue(session.isHttpOnly(), "the session cookie is HttpOnly");
        assertEquals("Strict", session.getSameSite());
        // Nothing of the session where a script (or an extension, or a log of URLs) could read it.
        assertEquals("", console.script("return document.cookie"));
        assertEquals(0L, console.script("return localStorage.length + sessionStorage.length"));
        assertFalse(console.driver().getCurrentUrl().contains(Api.TOKEN));
        assertTrue(console.all(By.id("token")).isEmpty(), "the token field is gone with the sign-in page");
    }

    @Test
    void signingOutEndsTheSession() {
        console.signedIn("#/overview");

        console.driver().findElement(By.id("sign-out")).click();

        console.waitForText(By.id("signin-message"), "You are signed out."::equals);
        assertFalse(console.driver().findElement(By.id("nav")).isDisplayed());
        // The cookie no longer opens anything, from this page or a reloaded one.
        assertEquals(401L, console.asyncScript(
                "fetch('/api/v1/vhosts').then(r => arguments[0](r.status))"));
        console.load("#/vhosts");
        console.waitFor(By.id("token"));
        assertTrue(console.all(By.cssSelector("main h1")).stream().noneMatch(h -> h.getText().equals("Vhosts")));
    }
}
