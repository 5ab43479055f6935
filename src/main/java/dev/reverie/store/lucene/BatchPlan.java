package dev.reverie.store.lucene;

import dev.reverie.MemoryEvent;
import dev.reverie.MemoryStoreException;
import dev.reverie.Scope;
import dev.reverie.SessionTurn;
import dev.reverie.spi.WriteBatch;
import dev.reverie.store.lucene.LuceneDocuments.Type;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A {@link WriteBatch} turned into what Lucene needs to apply it as one atomic step: the net effect
 * of its operations per unique id (the last put wins, a delete after a put removes it), the history
 * events to append, and the session turns whose (session, seq) must be new.
 *
 * <p>Why one call: Lucene has no multi-operation transaction, and {@code IndexWriter.rollback()}
 * would throw away every uncommitted write and close the writer. So the plan is validated first
 * (turn seqs unique within the batch and in the index, checked against a searcher that sees every
 * earlier write because writes are serialized and refreshed under the tenant's lock), then applied
 * with a single {@link IndexWriter#updateDocuments(org.apache.lucene.search.Query, Iterable)}: Lucene
 * adds the documents as one block and applies the delete of their previous versions only once the
 * whole block is indexed, so a reader or a commit sees all of it or none of it, and a document that
 * fails to index discards the whole block.
 *
 * <p>Built on one thread and applied once under the tenant's write lock; not thread-safe.
 */
final class BatchPlan {

    private final Scope scope;
    /** uid → the new document, or {@code null} when the net effect is a delete. */
    private final Map<String, Document> byUid = new LinkedHashMap<>();
    /** uid → the appended turn, for the uniqueness check. */
    private final Map<String, SessionTurn> appendedTurns = new LinkedHashMap<>();
    private final List<MemoryEvent> events = new ArrayList<>();
    /** Delete-by-query operations (archive retention), applied before the documents. */
    private final List<Query> purges = new ArrayList<>();

    private BatchPlan(Scope scope) {
        this.scope = scope;
    }

    /** Builds the documents of every operation (JSON and analysis inputs), outside any lock. */
    static BatchPlan of(WriteBatch batch) {
        Scope s = batch.scope();
        BatchPlan plan = new BatchPlan(s);
        for (WriteBatch.Op op : batch.ops()) {
            if (op instanceof WriteBatch.PutObservation p) {
                plan.put(LuceneDocuments.uid(Type.OBSERVATION, s, p.observation().id()),
                        LuceneDocuments.observation(p.observation()));
            } else if (op instanceof WriteBatch.DeleteObservation d) {
                plan.put(LuceneDocuments.uid(Type.OBSERVATION, s, d.id()), null);
            } else if (op instanceof WriteBatch.PutMemory p) {
                plan.put(LuceneDocuments.uid(Type.MEMORY, s, p.memory().id()), LuceneDocuments.memory(p.memory()));
            } else if (op instanceof WriteBatch.DeleteMemory d) {
                plan.put(LuceneDocuments.uid(Type.MEMORY, s, d.id()), null);
            } else if (op instanceof WriteBatch.AppendHistory h) {
                plan.events.add(h.event());
            } else if (op instanceof WriteBatch.AppendTurn t) {
                plan.appendTurn(t.turn());
            } else if (op instanceof WriteBatch.ArchiveTurn t) {
                plan.put(LuceneDocuments.turnUid(Type.ARCHIVE, s, t.turn().sessionId(), t.turn().seq()),
                        LuceneDocuments.archivedTurn(t.turn(), t.embedding()));
            } else if (op instanceof WriteBatch.PurgeArchive p) {
                plan.purges.add(LuceneDocuments.ofScope(Type.ARCHIVE, s)
                        .add(LuceneDocuments.longRange(LuceneDocuments.ARCHIVE_AT, Long.MIN_VALUE,
                                LuceneDocuments.micros(p.before()) - 1), BooleanClause.Occur.FILTER)
                        .build());
            } else if (op instanceof WriteBatch.PutSummary p) {
                plan.put(LuceneDocuments.uid(Type.SUMMARY, s, p.summary().sessionId()),
                        LuceneDocuments.summary(p.summary()));
            } else if (op instanceof WriteBatch.PutStyle p) {
                plan.put(LuceneDocuments.styleUid(s), LuceneDocuments.style(p.profile()));
            } else if (op instanceof WriteBatch.DeleteStyle) {
                plan.put(LuceneDocuments.styleUid(s), null);
            } else {
                throw new IllegalArgumentException("unknown write operation " + op);
            }
        }
        return plan;
    }

    private void put(String uid, Document doc) {
        byUid.put(uid, doc);
    }

    private void appendTurn(SessionTurn t) {
        String uid = LuceneDocuments.turnUid(Type.TURN, scope, t.sessionId(), t.seq());
        if (appendedTurns.containsKey(uid)) {
            throw duplicate(t, "twice in one batch");
        }
        appendedTurns.put(uid, t);
        byUid.put(uid, LuceneDocuments.sessionTurn(t));
    }

    /** Validates against {@code current}, then applies everything with one IndexWriter call. */
    void apply(IndexWriter writer, IndexSearcher current, LongSupplier ords) throws IOException {
        for (Map.Entry<String, SessionTurn> e : appendedTurns.entrySet()) {
            if (current.count(LuceneDocuments.term(LuceneDocuments.UID, e.getKey())) > 0) {
                throw duplicate(e.getValue(), "already in the store");
            }
        }
        if (!purges.isEmpty()) {
            writer.deleteDocuments(purges.toArray(new Query[0]));
        }
        List<Document> docs = new ArrayList<>(byUid.size() + events.size());
        List<BytesRef> replaced = new ArrayList<>(byUid.size());
        for (Map.Entry<String, Document> e : byUid.entrySet()) {
            if (e.getValue() != null) {
                docs.add(e.getValue());
            }
            // appended turns were just checked to be new: nothing to delete for them
            if (!appendedTurns.containsKey(e.getKey())) {
                replaced.add(new BytesRef(e.getKey()));
            }
        }
        for (MemoryEvent event : events) {
            docs.add(LuceneDocuments.history(event, ords.getAsLong()));
        }
        if (replaced.isEmpty()) {
            writer.addDocuments(docs);
        } else if (docs.isEmpty()) {
            writer.deleteDocuments(new TermInSetQuery(LuceneDocuments.UID, replaced));
        } else {
            writer.updateDocuments(new TermInSetQuery(LuceneDocuments.UID, replaced), docs);
        }
    }

    private MemoryStoreException duplicate(SessionTurn t, String where) {
        return new MemoryStoreException("session turn seq " + t.seq() + " of session '" + t.sessionId() + "' for "
                + scope + " is " + where + "; a turn's seq must be new for its session (the batch was not applied)");
    }
}
