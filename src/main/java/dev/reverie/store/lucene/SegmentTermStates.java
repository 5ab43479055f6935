package dev.reverie.store.lucene;

import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexReaderContext;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermState;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;

import java.io.IOException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Term lookups remembered per segment. A scored {@link TermQuery} looks its term up in every segment
 * of the index (a seek in each term dictionary) to sum the document frequency BM25 needs; with end
 * users' words spread over every segment by interleaved traffic, those seeks were a fifth of
 * {@code buildContext} on the Lucene store. A segment's term dictionary never changes while the
 * segment lives (deletes do not change it, and Lucene's statistics count deleted documents too), so
 * the state found for a term in a segment, with its document and term frequencies, holds for as long
 * as the segment's core: a later query over a newer reader seeks only in the segments it has not met
 * the term in. The statistics, and so every score, are exactly those of {@link TermStates#build}.
 *
 * <p>At most {@value #MAX_PER_SEGMENT} terms per segment core (the table of a segment is emptied
 * when it is full); a segment's table is dropped when its core closes (merged away, or purged by an
 * erasure). The cached {@link TermState}s are clones that a terms enum only copies from, so they are
 * shared by concurrent queries. Thread-safe.
 */
final class SegmentTermStates {
    static final int MAX_PER_SEGMENT = 4096;

    /** A term's state and frequencies in one segment; {@link #ABSENT} when the segment lacks it. */
    private record Entry(TermState state, int docFreq, long totalTermFreq) {
    }

    private static final Entry ABSENT = new Entry(null, 0, 0);
    private static final ConcurrentHashMap<Object, ConcurrentHashMap<Term, Entry>> BY_CORE = new ConcurrentHashMap<>();

    private SegmentTermStates() {
    }

    /** A scored query for {@code term} whose per-segment states come from the table where it can. */
    static TermQuery query(IndexSearcher searcher, Term term) throws IOException {
        IndexReaderContext top = searcher.getTopReaderContext();
        TermStates states = new TermStates(top);
        for (LeafReaderContext leaf : top.leaves()) {
            Entry e = entry(leaf, term);
            if (e.state != null) {
                states.register(e.state, leaf.ord, e.docFreq, e.totalTermFreq);
            }
        }
        return new TermQuery(term, states);
    }

    private static Entry entry(LeafReaderContext leaf, Term term) throws IOException {
        IndexReader.CacheHelper helper = leaf.reader().getCoreCacheHelper();
        if (helper == null) {
            return load(leaf, term);
        }
        ConcurrentHashMap<Term, Entry> table = BY_CORE.get(helper.getKey());
        if (table == null) {
            table = new ConcurrentHashMap<>();
            ConcurrentHashMap<Term, Entry> raced = BY_CORE.putIfAbsent(helper.getKey(), table);
            if (raced != null) {
                table = raced;
            } else {
                // the reader holds the segment open, so the listener runs after this insert
                helper.addClosedListener(BY_CORE::remove);
            }
        }
        Entry e = table.get(term);
        if (e == null) {
            e = load(leaf, term);
            if (table.size() >= MAX_PER_SEGMENT) {
                table.clear();
            }
            table.put(term, e);
        }
        return e;
    }

    private static Entry load(LeafReaderContext leaf, Term term) throws IOException {
        Terms terms = leaf.reader().terms(term.field());
        if (terms == null) {
            return ABSENT;
        }
        TermsEnum te = terms.iterator();
        if (!te.seekExact(term.bytes())) {
            return ABSENT;
        }
        return new Entry(te.termState(), te.docFreq(), te.totalTermFreq());
    }

    /**
     * Forgets every remembered lookup (an erasure: the tables hold query words, and a segment's table
     * would otherwise last until the segment closes).
     */
    static void clear() {
        BY_CORE.values().forEach(ConcurrentHashMap::clear);
    }

    /** Segment cores with a table (for tests). */
    static int segments() {
        return BY_CORE.size();
    }
}
