package dev.portico.proxy.jwt;

import dev.portico.testing.Api;
import dev.portico.testing.BrokenOrigins;
import dev.portico.testing.DataPlaneTestSupport;
import dev.portico.testing.Eventually;
import dev.portico.testing.PostgresResource;
import dev.portico.testing.ProxyClient;
import dev.portico.testing.ScriptedOrigin;
import dev.portico.testing.ScriptedOrigin.Reply;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jwk.EcJwkGenerator;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.PublicJsonWebKey;
import org.jose4j.jwk.RsaJwkGenerator;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.keys.EllipticCurves;
import org.jose4j.keys.HmacKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.security.Key;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static dev.portico.testing.Problems.assertInvalid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The jwt policy against tokens made here with jose4j, a real JWKS endpoint on loopback whose key set the tests
 * rotate, and a real origin that shows what went upstream.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class JwtTest extends DataPlaneTestSupport {

    private static final String ISSUER = "https://login.test";
    private static final String AUDIENCE = "shop";

    private final List<ScriptedOrigin> servers = new ArrayList<>();
    private final AtomicReference<String> keySet = new AtomicReference<>();
    private ScriptedOrigin origin;

    @AfterEach
    void closeServers() {
        servers.forEach(ScriptedOrigin::close);
        servers.clear();
    }

    private ScriptedOrigin jwksServer() {
        ScriptedOrigin jwks = ScriptedOrigin.start().on("/jwks.json",
                request -> Reply.of(200, keySet.get(), "Content-Type", "application/json"));
        servers.add(jwks);
        return jwks;
    }

    private void publish(PublicJsonWebKey... keys) {
        keySet.set(new JsonWebKeySet(keys).toJson(JsonWebKey.OutputControlLevel.PUBLIC_ONLY));
    }

    private static PublicJsonWebKey rsa(String kid) throws Exception {
        PublicJsonWebKey key = RsaJwkGenerator.generateJwk(2048);
        key.setKeyId(kid);
        return key;
    }

    private static PublicJsonWebKey ec(String kid) throws Exception {
        PublicJsonWebKey key = EcJwkGenerator.generateJwk(EllipticCurves.P256);
        key.setKeyId(kid);
        return key;
    }

    private static JwtClaims claims(String subject) {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(ISSUER);
        claims.setAudience(AUDIENCE);
        claims.setSubject(subject);
        claims.setExpirationTimeMinutesInTheFuture(10);
        claims.setIssuedAtToNow();
        claims.setClaim("plan", "gold");
        return claims;
    }

    private static String sign(JwtClaims claims, Key key, String kid, String alg) throws Exception {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(key);
        if (kid != null) {
            jws.setKeyIdHeaderValue(kid);
        }
        jws.setAlgorithmHeaderValue(alg);
        jws.setAlgorithmConstraints(AlgorithmConstraints.NO_CONSTRAINTS);
        return jws.getCompactSerialization();
    }

    private static String sign(JwtClaims claims, PublicJsonWebKey key, String alg) throws Exception {
        return sign(claims, key.getPrivateKey(), key.getKeyId(), alg);
    }

    private String rs256(PublicJsonWebKey key, String subject) throws Exception {
        return sign(claims(subject), key, AlgorithmIdentifiers.RSA_USING_SHA256);
    }

    private JsonObject jwt(Object... pairs) {
        JsonObject block = new JsonObject().put("issuer", ISSUER).put("audience", new JsonArray().add(AUDIENCE))
                .put("claimHeaders", new JsonObject().put("sub", "X-User-Id").put("plan", "X-Plan"));
        for (int i = 0; i + 1 < pairs.length; i += 2) {
            block.put((String) pairs[i], pairs[i + 1]);
        }
        return block;
    }

    private void guarded(String host, JsonObject jwt) {
        origin = ScriptedOrigin.start().on("*", Reply.of(200, "secret"));
        servers.add(origin);
        vhost(Api.vhost(host.replace(".test", ""), host, origin.url()).put("jwt", jwt));
    }

    private ProxyClient.Reply bearer(String host, String token, String... more) {
        List<String> headers = new ArrayList<>(List.of("Authorization", "Bearer " + token));
        headers.addAll(List.of(more));
        return client().send(HttpMethod.GET, host, "/page", headers.toArray(new String[0]));
    }

    private static void assertRefused(ProxyClient.Reply reply, String why) {
        assertEquals(401, reply.status(), reply.text());
        assertEquals("auth_failed", reply.json().getString("reason"));
        String challenge = reply.header("WWW-Authenticate");
        assertTrue(challenge.startsWith("Bearer realm=") && challenge.contains("error=\"invalid_token\""), challenge);
        assertTrue(reply.json().getString("detail").contains(why), reply.text());
    }

    @Test
    void rs256AndEs256TokensFromAKeySetPassWithTheirClaimsAndForgedClaimHeadersAreRemoved() throws Exception {
        PublicJsonWebKey rsa = rsa("r1");
        PublicJsonWebKey ec = ec("e1");
        publish(rsa, ec);
        ScriptedOrigin jwks = jwksServer();
        guarded("keys.test", jwt("jwksUrl", jwks.url() + "/jwks.json"));

        ProxyClient.Reply reply = bearer("keys.test", rs256(rsa, "ann"), "X-User-Id", "admin", "X-Plan", "free");
        assertEquals(200, reply.status(), reply.text());
        MultiMap upstream = origin.last("/page").headers();
        assertEquals(List.of("ann"), upstream.getAll("X-User-Id"), "the verified sub replaces the client's");
        assertEquals(List.of("gold"), upstream.getAll("X-Plan"));
        assertNull(upstream.get("Authorization"), "the token stays here unless forwardToken");

        assertEquals(200, bearer("keys.test", sign(claims("bob"), ec, AlgorithmIdentifiers.ECDSA_USING_P256_CURVE_AND_SHA256)).status());
        assertEquals("bob", origin.last("/page").headers().get("X-User-Id"));

        JwtClaims noPlan = claims("cy");
        noPlan.unsetClaim("plan");
        assertEquals(200, bearer("keys.test", sign(noPlan, rsa, AlgorithmIdentifiers.RSA_USING_SHA256),
                "X-Plan", "platinum").status());
        assertNull(origin.last("/page").headers().get("X-Plan"), "a forged claim header goes even without the claim");
        assertEquals(1, jwks.count("/jwks.json"), "the key set was fetched once, not per request");
    }

    @Test
    void noTokenIsChallengedAndBadTokensAreRefused() throws Exception {
        PublicJsonWebKey rsa = rsa("r1");
        PublicJsonWebKey stranger = rsa("r1");
        publish(rsa);
        ScriptedOrigin jwks = jwksServer();
        guarded("strict.test", jwt("jwksUrl", jwks.url() + "/jwks.json", "algorithms", new JsonArray().add("RS256")));

        ProxyClient.Reply none = client().get("strict.test", "/page");
        assertEquals(401, none.status());
        assertEquals("auth_required", none.json().getString("reason"));
        assertEquals("Bearer realm=\"strict\"", none.header("WWW-Authenticate"));
        assertEquals("auth_required", client().send(HttpMethod.GET, "strict.test", "/page", "Authorization",
                "Basic YW5uOnB3").json().getString("reason"), "another scheme is no bearer token");

        JwtClaims expired = claims("ann");
        expired.setExpirationTime(NumericDate.fromSeconds(NumericDate.now().getValue() - 120));
        assertRefused(bearer("strict.test", sign(expired, rsa, "RS256")), "expired");
        JwtClaims early = claims("ann");
        early.setNotBefore(NumericDate.fromSeconds(NumericDate.now().getValue() + 300));
        assertRefused(bearer("strict.test", sign(early, rsa, "RS256")), "not valid yet");
        JwtClaims otherIssuer = claims("ann");
        otherIssuer.setIssuer("https://evil.test");
        assertRefused(bearer("strict.test", sign(otherIssuer, rsa, "RS256")), "another issuer");
        JwtClaims otherAudience = claims("ann");
        otherAudience.setAudience("billing");
        assertRefused(bearer("strict.test", sign(otherAudience, rsa, "RS256")), "another audience");
        JwtClaims forever = claims("ann");
        forever.unsetClaim("exp");
        assertRefused(bearer("strict.test", sign(forever, rsa, "RS256")), "no expiry");

        assertRefused(bearer("strict.test", sign(claims("ann"), rsa, "PS256")), "algorithm is not accepted");
        assertRefused(bearer("strict.test", sign(claims("ann"), (Key) null, "r1", "none")),
                "algorithm is not accepted");
        // The RSA public key used as an HMAC secret: the classic algorithm confusion.
        assertRefused(bearer("strict.test", sign(claims("ann"), new HmacKey(rsa.getPublicKey().getEncoded()), "r1",
                "HS256")), "algorithm is not accepted");
        assertRefused(bearer("strict.test", sign(claims("ann"), stranger, "RS256")), "signature");
        String good = rs256(rsa, "ann");
        String[] parts = good.split("\\.");
        String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(claims("admin").toJson().getBytes());
        assertRefused(bearer("strict.test", parts[0] + "." + forged + "." + parts[2]), "signature");
        assertRefused(bearer("strict.test", "not.a.token"), "not");
        assertEquals(1, jwks.count("/jwks.json"), "refused algorithms and bad signatures never refetch the set");

        assertEquals(0, origin.count("/page"), "nothing refused reached the origin");
        ProxyClient.Reply ok = bearer("strict.test", good);
        assertEquals(200, ok.status());
        assertFalse(ok.text().contains(good));
    }

    @Test
    void aKeySetThatRotatesIsFollowed() throws Exception {
        PublicJsonWebKey old = rsa("2026-11");
        PublicJsonWebKey next = rsa("2026-12");
        publish(old);
        ScriptedOrigin jwks = jwksServer();
        guarded("rotate.test", jwt("jwksUrl", jwks.url() + "/jwks.json", "jwksRefresh", "1s"));
        String oldToken = rs256(old, "ann");
        String nextToken = rs256(next, "bob");

        assertEquals(200, bearer("rotate.test", oldToken).status());
        publish(old, next);
        assertEquals(200, bearer("rotate.test", nextToken).status(),
                "a token with a new kid makes the set be fetched at once");
        assertEquals(2, jwks.count("/jwks.json"));

        publish(next);
        Eventually.within(Duration.ofSeconds(10), () -> assertRefused(bearer("rotate.test", oldToken), "unknown key"));
        assertEquals(200, bearer("rotate.test", nextToken).status(), "the new key still verifies");
        assertTrue(jwks.count("/jwks.json") >= 3, "the removed key was dropped by a background refresh");
    }

    @Test
    void aKeySetThatCannotBeFetchedFailsClosedWith503() throws Exception {
        PublicJsonWebKey rsa = rsa("r1");
        guarded("dark.test", jwt("jwksUrl", "http://127.0.0.1:" + BrokenOrigins.refusingPort() + "/jwks.json"));
        ProxyClient.Reply reply = bearer("dark.test", rs256(rsa, "ann"));
        assertEquals(503, reply.status(), reply.text());
        assertEquals("jwks_unavailable", reply.json().getString("reason"));
        assertEquals(0, origin.count("/page"));
    }

    @Test
    void staticPublicKeysAndSecretsVerifyAndTheTokenCanBeForwarded() throws Exception {
        PublicJsonWebKey ec = ec(null);
        String pem = "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(ec.getPublicKey().getEncoded()) + "\n-----END PUBLIC KEY-----";
        guarded("pem.test", jwt("key", pem, "forwardToken", true));
        String token = sign(claims("ann"), ec.getPrivateKey(), null, "ES256");
        assertEquals(200, bearer("pem.test", token).status());
        assertEquals("Bearer " + token, origin.last("/page").headers().get("Authorization"));
        assertRefused(bearer("pem.test", sign(claims("ann"), ec(null).getPrivateKey(), null, "ES256")), "signature");

        byte[] secret = new byte[32];
        new java.security.SecureRandom().nextBytes(secret);
        guarded("hmac.test", jwt("key", Base64.getEncoder().encodeToString(secret)));
        assertEquals(200, bearer("hmac.test", sign(claims("ann"), new HmacKey(secret), null, "HS256")).status());
        byte[] other = secret.clone();
        other[0] ^= 1;
        assertRefused(bearer("hmac.test", sign(claims("ann"), new HmacKey(other), null, "HS256")), "signature");
    }

    @Test
    void aRouteCanRequireATokenAlone() throws Exception {
        byte[] secret = new byte[48];
        new java.security.SecureRandom().nextBytes(secret);
        origin = ScriptedOrigin.start().on("*", Reply.of(200, "page"));
        servers.add(origin);
        vhost(Api.vhost("api", "api.test", origin.url()).put("routes", new JsonArray().add(new JsonObject()
                .put("match", new JsonObject().put("path", "/api/*"))
                .put("jwt", jwt("key", Base64.getEncoder().encodeToString(secret))))));
        assertEquals(200, client().get("api.test", "/docs").status());
        assertEquals(401, client().get("api.test", "/api/orders").status());
        assertEquals(200, client().send(HttpMethod.GET, "api.test", "/api/orders", "Authorization",
                "Bearer " + sign(claims("ann"), new HmacKey(secret), null, "HS256")).status());
        assertEquals("ann", origin.last("/api/orders").headers().get("X-User-Id"));
    }

    @Test
    void invalidSettingsAreNamedAndDefaultsShown() throws Exception {
        JsonObject bad = Api.vhost("bad", "bad.test", "http://127.0.0.1:9").put("jwt", new JsonObject()
                .put("key", "c2hvcnQ=").put("algorithms", new JsonArray().add("none").add("RS256"))
                .put("clockSkew", "1h").put("claimHeaders", new JsonObject().put("sub", "Authorization")));
        assertInvalid(Api.given().body(bad.encode()).post("/api/v1/vhosts"), "jwt.key", "jwt.algorithms[0]",
                "jwt.clockSkew", "jwt.claimHeaders.sub");
        assertInvalid(Api.given().body(Api.vhost("hs", "hs.test", "http://127.0.0.1:9").put("jwt", new JsonObject()
                .put("jwksUrl", "https://login.test/jwks.json").put("algorithms", new JsonArray().add("HS256")))
                .encode()).post("/api/v1/vhosts"), "jwt.algorithms[0]");
        assertInvalid(Api.given().body(Api.vhost("none", "none.test", "http://127.0.0.1:9")
                .put("jwt", new JsonObject()).encode()).post("/api/v1/vhosts"), "jwt.jwksUrl");

        String id = vhost(Api.vhost("good", "good.test", "http://127.0.0.1:9").put("jwt", new JsonObject()
                .put("jwksUrl", "https://login.test/jwks.json")));
        JsonObject shown = new JsonObject(Api.given().get("/api/v1/vhosts/" + id).asString()).getJsonObject("jwt");
        assertEquals("30s", shown.getString("clockSkew"));
        assertEquals("5m", shown.getString("jwksRefresh"));
        assertEquals(false, shown.getBoolean("forwardToken"));
        assertEquals(new JsonArray().add("RS256").add("RS384").add("RS512").add("PS256").add("PS384").add("PS512")
                .add("ES256").add("ES384").add("ES512").add("EdDSA"), shown.getJsonArray("algorithms"));
    }
}
