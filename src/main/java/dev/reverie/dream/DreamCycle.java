package dev.reverie.dream;

import dev.reverie.MemoryKind;
import dev.reverie.MemoryPolicy;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.Scope;
import dev.reverie.StoreClosedException;
import dev.reverie.internal.Checks;
import dev.reverie.internal.ScopeLocks;
import dev.reverie.spi.Embedder;
import dev.reverie.spi.LanguageModel;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.ReferenceValidator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The dream cycle: consolidates what each end user said (L3 observations) into durable memories
 * (L4), between conversations. For one end user it runs, in order, {@link DreamPhase#LIGHT light
 * sleep} (dedup: repetition becomes reinforcement), {@link DreamPhase#DEEP deep sleep} (importance,
 * then promote — create, reinforce or supersede — or discard), {@link DreamPhase#REM REM} (deprecate,
 * decay, forget, synthesize, update the style profile) and {@link DreamPhase#PRUNE prune} (drop old
 * judged observations). See {@code docs/dream.md} for the rules and defaults.
 *
 * <p>Guarantees: every phase reads and writes one end user only and commits as one
 * {@link dev.reverie.spi.WriteBatch} (a {@link #runAll nightly run} commits the batches of several
 * users in one atomic {@link MemoryStore#writeAll}), so a failure leaves that user as before the
 * phase and a rerun completes the cycle; all ids the cycle writes are derived from what they come from and time comes
 * from the injected {@link Clock} (read once per user), so running the cycle twice at the same clock
 * changes nothing the second time; the report's counters are what the store shows afterwards.
 *
 * <p>A {@link #runAll nightly run} computes several users' cycles at once on threads of its own
 * ({@link Builder#threads}); the results are those of computing them one after another, and the
 * listener still hears everything on the calling thread, user after user.
 *
 * <p>Thread-safe: cycles for different end users may run concurrently and share nothing but the
 * store; each holds its user's lock ({@link Builder#scopeLocks}) for the whole cycle, so two cycles
 * of one user, or a cycle and another writer sharing those locks, never interleave. No lock is held
 * across users, and the store's reads and writes for other users never wait for a cycle. Build one
 * with {@link #builder(MemoryStore)}.
 *
 * <p>Several managers or processes sharing a store: before a user's cycle, this cycle takes the
 * user's {@value #LEASE} lease in the store ({@link MemoryStore#tryLease}) for
 * {@link Builder#leaseDuration} of wall-clock time ({@link Builder#leaseClock}, not the cycle's
 * clock), renews it before a phase once half of it has run out, and releases it afterwards. When
 * another holder has it, the user is skipped, not waited for: the holder is doing the same work, and
 * the next cycle takes the user up again; the report counts it in {@link DreamReport#skipped()}. A
 * holder that crashed blocks the user until its lease expires. A lease lost mid-cycle (a phase
 * outlived the lease and another holder took it) stops the cycle before its next phase, again
 * counted as skipped.
 */
public final class DreamCycle {

    private static final Logger LOG = LoggerFactory.getLogger(DreamCycle.class);
    /** Lock stripes when the host shares none: cycles of two users rarely wait for each other. */
    private static final int LOCK_STRIPES = 64;
    /** The name of the per-user lease a cycle holds in the store. */
    public static final String LEASE = "dream";
    /** How long a lease lasts unless renewed: far longer than one phase. */
    public static final java.time.Duration DEFAULT_LEASE_DURATION = java.time.Duration.ofMinutes(10);
    /** End users whose phases a {@link #runAll} commits together. */
    static final int MAX_STAGED_USERS = 64;
    /** Staged write operations after which a {@link #runAll} commits early, bounding what it holds. */
    static final int MAX_STAGED_OPS = 50_000;
    /** End users whose leases a {@link #runAll} takes in one call and whose cycles it then computes, several at once. */
    static final int STAGE_STEP = 8;
    /** The default of {@link Builder#threads}: the processors, at most 4. */
    static final int MAX_DEFAULT_THREADS = 4;

    private final MemoryStore store;
    private final MemoryPolicy policy;
    private final Clock clock;
    private final Embedder embedder;
    private final Importance importance;
    private final ModelJudge judge;
    private final ReferenceValidator validator;
    private final LightSleep light;
    private final Prune prune;
    private final Function<Scope, ? extends Lock> lockFor;
    private final Clock leaseClock;
    private final java.time.Duration leaseDuration;
    private final String leaseHolder;
    private final int threads;
    /** When the running cycle of this thread last took or renewed its lease. */
    private final ThreadLocal<Instant> leaseTakenAt = new ThreadLocal<>();

    /** Which observations light and deep sleep take up. */
    private enum Mode {
        /** The nightly cycle: PENDING observations only. */
        PENDING,
        /** {@link #consolidate}: every observation that no memory reflects yet, whatever its status. */
        WHOLE_STACK
    }

    private DreamCycle(Builder b) {
        store = b.store;
        policy = b.policy;
        clock = b.clock;
        embedder = b.embedder;
        importance = new Importance(policy);
        judge = new ModelJudge(b.languageModel);
        validator = b.validator;
        light = new LightSleep(policy);
        prune = new Prune(policy, store);
        lockFor = b.lockFor != null ? b.lockFor : new ScopeLocks(LOCK_STRIPES)::lockFor;
        leaseClock = b.leaseClock;
        leaseDuration = b.leaseDuration;
        leaseHolder = b.leaseHolder != null ? b.leaseHolder : "dream-" + java.util.UUID.randomUUID();
        threads = b.threads;
    }

    /** A builder for a cycle on {@code store}; the policy, clock and validator have defaults, the rest is optional. */
    public static Builder builder(MemoryStore store) {
        return new Builder(store);
    }

    /** Runs the cycle for one end user. */
    public DreamReport run(Scope scope) {
        return run(scope, DreamListener.NONE);
    }

    /**
     * Runs the cycle for one end user, reporting each phase to {@code listener}.
     *
     * @throws RuntimeException whatever the store threw; every phase committed before it stays, and a
     *                          rerun completes the cycle
     */
    public DreamReport run(Scope scope, DreamListener listener) {
        Checks.notNull("scope", scope);
        Checks.notNull("listener", listener);
        return locked(scope, () -> cycle(scope, listener, Mode.PENDING));
    }

    /**
     * Runs the cycle for every end user of a tenant and agent ({@link MemoryStore#endUsers}), as
     * {@link #runAll(List, DreamListener)} does.
     *
     * @return the sum of the end users' reports
     */
    public DreamReport runAll(String tenantId, String agentId, DreamListener listener) {
        Checks.id("tenantId", tenantId);
        Checks.id("agentId", agentId);
        Checks.notNull("listener", listener);
        return runAll(store.endUsers(tenantId, agentId), listener);
    }

    /**
     * Runs the cycle for the given end users, as a nightly run: each user's phases are computed as in
     * {@link #run(Scope)} (up to {@link Builder#threads} users at once, their leases taken
     * {@value #STAGE_STEP} at a time with {@link MemoryStore#tryLeases} after a first step of one user
     * at a time), and the phases of up to
     * {@value #MAX_STAGED_USERS} users are committed together ({@link MemoryStore#writeAll}: one transaction and one sync
     * instead of one per user and phase), holding those users' locks and leases until then. The
     * listener hears of a phase as finished once it is committed. When the store cannot commit them
     * together, or the joint commit fails, each user's phases are written one by one as
     * {@link #run(Scope)} does, so one failing user never takes the others down. A user whose cycle
     * fails is logged, reported to the listener and counted in {@link DreamReport#failed()}; the
     * others still run. Stops early, with the report so far, when the calling thread is interrupted.
     * Afterwards the store may tidy its indexes ({@link MemoryStore#maintain}).
     *
     * @return the sum of the end users' reports
     */
    public DreamReport runAll(List<Scope> users, DreamListener listener) {
        Checks.notNull("users", users);
        Checks.notNull("listener", listener);
        List<Scope> all = List.copyOf(users);
        Night night = new Night(all.size(), listener);
        List<StagedCycle> group = new ArrayList<>();
        java.util.Set<String> tenants = new java.util.LinkedHashSet<>();
        ExecutorService pool = threads > 1 && all.size() > 1 ? pool(Math.min(threads, all.size()), "reverie-dream-") : null;
        // the joint writes get a thread of their own: a write waits for the disk, and taking a
        // computing thread for it left one thread computing while the previous step was written
        ExecutorService writer = pool != null ? pool(1, "reverie-dream-writer-") : null;
        try {
            for (Scope scope : all) {
                if (Thread.currentThread().isInterrupted()) {
                    dropUnstaged(group);
                    LOG.info("dream run interrupted after {} of {} end users", night.done + group.size(), all.size());
                    break;
                }
                if (!group.isEmpty() && (!group.get(0).scope.tenantId().equals(scope.tenantId())
                        || group.stream().anyMatch(u -> u.scope.equals(scope)))) {
                    // another tenant's store, or a user listed twice: its second cycle must read the first one's writes
                    stageAndCommit(group, night, pool);
                }
                Lock lock = lockFor.apply(scope);
                // only the first lock of a group is waited for while holding none: no lock-order deadlock
                if (group.isEmpty()) {
                    lock.lock();
                } else if (!lock.tryLock()) {
                    stageAndCommit(group, night, pool);
                    lock.lock();
                }
                StagedCycle user = new StagedCycle(scope);
                user.lock = lock;
                group.add(user);
                tenants.add(scope.tenantId());
                if (group.stream().filter(u -> !u.staged).count() >= STAGE_STEP) {
                    if (pool != null) {
                        stage(group, pool, writer, night, true); // the users computed before are committed meanwhile
                    } else {
                        stage(group, null, null, night, false);
                        if (group.size() >= MAX_STAGED_USERS
                                || group.stream().mapToInt(StagedCycle::size).sum() >= MAX_STAGED_OPS) {
                            commit(group, night);
                        }
                    }
                }
            }
            stageAndCommit(group, night, pool);
        } finally {
            release(group);
            if (pool != null) {
                pool.shutdownNow();
                writer.shutdownNow();
            }
        }
        for (String tenant : tenants) {
            try {
                store.maintain(tenant);
            } catch (StoreClosedException e) {
                throw e;
            } catch (RuntimeException e) {
                LOG.warn("index maintenance after the dream run of tenant {} failed: {}", tenant, e.toString());
            }
        }
        return night.total;
    }

    /** The threads of one {@link #runAll}: daemons, so a host that forgets a run never hangs its exit. */
    private static ExecutorService pool(int size, String name) {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        return Executors.newFixedThreadPool(size, task -> {
            Thread t = new Thread(task, name + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    private void stageAndCommit(List<StagedCycle> group, Night night, ExecutorService pool) {
        stage(group, pool, null, night, false);
        commit(group, night);
    }

    /** Unlocks and forgets the users of the group whose cycle was not computed yet (they hold no lease). */
    private static void dropUnstaged(List<StagedCycle> group) {
        for (java.util.Iterator<StagedCycle> it = group.iterator(); it.hasNext(); ) {
            StagedCycle user = it.next();
            if (!user.staged) {
                user.lock.unlock();
                it.remove();
            }
        }
    }

    /** The running totals of a {@link #runAll} and its listener. */
    private static final class Night {
        final long users;
        final DreamListener listener;
        DreamReport total = DreamReport.EMPTY;
        long done;
        /** Steps of users computed so far. */
        int steps;

        Night(long users, DreamListener listener) {
            this.users = users;
            this.listener = listener;
        }

        void finished(Scope scope, DreamReport report) {
            total = total.plus(report);
            long count = ++done;
            DreamReport reported = report.failed() > 0 ? null : report;
            Progress.guard(() -> listener.endUserFinished(scope, count, users, reported));
        }
    }

    /**
     * Computes the cycles of the group's users not computed yet (their locks are held), after taking
     * their leases in one call (in a run's first step: one by one, each just before its cycle);
     * writes nothing of theirs. With a pool they are computed several at once, each user's listener
     * calls recorded and then replayed on this thread in the users' order, so the listener hears each
     * user's calls in the order a one-thread run makes them. With
     * {@code commitComputed}, the group's users computed before are meanwhile committed on {@code writer}
     * and reported (before the new users' calls are replayed): committing one step's users overlaps
     * computing the next step's.
     */
    private void stage(List<StagedCycle> group, ExecutorService pool, ExecutorService writer, Night night,
            boolean commitComputed) {
        List<StagedCycle> pending = group.stream().filter(u -> !u.staged).toList();
        if (pending.isEmpty()) {
            return;
        }
        if (night.steps++ == 0) {
            // the first step goes one user at a time, each lease taken just before its cycle: another
            // instance dreaming the same tenant finds the later users free meanwhile, as it always has
            for (StagedCycle user : pending) {
                takeLeases(List.of(user));
                stage(user, night.listener);
            }
            return;
        }
        takeLeases(pending);
        if (pool == null) {
            pending.forEach(u -> stage(u, night.listener));
            return;
        }
        List<StagedCycle> writing = List.of();
        Future<Boolean> write = null;
        if (commitComputed) {
            writing = group.stream().filter(u -> u.staged).toList();
            group.removeAll(writing);
            write = startWrite(writing, writer);
        }
        List<Future<?>> running = new ArrayList<>();
        List<RecordedListener> heard = new ArrayList<>();
        for (StagedCycle user : pending) {
            RecordedListener recorded = new RecordedListener();
            heard.add(recorded);
            running.add(pool.submit(() -> stage(user, recorded)));
        }
        List<Throwable> outcomes = new ArrayList<>();
        running.forEach(f -> outcomes.add(dev.reverie.internal.Await.uninterruptibly(f)));
        if (write != null) {
            settle(writing, write, night);
        }
        Throwable thrown = null;
        for (int i = 0; i < pending.size() && thrown == null; i++) {
            heard.get(i).replay(night.listener); // nothing after the user whose failure stops the run
            thrown = outcomes.get(i);
        }
        if (thrown instanceof RuntimeException e) {
            throw e;
        } else if (thrown instanceof Error e) {
            throw e;
        }
    }

    /** Takes the leases of users about to be computed, in one store call; a user whose lease is held elsewhere is skipped. */
    private void takeLeases(List<StagedCycle> users) {
        Instant now = leaseClock.instant();
        java.util.Set<Scope> held;
        try {
            held = store.tryLeases(users.stream().map(u -> u.scope).toList(), LEASE, leaseHolder, now,
                    now.plus(leaseDuration));
        } catch (StoreClosedException e) {
            throw e; // the store is closed: no other user can succeed
        } catch (RuntimeException e) {
            // the batch failed: ask user by user, so a lease error fails only its own user (as before
            // batching) and every lease this run holds is one it knows to release
            held = new java.util.HashSet<>();
            for (StagedCycle user : users) {
                try {
                    if (store.tryLease(user.scope, LEASE, leaseHolder, now, now.plus(leaseDuration))) {
                        held.add(user.scope);
                    }
                } catch (StoreClosedException closed) {
                    throw closed;
                } catch (RuntimeException one) {
                    failed(user, one);
                }
            }
        }
        for (StagedCycle user : users) {
            if (user.outcome != null) {
                continue; // its lease call failed
            }
            if (held.contains(user.scope)) {
                user.leased = true;
                user.leaseTakenAt = now;
            } else {
                LOG.debug("dream cycle of {} skipped: another holder has its lease", user.scope);
                user.outcome = DreamReport.endUserSkipped();
            }
        }
    }

    /** Computes one user's cycle into {@code user} (its lock and lease are held); writes nothing. */
    private void stage(StagedCycle user, DreamListener listener) {
        user.staged = true;
        if (user.outcome != null) {
            return; // skipped, or failed taking its lease
        }
        leaseTakenAt.set(user.leaseTakenAt);
        try {
            DreamReport report = cycle(user.scope, listener, Mode.PENDING, (phase, changes, counters) -> {
                user.add(phase, changes.batch(store.supportsStatusWrites()), counters);
                return false;
            });
            if (report.skipped() > 0) {
                user.phases.clear(); // the lease went to another holder: what was staged must not be written
                user.outcome = DreamReport.endUserSkipped();
            }
        } catch (StoreClosedException e) {
            throw e; // the store is closed: no other user can succeed
        } catch (RuntimeException e) {
            failed(user, e);
        } finally {
            leaseTakenAt.remove();
        }
    }

    private static void failed(StagedCycle user, RuntimeException e) {
        // reported to the listener with the exception; the log gets one line, the trace at DEBUG
        LOG.warn("dream cycle failed for {}; a rerun completes it: {}", user.scope, e.toString());
        LOG.debug("dream cycle failure for {}", user.scope, e);
        user.phases.clear();
        user.outcome = DreamReport.endUserFailed();
    }

    /**
     * Commits the staged users' phases in one {@link MemoryStore#writeAll}, or user by user and phase
     * by phase when the store cannot or the joint write fails; reports each user in order, then
     * releases their leases and locks.
     */
    private void commit(List<StagedCycle> group, Night night) {
        List<StagedCycle> users = new ArrayList<>(group);
        group.clear();
        Future<Boolean> write;
        try {
            write = startWrite(users, null);
        } catch (RuntimeException | Error e) {
            release(users);
            throw e;
        }
        settle(users, write, night);
    }

    /** Starts the joint write of the users' batches, on the writer thread or (without one) at once on this thread. */
    private Future<Boolean> startWrite(List<StagedCycle> users, ExecutorService pool) {
        List<dev.reverie.spi.WriteBatch> batches = new ArrayList<>();
        users.forEach(u -> batches.addAll(u.batches()));
        if (batches.isEmpty()) {
            return java.util.concurrent.CompletableFuture.completedFuture(true);
        }
        if (pool != null) {
            return pool.submit(() -> store.writeAll(batches));
        }
        java.util.concurrent.FutureTask<Boolean> write = new java.util.concurrent.FutureTask<>(() -> store.writeAll(batches));
        write.run();
        return write;
    }

    /**
     * Waits for the users' joint write, then reports each user in order, writing its phases one by one
     * first when the store could not write them together or the joint write failed; releases their
     * leases and locks.
     */
    private void settle(List<StagedCycle> users, Future<Boolean> write, Night night) {
        try {
            Throwable failure = dev.reverie.internal.Await.uninterruptibly(write);
            if (failure instanceof StoreClosedException e) {
                throw e;
            } else if (failure instanceof Error e) {
                throw e;
            } else if (failure != null) {
                LOG.debug("joint commit of {} end users failed; writing them one by one", users.size(), failure);
            }
            boolean together = failure == null && done(write);
            for (StagedCycle user : users) {
                night.finished(user.scope, user.outcome != null ? user.outcome : finish(user, together, night.listener));
            }
        } finally {
            release(users);
        }
    }

    /** The value of a future known to have completed normally. */
    private static boolean done(Future<Boolean> write) {
        try {
            return write.get();
        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("a finished write has no value", e); // cannot happen: it is done
        }
    }

    /** Reports a staged user's phases as finished, writing each first unless they were committed together. */
    private DreamReport finish(StagedCycle user, boolean committed, DreamListener listener) {
        for (StagedCycle.Phase p : user.phases) {
            if (!committed && !p.batch().isEmpty()) {
                try {
                    store.write(p.batch());
                } catch (StoreClosedException e) {
                    throw e;
                } catch (RuntimeException e) {
                    Progress.guard(() -> listener.endUserFailed(user.scope, p.phase(), e));
                    failed(user, e);
                    return user.outcome;
                }
            }
            Progress.guard(() -> listener.phaseFinished(user.scope, p.phase(), p.counters()));
        }
        return user.report();
    }

    /** Releases the leases (in one store call) and the locks the staged users still hold. */
    private void release(List<StagedCycle> group) {
        List<Scope> leased = new ArrayList<>();
        for (StagedCycle user : group) {
            if (user.leased) {
                user.leased = false;
                leased.add(user.scope);
            }
        }
        if (!leased.isEmpty()) {
            try {
                store.releaseLeases(leased, LEASE, leaseHolder);
            } catch (RuntimeException e) {
                // the store closed or failed: the leases expire on their own
                LOG.debug("could not release the dream leases of {} end users", leased.size(), e);
            }
        }
        for (StagedCycle user : group) {
            if (user.lock != null) {
                user.lock.unlock();
                user.lock = null;
            }
        }
    }

    /**
     * One pass over one end user's whole L3 stack, CONSOLIDATED and DISCARDED observations included,
     * for migrating a backlog: every observation that no memory reflects yet is deduplicated and
     * judged again under the current policy, then REM and prune run as usual. Observations already
     * reflected by a memory are left alone, so no L4 row is ever duplicated; running it again changes
     * nothing. A memory an operator deleted comes back while its observations are still in L3.
     */
    public DreamReport consolidate(Scope scope) {
        return consolidate(scope, DreamListener.NONE);
    }

    /** {@link #consolidate(Scope)} with progress reported to {@code listener}. */
    public DreamReport consolidate(Scope scope, DreamListener listener) {
        Checks.notNull("scope", scope);
        Checks.notNull("listener", listener);
        return locked(scope, () -> cycle(scope, listener, Mode.WHOLE_STACK));
    }

    /**
     * Runs one user's cycle under that user's lock and lease: it reads the user once and writes from
     * what it read. Skipped when another holder has the lease.
     */
    private DreamReport locked(Scope scope, Supplier<DreamReport> cycle) {
        Lock lock = lockFor.apply(scope);
        lock.lock();
        try {
            if (!renewLease(scope)) {
                LOG.debug("dream cycle of {} skipped: another holder has its lease", scope);
                return DreamReport.endUserSkipped();
            }
            try {
                return cycle.get();
            } finally {
                leaseTakenAt.remove();
                try {
                    store.releaseLease(scope, LEASE, leaseHolder);
                } catch (RuntimeException e) {
                    // the store closed or failed: the lease expires on its own
                    LOG.debug("could not release the dream lease of {}", scope, e);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private boolean renewLease(Scope scope) {
        Instant now = leaseClock.instant();
        boolean held = store.tryLease(scope, LEASE, leaseHolder, now, now.plus(leaseDuration));
        if (held) {
            leaseTakenAt.set(now);
        }
        return held;
    }

    /**
     * Whether the lease should be renewed before the next phase: once half of it has run out. A
     * short cycle (nearly all of them) then writes the lease twice, to take and to release it.
     */
    private boolean leaseRenewalDue() {
        Instant taken = leaseTakenAt.get();
        return taken == null || !leaseClock.instant().isBefore(taken.plus(leaseDuration.dividedBy(2)));
    }

    /** What a cycle does with each computed phase: write it now, or stage it for a later joint commit. */
    private interface PhaseSink {
        /** Takes the phase's writes; returns whether they are committed (then the phase is reported finished). */
        boolean accept(DreamPhase phase, UserState.Changes changes, DreamReport counters);
    }

    /** The cycle of {@link #run} and {@link #consolidate}: each phase is written as soon as it is computed. */
    private DreamReport cycle(Scope scope, DreamListener listener, Mode mode) {
        return cycle(scope, listener, mode, (phase, changes, counters) -> {
            if (!changes.isEmpty()) {
                store.write(changes.batch(store.supportsStatusWrites()));
            }
            return true;
        });
    }

    private DreamReport cycle(Scope scope, DreamListener listener, Mode mode, PhaseSink sink) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        UserState state = UserState.load(store, scope, now);
        RunEmbeddings vectors = new RunEmbeddings(embedder);
        Importance scoring = importance.forRun();
        DeepSleep deep = new DeepSleep(policy, scoring, judge, light);
        Rem rem = new Rem(policy, scoring, judge, validator, store);
        DreamReport report = DreamReport.EMPTY;
        for (DreamPhase phase : DreamPhase.values()) {
            if (phase != DreamPhase.LIGHT && leaseRenewalDue() && !renewLease(scope)) {
                LOG.warn("dream cycle of {} stopped before {}: its lease expired and another holder took it",
                        scope, phase);
                return report.plus(DreamReport.endUserSkipped());
            }
            Progress.guard(() -> listener.phaseStarted(scope, phase));
            Counts counts = new Counts();
            UserState.Changes changes = state.changes(phase);
            Progress progress = new Progress(listener, scope, phase);
            boolean committed;
            try {
                switch (phase) {
                    case LIGHT -> light.run(state, lightCandidates(state, mode, vectors), changes, counts, vectors,
                            progress);
                    case DEEP -> {
                        Lineage lineage = new Lineage(state, light, vectors);
                        deep.run(state, deepCandidates(state, mode, lineage), lineage, changes, counts, vectors,
                                progress);
                    }
                    case REM -> rem.run(state, changes, counts, vectors, progress);
                    case PRUNE -> prune.run(state, changes, counts, progress);
                }
                committed = sink.accept(phase, changes, counts.toReport());
            } catch (RuntimeException e) {
                Progress.guard(() -> listener.endUserFailed(scope, phase, e));
                throw e;
            }
            DreamReport phaseReport = counts.toReport();
            if (committed) {
                Progress.guard(() -> listener.phaseFinished(scope, phase, phaseReport));
            }
            report = report.plus(phaseReport);
        }
        return report.plus(DreamReport.endUserDone());
    }

    /** Light sleep takes PENDING observations, or in a whole-stack pass every one no memory reflects yet. */
    private List<Observation> lightCandidates(UserState state, Mode mode, RunEmbeddings vectors) {
        if (mode == Mode.PENDING) {
            return state.observations(EnumSet.of(ObservationStatus.PENDING));
        }
        Lineage lineage = new Lineage(state, light, vectors);
        List<Observation> out = new ArrayList<>();
        for (Observation o : state.observations(EnumSet.allOf(ObservationStatus.class))) {
            if (reprocessable(o) && !lineage.reflected(o) && !lineage.absorbed(o)) {
                out.add(o);
            }
        }
        return out;
    }

    /** Deep sleep takes the survivors: PENDING non-style observations, or in a whole-stack pass every unreflected one. */
    private static List<Observation> deepCandidates(UserState state, Mode mode, Lineage lineage) {
        List<Observation> out = new ArrayList<>();
        if (mode == Mode.PENDING) {
            for (Observation o : state.observations(EnumSet.of(ObservationStatus.PENDING))) {
                if (o.kind() != MemoryKind.STYLE) {
                    out.add(o);
                }
            }
            return out;
        }
        for (Observation o : state.observations(EnumSet.allOf(ObservationStatus.class))) {
            if (o.kind() != MemoryKind.STYLE && !lineage.reflected(o) && !lineage.absorbed(o)) {
                out.add(o);
            }
        }
        return out;
    }

    /** Style observations already folded into the profile are never folded twice. */
    private static boolean reprocessable(Observation o) {
        return o.kind() != MemoryKind.STYLE || o.status() == ObservationStatus.PENDING;
    }

    /**
     * Mutable builder for {@link DreamCycle}; not thread-safe. Setters fail fast on null; the
     * embedder and language model are optional (without them, text similarity and the rules decide).
     */
    public static final class Builder {
        private final MemoryStore store;
        private MemoryPolicy policy = MemoryPolicy.defaults();
        private Clock clock = Clock.systemUTC();
        private Embedder embedder;
        private LanguageModel languageModel;
        private ReferenceValidator validator = ReferenceValidator.acceptAll();
        private Function<Scope, ? extends Lock> lockFor;
        private Clock leaseClock = Clock.systemUTC();
        private java.time.Duration leaseDuration = DEFAULT_LEASE_DURATION;
        private String leaseHolder;
        private int threads = Math.min(MAX_DEFAULT_THREADS, Runtime.getRuntime().availableProcessors());

        private Builder(MemoryStore store) {
            this.store = Checks.notNull("store", store);
        }

        /** Thresholds: cutoff, half-lives, floor, TTLs, duplicate similarity, retention (default {@link MemoryPolicy#defaults()}). */
        public Builder policy(MemoryPolicy v) { policy = Checks.notNull("policy", v); return this; }

        /** The time source; inject a fixed clock to make a cycle reproducible (default system UTC). */
        public Builder clock(Clock v) { clock = Checks.notNull("clock", v); return this; }

        /** RunEmbeddings for near-duplicate detection by cosine and for new memories (optional). */
        public Builder embedder(Embedder v) { embedder = Checks.notNull("embedder", v); return this; }

        /** A model for paraphrase judgements, synthesis text and the style description (optional). */
        public Builder languageModel(LanguageModel v) { languageModel = Checks.notNull("languageModel", v); return this; }

        /** Tells REM which memories refer to things that no longer exist (default accepts all). */
        public Builder referenceValidator(ReferenceValidator v) { validator = Checks.notNull("referenceValidator", v); return this; }

        /**
         * The lock of each end user, held for the whole of that user's cycle. Pass the locks the rest of
         * the host uses for the same scopes (admin edits, outcome reports, retrieval statistics), so
         * that none of their writes is lost to a cycle that read the user before them. Default: locks
         * private to this cycle, which only serialize two cycles of the same user.
         */
        public Builder scopeLocks(Function<Scope, ? extends Lock> v) { lockFor = Checks.notNull("scopeLocks", v); return this; }

        /**
         * The wall clock that dates the per-user dream lease (default system UTC). Separate from
         * {@link #clock}, which may be a fixed or simulated time: a lease is about real time.
         */
        public Builder leaseClock(Clock v) { leaseClock = Checks.notNull("leaseClock", v); return this; }

        /**
         * How long a user's dream lease lasts unless renewed (default {@link #DEFAULT_LEASE_DURATION});
         * it is renewed before a phase once half of it has run out, so it must outlast one phase. It is also how long a crashed holder blocks
         * that user's cycles.
         */
        public Builder leaseDuration(java.time.Duration v) {
            Checks.notNull("leaseDuration", v);
            if (v.isNegative() || v.isZero()) {
                throw new IllegalArgumentException("leaseDuration must be positive, was " + v);
            }
            leaseDuration = v;
            return this;
        }

        /** Who holds the leases this cycle takes (default a random id per cycle instance). */
        public Builder leaseHolder(String v) { leaseHolder = Checks.id("leaseHolder", v); return this; }

        /**
         * How many end users a {@link #runAll} computes at once, on threads of its own that live as long
         * as the run (default: the processors, at most {@value #MAX_DEFAULT_THREADS}; 1 computes them on
         * the calling thread). Results do not depend on it: each user's cycle reads and computes only
         * that user. With more than one thread, the joint write of a step's users runs on one more thread
         * of the run (a writer) while the next step's users are computed; taking leases, the one-by-one fallback writes and every
         * listener call stay on the calling thread, in the users' order. {@link #run} and
         * {@link #consolidate} always use the calling thread.
         */
        public Builder threads(int v) {
            if (v < 1) {
                throw new IllegalArgumentException("threads must be at least 1, was " + v);
            }
            threads = v;
            return this;
        }

        public DreamCycle build() {
            return new DreamCycle(this);
        }
    }
}
