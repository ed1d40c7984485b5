package dev.portico.proxy.routes;

import dev.portico.testing.Api;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.RawHttp;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A route that guards {@code /admin/*} (here with an IP rule that refuses every client) against the spellings an
 * origin may read as {@code /admin} while a naive matcher does not: encoded dots and letters, encoded and doubled
 * slashes, backslashes, path parameters, case. Each must be refused (403 by the guard, or 400 when the path has no
 * safe reading) and none may reach the origin.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RouteBypassTest extends DataPlaneTestSupport {

    private ScriptedOrigin origin;

    @AfterEach
    void closeOrigin() {
        origin.close();
    }

    @Test
    void noSpellingOfAGuardedPathReachesTheOrigin() throws Exception {
        origin = ScriptedOrigin.start().on("*", request -> Reply.of(200, "open " + request.uri()));
        vhost(Api.vhost("guarded", "guarded.test", origin.url()).put("routes", new JsonArray().add(new JsonObject()
                .put("match", new JsonObject().put("path", "/admin/*"))
                .put("access", new JsonObject().put("deny", new JsonArray().add("0.0.0.0/0").add("::/0"))))));
        List<String> variants = List.of("/admin", "/admin/", "/admin/users", "/ADMIN/users", "/Admin",
                "/%61dmin/users", "/%41DMIN", "/public/../admin/users", "/public/%2e%2e/admin/users",
                "/public/%2E%2E/admin", "/public/.%2e/admin", "/public/..%2fadmin", "/public/..%2Fadmin/users",
                "/public/..%5cadmin", "/public/..\\admin", "//admin/users", "///admin", "/./admin/users",
                "/%2e/admin", "/admin;jsessionid=1/users", "/admin;/users", "/admin%3bx/users", "/public/..;/admin",
                "/admin%2fusers", "/%2fadmin/users", "/admin/../admin/users", "/public/x/../../admin");
        List<String> leaked = new ArrayList<>();
        for (String variant : variants) {
            String answer = RawHttp.exchange(dataPlane.port(), "GET " + variant + " HTTP/1.1\r\nHost: guarded.test\r\n"
                    + "Connection: close\r\n\r\n");
            int status = RawHttp.status(answer);
            if (status != 403 && status != 400) {
                leaked.add(variant + " -> " + status);
            }
        }
        assertEquals(List.of(), leaked, "spellings of /admin that got past the route's guard");
        assertEquals(List.of(), origin.seen().stream().map(ScriptedOrigin.Seen::uri).toList(),
                "requests that reached the origin");

        // Paths that only look alike are not the route's.
        for (String open : List.of("/administrator", "/public/admin", "/adm%69n2", "/public/%2e%2e%2e/admin")) {
            String answer = RawHttp.exchange(dataPlane.port(), "GET " + open + " HTTP/1.1\r\nHost: guarded.test\r\n"
                    + "Connection: close\r\n\r\n");
            assertEquals(200, RawHttp.status(answer), open + ": " + answer);
        }
    }

    @Test
    void aPathThatClimbsAboveTheRootOrEncodesNulIsRefused() throws Exception {
        origin = ScriptedOrigin.start().on("*", request -> Reply.of(200, "open"));
        vhost(Api.vhost("strict", "strict.test", origin.url()).put("routes", new JsonArray().add(new JsonObject()
                .put("match", new JsonObject().put("path", "/x")).put("respond", new JsonObject()))));
        for (String bad : List.of("/../etc/passwd", "/%2e%2e/etc", "/a/%00", "/a%zz")) {
            String answer = RawHttp.exchange(dataPlane.port(), "GET " + bad + " HTTP/1.1\r\nHost: strict.test\r\n"
                    + "Connection: close\r\n\r\n");
            assertEquals(400, RawHttp.status(answer), bad + ": " + answer);
        }
        assertEquals(0, origin.seen().size());
    }
}
