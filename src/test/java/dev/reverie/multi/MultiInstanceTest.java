package dev.reverie.multi;

import dev.reverie.ContextManager;
import dev.reverie.Memory;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStoreException;
import dev.reverie.MutableClock;
import dev.reverie.Observation;
import dev.reverie.ObservationFilter;
import dev.reverie.Scope;
import dev.reverie.Turn;
import dev.reverie.dream.DreamCycle;
import dev.reverie.dream.DreamReport;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.WriteBatch;
import dev.reverie.store.lucene.LuceneMemoryStore;
import dev.reverie.store.sqlite.SqliteMemoryStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Several application instances on one store folder (DESIGN §9): a SQLite folder is shared safely
 * (turn seqs assigned inside the write transaction, a per-user dream lease in the database); a
 * Lucene folder belongs to one process and refuses a second clearly.
 */
class MultiInstanceTest {

    static final Instant T0 = Instant.parse("2026-05-04T12:00:00Z");

    @TempDir
    Path dir;

    @Test
    void two_managers_on_one_sqlite_folder_lose_no_turn_and_never_duplicate_a_memory() throws Exception {
        int turns = 150;
        List<String> acks = Collections.synchronizedList(new ArrayList<>());
        List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> instances = new ArrayList<>();
        List<ContextManager> managers = new ArrayList<>();
        List<DreamReport> dreams = Collections.synchronizedList(new ArrayList<>());
        for (String name : List.of("one", "two")) {
            ContextManager m = ContextManager.builder().store("sqlite:" + dir).clock(new MutableClock(T0)).build();
            managers.add(m);
            instances.add(new Thread(() -> {
                try {
                    start.await();
                    dreams.add(SharedFolderWorkload.run(m, name, turns, acks::add, errors::add));
                } catch (Throwable e) {
                    errors.add(e);
                }
            }, "instance-" + name));
        }
        instances.forEach(Thread::start);
        start.countDown();
        for (Thread t : instances) {
            t.join();
        }
        // and once more each, one after the other: run concurrently, the last dreams could find every
        // user leased by the other instance (a skip, as the lease intends), so which instance dreamed
        // would depend on timing
        List<DreamReport> last = new ArrayList<>();
        for (ContextManager m : managers) {
            last.add(m.dream(SharedFolderWorkload.TENANT, SharedFolderWorkload.AGENT, dev.reverie.dream.DreamListener.NONE));
        }
        managers.forEach(ContextManager::close);

        try (MemoryStore store = SqliteMemoryStore.open(dir)) {
            assertThat(errors).as("errors").isEmpty();
            assertThat(acks).hasSize(2 * turns);
            assertThat(SharedFolderWorkload.missing(store, acks)).as("acknowledged turns lost").isEmpty();
            assertThat(SharedFolderWorkload.brokenSessions(store)).as("sessions with gaps").isEmpty();
            assertThat(SharedFolderWorkload.activeMemories(store)).isPositive();
            assertThat(SharedFolderWorkload.duplicateActiveMemories(store)).as("duplicate ACTIVE memories").isEmpty();
            // both instances dream the shared users, one at a time
            // while both ran, every user was dreamed by one of them (each user's lease goes to one)
            assertThat(dreams).hasSize(2);
            assertThat(dreams.get(0).endUsers() + dreams.get(1).endUsers()).isPositive();
            assertThat(last).allSatisfy(d -> assertThat(d.endUsers()).isPositive());
        }
    }

    @Test
    void two_jvms_on_one_sqlite_folder_lose_no_turn_and_never_duplicate_a_memory() throws Exception {
        int turns = 120;
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (String name : List.of("one", "two")) {
                children.add(ChildJvm.start(SharedFolderWorkload.class, dir.resolve(name + ".err"), dir.resolve("data")
                        .toString(), name, String.valueOf(turns)));
            }
            List<String> acks = new ArrayList<>();
            List<String> errors = new ArrayList<>();
            for (ChildJvm c : children) {
                assertThat(c.waitFor(180_000)).as("exit code; stderr: %s", c.stderr()).isZero();
                acks.addAll(c.lines("ACK "));
                errors.addAll(c.lines("ERR "));
                assertThat(c.lines("DONE ")).containsExactly("0");
            }
            try (MemoryStore store = SqliteMemoryStore.open(dir.resolve("data"))) {
                assertThat(errors).as("errors").isEmpty();
                assertThat(acks).hasSize(2 * turns);
                assertThat(SharedFolderWorkload.missing(store, acks)).as("acknowledged turns lost").isEmpty();
                assertThat(SharedFolderWorkload.brokenSessions(store)).as("sessions with gaps").isEmpty();
                assertThat(SharedFolderWorkload.activeMemories(store)).isPositive();
                assertThat(SharedFolderWorkload.duplicateActiveMemories(store)).as("duplicate ACTIVE memories")
                        .isEmpty();
            }
        } finally {
            for (ChildJvm c : children) {
                c.close();
            }
        }
    }

    @Test
    void a_dream_skips_a_user_whose_lease_another_holder_has_until_it_expires() {
        Scope alice = Scope.of("clinic", "assistant", "alice");
        MutableClock leaseClock = new MutableClock(T0);
        try (MemoryStore store = SqliteMemoryStore.open(dir);
             ContextManager memory = ContextManager.builder().store(store).clock(new MutableClock(T0)).build()) {
            memory.recordTurn(alice, "s1", Turn.user("I'm allergic to penicillin."));
            // another process crashed while dreaming alice: its lease is still in the database
            assertThat(store.tryLease(alice, DreamCycle.LEASE, "crashed", T0, T0.plusSeconds(60))).isTrue();
            DreamCycle cycle = DreamCycle.builder(store).clock(new MutableClock(T0)).leaseClock(leaseClock)
                    .leaseDuration(Duration.ofSeconds(30)).build();

            DreamReport skipped = cycle.run(alice);
            assertThat(skipped.skipped()).isEqualTo(1);
            assertThat(skipped.endUsers()).isZero();
            assertThat(store.observations(alice, ObservationFilter.all())).extracting(Observation::status)
                    .containsOnly(dev.reverie.ObservationStatus.PENDING);
            assertThat(cycle.runAll("clinic", "assistant", dev.reverie.dream.DreamListener.NONE).skipped())
                    .isEqualTo(1);

            leaseClock.set(T0.plusSeconds(60)); // the crashed holder's lease expired
            DreamReport done = cycle.run(alice);
            assertThat(done.skipped()).isZero();
            assertThat(done.endUsers()).isEqualTo(1);
            assertThat(store.memories(alice, dev.reverie.MemoryFilter.active())).extracting(Memory::subject)
                    .contains("user.allergy");
            // the cycle released its lease: anybody may take it now
            assertThat(store.tryLease(alice, DreamCycle.LEASE, "next", T0.plusSeconds(61), T0.plusSeconds(90)))
                    .isTrue();
        }
    }

    @Test
    void a_second_instance_skips_a_user_the_first_is_dreaming() throws Exception {
        Scope alice = Scope.of("clinic", "assistant", "alice");
        try (MemoryStore one = SqliteMemoryStore.open(dir); MemoryStore two = SqliteMemoryStore.open(dir);
             ContextManager memory = ContextManager.builder().store(one).clock(new MutableClock(T0)).build()) {
            memory.recordTurn(alice, "s1", Turn.user("I'm allergic to penicillin. I live in Recife."));
            DreamCycle first = DreamCycle.builder(one).clock(new MutableClock(T0)).build();
            DreamCycle second = DreamCycle.builder(two).clock(new MutableClock(T0)).build();
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            DreamReport[] firstReport = new DreamReport[1];
            Thread dreaming = new Thread(() -> firstReport[0] = first.run(alice, new dev.reverie.dream.DreamListener() {
                @Override
                public void phaseStarted(Scope scope, dev.reverie.dream.DreamPhase phase) {
                    if (phase == dev.reverie.dream.DreamPhase.DEEP) {
                        inside.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }
            }));
            dreaming.start();
            inside.await();

            DreamReport skipped = second.run(alice);
            release.countDown();
            dreaming.join();

            assertThat(skipped.skipped()).isEqualTo(1);
            assertThat(skipped.changedNothing()).isTrue();
            assertThat(firstReport[0].endUsers()).isEqualTo(1);
            assertThat(firstReport[0].promoted()).isPositive();
            DreamReport after = second.run(alice);
            assertThat(after.endUsers()).isEqualTo(1);
            assertThat(after.promoted()).isZero();
        }
    }

    @Test
    void a_cycle_renews_its_lease_and_stops_when_another_holder_took_the_expired_lease() {
        Scope alice = Scope.of("clinic", "assistant", "alice");
        MutableClock leaseClock = new MutableClock(T0);
        try (MemoryStore store = SqliteMemoryStore.open(dir);
             ContextManager memory = ContextManager.builder().store(store).clock(new MutableClock(T0)).build()) {
            memory.recordTurn(alice, "s1", Turn.user("I'm allergic to penicillin."));
            DreamCycle cycle = DreamCycle.builder(store).clock(new MutableClock(T0)).leaseClock(leaseClock)
                    .leaseDuration(Duration.ofSeconds(100)).build();

            // past half of the lease at a phase boundary: renewed, and nobody else can take it
            DreamReport renewed = cycle.run(alice, new dev.reverie.dream.DreamListener() {
                @Override
                public void phaseFinished(Scope scope, dev.reverie.dream.DreamPhase phase, DreamReport report) {
                    if (phase == dev.reverie.dream.DreamPhase.LIGHT) {
                        leaseClock.advance(Duration.ofSeconds(60));
                    } else if (phase == dev.reverie.dream.DreamPhase.DEEP) {
                        Instant now = leaseClock.instant();
                        assertThat(store.tryLease(alice, DreamCycle.LEASE, "other", now, now.plusSeconds(100)))
                                .isFalse();
                    }
                }
            });
            assertThat(renewed.endUsers()).isEqualTo(1);
            assertThat(renewed.skipped()).isZero();

            // the lease ran out during light sleep and another holder took it: the cycle stops there
            memory.recordTurn(alice, "s2", Turn.user("I live in Recife."));
            DreamReport stopped = cycle.run(alice, new dev.reverie.dream.DreamListener() {
                @Override
                public void phaseFinished(Scope scope, dev.reverie.dream.DreamPhase phase, DreamReport report) {
                    if (phase == dev.reverie.dream.DreamPhase.LIGHT) {
                        leaseClock.advance(Duration.ofSeconds(101));
                        Instant now = leaseClock.instant();
                        assertThat(store.tryLease(alice, DreamCycle.LEASE, "other", now, now.plusSeconds(100)))
                                .isTrue();
                    }
                }
            });
            assertThat(stopped.skipped()).isEqualTo(1);
            assertThat(stopped.endUsers()).isZero();
            assertThat(stopped.promoted()).isZero();
            assertThat(store.observations(alice, ObservationFilter.all())).extracting(Observation::status)
                    .contains(dev.reverie.ObservationStatus.PENDING);
        }
    }

    @Test
    void a_sqlite_lease_is_seen_by_another_store_on_the_same_folder() {
        Scope alice = Scope.of("clinic", "assistant", "alice");
        try (MemoryStore one = SqliteMemoryStore.open(dir); MemoryStore two = SqliteMemoryStore.open(dir)) {
            assertThat(one.tryLease(alice, "dream", "one", T0, T0.plusSeconds(60))).isTrue();
            assertThat(two.tryLease(alice, "dream", "two", T0.plusSeconds(1), T0.plusSeconds(61))).isFalse();
            one.releaseLease(alice, "dream", "one");
            assertThat(two.tryLease(alice, "dream", "two", T0.plusSeconds(1), T0.plusSeconds(61))).isTrue();
        }
    }

    @Test
    void a_lucene_folder_open_in_another_process_is_refused_with_a_clear_message() throws Exception {
        try (ChildJvm holder = ChildJvm.start(LuceneHolder.class, dir.resolve("holder.err"),
                dir.resolve("index").toString())) {
            assertThat(holder.awaitLine("READY", 120_000)).as("child stderr: %s", holder.stderr()).isNotNull();
            try (MemoryStore second = LuceneMemoryStore.open(dir.resolve("index"))) {
                Scope alice = Scope.of("clinic", "assistant", "alice");
                assertThatThrownBy(() -> second.write(WriteBatch.of(alice).put(Memory.builder("m2", alice,
                        MemoryKind.FACT, "second", T0).build())))
                        .isInstanceOf(MemoryStoreException.class)
                        .hasMessageContaining("another process")
                        .hasMessageContaining("one process");
            }
            holder.stdin().close(); // lets the holder close its store and exit
            assertThat(holder.waitFor(60_000)).isZero();
        }
    }

    /** Child JVM: holds a Lucene folder open until its stdin closes. */
    public static final class LuceneHolder {
        public static void main(String[] args) throws Exception {
            try (LuceneMemoryStore store = LuceneMemoryStore.open(Path.of(args[0]))) {
                Scope alice = Scope.of("clinic", "assistant", "alice");
                store.write(WriteBatch.of(alice).put(Memory.builder("m1", alice, MemoryKind.FACT, "first", T0)
                        .build()));
                System.out.println("READY");
                System.out.flush();
                while (System.in.read() >= 0) {
                    // wait for the parent to close our stdin
                }
            }
        }
    }
}
