package dev.reverie.internal;

import java.util.UUID;

/** Fresh ids for turns, observations, memories and events. Thread-safe. Not API. */
public final class Ids {
    private Ids() {
    }

    /** A new random id with a readable prefix, e.g. {@code m-3f2a...}. */
    public static String next(String prefix) {
        return prefix + "-" + UUID.randomUUID();
    }
}
