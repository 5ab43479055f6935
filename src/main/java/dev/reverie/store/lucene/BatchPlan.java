package dev.reverie.store.lucene;

import dev.reverie.MemoryEvent;
import dev.reverie.MemoryStoreException;
import dev.reverie.Scope;
import dev.reverie.internal.Json;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;
import dev.reverie.store.lucene.LuceneDocuments.Type;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
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
 * (turn seqs unique within the batch and in the index, checked against a view that answers exactly
 * for every earlier write because writes are serialized under the tenant's lock), then applied
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
    /**
     * Uids no stored document can have, so {@link #apply} does not look them up: observations put
     * with an id generated for the write ({@link WriteBatch.PutObservation#newId()}), and turns
     * appended at their session's end (their seq is the session's next free one, read under the lock).
     */
    private final java.util.Set<String> newUids = new java.util.HashSet<>();
    private final List<MemoryEvent> events = new ArrayList<>();
    /** Delete-by-query operations (archive retention), applied before the documents. */
    private final List<Query> purges = new ArrayList<>();
    /**
     * Turns appended (or archived) at their session's end, in batch order: their seq is an offset, so
     * their documents are built in {@link #apply} once the session's end is read under the lock.
     */
    private final List<WriteBatch.Op> atSessionEnd = new ArrayList<>();
    private final WriteBatch batch;
    /** uid → the record a put of this batch wrote, so a later status change applies to it. */
    private final Map<String, Object> records = new LinkedHashMap<>();
    /**
     * uid → the changes (status, recalls), in batch order, of a record this batch did not put: the
     * stored document is read in {@link #apply} and rewritten, or, when the changes are recalls only and
     * the memory has its recall doc values, those are updated in place; until then its {@link #byUid}
     * entry holds {@link #STORED_RECORD}.
     */
    private final Map<String, List<WriteBatch.Op>> changesOfStored = new LinkedHashMap<>();
    /** uid → the recall doc values to update in place (memories whose only changes are recalls). */
    private final Map<String, List<org.apache.lucene.document.NumericDocValuesField>> inPlace = new LinkedHashMap<>();
    /**
     * uid → the recall statistics of memories whose only changes are recalls, when the index defers
     * them ({@link TenantIndex.View#defersRecalls}) instead of updating doc values in place.
     */
    private final Map<String, LuceneDocuments.Recalls> deferred = new LinkedHashMap<>();
    /** After {@link #apply}: the uid of every document put or deleted. */
    private java.util.Set<String> written = java.util.Set.of();
    /** After {@link #apply}: whether it gave the writer anything to do. */
    private boolean changedIndex;
    private static final Document STORED_RECORD = new Document();

    private BatchPlan(WriteBatch batch) {
        this.batch = batch;
        this.scope = batch.scope();
    }

    /** Builds the documents of every operation (JSON and analysis inputs), outside any lock. */
    static BatchPlan of(WriteBatch batch) {
        BatchPlan plan = new BatchPlan(batch);
        plan.add(batch);
        return plan;
    }

    /**
     * One plan for several batches of one tenant, applied in order as one atomic block (the net effect
     * per uid across all of them), or {@code null} when a batch appends or archives session turns:
     * their seqs and uniqueness are checked per batch, so those batches are written one by one.
     */
    static BatchPlan ofAll(List<WriteBatch> batches) {
        for (WriteBatch b : batches) {
            for (WriteBatch.Op op : b.ops()) {
                if (op instanceof WriteBatch.AppendTurn || op instanceof WriteBatch.ArchiveTurn) {
                    return null;
                }
            }
        }
        BatchPlan plan = new BatchPlan(batches.get(0));
        batches.forEach(plan::add);
        return plan;
    }

    private void add(WriteBatch batch) {
        Scope s = batch.scope();
        BatchPlan plan = this;
        for (WriteBatch.Op op : batch.ops()) {
            if (op instanceof WriteBatch.AppendTurn t && t.atSessionEnd()
                    || op instanceof WriteBatch.ArchiveTurn a && a.atSessionEnd()) {
                plan.atSessionEnd.add(op);
                // keep the batch order: a later op on the same uid still overrides this one
                plan.byUid.put("pending:" + plan.atSessionEnd.size(), null);
            } else if (op instanceof WriteBatch.PutObservation p) {
                String uid = LuceneDocuments.uid(Type.OBSERVATION, s, p.observation().id());
                plan.putRecord(uid, p.observation());
                if (p.newId()) {
                    plan.newUids.add(uid);
                }
            } else if (op instanceof WriteBatch.DeleteObservation d) {
                plan.put(LuceneDocuments.uid(Type.OBSERVATION, s, d.id()), null);
            } else if (op instanceof WriteBatch.PutMemory p) {
                plan.putRecord(LuceneDocuments.uid(Type.MEMORY, s, p.memory().id()), p.memory());
            } else if (op instanceof WriteBatch.DeleteMemory d) {
                plan.put(LuceneDocuments.uid(Type.MEMORY, s, d.id()), null);
            } else if (op instanceof WriteBatch.SetObservationStatus u) {
                plan.changeStored(LuceneDocuments.uid(Type.OBSERVATION, s, u.id()), op);
            } else if (op instanceof WriteBatch.SetMemoryStatus u) {
                plan.changeStored(LuceneDocuments.uid(Type.MEMORY, s, u.id()), op);
            } else if (op instanceof WriteBatch.AddRecalls r) {
                plan.changeStored(LuceneDocuments.uid(Type.MEMORY, s, r.id()), op);
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
                                LuceneDocuments.before(p.before())), BooleanClause.Occur.FILTER)
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
    }

    private void put(String uid, Document doc) {
        byUid.put(uid, doc);
        records.remove(uid);
        changesOfStored.remove(uid);
    }

    /** Puts an observation or memory record ({@code null}: deletes it). */
    private void putRecord(String uid, Object record) {
        put(uid, record == null ? null : document(record));
        if (record != null) {
            records.put(uid, record);
        }
    }

    /**
     * A status or recall change: applied to what this batch put, or to the stored record when the
     * batch did not touch it.
     */
    private void changeStored(String uid, WriteBatch.Op op) {
        Object record = records.get(uid);
        if (record != null) {
            putRecord(uid, withChange(record, op));
        } else if (!byUid.containsKey(uid) || byUid.get(uid) == STORED_RECORD) {
            byUid.put(uid, STORED_RECORD);
            changesOfStored.computeIfAbsent(uid, k -> new ArrayList<>(1)).add(op);
        }
        // else: deleted earlier in this batch, so there is nothing to change
    }

    private static Object withChange(Object record, WriteBatch.Op op) {
        if (record instanceof dev.reverie.Memory m && op instanceof WriteBatch.AddRecalls r) {
            return r.applyTo(m);
        }
        if (record instanceof dev.reverie.Observation o && op instanceof WriteBatch.SetObservationStatus u) {
            return o.withStatus(u.status(), u.consolidatedAt());
        }
        if (record instanceof dev.reverie.Memory m && op instanceof WriteBatch.SetMemoryStatus u) {
            return m.toBuilder().status(u.status()).supersededBy(u.supersededBy()).updatedAt(u.updatedAt()).build();
        }
        throw new IllegalStateException("status change " + op + " does not fit " + record);
    }

    private static Document document(Object record) {
        return record instanceof dev.reverie.Observation o ? LuceneDocuments.observation(o)
                : LuceneDocuments.memory((dev.reverie.Memory) record);
    }

    /**
     * Reads the stored records this batch changes and puts their new versions (absent ones stay
     * absent); a memory whose changes are all recalls and which has the recall doc values gets those
     * updated in place instead ({@link #inPlace}), or left to the index's unfolded recalls when it
     * defers them ({@link #deferred}). A memory's current recall statistics are its unfolded ones when
     * it has any, else its doc values.
     */
    private void resolveStored(TenantIndex.View view) throws IOException {
        IndexSearcher current = view.searcher();
        List<org.apache.lucene.index.LeafReaderContext> leaves = current.getIndexReader().leaves();
        for (Map.Entry<String, List<WriteBatch.Op>> e : changesOfStored.entrySet()) {
            String uid = e.getKey();
            List<WriteBatch.Op> changes = e.getValue();
            boolean recallsOnly = changes.stream().allMatch(WriteBatch.AddRecalls.class::isInstance);
            LuceneDocuments.Recalls pending = view.defersRecalls() ? view.unfoldedRecalls(uid) : null;
            if (recallsOnly && pending != null) {
                // unfolded recalls exist only for a memory document that has the recall doc values (a
                // rewrite or delete of it drops them): no need to look the document up
                byUid.remove(uid);
                deferred.put(uid, recallsAfter(pending, changes));
                continue;
            }
            org.apache.lucene.search.ScoreDoc[] hits =
                    current.search(LuceneDocuments.term(LuceneDocuments.UID, uid), 1).scoreDocs;
            if (hits.length == 0) {
                byUid.remove(uid);
                continue;
            }
            int doc = hits[0].doc;
            if (recallsOnly) {
                org.apache.lucene.index.LeafReaderContext leaf =
                        leaves.get(org.apache.lucene.index.ReaderUtil.subIndex(doc, leaves));
                LuceneDocuments.Recalls stored = LuceneDocuments.recalls(leaf.reader(), doc - leaf.docBase);
                if (stored != null) {
                    LuceneDocuments.Recalls unfolded = view.unfoldedRecalls(uid);
                    LuceneDocuments.Recalls next = recallsAfter(unfolded == null ? stored : unfolded, changes);
                    byUid.remove(uid);
                    if (view.defersRecalls()) {
                        deferred.put(uid, next);
                    } else {
                        inPlace.put(uid, next.fields());
                    }
                    continue;
                }
            }
            Object record = changes.get(0) instanceof WriteBatch.SetObservationStatus
                    ? LuceneMemoryStore.decodeOne(current, current.storedFields(), doc, LuceneDocuments::observation)
                    : LuceneDocuments.withRecalls(
                            LuceneMemoryStore.decodeOne(current, current.storedFields(), doc, LuceneDocuments.MEMORY),
                            view.unfoldedRecalls(uid));
            for (WriteBatch.Op op : changes) {
                record = withChange(record, op);
            }
            byUid.put(uid, document(record));
        }
        changesOfStored.clear();
    }

    /** A memory's recall statistics {@code base} after {@code changes} (recalls only). */
    private static LuceneDocuments.Recalls recallsAfter(LuceneDocuments.Recalls base, List<WriteBatch.Op> changes) {
        int count = base.count();
        java.time.Instant at = base.at();
        for (WriteBatch.Op op : changes) {
            WriteBatch.AddRecalls r = (WriteBatch.AddRecalls) op;
            count = r.countAfter(count);
            at = r.lastAfter(at);
        }
        return new LuceneDocuments.Recalls(count, at);
    }

    private void appendTurn(SessionTurn t) {
        String uid = LuceneDocuments.turnUid(Type.TURN, scope, t.sessionId(), t.seq());
        if (appendedTurns.containsKey(uid)) {
            throw duplicate(t, "twice in one batch");
        }
        appendedTurns.put(uid, t);
        byUid.put(uid, LuceneDocuments.sessionTurn(t));
    }

    /** The next free seq of a session as {@code current} sees it. */
    interface SessionEnd {
        long next(TenantIndex.View current, String sessionId) throws IOException;
    }

    /** Uids of the stored records whose status or recalls it changes (it reads them); call it before {@link #apply}. */
    java.util.Set<String> storedReads() {
        return java.util.Set.copyOf(changesOfStored.keySet());
    }

    /** After {@link #apply}: the uid of every document it put or deleted (history events have none). */
    java.util.Set<String> uidsWritten() {
        return written;
    }

    /**
     * Validates against {@code current}, then applies everything with one IndexWriter call. Turns
     * appended at their session's end get their final seqs from {@code ends} first: the caller holds
     * the tenant's write lock and {@code current} answers exactly for every earlier write, so no two
     * batches get the same seq.
     */
    void apply(IndexWriter writer, TenantIndex.View current, LongSupplier ords, SessionEnd ends) throws IOException {
        if (!atSessionEnd.isEmpty()) {
            resolveSessionEnds(current, ends);
        }
        if (!changesOfStored.isEmpty()) {
            resolveStored(current);
        }
        for (Map.Entry<String, SessionTurn> e : appendedTurns.entrySet()) {
            if (!newUids.contains(e.getKey()) && current.mayExist(e.getKey())) {
                throw duplicate(e.getValue(), "already in the store");
            }
        }
        List<Document> docs = new ArrayList<>(byUid.size() + events.size());
        List<BytesRef> replaced = new ArrayList<>(byUid.size());
        for (Map.Entry<String, Document> e : byUid.entrySet()) {
            if (e.getValue() != null) {
                docs.add(e.getValue());
            }
            // appended turns were just checked to be new, new uids cannot exist, and most other uids are
            // new too (turns archived at the session's end): delete only what may exist
            if (!appendedTurns.containsKey(e.getKey()) && !newUids.contains(e.getKey())
                    && current.mayExist(e.getKey())) {
                replaced.add(new BytesRef(e.getKey()));
            }
        }
        for (MemoryEvent event : events) {
            docs.add(LuceneDocuments.history(event, ords.getAsLong()));
        }
        java.util.Set<String> changed = new java.util.HashSet<>(byUid.keySet());
        changed.addAll(inPlace.keySet());
        written = java.util.Set.copyOf(changed);
        changedIndex = !docs.isEmpty() || !replaced.isEmpty() || !purges.isEmpty() || !inPlace.isEmpty();
        applyDocuments(writer, docs, replaced);
        // recall doc values of memories the block does not touch: after it, so a block that fails to
        // index leaves nothing of the batch behind (an update to a field the document has cannot fail
        // but on I/O, which closes the writer)
        for (Map.Entry<String, List<org.apache.lucene.document.NumericDocValuesField>> e : inPlace.entrySet()) {
            writer.updateDocValues(new Term(LuceneDocuments.UID, e.getKey()),
                    e.getValue().toArray(new org.apache.lucene.document.Field[0]));
        }
        // last, once nothing can fail: a failed batch stages nothing
        current.stage(written, deferred);
    }

    /**
     * What a batch the index already holds, but whose recall statistics it did not fold, changes in
     * them: its recalls add to {@code deltas}; a memory it puts, deletes or whose status it changes was
     * rewritten (or removed) by it with whatever of its recalls applied, as {@link #apply} does, so
     * that memory's deltas start over and the batch's recalls of it are not added again.
     */
    static void recalls(WriteBatch batch, TenantIndex.RecallDeltas deltas) {
        Scope s = batch.scope();
        java.util.Set<String> rewritten = new java.util.HashSet<>();
        for (WriteBatch.Op op : batch.ops()) {
            if (op instanceof WriteBatch.PutMemory p) {
                rewritten.add(LuceneDocuments.uid(Type.MEMORY, s, p.memory().id()));
            } else if (op instanceof WriteBatch.DeleteMemory d) {
                rewritten.add(LuceneDocuments.uid(Type.MEMORY, s, d.id()));
            } else if (op instanceof WriteBatch.SetMemoryStatus u) {
                rewritten.add(LuceneDocuments.uid(Type.MEMORY, s, u.id()));
            }
        }
        rewritten.forEach(deltas::reset);
        for (WriteBatch.Op op : batch.ops()) {
            if (op instanceof WriteBatch.AddRecalls r) {
                String uid = LuceneDocuments.uid(Type.MEMORY, s, r.id());
                if (!rewritten.contains(uid)) {
                    deltas.add(uid, r.count(), r.at());
                }
            }
        }
    }

    /** After {@link #apply}: whether it gave the writer anything to do (not when it only deferred recalls). */
    boolean changedIndex() {
        return changedIndex;
    }

    private void applyDocuments(IndexWriter writer, List<Document> docs, List<BytesRef> replaced) throws IOException {
        // the delete (replaced versions and retention purges) is applied with the new block in one call,
        // so a failure leaves nothing of the batch behind; a single uid is deleted by term, which Lucene
        // applies far more cheaply than a query (a query delete runs against every segment at each flush)
        if (replaced.isEmpty() && purges.isEmpty()) {
            if (!docs.isEmpty()) {
                writer.addDocuments(docs);
            }
            return;
        }
        if (replaced.size() == 1 && purges.isEmpty()) {
            Term uid = new Term(LuceneDocuments.UID, replaced.get(0));
            if (docs.isEmpty()) {
                writer.deleteDocuments(uid);
            } else {
                writer.updateDocuments(uid, docs);
            }
            return;
        }
        BooleanQuery.Builder any = new BooleanQuery.Builder();
        if (!replaced.isEmpty()) {
            any.add(new TermInSetQuery(LuceneDocuments.UID, replaced), BooleanClause.Occur.SHOULD);
        }
        for (Query purge : purges) {
            any.add(purge, BooleanClause.Occur.SHOULD);
        }
        Query delete = any.build();
        if (docs.isEmpty()) {
            writer.deleteDocuments(delete);
        } else {
            writer.updateDocuments(delete, docs);
        }
    }

    private void resolveSessionEnds(TenantIndex.View current, SessionEnd ends) throws IOException {
        Map<String, Long> next = new LinkedHashMap<>();
        Map<String, Document> resolved = new LinkedHashMap<>();
        Json.Last turns = new Json.Last();
        int pending = 0;
        for (Map.Entry<String, Document> e : byUid.entrySet()) {
            if (!e.getKey().startsWith("pending:")) {
                resolved.put(e.getKey(), e.getValue());
                continue;
            }
            WriteBatch.Op op = atSessionEnd.get(pending++);
            SessionTurn offset = op instanceof WriteBatch.AppendTurn t ? t.turn() : ((WriteBatch.ArchiveTurn) op).turn();
            Long base = next.get(offset.sessionId());
            if (base == null) {
                base = ends.next(current, offset.sessionId());
                next.put(offset.sessionId(), base);
            }
            SessionTurn turn = offset.withSeq(base + offset.seq());
            if (op instanceof WriteBatch.AppendTurn) {
                String uid = LuceneDocuments.turnUid(Type.TURN, scope, turn.sessionId(), turn.seq());
                if (appendedTurns.containsKey(uid)) {
                    throw duplicate(turn, "twice in one batch");
                }
                appendedTurns.put(uid, turn);
                newUids.add(uid);
                resolved.put(uid, LuceneDocuments.sessionTurn(turn, turns.of(turn)));
            } else {
                resolved.remove(LuceneDocuments.turnUid(Type.ARCHIVE, scope, turn.sessionId(), turn.seq()));
                resolved.put(LuceneDocuments.turnUid(Type.ARCHIVE, scope, turn.sessionId(), turn.seq()),
                        LuceneDocuments.archivedTurn(turn, ((WriteBatch.ArchiveTurn) op).embedding(), turns.of(turn)));
            }
        }
        byUid.clear();
        byUid.putAll(resolved);
        atSessionEnd.clear();
        next.forEach(batch::seqAssigned);
    }

    /** After {@link #apply}: each session this batch appended turns to, and its next free seq now. */
    Map<String, Long> sessionEnds() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (SessionTurn t : appendedTurns.values()) {
            out.merge(t.sessionId(), t.seq() + 1, Math::max);
        }
        return out;
    }

    private MemoryStoreException duplicate(SessionTurn t, String where) {
        return new MemoryStoreException("session turn seq " + t.seq() + " of session '" + t.sessionId() + "' for "
                + scope + " is " + where + "; a turn's seq must be new for its session (the batch was not applied)");
    }
}
