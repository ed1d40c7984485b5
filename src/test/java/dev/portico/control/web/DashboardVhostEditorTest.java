package dev.portico.control.web;

import dev.portico.testing.Api;
import dev.portico.testing.Browser;
import dev.portico.testing.Dashboard;
import dev.portico.testing.Eventually;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.OriginServer;
import dev.portico.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The vhost list and editor in a real browser: creating a vhost through the form (a bad field's error appears beside
 * that field), a concurrent edit reported as a conflict instead of overwritten, the JSON view, and disabling and
 * deleting from the list.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class DashboardVhostEditorTest extends DataPlaneTestSupport {

    private final Dashboard console = new Dashboard();

    @TestHTTPResource(value = "/", management = true)
    URL management;

    @Test
    void aVhostCreatedThroughTheFormServesAndABadFieldIsNamedBesideIt() {
        OriginServer origin = origin("shop");
        console.signedIn("#/vhosts");
        console.driver().findElement(By.id("new-vhost")).click();
        console.waitForText(By.cssSelector("main h1"), "New vhost"::equals);
        Browser.screenshot("vhost-editor");

        console.type("name", "bad name!");
        console.type("hostnames", "shop.test");
        console.type("upstreams[0].url", origin.url());
        console.toggleSection("Timeouts and limits");
        console.type("connectTimeout", "soon");
        console.toggleSection("Timeouts and limits");
        console.driver().findElement(By.id("save")).click();

        WebElement name = console.field("name");
        WebElement nameError = console.errorOf(name);
        String reason = console.waitForText(By.id(nameError.getAttribute("id")), t -> !t.isEmpty());
        assertTrue(reason.startsWith("must be 1-63 characters"), reason);
        assertEquals(name.findElement(By.xpath("..")), nameError.findElement(By.xpath("..")),
                "the error stands in the field's own box, beside it");
        assertEquals("true", name.getAttribute("aria-invalid"));
        // The other bad field's section was folded; its error opens it.
        WebElement timeoutError = console.errorOf(console.field("connectTimeout"));
        assertTrue(timeoutError.isDisplayed());
        assertTrue(console.text(By.id("error-summary")).contains("name: must be 1-63 characters"));
        assertEquals(List.of(), Api.given().get("/api/v1/vhosts").then().statusCode(200).extract().path("id"));
        Browser.screenshot("vhost-editor-errors");

        console.type("name", "shop");
        console.field("connectTimeout").clear();
        console.driver().findElement(By.id("save")).click();

        console.waitForText(By.cssSelector("main h1"), "shop"::equals);
        assertEquals("shop is created and serving.", console.text(By.id("notice")));
        JsonObject stored = new JsonArray(Api.given().get("/api/v1/vhosts").then().statusCode(200).extract().asString())
                .getJsonObject(0);
        assertEquals(new JsonArray().add("shop.test"), stored.getJsonArray("hostnames"));
        assertEquals(origin.url(), stored.getJsonArray("upstreams").getJsonObject(0).getString("url"));
        assertEquals(200, client().get("shop.test", "/echo").status());
    }

    @Test
    void anEditMadeMeanwhileIsAConflictNotOverwritten() {
        String id = vhost("blog", "blog.test", origin("blog"));
        console.signedIn("#/vhosts/" + id + "/edit");
        console.waitForValue("name", "blog");

        JsonObject theirs = get(id).put("readTimeout", "30s");
        Api.given().header("If-Match", "\"1\"").body(theirs.encode()).put("/api/v1/vhosts/" + id)
                .then().statusCode(200);
        console.toggleSection("Timeouts and limits");
        console.type("readTimeout", "45s");
        console.driver().findElement(By.id("save")).click();

        String message = console.waitForText(By.id("conflict-message"), t -> !t.isEmpty());
        assertTrue(message.startsWith("You started from version 1, but it is now at version 2"), message);
        assertTrue(message.endsWith("Your changes are not saved."), message);
        assertEquals("30s", get(id).getString("readTimeout"), "their change stands");
        Browser.screenshot("vhost-editor-conflict");

        console.driver().findElement(By.xpath("//button[starts-with(., 'Load their version')]")).click();
        console.waitForValue("readTimeout", "30s");
        console.type("readTimeout", "45s");
        console.driver().findElement(By.id("save")).click();
        console.waitForText(By.id("notice"), "Saved: blog is at version 3."::equals);
        assertEquals("45s", get(id).getString("readTimeout"));
    }

    @Test
    void theJsonViewSendsWhatIsWrittenAndShowsTheErrors() {
        String id = vhost("docs", "docs.test", origin("docs"));
        console.signedIn("#/vhosts/" + id + "/edit");
        console.waitForValue("name", "docs");

        console.driver().findElement(By.id("mode-json")).click();
        WebElement json = console.waitFor(By.id("vhost-json"));
        JsonObject shown = new JsonObject(json.getDomProperty("value"));
        assertEquals("docs", shown.getString("name"));
        assertEquals(new JsonArray().add("docs.test"), shown.getJsonArray("hostnames"));

        // A key given twice reaches the server as written, and it says so.
        String twice = shown.encode().replaceFirst("\\{", "{\"maxInFlight\": 5, \"maxInFlight\": 6, ");
        console.paste(json, twice);
        console.driver().findElement(By.id("save")).click();
        String summary = console.waitForText(By.id("error-summary"), t -> t.contains("maxInFlight"));
        assertTrue(summary.contains("given twice"), summary);

        console.paste(json, shown.copy().put("maxInFlight", 7).encodePrettily());
        console.driver().findElement(By.id("save")).click();
        console.waitForText(By.id("notice"), "Saved: docs is at version 2."::equals);
        assertEquals(7, get(id).getInteger("maxInFlight"));

        console.driver().findElement(By.id("mode-form")).click();
        console.waitForValue("maxInFlight", "7");
    }

    @Test
    void theListDisablesAndDeletes() {
        String id = vhost("api", "api.test", origin("api"));
        console.signedIn("#/vhosts");

        console.waitFor(By.cssSelector("button[aria-label='Disable api']")).click();
        console.waitForText(By.cssSelector("tr[data-vhost='api'] .badge"), "disabled"::equals);
        assertEquals(false, get(id).getBoolean("enabled"));
        assertEquals(404, client().get("api.test", "/echo").status());
        assertEquals("api is disabled.", console.text(By.id("notice")));
        Browser.screenshot("vhosts");

        console.waitFor(By.cssSelector("button[aria-label='Delete api']")).click();
        WebElement dialog = console.waitFor(By.cssSelector("dialog.confirm"));
        assertEquals("Delete api?", dialog.findElement(By.tagName("h2")).getText());
        dialog.findElement(By.cssSelector("button.danger")).click();
        console.waitForText(By.id("notice"), "api is deleted."::equals);
        // The notice comes before the list is loaded again.
        Eventually.within(Dashboard.WAIT,
                () -> assertTrue(console.all(By.cssSelector("tr[data-vhost='api']")).isEmpty()));
        Api.given().get("/api/v1/vhosts/" + id).then().statusCode(404);
    }

    @Test
    void theFormHasEveryFieldOfTheApi() {
        console.signedIn("#/vhosts");
        @SuppressWarnings("unchecked")
        List<String> form = (List<String>) console.asyncScript("""
                const done = arguments[0];
                import('/ui/pages/vhosts/fields.js').then(({ SECTIONS }) => {
                  const out = [];
                  const walk = (fields, prefix) => fields.forEach(f => {
                    const path = prefix ? `${prefix}.${f.key}` : f.key;
                    if (f.type === 'group') walk(f.fields, path);
                    else if (f.type === 'rows') walk(f.fields, `${path}[]`);
                    else if (f.type === 'json') out.push(`${path} (json)`);
                    else out.push(path);
                  });
                  SECTIONS.forEach(s => walk(s.fields, ''));
                  done(out);
                });""");
        JsonObject schemas = new JsonObject(Api.given()
                .baseUri(management.getProtocol() + "://" + management.getHost() + ":" + management.getPort())
                .accept("application/json").get("/q/openapi").then().statusCode(200).extract().asString())
                .getJsonObject("components").getJsonObject("schemas");
        List<String> api = new ArrayList<>();
        leaves(schemas, schemas.getJsonObject("VhostDefinition"), "", api);

        // A field edited as JSON covers everything inside it.
        List<String> asJson = form.stream().filter(path -> path.endsWith(" (json)"))
                .map(path -> path.substring(0, path.length() - " (json)".length())).toList();
        form = new ArrayList<>(form.stream().map(path -> path.replace(" (json)", "")).toList());
        api.removeIf(path -> asJson.stream().anyMatch(json -> path.startsWith(json + ".")
                || path.startsWith(json + "[]")));
        api.addAll(asJson.stream().filter(json -> !api.contains(json)).toList());
        Set<String> missing = new TreeSet<>(api);
        missing.removeAll(form);
        Set<String> unknown = new TreeSet<>(form);
        unknown.removeAll(api);
        assertEquals(Set.of(), missing, "fields of VhostDefinition the editor's field list (fields.js) lacks");
        assertEquals(Set.of(), unknown, "fields in fields.js that VhostDefinition does not have");
        assertTrue(api.size() > 90, "the walk found the nested fields too: " + api.size());
    }

    /** The JSON paths of a schema's scalar fields: objects with properties are walked, arrays of them as []. */
    private static void leaves(JsonObject schemas, JsonObject schema, String prefix, List<String> out) {
        JsonObject properties = schema.getJsonObject("properties");
        for (String name : properties.fieldNames()) {
            JsonObject property = properties.getJsonObject(name);
            String path = prefix.isEmpty() ? name : prefix + "." + name;
            JsonObject items = property.getJsonObject("items");
            JsonObject target = resolve(schemas, items != null ? items : property);
            if (target.containsKey("properties")) {
                leaves(schemas, target, items != null ? path + "[]" : path, out);
            } else {
                out.add(path);
            }
        }
    }

    private static JsonObject resolve(JsonObject schemas, JsonObject property) {
        String ref = property.getString("$ref");
        return ref == null ? property : schemas.getJsonObject(ref.substring(ref.lastIndexOf('/') + 1));
    }

    private static JsonObject get(String id) {
        return new JsonObject(Api.given().get("/api/v1/vhosts/" + id).then().statusCode(200).extract().asString());
    }
}
