package dev.portico.control.definition;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.portico.control.api.error.FieldError;
import dev.portico.control.definition.BasicAuthDefinition.UserDefinition;
import dev.portico.http.auth.PasswordHash;
import dev.portico.vhost.BasicAuthSpec;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Validates and normalises a {@code basicAuth} block (each field named, {@code basicAuth.users[1].hash}). A plain
 * password is validated here and kept only until {@link #hashPasswords} turns it into a bcrypt hash, after the whole
 * definition passed: bcrypt is slow on purpose, so a definition with errors costs none, and a route checked as the
 * vhost with its overrides does not hash the vhost's passwords once more.
 */
final class BasicAuthSettingsCheck {

    static final int MAX_USERS = 1000;
    static final int MAX_NAME = 128;
    static final int MAX_REALM = 100;
    static final String DEFAULT_REALM = "restricted";

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private BasicAuthSettingsCheck() {
    }

    /** The block in its normal form (plain passwords still in it), or null when there is none. */
    static BasicAuthDefinition normalise(BasicAuthDefinition in, List<FieldError> errors) {
        if (in == null) {
            return null;
        }
        String realm = in.realm() == null ? DEFAULT_REALM : in.realm();
        if (realm.isEmpty() || realm.length() > MAX_REALM
                || realm.chars().anyMatch(c -> c < 0x20 || c > 0x7e || c == '"' || c == '\\')) {
            errors.add(new FieldError("basicAuth.realm", "must be 1-" + MAX_REALM
                    + " printable ASCII characters without \" or \\"));
        }
        List<UserDefinition> users = in.users() == null ? List.of() : in.users();
        if (users.isEmpty()) {
            errors.add(new FieldError("basicAuth.users", "must list at least one user"));
        } else if (users.size() > MAX_USERS) {
            errors.add(new FieldError("basicAuth.users", "must list at most " + MAX_USERS + " users"));
            return in;
        }
        List<UserDefinition> out = new ArrayList<>(users.size());
        Set<String> names = new HashSet<>();
        for (int i = 0; i < users.size(); i++) {
            UserDefinition user = user("basicAuth.users[" + i + "]", users.get(i), names, errors);
            if (user != null) {
                out.add(user);
            }
        }
        return new BasicAuthDefinition(realm, out, in.forwardAuthorization() != null && in.forwardAuthorization());
    }

    private static UserDefinition user(String field, UserDefinition user, Set<String> names, List<FieldError> errors) {
        if (user == null) {
            errors.add(new FieldError(field, "must be an object with a name and a password or a hash"));
            return null;
        }
        String name = user.name();
        if (name == null || name.isEmpty()) {
            errors.add(new FieldError(field + ".name", "is required"));
        } else if (name.length() > MAX_NAME || name.indexOf(':') >= 0
                || name.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            errors.add(new FieldError(field + ".name", "must be 1-" + MAX_NAME
                    + " characters without ':' or control characters"));
        } else if (!names.add(name)) {
            errors.add(new FieldError(field + ".name", "'" + name + "' is listed twice"));
        }
        if (user.password() != null && user.hash() != null) {
            errors.add(new FieldError(field, "give either a password or a hash, not both"));
        } else if (user.password() == null && user.hash() == null) {
            errors.add(new FieldError(field + ".password", "a password or a hash is required"));
        } else if (user.password() != null) {
            // Never echoed: the reason says what is wrong, not what was sent.
            int bytes = user.password().getBytes(StandardCharsets.UTF_8).length;
            if (bytes == 0 || bytes > PasswordHash.MAX_BCRYPT_PASSWORD_BYTES) {
                errors.add(new FieldError(field + ".password", "must be 1 to "
                        + PasswordHash.MAX_BCRYPT_PASSWORD_BYTES + " bytes in UTF-8 (bcrypt reads no more)"));
            }
        } else {
            try {
                PasswordHash.parse(user.hash());
            } catch (IllegalArgumentException e) {
                errors.add(new FieldError(field + ".hash", e.getMessage()));
            }
        }
        return new UserDefinition(name, user.password(), user.hash());
    }

    /**
     * {@code valid} (a definition without errors) with each plain password of the vhost's and its routes'
     * {@code basicAuth} replaced by its bcrypt hash: what is stored and shown never holds a password.
     */
    static VhostDefinition hashPasswords(VhostDefinition valid) {
        boolean any = hasPasswords(valid.basicAuth()) || valid.routes() != null
                && valid.routes().stream().anyMatch(route -> route != null && hasPasswords(route.basicAuth()));
        if (!any) {
            return valid;
        }
        ObjectNode tree = JSON.valueToTree(valid);
        hash(tree.get("basicAuth"));
        JsonNode routes = tree.get("routes");
        if (routes != null) {
            routes.forEach(route -> hash(route.get("basicAuth")));
        }
        return JSON.convertValue(tree, VhostDefinition.class);
    }

    private static boolean hasPasswords(BasicAuthDefinition block) {
        return block != null && block.users() != null
                && block.users().stream().anyMatch(user -> user.password() != null);
    }

    private static void hash(JsonNode block) {
        if (block == null || !block.hasNonNull("users")) {
            return;
        }
        for (JsonNode user : block.get("users")) {
            if (user.hasNonNull("password")) {
                ObjectNode fields = (ObjectNode) user;
                fields.put("hash", PasswordHash.bcrypt(fields.remove("password").asText()));
            }
        }
    }

    /** For a normalised, hashed block, or null when there is none. */
    static BasicAuthSpec toSpec(BasicAuthDefinition stored) {
        if (stored == null) {
            return null;
        }
        return new BasicAuthSpec(stored.realm() == null ? DEFAULT_REALM : stored.realm(),
                stored.users().stream().filter(user -> user.hash() != null)
                        .map(user -> new BasicAuthSpec.User(user.name(), user.hash())).toList(),
                stored.forwardAuthorization() != null && stored.forwardAuthorization());
    }
}
