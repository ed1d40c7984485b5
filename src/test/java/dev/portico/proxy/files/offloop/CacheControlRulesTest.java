package dev.portico.proxy.files.offloop;

import dev.portico.vhost.StaticSpec.CacheControlRule;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Cache-Control by path pattern: '*' spans slashes, the first matching rule wins. */
class CacheControlRulesTest {

    private static final CacheControlRules RULES = CacheControlRules.of(List.of(
            new CacheControlRule("/assets/*", "immutable"),
            new CacheControlRule("*.html", "no-cache"),
            new CacheControlRule("/img/*/thumb-*.png", "thumb"),
            new CacheControlRule("/robots.txt", "exact"),
            new CacheControlRule("/a*a", "a-a")));

    @ParameterizedTest
    @CsvSource(nullValues = "NULL", value = {
            "/assets/app.js,             immutable",
            "/assets/deep/er/x.css,      immutable",
            "/assets/index.html,         immutable",
            "/assets,                    NULL",
            "/index.html,                no-cache",
            "/docs/guide.html,           no-cache",
            "/index.htm,                 NULL",
            "/img/2024/thumb-1.png,      thumb",
            "/img/a/b/thumb-x.png,       thumb",
            "/img/thumb-1.png,           NULL",
            "/robots.txt,                exact",
            "/robots.txt.bak,            NULL",
            "/a,                         NULL",
            "/aa,                        a-a",
            "/abca,                      a-a",
    })
    void firstMatchWins(String path, String expected) {
        assertEquals(expected, RULES.valueFor(path));
    }
}
