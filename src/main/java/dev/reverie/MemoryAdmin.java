package dev.reverie;

import dev.reverie.internal.Checks;
import dev.reverie.internal.Ids;
import dev.reverie.internal.ScopeLocks;
import dev.reverie.spi.Embedder;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;

import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The operator's view of one end user's memory (DESIGN §8), from {@link ContextManager#admin()}:
 * list, inspect and delete L3 observations; list, inspect, add, edit in place and delete L4
 * memories, each change with an audit event; read a memory's history, the style profile and the
 * conversation archive; export and import an end user as versioned JSON; erase an end user
 * completely. Every change to a memory appends a history event with cause {@code operator}; the
 * history outlives a deleted memory. Text the operator writes ({@link #remember} drafts' text and
 * value, {@link #edit}'s new text) passes through the same secret redaction as recorded turns,
 * so a secret typed by hand is stored as {@code [REDACTED:<type>]}, in the memory and its history.
 *
 * <p>Unknown ids: lookups named as such return {@link Optional} ({@link #memory}, {@link #observation},
 * {@link #styleProfile}); operations that act on an id ({@code delete...}, {@link #edit},
 * {@link #history}) fail with {@link IllegalArgumentException} naming the id and the scope.
 *
 * <p>TTL at read: {@link #memories(Scope)} lists ACTIVE memories that have not expired at the
 * manager's clock, which is exactly what can be recalled. {@link #memories(Scope, MemoryFilter)} and
 * {@link #memory(Scope, String)} return memories as stored, expired ones included, for audit;
 * {@link Memory#expired(Instant)} tells them apart.
 *
 * <p>Import restores into an <em>empty</em> end user only (see {@link #importFrom}): to replace a
 * user's data, export it if it is needed, {@link #eraseEndUser} it, then import.
 *
 * <p>Thread-safe: every read-modify-write runs under the manager's per-scope lock, the same lock the
 * retrieval statistics, the failed-run criterion and the dream cycle take, so an operator's edit
 * never races another writer of that end user's memories.
 */
public final class MemoryAdmin {

    private static final String OPERATOR = "operator";

    private final MemoryStore store;
    private final Clock clock;
    private final ScopeLocks locks;
    private final Embedder embedder;
    private final SecretRedactor redactor;
    private final HealthMonitor health;
    private final Runnable flushBackground;
    private final Runnable ensureOpen;
    private final ExportCodec codec;
    private final Ids ids;

    MemoryAdmin(MemoryStore store, Clock clock, ScopeLocks locks, Embedder embedder, SecretRedactor redactor,
                HealthMonitor health, Runnable flushBackground, Runnable ensureOpen, Ids ids) {
        this.store = store;
        this.ids = Checks.notNull("ids", ids);
        this.codec = new ExportCodec(redactor, ids);
        this.clock = clock;
        this.locks = locks;
        this.embedder = embedder;
        this.redactor = redactor;
        this.health = health;
        this.flushBackground = flushBackground;
        this.ensureOpen = ensureOpen;
    }

    // ------------------------------------------------------------------ L3 observations

    /** Every L3 observation of the end user, any status, oldest first. */
    public List<Observation> observations(Scope scope) {
        return observations(scope, ObservationFilter.all());
    }

    /** The L3 observations matching {@code filter}, ordered by observation time then id. */
    public List<Observation> observations(Scope scope, ObservationFilter filter) {
        check(scope);
        Checks.notNull("filter", filter);
        return store.observations(scope, filter);
    }

    /** One observation, if it exists. */
    public Optional<Observation> observation(Scope scope, String id) {
        check(scope);
        return store.observation(scope, Checks.id("observation id", id));
    }

    /** Deletes one observation; fails with {@link IllegalArgumentException} when it does not exist. */
    public void deleteObservation(Scope scope, String id) {
        check(scope);
        Checks.id("observation id", id);
        ReentrantLock lock = locks.lockFor(scope);
        lock.lock();
        try {
            if (store.observation(scope, id).isEmpty()) {
                throw new IllegalArgumentException("observation id '" + id + "' does not exist in scope " + scope);
            }
            store.write(WriteBatch.of(scope).deleteObservation(id));
        } finally {
            lock.unlock();
        }
    }

    /** Deletes every L3 observation of the end user (any status) atomically; returns how many. */
    public int clearObservations(Scope scope) {
        check(scope);
        ReentrantLock lock = locks.lockFor(scope);
        lock.lock();
        try {
            WriteBatch batch = WriteBatch.of(scope);
            int page = MemoryFilter.MAX_LIMIT;
            for (int offset = 0; ; offset += page) {
                List<Observation> obs = store.observations(scope, ObservationFilter.all().page(offset, page));
                obs.forEach(o -> batch.deleteObservation(o.id()));
                if (obs.size() < page) {
                    break;
                }
            }
            store.write(batch);
            return batch.size();
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ L4 memories

    /** The ACTIVE memories that have not expired at the manager's clock, oldest first: what can be recalled. */
    public List<Memory> memories(Scope scope) {
        check(scope);
        Instant now = clock.instant();
        return store.memories(scope, MemoryFilter.active()).stream().filter(m -> !m.expired(now)).toList();
    }

    /** The memories matching {@code filter} as stored (any status it names, expired ones included). */
    public List<Memory> memories(Scope scope, MemoryFilter filter) {
        check(scope);
        Checks.notNull("filter", filter);
        return store.memories(scope, filter);
    }

    /** One memory by id, whatever its status or expiry. */
    public Optional<Memory> memory(Scope scope, String id) {
        check(scope);
        return store.memory(scope, Checks.id("memory id", id));
    }

    /**
     * Adds memories by hand, atomically: each becomes an ACTIVE memory with source OPERATOR, the
     * draft's TTL (see {@link MemoryDraft}), an embedding when the manager has an embedder, and a
     * CREATED history event. Secrets in a draft's text and value are redacted first. All drafts are validated before anything is written. Returns the new
     * memories in draft order.
     */
    public List<Memory> remember(Scope scope, MemoryDraft... drafts) {
        check(scope);
        Checks.notNull("drafts", drafts);
        return remember(scope, Arrays.asList(drafts));
    }

    /** As {@link #remember(Scope, MemoryDraft...)} with a list. */
    public List<Memory> remember(Scope scope, List<MemoryDraft> drafts) {
        check(scope);
        Checks.notNull("drafts", drafts);
        if (drafts.isEmpty()) {
            throw new IllegalArgumentException("drafts must not be empty");
        }
        for (int i = 0; i < drafts.size(); i++) {
            if (drafts.get(i) == null) {
                throw new IllegalArgumentException("drafts[" + i + "] must not be null");
            }
        }
        for (int i = 0; i < drafts.size(); i++) {
            // a subject is a key (it is stored, indexed and shown as is): one that holds a secret is
            // refused, not redacted into a key nobody asked for; the message does not quote it
            Redaction r = redactor.redact(drafts.get(i).subject());
            if (r.total() > 0) {
                throw new IllegalArgumentException("drafts[" + i + "].subject holds what looks like a secret ("
                        + String.join(", ", r.countsByType().keySet()) + "); a subject names what the memory is"
                        + " about (e.g. user.location), put nothing secret in it; nothing was stored");
            }
        }
        Instant now = clock.instant();
        List<Memory> created = new ArrayList<>(drafts.size());
        WriteBatch batch = WriteBatch.of(scope);
        for (MemoryDraft d : drafts) {
            String text = redactor.redact(d.text()).text();
            Memory m = Memory.builder(ids.next("m"), scope, d.kind(), text, now)
                    .subject(d.subject())
                    .value(d.value() == null ? null : redactor.redact(d.value()).text())
                    .cardinality(d.cardinality())
                    .importance(d.importance())
                    .permanent(d.permanent())
                    .expiresAt(d.deadline(now))
                    .provenance(Provenance.operator(now))
                    .embedding(embed(text))
                    .build();
            created.add(m);
            batch.put(m);
            batch.append(new MemoryEvent(ids.next("e"), scope, m.id(), MemoryEventType.CREATED, now, null, m.text(),
                    OPERATOR));
        }
        ReentrantLock lock = locks.lockFor(scope);
        lock.lock();
        try {
            store.write(batch);
        } finally {
            lock.unlock();
        }
        return List.copyOf(created);
    }

    /**
     * Replaces a memory's text in place, keeping its id, status and provenance, with an EDITED
     * history event holding the old text in {@code before()}, the new in {@code after()} and cause
     * {@code operator}. The embedding is recomputed (or dropped when the manager has no embedder, so a
     * stale vector never matches). Secrets in the new text are redacted first; editing to the same
     * (redacted) text changes nothing. Returns the memory as stored.
     */
    public Memory edit(Scope scope, String id, String newText) {
        check(scope);
        Checks.id("memory id", id);
        Checks.notBlank("newText", newText);
        if (newText.length() > MemoryDraft.MAX_TEXT_LENGTH) {
            throw new IllegalArgumentException("newText must be at most " + MemoryDraft.MAX_TEXT_LENGTH
                    + " characters, was " + newText.length());
        }
        String text = redactor.redact(newText).text();
        Embedding vector = embed(text);
        ReentrantLock lock = locks.lockFor(scope);
        lock.lock();
        try {
            Memory old = existing(scope, id);
            if (old.text().equals(text)) {
                return old;
            }
            Instant now = clock.instant();
            Memory edited = old.toBuilder().text(text).updatedAt(now).embedding(vector).build();
            store.write(WriteBatch.of(scope).put(edited).append(new MemoryEvent(ids.next("e"), scope, id,
                    MemoryEventType.EDITED, now, old.text(), text, OPERATOR)));
            return edited;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Deletes a memory, appending a DELETED history event (before: its text) that outlives it. The L3
     * observations it was built from are deleted in the same batch: otherwise a later
     * {@code consolidate(scope)}, which reprocesses the whole L3 stack, would bring it back.
     */
    public void deleteMemory(Scope scope, String id) {
        check(scope);
        Checks.id("memory id", id);
        ReentrantLock lock = locks.lockFor(scope);
        lock.lock();
        try {
            Memory old = existing(scope, id);
            WriteBatch batch = WriteBatch.of(scope).deleteMemory(id).append(new MemoryEvent(ids.next("e"), scope, id,
                    MemoryEventType.DELETED, clock.instant(), old.text(), null, OPERATOR));
            for (String observationId : old.sourceObservationIds()) {
                batch.deleteObservation(observationId);
            }
            store.write(batch);
        } finally {
            lock.unlock();
        }
    }

    /**
     * A memory's full audit history, oldest first, also after it was deleted. Fails with
     * {@link IllegalArgumentException} when the id has neither a memory nor any history.
     */
    public List<MemoryEvent> history(Scope scope, String id) {
        check(scope);
        Checks.id("memory id", id);
        List<MemoryEvent> events = store.history(scope, id);
        if (events.isEmpty() && store.memory(scope, id).isEmpty()) {
            throw new IllegalArgumentException("memory id '" + id + "' has no memory and no history in scope "
                    + scope);
        }
        return events;
    }

    // ------------------------------------------------------------------ profile and conversation

    /** The end user's style profile, if the dream cycle wrote one. */
    public Optional<StyleProfile> styleProfile(Scope scope) {
        check(scope);
        return store.styleProfile(scope);
    }

    /** The end user's session ids, in order of first activity. */
    public List<String> sessions(Scope scope) {
        check(scope);
        return store.sessions(scope);
    }

    /**
     * The verbatim (redacted) conversation archive of a session, oldest first, after the pending
     * archive writes are flushed; empty when the session is unknown or the archive is off.
     */
    public List<SessionTurn> conversation(Scope scope, String sessionId) {
        check(scope);
        Checks.id("sessionId", sessionId);
        flushBackground.run();
        return store.archivedTurns(scope, sessionId);
    }

    // ------------------------------------------------------------------ export, import, erase

    /**
     * Writes everything kept about the end user to {@code out} as versioned JSON (format in
     * {@code docs/governance.md}): observations, memories of every status, the whole history (deleted
     * memories' included), session turns, summaries, the archive and the style profile, every field
     * of each. Pending background writes are flushed first and the data is read under the scope's
     * lock, so no admin edit, dream or retrieval update lands half-way; a turn recorded concurrently
     * may or may not be included. The stream is flushed, not closed.
     *
     * @throws MemoryTransferException when {@code out} fails, with its {@code IOException} as the cause
     */
    public void exportTo(Scope scope, OutputStream out) {
        check(scope);
        Checks.notNull("out", out);
        flushBackground.run();
        codec.exportTo(store, scope, clock, locks.lockFor(scope), out);
    }

    /**
     * Restores an end user from an export made by {@link #exportTo}. The whole file is read and
     * validated before anything is written: malformed JSON, a missing or invalid field, a newer
     * format version, another scope, a time outside years 0001–9999, a number where text is expected,
     * a text over its length limit or a summary covering more turns than its session has fail with
     * {@link MemoryFormatException} naming the record and field. Every text then passes through the
     * secret redactor, as recorded turns do (see {@code docs/governance.md}). The end user must be
     * empty (no memories, observations, sessions, style profile or history), otherwise
     * {@link IllegalStateException}: import never merges. Everything is then written in one atomic
     * batch, with one IMPORTED history event per memory after its original history, so a failure
     * leaves the store unchanged. The stream is not closed.
     *
     * @throws MemoryTransferException when {@code in} fails while it is read (nothing was imported)
     */
    public void importFrom(Scope scope, InputStream in) {
        check(scope);
        Checks.notNull("in", in);
        codec.importFrom(store, scope, clock, locks.lockFor(scope), in);
    }

    /**
     * Removes every trace of the end user: sessions, archive, observations, memories, history, style
     * profile and their search-index entries (the store scrubs them from its files; the SQLite store
     * merges its full-text segments and vacuums), plus what the health counters hold about the user.
     * Pending background writes are flushed first so none lands after the erase. A turn the host
     * records for this user afterwards is new data: stop the user's traffic before erasing.
     */
    public void eraseEndUser(Scope scope) {
        check(scope);
        flushBackground.run();
        ReentrantLock lock = locks.lockFor(scope);
        lock.lock();
        try {
            List<String> sessions = store.sessions(scope);
            store.erase(scope);
            health.forget(scope, sessions);
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ helpers

    private void check(Scope scope) {
        Checks.notNull("scope", scope);
        ensureOpen.run();
    }

    private Memory existing(Scope scope, String id) {
        return store.memory(scope, id).orElseThrow(() -> new IllegalArgumentException(
                "memory id '" + id + "' does not exist in scope " + scope));
    }

    private Embedding embed(String text) {
        return embedder == null ? null : Embedding.of(embedder.embed(text));
    }
}
