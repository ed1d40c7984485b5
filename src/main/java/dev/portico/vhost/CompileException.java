package dev.portico.vhost;

/** A vhost that cannot be turned into a runnable pipeline; the snapshot being built is discarded. */
public final class CompileException extends RuntimeException {

    private final String vhost;
    private final String field;

    public CompileException(String vhost, String field, String message) {
        super("vhost '" + vhost + "', " + field + ": " + message);
        this.vhost = vhost;
        this.field = field;
    }

    public String vhost() {
        return vhost;
    }

    /** The API field at fault, in the same dotted form validation errors use. */
    public String field() {
        return field;
    }

    public String reason() {
        String message = getMessage();
        return message.substring(message.indexOf(": ") + 2);
    }
}
