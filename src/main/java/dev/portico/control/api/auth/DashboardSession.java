package dev.portico.control.api.auth;

import java.time.Instant;

/**
 * A signed-in dashboard session, as its cookie carries it: a random id and when it ends. Nothing else is kept
 * anywhere while it is valid; only a signed-out session leaves a row (the SHA-256 of its id).
 *
 * @param id        16 random bytes
 * @param expiresAt whole seconds
 */
public record DashboardSession(byte[] id, Instant expiresAt) {

    public DashboardSession {
        id = id.clone();
    }

    @Override
    public byte[] id() {
        return id.clone();
    }
}
