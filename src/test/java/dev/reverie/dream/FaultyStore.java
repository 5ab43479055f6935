package dev.reverie.dream;

import dev.reverie.Memory;
import dev.reverie.MemoryEvent;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStatus;
import dev.reverie.MemoryStoreException;
import dev.reverie.Observation;
import dev.reverie.ObservationFilter;
import dev.reverie.ObservationStatus;
import dev.reverie.Scope;
import dev.reverie.StyleProfile;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.Scored;
import dev.reverie.spi.SessionSummary;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real store behind a fault: every call is delegated, except that the {@code failOn}-th call to
 * {@link #write} (1-based) throws before reaching the store, as a crash or a full disk would.
 * Counting starts when {@link #arm(int)} is called. It can also insist that every batch belongs to
 * one scope. Thread-safe as the delegate is.
 */
final class FaultyStore implements MemoryStore {
    private final MemoryStore delegate;
    private final AtomicInteger writes = new AtomicInteger();
    private volatile int failOn = -1;
    private final AtomicInteger batchesWritten = new AtomicInteger();
    private volatile Scope onlyScope;

    FaultyStore(MemoryStore delegate) {
        this.delegate = delegate;
    }

    /** From now on, the {@code n}-th write fails (and only that one). */
    void arm(int n) {
        writes.set(0);
        failOn = n;
    }

    void disarm() {
        failOn = -1;
    }

    /** From now on, a write for any other scope than {@code scope} fails the test ({@code null}: any). */
    void expectOnly(Scope scope) {
        onlyScope = scope;
    }

    /** From now on, taking the lease of {@code scope} fails ({@code null}: none fails). */
    void failLeaseOf(Scope scope) {
        leaseFailsFor = scope;
    }

    private volatile Scope leaseFailsFor;

    int batchesWritten() {
        return batchesWritten.get();
    }

    @Override
    public void write(WriteBatch batch) {
        if (onlyScope != null && !onlyScope.equals(batch.scope())) {
            throw new AssertionError("a cycle for " + onlyScope + " wrote a batch for " + batch.scope());
        }
        if (writes.incrementAndGet() == failOn) {
            throw new MemoryStoreException("injected failure on write " + failOn);
        }
        delegate.write(batch);
        batchesWritten.incrementAndGet();
    }

    @Override public String describe() { return "faulty(" + delegate.describe() + ")"; }
    @Override public Optional<Observation> observation(Scope s, String id) { return delegate.observation(s, id); }
    @Override public List<Observation> observations(Scope s, ObservationFilter f) { return delegate.observations(s, f); }
    @Override public Optional<Memory> memory(Scope s, String id) { return delegate.memory(s, id); }
    @Override public List<Memory> memories(Scope s, MemoryFilter f) { return delegate.memories(s, f); }
    @Override public long countMemories(Scope s, Set<MemoryStatus> st) { return delegate.countMemories(s, st); }
    @Override public List<Scored<Memory>> searchMemories(Scope s, String t, Set<MemoryStatus> st, Set<MemoryKind> k, int l) { return delegate.searchMemories(s, t, st, k, l); }
    @Override public List<Scored<Memory>> searchMemoriesByVector(Scope s, float[] v, Set<MemoryStatus> st, int l) { return delegate.searchMemoriesByVector(s, v, st, l); }
    @Override public List<Scored<Observation>> searchObservations(Scope s, String t, Set<ObservationStatus> st, int l) { return delegate.searchObservations(s, t, st, l); }
    @Override public List<Scored<Observation>> searchObservationsByVector(Scope s, float[] v, Set<ObservationStatus> st, int l) { return delegate.searchObservationsByVector(s, v, st, l); }
    @Override public List<SessionTurn> sessionTurns(Scope s, String id, long from, int l) { return delegate.sessionTurns(s, id, from, l); }
    @Override public List<SessionTurn> recentTurns(Scope s, String id, int c) { return delegate.recentTurns(s, id, c); }
    @Override public long sessionLength(Scope s, String id) { return delegate.sessionLength(s, id); }
    @Override public boolean tryLease(Scope s, String n, String h, java.time.Instant now, java.time.Instant until) {
        if (s.equals(leaseFailsFor)) {
            throw new MemoryStoreException("injected lease failure for " + s);
        }
        return delegate.tryLease(s, n, h, now, until);
    }
    @Override public void releaseLease(Scope s, String n, String h) { delegate.releaseLease(s, n, h); }
    @Override public Optional<SessionSummary> sessionSummary(Scope s, String id) { return delegate.sessionSummary(s, id); }
    @Override public List<String> sessions(Scope s) { return delegate.sessions(s); }
    @Override public List<SessionTurn> archivedTurns(Scope s, String id) { return delegate.archivedTurns(s, id); }
    @Override public List<SessionTurn> archivedTurns(Scope s, String id, long from, long to) {
        return delegate.archivedTurns(s, id, from, to);
    }
    @Override public boolean hasArchivedTurnsBefore(Scope s, java.time.Instant before) {
        return delegate.hasArchivedTurnsBefore(s, before);
    }
    @Override public List<Scored<SessionTurn>> searchTurns(Scope s, String q, int n) { return delegate.searchTurns(s, q, n); }
    @Override public List<Scored<SessionTurn>> searchTurnsByVector(Scope s, float[] v, int n) {
        return delegate.searchTurnsByVector(s, v, n);
    }
    @Override public List<MemoryEvent> history(Scope s, String id) { return delegate.history(s, id); }
    @Override public Optional<StyleProfile> styleProfile(Scope s) { return delegate.styleProfile(s); }
    @Override public List<Scope> endUsers(String t, String a) { return delegate.endUsers(t, a); }
    @Override public void erase(Scope s) { delegate.erase(s); }
    @Override public void close() { delegate.close(); }
}
