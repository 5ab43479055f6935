package dev.reverie.dream;

import dev.reverie.Memory;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryPolicy;
import dev.reverie.MemoryStatus;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.Scope;
import dev.reverie.spi.WriteBatch;
import dev.reverie.store.sqlite.SqliteMemoryStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The cycle's entry points: listener, runAll, consolidate, concurrency and the builder. */
class DreamCycleTest extends DreamFixture {

    @Test
    void the_listener_sees_every_phase_start_progress_and_finish_in_order() {
        Obs.write(store,
                Obs.fact(ANA, "a", "user.likes", "jazz", "I like jazz").at(day(0)),
                Obs.fact(ANA, "b", "user.likes", "jazz", "I like jazz").at(day(0)),
                Obs.episode(ANA, "c", "ok see you").at(day(0)));
        nightOf(0);
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        DreamListener listener = new DreamListener() {
            @Override
            public void phaseStarted(Scope scope, DreamPhase phase) {
                events.add("start " + phase);
            }

            @Override
            public void progress(Scope scope, DreamPhase phase, long done, long total) {
                events.add("progress " + phase + " " + done + "/" + total);
            }

            @Override
            public void phaseFinished(Scope scope, DreamPhase phase, DreamReport counters) {
                events.add("finish " + phase + " promoted=" + counters.promoted() + " duplicates="
                        + counters.duplicates());
            }
        };

        cycle.run(ANA, listener);

        assertThat(events).containsSubsequence("start LIGHT", "progress LIGHT 3/3", "finish LIGHT promoted=0 duplicates=1",
                "start DEEP", "progress DEEP 2/2", "finish DEEP promoted=1 duplicates=0", "start REM", "finish REM promoted=0 duplicates=0",
                "start PRUNE", "finish PRUNE promoted=0 duplicates=0");
        assertThat(events.stream().filter(e -> e.startsWith("progress DEEP"))).isNotEmpty();
    }

    @Test
    void a_listener_that_throws_never_stops_the_cycle() {
        Obs.write(store, Obs.fact(ANA, "a", "user.likes", "jazz", "I like jazz").at(day(0)));
        nightOf(0);
        DreamListener broken = new DreamListener() {
            @Override
            public void phaseStarted(Scope scope, DreamPhase phase) {
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void progress(Scope scope, DreamPhase phase, long done, long total) {
                throw new IllegalStateException("listener bug");
            }
        };

        assertThat(cycle.run(ANA, broken).promoted()).isEqualTo(1);
    }

    @Test
    void run_all_dreams_every_end_user_once_and_reports_progress_per_user() {
        for (String user : List.of("u1", "u2", "u3")) {
            Scope s = Scope.of("clinic-42", "receptionist", user);
            Obs.write(store, Obs.fact(s, "a", "user.likes", "jazz", "I like jazz").at(day(0)));
        }
        Scope otherAgent = Scope.of("clinic-42", "nurse-bot", "u1");
        Obs.write(store, Obs.fact(otherAgent, "a", "user.likes", "jazz", "I like jazz").at(day(0)));
        nightOf(0);
        List<String> finished = new ArrayList<>();

        DreamReport report = cycle.runAll("clinic-42", "receptionist", new DreamListener() {
            @Override
            public void endUserFinished(Scope scope, long done, long total, DreamReport r) {
                finished.add(scope.endUserId() + " " + done + "/" + total + " " + r.promoted());
            }
        });

        assertThat(report.endUsers()).isEqualTo(3);
        assertThat(report.promoted()).isEqualTo(3);
        assertThat(finished).containsExactly("u1 1/3 1", "u2 2/3 1", "u3 3/3 1");
        assertThat(store.observation(otherAgent, "a").orElseThrow().status()).isEqualTo(ObservationStatus.PENDING);
    }

    @Test
    void run_all_isolates_a_failing_end_user_and_a_rerun_completes_it() {
        FaultyStore faulty = new FaultyStore(store);
        cycle = DreamCycle.builder(faulty).clock(clock).build();
        for (String user : List.of("u1", "u2", "u3")) {
            Scope s = Scope.of("clinic-42", "receptionist", user);
            Obs.write(store, Obs.fact(s, "a", "user.likes", "jazz", "I like jazz").at(day(0)),
                    Obs.fact(s, "b", "user.likes", "jazz", "I like jazz").at(day(0)));
        }
        nightOf(0);
        faulty.arm(3); // u1: LIGHT, DEEP succeed; REM has nothing to write; u2's LIGHT is write 3
        List<String> failed = new ArrayList<>();

        DreamReport report = cycle.runAll("clinic-42", "receptionist", new DreamListener() {
            @Override
            public void endUserFailed(Scope scope, DreamPhase phase, RuntimeException error) {
                failed.add(scope.endUserId() + " " + phase);
            }
        });

        assertThat(report.failed()).isEqualTo(1);
        assertThat(report.endUsers()).isEqualTo(2);
        assertThat(failed).containsExactly("u2 LIGHT");
        Scope u2 = Scope.of("clinic-42", "receptionist", "u2");
        assertThat(store.observations(u2, dev.reverie.ObservationFilter.pending())).hasSize(2);

        faulty.disarm();
        DreamReport rerun = cycle.runAll("clinic-42", "receptionist", DreamListener.NONE);

        assertThat(rerun.failed()).isZero();
        assertThat(rerun.promoted()).isEqualTo(1);
        assertThat(store.memories(u2, dev.reverie.MemoryFilter.active())).hasSize(1);
    }

    @Test
    void run_all_stops_between_users_when_interrupted() {
        for (String user : List.of("u1", "u2")) {
            Obs.write(store, Obs.fact(Scope.of("clinic-42", "receptionist", user), "a", "user.likes", "jazz",
                    "I like jazz").at(day(0)));
        }
        nightOf(0);
        Thread.currentThread().interrupt();
        try {
            assertThat(cycle.runAll("clinic-42", "receptionist", DreamListener.NONE).endUsers()).isZero();
        } finally {
            assertThat(Thread.interrupted()).isTrue();
        }
    }

    @Test
    void consolidate_migrates_a_backlog_without_duplicating_memories_and_is_idempotent() {
        Obs.write(store,
                Obs.fact(ANA, "a", "user.likes", "jazz", "I like jazz").at(day(0)),
                Obs.fact(ANA, "b", "user.likes", "jazz", "I like jazz a lot").session("s2").at(day(1)),
                Obs.fact(ANA, "c", "user.job", "nurse", "I work as a nurse").single().at(day(1)),
                Obs.episode(ANA, "d", "we had pizza").at(day(1)));
        nightOf(1);
        MemoryPolicy strict = MemoryPolicy.defaults().toBuilder().importanceCutoff(62).build();
        cycle(strict).run(ANA);
        assertThat(active(ANA)).extracting(Memory::subject).containsExactly("user.job");
        Memory job = only(ANA, "user.job");
        // a backlog observation marked CONSOLIDATED by an older version, with no memory behind it
        Observation migrated = Obs.fact(ANA, "e", "user.pet", "cat", "I have a cat named Tom").at(day(1)).build()
                .withStatus(ObservationStatus.CONSOLIDATED, day(1));
        store.write(WriteBatch.of(ANA).put(migrated));

        DreamReport report = cycle.consolidate(ANA);

        assertThat(active(ANA)).extracting(Memory::subject)
                .containsExactlyInAnyOrder("user.job", "user.likes", "user.pet", "user.episode." + Integer.toHexString("we had pizza".hashCode()));
        assertThat(only(ANA, "user.job")).isEqualTo(job);
        assertThat(only(ANA, "user.likes").reinforcementCount()).isEqualTo(2);
        assertThat(report.promoted()).isEqualTo(3);
        Snapshot after = Snapshot.of(store, ANA);

        DreamReport again = cycle.consolidate(ANA);

        assertThat(again.changedNothing()).as("second consolidate %s", again).isTrue();
        assertThat(Snapshot.of(store, ANA)).isEqualTo(after);
        assertThat(cycle.run(ANA).changedNothing()).isTrue();
    }

    @Test
    void consolidate_after_a_normal_cycle_changes_nothing() {
        Obs.write(store,
                Obs.fact(ANA, "a", "user.likes", "jazz", "I like jazz").at(day(0)),
                Obs.fact(ANA, "b", "user.likes", "jazz", "I like jazz").session("s2").at(day(1)),
                Obs.fact(ANA, "c", "user.location", "Recife", "I live in Recife").single().at(day(0)),
                Obs.fact(ANA, "d", "user.location", "Lisbon", "I live in Lisbon").single().at(day(1)),
                Obs.episode(ANA, "e", "ok see you").at(day(1)),
                Obs.episode(ANA, "f", "I went to a support group yesterday").at(day(1)),
                Obs.episode(ANA, "g", "I went to a support group yesterday!").at(day(1)));
        nightOf(1);
        cycle.run(ANA);
        Snapshot after = Snapshot.of(store, ANA);

        DreamReport report = cycle.consolidate(ANA);

        assertThat(report.changedNothing()).as("%s", report).isTrue();
        assertThat(Snapshot.of(store, ANA)).isEqualTo(after);
    }

    @Test
    void cycles_of_different_users_run_concurrently_on_one_store(@TempDir Path folder) throws Exception {
        try (SqliteMemoryStore files = SqliteMemoryStore.open(folder)) {
            DreamCycle shared = DreamCycle.builder(files).clock(clock).build();
            List<Scope> users = new ArrayList<>();
            for (int u = 0; u < 8; u++) {
                Scope s = Scope.of("clinic-42", "receptionist", "user-" + u);
                users.add(s);
                Obs.write(files, Obs.fact(s, "a", "user.likes", "jazz", "I like jazz").at(day(0)),
                        Obs.fact(s, "b", "user.likes", "jazz", "I like jazz").session("s2").at(day(0)),
                        Obs.fact(s, "c", "user.name", "User " + u, "My name is User " + u).single().at(day(0)));
            }
            nightOf(0);
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<DreamReport>> futures = new ArrayList<>();
                for (Scope s : users) {
                    futures.add(pool.submit(() -> shared.run(s)));
                    futures.add(pool.submit(() -> shared.run(s)));
                }
                long promoted = 0;
                for (Future<DreamReport> f : futures) {
                    promoted += f.get(60, TimeUnit.SECONDS).promoted();
                }
                assertThat(promoted).as("each user's observations are judged once").isEqualTo(16);
            } finally {
                pool.shutdownNow();
            }
            for (Scope s : users) {
                List<Memory> active = files.memories(s, dev.reverie.MemoryFilter.active());
                assertThat(active).hasSize(2).allSatisfy(m -> assertThat(m.scope()).isEqualTo(s));
                assertThat(active).filteredOn(m -> m.subject().equals("user.name")).singleElement()
                        .satisfies(m -> assertThat(m.text()).isEqualTo("My name is " + s.endUserId().replace("user-", "User ")));
            }
        }
    }

    @Test
    void a_cycle_holds_the_lock_the_host_shares_for_the_user() throws Exception {
        java.util.concurrent.locks.ReentrantLock anaLock = new java.util.concurrent.locks.ReentrantLock();
        java.util.concurrent.locks.ReentrantLock otherLock = new java.util.concurrent.locks.ReentrantLock();
        List<Boolean> heldDuringCycle = new ArrayList<>();
        cycle = DreamCycle.builder(store).clock(clock)
                .scopeLocks(scope -> scope.equals(ANA) ? anaLock : otherLock).build();
        Obs.write(store, Obs.fact(ANA, "a", "user.likes", "jazz", "I like jazz").at(day(0)));
        nightOf(0);

        cycle.run(ANA, new DreamListener() {
            @Override
            public void phaseStarted(Scope scope, DreamPhase phase) {
                heldDuringCycle.add(anaLock.isHeldByCurrentThread() && !otherLock.isLocked());
            }
        });

        assertThat(heldDuringCycle).hasSize(4).containsOnly(true);
        assertThat(anaLock.isLocked()).isFalse();
        ExecutorService other = Executors.newSingleThreadExecutor();
        anaLock.lock();
        try {
            Future<DreamReport> waiting = other.submit(() -> cycle.run(ANA));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!anaLock.hasQueuedThreads()) {
                assertThat(waiting.isDone()).as("a cycle must wait for the host's writer").isFalse();
                assertThat(System.nanoTime()).as("the cycle never queued on the lock").isLessThan(deadline);
                Thread.onSpinWait();
            }
            anaLock.unlock();
            assertThat(waiting.get(30, TimeUnit.SECONDS).changedNothing()).isTrue();
        } finally {
            if (anaLock.isHeldByCurrentThread()) {
                anaLock.unlock();
            }
            other.shutdownNow();
        }
    }

    @Test
    void the_builder_fails_fast_on_missing_parts() {
        assertThatThrownBy(() -> DreamCycle.builder(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("store");
        assertThatThrownBy(() -> DreamCycle.builder(store).clock(null)).hasMessageContaining("clock");
        assertThatThrownBy(() -> DreamCycle.builder(store).policy(null)).hasMessageContaining("policy");
        assertThatThrownBy(() -> cycle.run(null)).hasMessageContaining("scope");
        assertThatThrownBy(() -> cycle.runAll("bad tenant", "a", DreamListener.NONE))
                .hasMessageContaining("tenantId");
    }

    @Test
    void a_user_without_data_dreams_to_an_empty_report() {
        DreamReport report = cycle.run(ANA);
        assertThat(report.changedNothing()).isTrue();
        assertThat(report.endUsers()).isEqualTo(1);
        assertThat(count(ANA, MemoryStatus.ACTIVE)).isZero();
        assertThat(store.observations(ANA, dev.reverie.ObservationFilter.all())).isEmpty();
        assertThat(MemoryKind.values()).isNotEmpty();
    }
}
