package dev.portico.control.replicas;

/**
 * A PostgreSQL NOTIFY channel that replicas sharing one database use to tell each other about a change, and what
 * to do when a notification arrives. {@link ReplicaListener} LISTENs on every channel bean on one connection.
 */
public interface ReplicaChannel {

    /** The channel name, a plain SQL identifier. */
    String name();

    /**
     * Acts on one notification. Called on the listener's own thread, never on an event loop; a notification this
     * replica sent itself arrives here too.
     */
    void onNotification(String payload);

    /**
     * Called after the listener reconnected: notifications sent while it was away are lost, so a channel that can
     * catch up (by re-reading the database) does it here.
     */
    default void onReconnected() {
    }
}
