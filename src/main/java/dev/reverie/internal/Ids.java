package dev.reverie.internal;

import java.util.Random;
import java.util.UUID;

/**
 * Where a manager's fresh ids for turns, observations, memories and events come from: random UUIDs
 * ({@link #random()}), or a fixed sequence of UUID-shaped ids drawn from a seed ({@link #seeded}),
 * which makes a run on a fresh store reproducible (ids break ranking ties: the retriever orders equal
 * scores by id).
 * Thread-safe. Not API.
 */
public final class Ids {

    private static final Ids RANDOM = new Ids(null);

    /** The seeded sequence, or {@code null} for random UUIDs. */
    private final Random sequence;

    private Ids(Random sequence) {
        this.sequence = sequence;
    }

    /** Random UUIDs: what every manager uses unless it is given a seed. */
    public static Ids random() {
        return RANDOM;
    }

    /** The same version-4-shaped ids, in the same order, for the same seed. */
    public static Ids seeded(long seed) {
        return new Ids(new Random(seed));
    }

    /** A new id with a readable prefix, e.g. {@code m-3f2a...}. */
    public String next(String prefix) {
        return prefix + "-" + (sequence == null ? UUID.randomUUID() : nextSeeded());
    }

    private UUID nextSeeded() {
        long high;
        long low;
        synchronized (sequence) {
            high = sequence.nextLong();
            low = sequence.nextLong();
        }
        // the version (4) and variant (IETF) bits of a random UUID
        return new UUID((high & ~0xF000L) | 0x4000L, (low & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L);
    }
}
