package dev.reverie.spi;

import dev.reverie.Embedding;
import dev.reverie.Memory;
import dev.reverie.MemoryEvent;
import dev.reverie.MemoryStatus;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.Scope;
import dev.reverie.StyleProfile;
import dev.reverie.internal.Checks;

import java.util.ArrayList;
import java.util.List;

/**
 * A set of writes for one scope that a {@link MemoryStore} applies atomically: all of them or none.
 * Every item must belong to the batch's scope, which is checked as items are added, so a batch can
 * never write into another end user's memory. Operations apply in the order they were added.
 * Not thread-safe: build it on one thread, then hand it to the store.
 */
public final class WriteBatch {

    /** One write operation; the store switches on the concrete type. */
    public sealed interface Op permits PutObservation, DeleteObservation, PutMemory, DeleteMemory, AppendHistory,
            AppendTurn, ArchiveTurn, PurgeArchive, PutSummary, PutStyle, DeleteStyle, SetObservationStatus,
            SetMemoryStatus, AddRecalls {
    }

    /**
     * Inserts or replaces an observation. With {@code newId} its id was generated for this write (see
     * {@link WriteBatch#putNew}), so no stored observation has it and a store may skip looking for a
     * previous version.
     */
    public record PutObservation(Observation observation, boolean newId) implements Op {
        public PutObservation(Observation observation) {
            this(observation, false);
        }
    }
    public record DeleteObservation(String id) implements Op { }
    public record PutMemory(Memory memory) implements Op { }
    public record DeleteMemory(String id) implements Op { }
    /**
     * Changes only the status and consolidation time of a stored observation: afterwards it reads as
     * {@code stored.withStatus(status, consolidatedAt)}. Nothing happens when the observation does not
     * exist. Stores apply it without re-indexing the text where they can.
     */
    public record SetObservationStatus(String id, ObservationStatus status, java.time.Instant consolidatedAt)
            implements Op { }
    /**
     * Changes only the status, {@code supersededBy} and {@code updatedAt} of a stored memory: afterwards it
     * reads as the stored memory with those three fields replaced. Nothing happens when the memory does
     * not exist. Stores apply it without re-indexing the text where they can.
     */
    public record SetMemoryStatus(String id, MemoryStatus status, String supersededBy, java.time.Instant updatedAt)
            implements Op { }
    /**
     * Records that a stored memory was recalled {@code count} more times, the last at {@code at}:
     * afterwards it reads as the stored memory with {@code retrievalCount} increased by {@code count}
     * and {@code lastRetrievedAt} set to {@code at} unless it was later already. Nothing happens when
     * the memory does not exist. Sent only to stores that {@link MemoryStore#supportsRecallWrites() say
     * they understand it}; they apply it without re-indexing the record where they can.
     */
    public record AddRecalls(String id, int count, java.time.Instant at) implements Op {
        /** {@code m} as this change leaves it (the count saturates at {@link Integer#MAX_VALUE}). */
        public Memory applyTo(Memory m) {
            return m.toBuilder().retrievalCount(countAfter(m.retrievalCount()))
                    .lastRetrievedAt(lastAfter(m.lastRetrievedAt())).build();
        }

        /** The recall count after this change of a memory whose count was {@code stored}. */
        public int countAfter(int stored) {
            return (int) Math.min(Integer.MAX_VALUE, (long) stored + count);
        }

        /** The last recall time after this change of a memory last recalled at {@code stored} ({@code null}: never). */
        public java.time.Instant lastAfter(java.time.Instant stored) {
            return stored == null || at.isAfter(stored) ? at : stored;
        }
    }
    public record AppendHistory(MemoryEvent event) implements Op { }
    /**
     * A turn appended to its session. With {@code atSessionEnd} its seq is an offset that the store
     * resolves inside its write transaction (see {@link WriteBatch#appendAtSessionEnd}).
     */
    public record AppendTurn(SessionTurn turn, boolean atSessionEnd) implements Op {
        public AppendTurn(SessionTurn turn) {
            this(turn, false);
        }
    }
    /**
     * A turn for the verbatim archive, with its vector for episodic vector search or {@code null}. With
     * {@code atSessionEnd} its seq is an offset resolved like {@link AppendTurn}'s.
     */
    public record ArchiveTurn(SessionTurn turn, Embedding embedding, boolean atSessionEnd) implements Op {
        public ArchiveTurn(SessionTurn turn) {
            this(turn, null, false);
        }

        public ArchiveTurn(SessionTurn turn, Embedding embedding) {
            this(turn, embedding, false);
        }
    }
    /** Deletes the scope's archived turns said before {@code before} (their retention ended). */
    public record PurgeArchive(java.time.Instant before) implements Op { }
    public record PutSummary(SessionSummary summary) implements Op { }
    public record PutStyle(StyleProfile profile) implements Op { }
    public record DeleteStyle() implements Op { }

    private final Scope scope;
    private final List<Op> ops = new ArrayList<>();
    /** Session id → the seq a store gave to offset 0 of the turns appended at that session's end. */
    private final java.util.Map<String, Long> assigned = new java.util.concurrent.ConcurrentHashMap<>();

    private WriteBatch(Scope scope) {
        this.scope = Checks.notNull("scope", scope);
    }

    /** An empty batch for {@code scope}. */
    public static WriteBatch of(Scope scope) {
        return new WriteBatch(scope);
    }

    public Scope scope() {
        return scope;
    }

    /**
     * The one tenant of {@code batches} (for {@link MemoryStore#writeAll}), or {@code null} when none of
     * them has anything to write.
     *
     * @throws IllegalArgumentException when they belong to more than one tenant
     */
    public static String tenantOf(List<WriteBatch> batches) {
        Checks.notNull("batches", batches);
        String tenant = null;
        for (WriteBatch b : batches) {
            String t = Checks.notNull("batch", b).scope().tenantId();
            if (tenant != null && !tenant.equals(t)) {
                throw new IllegalArgumentException("batches of one writeAll must share a tenant, found '" + tenant
                        + "' and '" + t + "'");
            }
            tenant = t;
        }
        for (WriteBatch b : batches) {
            if (!b.isEmpty()) {
                return tenant;
            }
        }
        return null;
    }

    /** The operations in order (an unmodifiable copy). */
    public List<Op> ops() {
        return List.copyOf(ops);
    }

    public boolean isEmpty() {
        return ops.isEmpty();
    }

    public int size() {
        return ops.size();
    }

    /** Inserts or replaces an observation (by id). */
    public WriteBatch put(Observation o) {
        check(o.scope());
        ops.add(new PutObservation(o));
        return this;
    }

    /**
     * Inserts an observation whose id was generated for this write and was never written before (the
     * pipeline's ids carry 122 random bits, or come from a manager's id seed, which must not be reused
     * on the same store), so a store need not look for a previous version: the
     * Lucene store skips its uid lookup, the SQLite store inserts without looking for the row (so an id
     * that does exist fails the batch with a constraint error). Otherwise as {@link #put(Observation)};
     * replay, import and every later change of the observation use {@code put}.
     */
    public WriteBatch putNew(Observation o) {
        check(o.scope());
        ops.add(new PutObservation(o, true));
        return this;
    }

    /** Inserts or replaces a memory (by id). */
    public WriteBatch put(Memory m) {
        check(m.scope());
        ops.add(new PutMemory(m));
        return this;
    }

    /** Appends an audit event. */
    public WriteBatch append(MemoryEvent e) {
        check(e.scope());
        ops.add(new AppendHistory(e));
        return this;
    }

    /** Appends a turn to its session; its seq must be new for that session. */
    public WriteBatch append(SessionTurn t) {
        check(t.scope());
        ops.add(new AppendTurn(t));
        return this;
    }

    /**
     * Appends a turn at the end of its session, numbered by the store inside its write transaction:
     * the turn's {@code seq} is an offset (0 for the first such turn of the session in this batch, 1
     * for the next, ...) and the store adds the session's next free seq as it is when the batch is
     * applied. Several processes or managers appending to one session through one shared store then
     * never collide, because no seq is read outside the transaction that writes it. After
     * {@link MemoryStore#write}, {@link #assignedSeq(String)} gives the seq that offset 0 received.
     */
    public WriteBatch appendAtSessionEnd(SessionTurn t) {
        check(t.scope());
        ops.add(new AppendTurn(t, true));
        return this;
    }

    /**
     * Archives a turn appended by {@link #appendAtSessionEnd} in the same batch: its seq is the same
     * offset, resolved to the same final seq as the session turn.
     */
    public WriteBatch archiveAtSessionEnd(SessionTurn t) {
        check(t.scope());
        ops.add(new ArchiveTurn(t, null, true));
        return this;
    }

    /**
     * For stores, inside {@link MemoryStore#write}: records that the turns of {@code sessionId}
     * appended at the session's end were numbered from {@code firstSeq} (their offset 0). A store that
     * retries a transaction calls it again; the last call wins.
     */
    public void seqAssigned(String sessionId, long firstSeq) {
        assigned.put(Checks.notNull("sessionId", sessionId), firstSeq);
    }

    /**
     * After a successful {@link MemoryStore#write}: the seq the store gave to offset 0 of the turns
     * appended at {@code sessionId}'s end; a turn's final seq is this plus its offset.
     *
     * @throws IllegalStateException when the batch appended no such turn or was not written
     */
    public long assignedSeq(String sessionId) {
        Long v = assigned.get(sessionId);
        if (v == null) {
            throw new IllegalStateException("no turn of session '" + sessionId
                    + "' was appended at the session end by a completed write of this batch");
        }
        return v;
    }

    /** Writes a turn to the verbatim conversation archive (replacing one with the same session and seq). */
    public WriteBatch archive(SessionTurn t) {
        return archive(t, null);
    }

    /**
     * Writes a turn to the verbatim conversation archive with its vector ({@code null} for none), so
     * that {@link MemoryStore#searchTurnsByVector} can find it; replaces one with the same session and seq.
     */
    public WriteBatch archive(SessionTurn t, Embedding embedding) {
        check(t.scope());
        ops.add(new ArchiveTurn(t, embedding));
        return this;
    }

    /** Deletes the scope's archived turns whose time is before {@code before} (retention). */
    public WriteBatch purgeArchiveBefore(java.time.Instant before) {
        ops.add(new PurgeArchive(Checks.notNull("before", before)));
        return this;
    }

    /** Inserts or replaces a session's compacted summary. */
    public WriteBatch put(SessionSummary s) {
        check(s.scope());
        ops.add(new PutSummary(s));
        return this;
    }

    /** Inserts or replaces the end user's style profile. */
    public WriteBatch put(StyleProfile p) {
        check(p.scope());
        ops.add(new PutStyle(p));
        return this;
    }

    /**
     * Sets the status and consolidation time ({@code null} for none) of a stored observation, leaving
     * every other field as stored; nothing happens when it does not exist. Cheaper than a {@link #put}
     * of the whole record: the dream cycle marks most observations it judges this way.
     */
    public WriteBatch setStatus(String observationId, ObservationStatus status, java.time.Instant consolidatedAt) {
        ops.add(new SetObservationStatus(Checks.id("observation id", observationId), Checks.notNull("status", status),
                consolidatedAt));
        return this;
    }

    /**
     * Sets the status, the id of the memory that superseded it ({@code null} for none) and the update
     * time of a stored memory, leaving every other field as stored; nothing happens when it does not
     * exist.
     */
    public WriteBatch setMemoryStatus(String memoryId, MemoryStatus status, String supersededBy,
                                      java.time.Instant updatedAt) {
        ops.add(new SetMemoryStatus(Checks.id("memory id", memoryId), Checks.notNull("status", status), supersededBy,
                Checks.notNull("updatedAt", updatedAt)));
        return this;
    }

    /**
     * Adds {@code count} recalls to a stored memory, the last at {@code at} (see {@link AddRecalls});
     * only for stores whose {@link MemoryStore#supportsRecallWrites()} is {@code true}.
     */
    public WriteBatch addRecalls(String memoryId, int count, java.time.Instant at) {
        if (count <= 0) {
            throw new IllegalArgumentException("count must be positive (the recalls to add), was " + count);
        }
        ops.add(new AddRecalls(Checks.id("memory id", memoryId), count, Checks.notNull("at", at)));
        return this;
    }

    /** Deletes an observation by id (nothing happens when it does not exist). */
    public WriteBatch deleteObservation(String id) {
        ops.add(new DeleteObservation(Checks.id("observation id", id)));
        return this;
    }

    /** Deletes a memory by id (its history stays). */
    public WriteBatch deleteMemory(String id) {
        ops.add(new DeleteMemory(Checks.id("memory id", id)));
        return this;
    }

    /** Deletes the style profile. */
    public WriteBatch deleteStyleProfile() {
        ops.add(new DeleteStyle());
        return this;
    }

    private void check(Scope itemScope) {
        if (!scope.equals(itemScope)) {
            throw new IllegalArgumentException("item scope " + itemScope + " does not match the batch scope " + scope);
        }
    }
}
