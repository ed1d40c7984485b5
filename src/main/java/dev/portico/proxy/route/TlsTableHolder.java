package dev.portico.proxy.route;

import jakarta.inject.Singleton;

import java.util.Objects;

/**
 * Where the data plane's TLS listener takes its certificates from when it starts. Empty until certificates can be
 * uploaded (issue 13, slice 2, which feeds it from the database and swaps tables into running listeners); tests set
 * it before they start a TLS listener.
 */
@Singleton
public class TlsTableHolder {

    private volatile TlsTable current = TlsTable.EMPTY;

    public TlsTable current() {
        return current;
    }

    /** Replaces the table the next TLS listener starts with. */
    public void set(TlsTable table) {
        current = Objects.requireNonNull(table, "table");
    }
}
