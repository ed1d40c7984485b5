package dev.portico.vhost;

/**
 * A vhost's access-log settings.
 *
 * @param enabled whether the vhost's requests are logged at all
 * @param redactQuery whether query strings (of the request target and of the {@code Referer}) are replaced by
 *                    {@code REDACTED} in the log, for vhosts that carry secrets in URLs
 */
public record AccessLogSpec(boolean enabled, boolean redactQuery) {

    /** Logged, query strings kept: what a vhost gets when it says nothing. */
    public static final AccessLogSpec DEFAULT = new AccessLogSpec(true, false);
}
