package dev.reverie.store.lucene;

import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.IndexSearcher;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Search hits already decoded, remembered by segment and document: a Lucene segment never changes
 * (an update deletes the old document and adds a new one, in a new segment; a merge makes a new
 * segment with a new core), so a hit's document in a segment decodes to the same record for as long
 * as the segment lives (doc values updated in place, a memory's recall statistics, are not part of
 * what is kept: the decoder's {@link LuceneMemoryStore.Decoder#overlay} lays them over on every read). A user's
 * questions bring the same memories and turns back call after call, and reading their stored
 * fields (decompressing a block per hit) and decoding the JSON was about a quarter of
 * {@code buildContext} on the Lucene store ({@code HotPathRatio}'s profile).
 *
 * <p>A direct-mapped table of {@value #SLOTS} slots keyed by the segment core's cache key (by
 * identity), the document within the segment and the decoder (by identity: a record type read by
 * one decoder). A slot is overwritten by the next key that maps to it; so at most {@value #SLOTS}
 * decoded records are held, whatever the number of end users or segments: with 384-dimension
 * vectors in the memories, about 20–30 MiB at most. Only for decoders of immutable records (a
 * decoder is a method reference; a JVM that made a new one per call would only miss the table).
 * {@link #clear} empties it (a scope's erasure, a store's close), and a segment's records are dropped
 * when the segment closes (a merge, or the purge after an erasure), so a read that was decoding an
 * erased user's hits while the table was cleared cannot leave them behind for long. One table for
 * the JVM, like {@code DecodedRecords}: a store's erasure or close empties it for every store (a few
 * misses). Thread-safe, lock-free.
 */
final class DecodedDocs {
    static final int SLOTS = 1 << 13;

    private static final AtomicReferenceArray<Entry> TABLE = new AtomicReferenceArray<>(SLOTS);
    /** The open segment cores with records in the table, each with a listener that drops them when it closes. */
    private static final java.util.concurrent.ConcurrentHashMap<Object, Boolean> CORES =
            new java.util.concurrent.ConcurrentHashMap<>();

    private record Entry(Object core, int doc, Object decoder, Object value) {
    }

    private DecodedDocs() {
    }

    /**
     * Document {@code doc} (a top-level document id; {@code leaf} is its segment) as {@code decoder}
     * decodes it from the stored fields, from the table when this segment's document was decoded by
     * it before. What the segment updates in place is not part of it: lay the decoder's
     * {@link LuceneMemoryStore.Decoder#overlay overlay} over it.
     */
    @SuppressWarnings("unchecked")
    static <T> T decoded(LeafReaderContext leaf, int doc, LuceneMemoryStore.Decoder<T> decoder,
                         org.apache.lucene.index.StoredFields fields) throws IOException {
        int local = doc - leaf.docBase;
        IndexReader.CacheHelper helper = leaf.reader().getCoreCacheHelper();
        if (helper == null) {
            return decoder.decode(fields, doc);
        }
        Object core = helper.getKey();
        int slot = slot(core, local, decoder);
        Entry e = TABLE.get(slot);
        if (e != null && e.core == core && e.doc == local && e.decoder == decoder) {
            return (T) e.value;
        }
        T value = decoder.decode(fields, doc);
        if (CORES.putIfAbsent(core, Boolean.TRUE) == null) {
            // the searcher holds the segment open, so the listener runs after this insert
            helper.addClosedListener(DecodedDocs::forgetCore);
        }
        TABLE.setOpaque(slot, new Entry(core, local, decoder, value));
        return value;
    }

    /** Drops the records of a segment that closed (merged away, or purged by an erasure). */
    private static void forgetCore(IndexReader.CacheKey core) {
        CORES.remove(core);
        for (int i = 0; i < SLOTS; i++) {
            Entry e = TABLE.get(i);
            if (e != null && e.core == core) {
                TABLE.compareAndSet(i, e, null);
            }
        }
    }

    /** Forgets every decoded record. */
    static void clear() {
        for (int i = 0; i < SLOTS; i++) {
            TABLE.set(i, null);
        }
    }

    /** How many slots hold a record (for tests). */
    static int held() {
        int n = 0;
        for (int i = 0; i < SLOTS; i++) {
            n += TABLE.get(i) != null ? 1 : 0;
        }
        return n;
    }

    private static int slot(Object core, int doc, Object decoder) {
        long h = System.identityHashCode(core) * 0x9E3779B97F4A7C15L + doc * 0xC2B2AE3D27D4EB4FL
                + System.identityHashCode(decoder) * 0x165667B19E3779F9L;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 32;
        return (int) h & (SLOTS - 1);
    }
}
