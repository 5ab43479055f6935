package dev.reverie.internal;

import java.util.Random;
import java.util.UUID;

/** Fresh ids for turns, observations, memories and events. Thread-safe. Not API. */
public final class Ids {

    /** When set, the source of every id instead of {@link UUID#randomUUID()} (see {@link #reproducible}). */
    private static volatile Random reproducible;

    private Ids() {
    }

    /** A new random id with a readable prefix, e.g. {@code m-3f2a...}. */
    public static String next(String prefix) {
        Random r = reproducible;
        return prefix + "-" + (r == null ? UUID.randomUUID() : uuid(r));
    }

    /**
     * From now on, ids are a fixed sequence of version-4-shaped UUIDs drawn from {@code seed} ({@code
     * null}: random again). For evaluations and benchmarks only: ids break ties in rankings (by id, as
     * the stores order them), so with random ids two runs of the LoCoMo harness over the same data
     * differ in the contexts of the dreaming variants; seeded before each ingestion, a run is
     * reproducible. Never in a host: two processes seeded alike mint the same ids.
     */
    public static void reproducible(Long seed) {
        reproducible = seed == null ? null : new Random(seed);
    }

    private static UUID uuid(Random r) {
        long high;
        long low;
        synchronized (r) {
            high = r.nextLong();
            low = r.nextLong();
        }
        // the version (4) and variant (IETF) bits of a random UUID
        return new UUID((high & ~0xF000L) | 0x4000L, (low & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L);
    }
}
