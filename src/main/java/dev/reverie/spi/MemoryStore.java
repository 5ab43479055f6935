package dev.reverie.spi;

import dev.reverie.Memory;
import dev.reverie.MemoryEvent;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStatus;
import dev.reverie.Observation;
import dev.reverie.ObservationFilter;
import dev.reverie.ObservationStatus;
import dev.reverie.Scope;
import dev.reverie.StyleProfile;
import dev.reverie.internal.Checks;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Storage and candidate search for Reverie: observations (L3), memories (L4), sessions, the
 * conversation archive, style profiles and audit history, always addressed by {@link Scope}.
 * Scoring, extraction and the dream logic live in the core, so a store stays small and swappable.
 *
 * <p>Implementations must be thread-safe (concurrent readers, serialized or otherwise safe
 * writers), apply a {@link WriteBatch} atomically, never return data of another scope, accept any
 * user text in search without a query-syntax error, make acknowledged writes durable in their
 * default mode, and throw {@link dev.reverie.StoreClosedException} (an {@link IllegalStateException})
 * once closed. {@code close()} is safe to
 * call twice. The contract kit {@code MemoryStoreContract} (in the {@code tests} jar) checks all of
 * this.
 */
public interface MemoryStore extends AutoCloseable {

    /** A short description for logs and errors, e.g. {@code sqlite:/data/reverie}. */
    String describe();

    /** Applies every operation of the batch atomically: afterwards all are visible, or none is. */
    void write(WriteBatch batch);

    /**
     * Applies several batches of one tenant (for any of its end users) in order as one atomic step,
     * with one commit: afterwards all of them are visible, or none is. Returns {@code false}, having
     * written nothing, when the store cannot do that for these batches (the default); the caller then
     * writes them one by one with {@link #write}. A caller with many small batches (the dream
     * cycle's nightly run over a tenant's end users) pays one durable commit instead of one each.
     *
     * @throws IllegalArgumentException when the batches belong to more than one tenant
     */
    default boolean writeAll(List<WriteBatch> batches) {
        WriteBatch.tenantOf(batches);
        return false;
    }

    /**
     * Whether {@link #write} understands the status-only operations of {@link WriteBatch}
     * ({@link WriteBatch#setStatus}, {@link WriteBatch#setMemoryStatus}). The dream cycle sends them
     * only to stores that say so, and writes whole records otherwise, so a store written against
     * 0.1.0 keeps working. The default is {@code false}; the built-in stores return {@code true}.
     */
    default boolean supportsStatusWrites() {
        return false;
    }

    /**
     * Whether {@link #write} and {@link #writeEach} understand {@link WriteBatch#addRecalls} (recall
     * statistics added to a stored memory without rewriting it). The manager's recall statistics use
     * it when the store says so and re-read and put the whole memory otherwise. The default is
     * {@code false}; the built-in stores return {@code true} (Lucene updates two doc values in place
     * instead of re-indexing the memory; SQLite updates two columns that reads lay over the JSON record;
     * PostgreSQL rewrites the memory's JSON in the write transaction; none needs the manager to read
     * the memory first).
     */
    default boolean supportsRecallWrites() {
        return false;
    }

    /**
     * A hint that a large run of writes to the tenant has ended (the dream cycle calls it after a
     * nightly run): the store may tidy its indexes (SQLite merges its full-text index segments), with
     * bounded work. The default does nothing.
     */
    default void maintain(String tenantId) {
    }

    /**
     * Applies each batch as {@link #write} does, each atomically and independently of the others (a
     * failing batch leaves the others written); the batches may belong to different scopes. A store may
     * make them durable together (one transaction or one fsync per tenant): this is how background
     * statistics are flushed without one durable write per scope. The default writes them one after
     * another. After trying every batch, throws the first failure (the others suppressed in it).
     */
    default void writeEach(List<WriteBatch> batches) {
        List<RuntimeException> failures = new java.util.ArrayList<>(batches.size());
        for (WriteBatch b : batches) {
            try {
                write(b);
            } catch (RuntimeException e) {
                failures.add(e);
            }
        }
        if (!failures.isEmpty()) {
            RuntimeException first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            throw first;
        }
    }

    /** One observation by id. */
    Optional<Observation> observation(Scope scope, String id);

    /** Observations matching the filter, ordered by observation time then id. */
    List<Observation> observations(Scope scope, ObservationFilter filter);

    /** One memory by id, whatever its status. */
    Optional<Memory> memory(Scope scope, String id);

    /** Memories matching the filter, ordered by creation time then id. */
    List<Memory> memories(Scope scope, MemoryFilter filter);

    /**
     * The scope's ACTIVE permanent memories (identity and safety-critical facts, pinned first into
     * every context, within {@code MemoryPolicy.pinnedShare()} when a call recalls for a query), most
     * important first, at most {@code limit}. This is on the hot path: stores should
     * answer it from an index. The default filters {@link #memories} and suits small stores only.
     */
    default List<Memory> pinnedMemories(Scope scope, int limit) {
        return memories(scope, MemoryFilter.active()).stream()
                .filter(Memory::permanent)
                .sorted(java.util.Comparator.comparingDouble(Memory::importance).reversed()
                        .thenComparing(Memory::id))
                .limit(limit)
                .toList();
    }

    /** How many memories of the scope have one of the statuses. */
    long countMemories(Scope scope, Set<MemoryStatus> statuses);

    /**
     * Lexical (BM25) candidates among the scope's memories with one of the statuses and kinds, best
     * first. {@code text} is arbitrary user text: it is tokenized by the store, never interpreted as
     * query syntax. Blank or token-free text returns an empty list.
     */
    List<Scored<Memory>> searchMemories(Scope scope, String text, Set<MemoryStatus> statuses, Set<MemoryKind> kinds,
                                        int limit);

    /**
     * Vector candidates (cosine, best first) among the scope's memories with an embedding of the
     * same dimension and one of the statuses. A dimension that differs from the stored one fails
     * with {@link IllegalArgumentException}.
     */
    List<Scored<Memory>> searchMemoriesByVector(Scope scope, float[] vector, Set<MemoryStatus> statuses, int limit);

    /**
     * As {@link #searchMemoriesByVector(Scope, float[], Set, int)}, keeping only the hits whose cosine
     * is at least {@code minSimilarity}: the same hits in the same order as that method's result with
     * the lower ones removed (so the unfloored method's order must be total: equal cosines in a fixed
     * order, e.g. by row key, whatever rows are skipped). A store that scores before it reads records
     * can skip reading the ones below the floor; the default filters the unfloored result. A store
     * that computes cosines in single precision (the Lucene store maps Lucene's float score back to a
     * cosine) may place a hit within about 1e-6 of the floor on either side of it.
     *
     * @throws IllegalArgumentException when {@code minSimilarity} is not a finite number
     */
    default List<Scored<Memory>> searchMemoriesByVector(Scope scope, float[] vector, Set<MemoryStatus> statuses,
                                                        int limit, double minSimilarity) {
        Checks.similarityFloor("minSimilarity", minSimilarity);
        return atLeast(searchMemoriesByVector(scope, vector, statuses, limit), minSimilarity);
    }

    /**
     * Lexical (BM25) candidates among the scope's observations with one of the statuses, best first.
     * STYLE observations are never among them ({@link #textSearchable}): they describe how the user
     * writes ("Ana writes informally"), reach a context only folded into the style profile by the
     * dream cycle, and make up most observations of a chatty user, so a store neither indexes them for
     * text search nor lets them take a place in the result. They stay readable by id and listing.
     */
    List<Scored<Observation>> searchObservations(Scope scope, String text, Set<ObservationStatus> statuses, int limit);

    /**
     * Whether {@link #searchObservations} may return {@code o}: every kind but {@link MemoryKind#STYLE}.
     * Stores index exactly these observations' text.
     */
    static boolean textSearchable(Observation o) {
        return o.kind() != MemoryKind.STYLE;
    }

    /** Vector candidates among the scope's observations with an embedding and one of the statuses. */
    List<Scored<Observation>> searchObservationsByVector(Scope scope, float[] vector, Set<ObservationStatus> statuses,
                                                         int limit);

    /**
     * As {@link #searchObservationsByVector(Scope, float[], Set, int)}, keeping only the hits whose
     * cosine is at least {@code minSimilarity} (see {@link #searchMemoriesByVector(Scope, float[], Set, int, double)}).
     *
     * @throws IllegalArgumentException when {@code minSimilarity} is not a finite number
     */
    default List<Scored<Observation>> searchObservationsByVector(Scope scope, float[] vector,
                                                                 Set<ObservationStatus> statuses, int limit,
                                                                 double minSimilarity) {
        Checks.similarityFloor("minSimilarity", minSimilarity);
        return atLeast(searchObservationsByVector(scope, vector, statuses, limit), minSimilarity);
    }

    /** Session turns with {@code seq >= fromSeq}, ascending, at most {@code limit}. */
    List<SessionTurn> sessionTurns(Scope scope, String sessionId, long fromSeq, int limit);

    /** The last {@code count} turns of the session, in ascending seq order. */
    List<SessionTurn> recentTurns(Scope scope, String sessionId, int count);

    /** The next free seq of the session: the number of turns, since seqs start at 0 and have no gaps. */
    long sessionLength(Scope scope, String sessionId);

    /** The session's compacted summary, if one was written. */
    Optional<SessionSummary> sessionSummary(Scope scope, String sessionId);

    /** The scope's session ids, in order of first activity. */
    List<String> sessions(Scope scope);

    /** The archived turns of a session, ascending. */
    List<SessionTurn> archivedTurns(Scope scope, String sessionId);

    /**
     * The archived turns of a session with {@code seq} in {@code [fromSeq, toSeq]}, ascending: the
     * neighbours of a recalled turn. The default filters {@link #archivedTurns(Scope, String)};
     * stores should answer it from an index.
     */
    default List<SessionTurn> archivedTurns(Scope scope, String sessionId, long fromSeq, long toSeq) {
        List<SessionTurn> out = new java.util.ArrayList<>();
        for (SessionTurn t : archivedTurns(scope, sessionId)) {
            if (t.seq() >= fromSeq && t.seq() <= toSeq) {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * The archived turns falling in any of {@code ranges}, each once, ordered by session and then
     * seq: the neighbours of several recalled turns in one read. The default asks
     * {@link #archivedTurns(Scope, String, long, long)} once per range; stores should answer it with
     * one query.
     */
    default List<SessionTurn> archivedTurns(Scope scope, List<TurnRange> ranges) {
        java.util.TreeMap<String, java.util.TreeMap<Long, SessionTurn>> found = new java.util.TreeMap<>();
        for (TurnRange r : ranges) {
            for (SessionTurn t : archivedTurns(scope, r.sessionId(), r.fromSeq(), r.toSeq())) {
                found.computeIfAbsent(t.sessionId(), k -> new java.util.TreeMap<>()).putIfAbsent(t.seq(), t);
            }
        }
        List<SessionTurn> out = new java.util.ArrayList<>();
        found.values().forEach(bySeq -> out.addAll(bySeq.values()));
        return out;
    }

    /**
     * Whether the scope has archived turns said before {@code before} (retention checks this before
     * purging, so a dream with nothing to purge writes nothing). The default reads every session.
     */
    default boolean hasArchivedTurnsBefore(Scope scope, java.time.Instant before) {
        for (String session : sessions(scope)) {
            for (SessionTurn t : archivedTurns(scope, session)) {
                if (t.at().isBefore(before)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Lexical (BM25) candidates among the scope's archived turns (episodic recall), best first. The
     * indexed text is the speaker's name and the turn's text, so a question naming a speaker finds
     * that speaker's turns. {@code text} is arbitrary user text, never query syntax; blank or
     * token-free text returns an empty list.
     */
    List<Scored<SessionTurn>> searchTurns(Scope scope, String text, int limit);

    /**
     * Vector candidates (cosine, best first) among the scope's archived turns that were archived with
     * a vector. As for memories, a stored vector of another dimension fails with
     * {@link IllegalArgumentException} (re-embed the archive after changing embedders).
     */
    List<Scored<SessionTurn>> searchTurnsByVector(Scope scope, float[] vector, int limit);

    /**
     * As {@link #searchTurnsByVector(Scope, float[], int)}, keeping only the hits whose cosine is at
     * least {@code minSimilarity} (see {@link #searchMemoriesByVector(Scope, float[], Set, int, double)}).
     *
     * @throws IllegalArgumentException when {@code minSimilarity} is not a finite number
     */
    default List<Scored<SessionTurn>> searchTurnsByVector(Scope scope, float[] vector, int limit,
                                                          double minSimilarity) {
        Checks.similarityFloor("minSimilarity", minSimilarity);
        return atLeast(searchTurnsByVector(scope, vector, limit), minSimilarity);
    }

    /** The hits scoring at least {@code floor}, in their order. */
    private static <T> List<Scored<T>> atLeast(List<Scored<T>> hits, double floor) {
        List<Scored<T>> out = new java.util.ArrayList<>(hits.size());
        for (Scored<T> h : hits) {
            if (h.score() >= floor) {
                out.add(h);
            }
        }
        return out;
    }

    /** The audit history of a memory, oldest first (kept after the memory is deleted). */
    List<MemoryEvent> history(Scope scope, String memoryId);

    /**
     * The scope's whole audit history, every memory's events in the order they were appended,
     * including the history of deleted memories (export needs it). The default reads the history of
     * each memory that still exists, so it misses deleted memories' events: stores should override
     * it with one query.
     */
    default List<MemoryEvent> history(Scope scope) {
        List<MemoryEvent> out = new java.util.ArrayList<>();
        for (Memory m : memories(scope, MemoryFilter.all())) {
            out.addAll(history(scope, m.id()));
        }
        return out;
    }

    /** The end user's style profile, if any. */
    Optional<StyleProfile> styleProfile(Scope scope);

    /** Every end user of a tenant and agent that has any data, sorted by id. */
    List<Scope> endUsers(String tenantId, String agentId);

    /**
     * Takes, or renews, the lease {@code name} on the scope for {@code holder} until {@code until}:
     * succeeds when nobody holds it, when {@code holder} already holds it, or when the other holder's
     * lease has expired (its end is not after {@code now}, so a crashed holder blocks nobody for long).
     * The dream cycle takes a lease per end user so that two managers or processes sharing the store
     * never dream one user at once. A store that several processes may share must keep leases where
     * all of them see it (the SQLite store: a {@code leases} table, decided inside a write
     * transaction); a store one process owns (Lucene) may keep them in memory. Holders compare lease
     * ends with their own {@code now}, so they need roughly synchronized clocks. {@link #erase} drops
     * the scope's leases.
     *
     * @return whether {@code holder} now holds the lease until {@code until}
     */
    boolean tryLease(Scope scope, String name, String holder, java.time.Instant now, java.time.Instant until);

    /** Gives the lease up if {@code holder} holds it; otherwise does nothing. */
    void releaseLease(Scope scope, String name, String holder);

    /**
     * {@link #tryLease} for several scopes at once, each decided as {@code tryLease} decides it; a
     * nightly dream run takes its users' leases this way. The default asks one scope after another; a
     * store that decides leases in a durable transaction should override it to decide them all in
     * one (the SQLite store does). When the call fails, no lease it took stays held (the default gives
     * back the ones it won before rethrowing; the SQLite store decides each tenant's scopes in one
     * transaction).
     *
     * @return the scopes whose lease {@code holder} now holds, in the order given (without repeats)
     */
    default Set<Scope> tryLeases(List<Scope> scopes, String name, String holder, java.time.Instant now,
                                           java.time.Instant until) {
        dev.reverie.internal.Checks.notNull("scopes", scopes);
        scopes.forEach(s -> dev.reverie.internal.Checks.notNull("scopes element", s));
        Set<Scope> held = new java.util.LinkedHashSet<>();
        try {
            for (Scope scope : scopes) {
                if (tryLease(scope, name, holder, now, until)) {
                    held.add(scope);
                }
            }
        } catch (RuntimeException e) {
            // on failure no lease of this call stays held: give back the ones already won
            for (Scope scope : held) {
                try {
                    releaseLease(scope, name, holder);
                } catch (RuntimeException again) {
                    e.addSuppressed(again);
                }
            }
            throw e;
        }
        return java.util.Collections.unmodifiableSet(held);
    }

    /**
     * {@link #releaseLease} for several scopes at once. The default releases one scope after another;
     * a store that keeps leases in a durable transaction should override it to release them in one.
     */
    default void releaseLeases(List<Scope> scopes, String name, String holder) {
        for (Scope scope : List.copyOf(scopes)) {
            releaseLease(scope, name, holder);
        }
    }

    /** Removes every trace of the scope: observations, memories, sessions, archive, history, profile. */
    void erase(Scope scope);

    /**
     * Releases resources; safe to call twice. Every other method then throws
     * {@link dev.reverie.StoreClosedException}.
     */
    @Override
    void close();
}
