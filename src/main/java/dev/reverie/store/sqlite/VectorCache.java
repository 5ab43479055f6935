package dev.reverie.store.sqlite;

import dev.reverie.internal.NearestVectors;
import dev.reverie.internal.Vectors;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Predicate;

/**
 * The decoded vectors of recently searched scopes, one entry per (tenant, agent, end user, table),
 * each tagged with the scope's {@code vector_versions} number it was read at ({@link SqliteSchema#VECTOR_VERSIONS}):
 * a vector search reads that one row and, when the number is the entry's, scores the kept vectors
 * instead of reading and decoding every embedding BLOB of the scope again (on LoCoMo's hybrid runs
 * that read was about a third of {@code buildContext}). Any write of an embedding or a status of a
 * scope that has a number, by any process, changes it (its triggers exist whenever a number does:
 * {@link SqliteSchema#VECTOR_TRIGGERS}), so a stale entry is never used; it is replaced on the next
 * search. A scope without a number is never kept.
 *
 * <p>An entry is built only when a scope is searched a second time at the same number: a scope
 * written between every two searches (a chat loop's archived turns, with an embedder) is searched as
 * before, by a scan that reads only the rows of the wanted statuses, and never decoded whole for
 * nothing. Bounded by the bytes of the vectors it holds ({@link #maxBytes}), least recently used
 * entries dropped first; a scope larger than a quarter of the bound is never kept, and once found
 * too large at a number it is not read whole again at that number (it is searched by the scan). Erasing an end user drops the
 * user's entries, and an entry read before an erasure is never kept. Thread-safe (one lock around
 * the maps; scoring runs outside it on an entry that never changes). Not API.
 */
final class VectorCache {

    /** The bound when none is given: 64 MiB of vectors, about 44,000 of 384 dimensions. */
    static final long DEFAULT_MAX_BYTES = 64L << 20;

    record Key(String tenant, String agent, String user, String table) {
    }

    /**
     * A scope's vectors as one table held them at {@code version}: row keys, vectors, their norms and,
     * for memories and observations, statuses (interned names; {@code null} for archived turns).
     */
    static final class Scope {
        final long version;
        final long[] rids;
        final float[][] vectors;
        final double[] norms;
        final String[] statuses;
        final long bytes;

        Scope(long version, long[] rids, float[][] vectors, String[] statuses) {
            this.version = version;
            this.rids = rids;
            this.vectors = vectors;
            this.statuses = statuses;
            this.norms = new double[vectors.length];
            long b = 64L + 24L * rids.length;
            for (int i = 0; i < vectors.length; i++) {
                norms[i] = Vectors.norm(vectors[i]);
                b += 16L + 4L * vectors[i].length;
            }
            this.bytes = b;
        }

        /** Offers every row with one of {@code statuses} ({@code null}: every row) to {@code nearest}. */
        void offerTo(NearestVectors<Long> nearest, List<String> statuses) {
            for (int i = 0; i < rids.length; i++) {
                if (statuses == null || statuses.contains(this.statuses[i])) {
                    nearest.offer(rids[i], vectors[i], norms[i]);
                }
            }
        }
    }

    /** Scopes remembered as searched without an entry, with the number they were searched at. */
    private static final int MAX_SEEN = 16_384;

    private final long maxBytes;
    private final BoundedEntries<Key, Scope> byKey;
    private final LinkedHashMap<Key, Long> seen = BoundedEntries.recent(MAX_SEEN);
    /** Scopes found too large to keep, with the number they were read at (bounded like {@link #seen}). */
    private final LinkedHashMap<Key, Long> tooLarge = BoundedEntries.recent(MAX_SEEN);
    private long puts;
    /** Counts erasures and clears: an entry read before one is not kept. */
    private long epoch;

    VectorCache(long maxBytes) {
        this.maxBytes = maxBytes;
        this.byKey = new BoundedEntries<>(maxBytes, s -> s.bytes);
    }

    /** The entry of {@code key} if it was read at {@code version}, else {@code null}. */
    synchronized Scope get(Key key, long version) {
        Scope s = byKey.get(key);
        return s != null && s.version == version ? s : null;
    }

    /** The erasure count to pass to {@link #put} for what is read from now on. */
    synchronized long epoch() {
        return epoch;
    }

    /**
     * Whether a search of {@code key} at {@code version}, which found no entry, should read the scope
     * whole and keep it: when the previous search of it was at the same number (and it is not known to
     * be too large). Remembers this search's number otherwise.
     */
    synchronized boolean worthReading(Key key, long version) {
        Long large = tooLarge.get(key);
        if (large != null && large == version) {
            return false;
        }
        Long before = seen.put(key, version);
        return before != null && before == version;
    }

    /**
     * Keeps {@code scope} for {@code key} (replacing an older entry), unless it is too large to keep
     * or an erasure happened since {@code epochAtRead}.
     */
    synchronized void put(Key key, Scope scope, long epochAtRead) {
        puts++;
        byKey.remove(key);
        seen.remove(key);
        if (epochAtRead != epoch) {
            return;
        }
        if (scope.bytes > maxBytes / 4) {
            tooLarge.put(key, scope.version); // tried again only when searched twice at another number
            return;
        }
        byKey.put(key, scope);
    }

    /** Drops the entry of {@code key} (its scope has no vectors any more). */
    synchronized void remove(Key key) {
        byKey.remove(key);
        seen.remove(key);
        tooLarge.remove(key);
    }

    /** Drops every entry of an end user (erasure). */
    synchronized void forget(String tenant, String agent, String user) {
        drop(k -> k.tenant().equals(tenant) && k.agent().equals(agent) && k.user().equals(user));
    }

    /** Drops every entry; a read running now is not kept either (as {@link LexicalCache#clear}). */
    synchronized void clear() {
        drop(k -> true);
    }

    private void drop(Predicate<Key> which) {
        epoch++; // a read running now is not kept either
        seen.keySet().removeIf(which);
        tooLarge.keySet().removeIf(which);
        byKey.removeIf(which);
    }

    /** Bytes held (tests). */
    synchronized long bytes() {
        return byKey.bytes();
    }

    /** How many scopes' vectors were read from their table and offered to the cache (tests). */
    synchronized long puts() {
        return puts;
    }

    /** Entries held (tests). */
    synchronized int size() {
        return byKey.size();
    }
}
