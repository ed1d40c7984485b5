package dev.portico.control.api.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/** Dashboard sign-in sessions on the management port. Settings under {@code portico.dashboard.*}. */
@ConfigMapping(prefix = "portico.dashboard")
public interface DashboardSettings {

    /**
     * How long a session lasts after signing in; there is no sliding renewal. 8 hours is a working day (Portainer's
     * default too): nobody types the token again during a shift, and a browser left signed in on a shared machine is
     * signed out by the next morning.
     */
    @WithDefault("8h")
    Duration sessionLifetime();

    /**
     * When the session cookie carries {@code Secure}: {@code auto} when the sign-in request came over TLS,
     * {@code always} also over plain HTTP (for a TLS-terminating proxy in front of the management port).
     */
    @WithDefault("auto")
    SecureCookie secureCookie();

    /** Failed sign-ins one client address (an IPv6 /64) may make per minute; past that, 429 with Retry-After. */
    @WithDefault("10")
    int maxSignInFailures();

    /**
     * The origin browsers see the dashboard at, when it differs from what the management port itself sees (a reverse
     * proxy that changes scheme or host), e.g. {@code https://portico.example.com}. Default: the request's own scheme
     * and {@code Host}. Cookie-authenticated calls with another {@code Origin} are refused.
     */
    Optional<String> publicOrigin();

    /** {@link #secureCookie()}'s values. */
    enum SecureCookie {
        AUTO, ALWAYS
    }
}
