package dev.portico.vhost;

import java.util.List;

/**
 * HTTP Basic authentication of a vhost or a route: the realm, the users with their stored hashes (never a plain
 * password), and whether the checked {@code Authorization} header goes on upstream.
 */
public record BasicAuthSpec(String realm, List<User> users, boolean forwardAuthorization) {

    /** @param hash a bcrypt or argon2id hash as stored */
    public record User(String name, String hash) {
    }

    public BasicAuthSpec {
        users = List.copyOf(users);
    }
}
