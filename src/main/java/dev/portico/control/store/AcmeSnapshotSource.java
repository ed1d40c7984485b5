package dev.portico.control.store;

import java.util.Map;

/**
 * The live ACME challenges every replica's data plane must answer, read with the rest of a snapshot. Implemented by
 * the ACME feature over its own table; a seam so the store does not depend on it.
 */
public interface AcmeSnapshotSource {

    /** Key authorizations by token, of the challenges not yet withdrawn or expired. */
    Map<String, String> liveChallenges();
}
