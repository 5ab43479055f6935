package dev.reverie.dream;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Deterministic ids for what the dream cycle writes, so that a rerun at the same clock produces the
 * same rows instead of new ones. Stateless and thread-safe.
 */
final class Ids {

    private Ids() {
    }

    /** The id of the memory promoted from an observation (one observation creates at most one memory). */
    static String memory(String observationId) {
        return "m-" + hash(observationId);
    }

    /** The id of a synthesis of a set of memories, from the sorted ids (the same set always gets the same id). */
    static String synthesis(Iterable<String> sortedSourceIds) {
        return "syn-" + hash(String.join("\u0000", sortedSourceIds));
    }

    /** The id of a history event, from everything that makes it unique within a run. */
    static String event(String... parts) {
        return "ev-" + hash(String.join("\u0000", parts));
    }

    static String hash(String s) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest(s.getBytes(StandardCharsets.UTF_8))).substring(0, 24);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
