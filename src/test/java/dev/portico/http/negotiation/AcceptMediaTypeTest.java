package dev.portico.http.negotiation;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AcceptMediaTypeTest {

    @Test
    void browsersGetHtml() {
        assertTrue(AcceptMediaType.prefersHtml(
                "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,*/*;q=0.8"));
        assertTrue(AcceptMediaType.prefersHtml("text/*, application/json;q=0.5"));
        assertTrue(AcceptMediaType.prefersHtml("TEXT/HTML"));
    }

    @Test
    void programsAndTiesGetJson() {
        assertFalse(AcceptMediaType.prefersHtml(null));
        assertFalse(AcceptMediaType.prefersHtml("*/*"));
        assertFalse(AcceptMediaType.prefersHtml("application/json"));
        assertFalse(AcceptMediaType.prefersHtml("text/html, application/json"), "a tie");
        assertFalse(AcceptMediaType.prefersHtml("application/problem+json, text/html;q=0.9"));
        assertFalse(AcceptMediaType.prefersHtml("text/html;q=0, */*"), "HTML refused");
        assertFalse(AcceptMediaType.prefersHtml("image/png"), "neither: JSON");
    }

    @Test
    void theMostSpecificRangeDecidesAndABadWeightIsIgnored() {
        assertFalse(AcceptMediaType.prefersHtml("text/html;q=0.1, text/*;q=1, application/json;q=0.5"));
        assertTrue(AcceptMediaType.prefersHtml("text/html, application/json;q=2"), "q=2 is no weight: ignored");
    }
}
