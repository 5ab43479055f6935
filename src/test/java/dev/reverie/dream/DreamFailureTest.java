package dev.reverie.dream;

import dev.reverie.MemoryKind;
import dev.reverie.MemoryStoreException;
import dev.reverie.MutableClock;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.spi.MemoryStore;
import dev.reverie.store.sqlite.SqliteMemoryStore;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Failure injection: a real SQLite store behind a fault that fails the n-th batch. The user is left
 * exactly as before the failed phase, and a rerun ends exactly where an uninterrupted cycle ends.
 */
class DreamFailureTest {

    /** Data for which every phase writes: duplicates (LIGHT), promotions (DEEP), a synthesis (REM), old rows (PRUNE). */
    private static void seed(MemoryStore store) {
        Obs.write(store,
                Obs.fact(DreamFixture.ANA, "old", "user.likes", "tea", "I like green tea").at(DreamFixture.day(0)));
        new DreamRun(store).at(DreamFixture.day(0)).cycle.run(DreamFixture.ANA);
        Obs.write(store,
                Obs.fact(DreamFixture.ANA, "a", "user.likes", "jazz", "I like jazz").session("s2").at(DreamFixture.day(9)),
                Obs.fact(DreamFixture.ANA, "b", "user.likes", "jazz", "I like jazz").session("s3").at(DreamFixture.day(9)),
                Obs.fact(DreamFixture.ANA, "c", "user.family.sister", "Marta", "My sister Marta lives in Porto")
                        .at(DreamFixture.day(9)),
                Obs.episode(DreamFixture.ANA, "d", "I visited Marta last weekend and we cooked together")
                        .at(DreamFixture.day(9)),
                Obs.episode(DreamFixture.ANA, "e", "ok see you").at(DreamFixture.day(9)),
                Obs.of(DreamFixture.ANA, "f").kind(MemoryKind.STYLE).subject("user.style.length").value("short")
                        .text("short please").at(DreamFixture.day(9)));
    }

    /** A cycle with its clock, on a store. */
    private static final class DreamRun {
        final MutableClock clock = new MutableClock(DreamFixture.T0);
        final DreamCycle cycle;

        DreamRun(MemoryStore store) {
            cycle = DreamCycle.builder(store).clock(clock).build();
        }

        DreamRun at(java.time.Instant t) {
            clock.set(t);
            return this;
        }
    }

    @ParameterizedTest(name = "write {0} fails")
    @ValueSource(ints = {1, 2, 3, 4})
    void a_failed_phase_leaves_the_user_as_before_it_and_a_rerun_completes_the_cycle(int failingWrite,
                                                                                    @TempDir Path dir) {
        try (SqliteMemoryStore reference = SqliteMemoryStore.open(dir.resolve("reference"));
             SqliteMemoryStore real = SqliteMemoryStore.open(dir.resolve("faulty"))) {
            seed(reference);
            seed(real);
            java.time.Instant night = DreamFixture.day(10);
            DreamReport clean = new DreamRun(reference).at(night).cycle.run(DreamFixture.ANA);
            assertThat(List.of(clean.duplicates(), clean.promoted(), clean.synthesized(), clean.pruned()))
                    .as("every phase has something to write").allSatisfy(n -> assertThat(n).isPositive());

            FaultyStore faulty = new FaultyStore(real);
            DreamRun run = new DreamRun(faulty).at(night);
            List<Snapshot> beforeEachWrite = new ArrayList<>();
            Set<String> ids = memoryIds(reference, real);
            faulty.arm(failingWrite);
            DreamListener recorder = new DreamListener() {
                @Override
                public void phaseStarted(dev.reverie.Scope scope, DreamPhase phase) {
                    beforeEachWrite.add(Snapshot.of(real, scope, ids));
                }
            };

            assertThatThrownBy(() -> run.cycle.run(DreamFixture.ANA, recorder))
                    .isInstanceOf(MemoryStoreException.class).hasMessageContaining("injected");

            assertThat(faulty.batchesWritten()).isEqualTo(failingWrite - 1);
            assertThat(Snapshot.of(real, DreamFixture.ANA, ids))
                    .as("the user is as before the failed phase")
                    .isEqualTo(beforeEachWrite.get(beforeEachWrite.size() - 1));

            faulty.disarm();
            DreamReport rerun = run.cycle.run(DreamFixture.ANA);

            assertThat(Snapshot.of(real, DreamFixture.ANA, ids)).as("the rerun ends where a clean cycle ends")
                    .isEqualTo(Snapshot.of(reference, DreamFixture.ANA, ids));
            assertThat(rerun.endUsers()).isEqualTo(1);
            assertThat(run.cycle.run(DreamFixture.ANA).changedNothing()).isTrue();
        }
    }

    @ParameterizedTest(name = "write {0} fails")
    @ValueSource(ints = {1, 2})
    void the_failed_phase_and_the_ones_after_it_are_not_reported_as_done(int failingWrite, @TempDir Path dir) {
        try (SqliteMemoryStore real = SqliteMemoryStore.open(dir)) {
            seed(real);
            FaultyStore faulty = new FaultyStore(real);
            DreamRun run = new DreamRun(faulty).at(DreamFixture.day(10));
            List<DreamPhase> finished = new ArrayList<>();
            List<DreamPhase> failed = new ArrayList<>();
            faulty.arm(failingWrite);

            assertThatThrownBy(() -> run.cycle.run(DreamFixture.ANA, new DreamListener() {
                @Override
                public void phaseFinished(dev.reverie.Scope scope, DreamPhase phase, DreamReport counters) {
                    finished.add(phase);
                }

                @Override
                public void endUserFailed(dev.reverie.Scope scope, DreamPhase phase, RuntimeException error) {
                    failed.add(phase);
                }
            })).isInstanceOf(MemoryStoreException.class);

            DreamPhase expected = DreamPhase.values()[failingWrite - 1];
            assertThat(failed).containsExactly(expected);
            assertThat(finished).containsExactlyElementsOf(List.of(DreamPhase.values()).subList(0, failingWrite - 1));
            List<Observation> pending = real.observations(DreamFixture.ANA,
                    dev.reverie.ObservationFilter.all().withStatuses(ObservationStatus.PENDING));
            assertThat(pending).as("light sleep merged one duplicate before deep sleep failed")
                    .hasSize(failingWrite == 1 ? 6 : 5);
        }
    }

    private static Set<String> memoryIds(MemoryStore... stores) {
        Set<String> ids = new TreeSet<>();
        for (MemoryStore s : stores) {
            for (Observation o : s.observations(DreamFixture.ANA, dev.reverie.ObservationFilter.all())) {
                ids.add(Ids.memory(o.id()));
            }
            s.memories(DreamFixture.ANA, dev.reverie.MemoryFilter.all()).forEach(m -> ids.add(m.id()));
        }
        return ids;
    }
    @org.junit.jupiter.api.Test
    void a_lease_that_fails_in_a_batch_gives_back_the_leases_the_batch_already_won(@TempDir Path dir) {
        try (SqliteMemoryStore real = SqliteMemoryStore.open(dir)) {
            FaultyStore faulty = new FaultyStore(real); // the SPI's default tryLeases, over a real store
            dev.reverie.Scope carla = dev.reverie.Scope.of("clinic-42", "receptionist", "carla");
            java.time.Instant now = DreamFixture.day(10);
            faulty.failLeaseOf(DreamFixture.BRUNO);

            assertThatThrownBy(() -> faulty.tryLeases(List.of(DreamFixture.ANA, DreamFixture.BRUNO, carla), "dream",
                    "one", now, now.plusSeconds(600))).isInstanceOf(MemoryStoreException.class)
                    .hasMessageContaining("injected");

            assertThat(real.tryLease(DreamFixture.ANA, "dream", "two", now, now.plusSeconds(600)))
                    .as("the lease won before the failure was given back").isTrue();
            assertThat(real.tryLease(carla, "dream", "two", now, now.plusSeconds(600))).isTrue();
        }
    }

    @org.junit.jupiter.api.Test
    void a_night_whose_lease_fails_for_one_user_still_dreams_the_others(@TempDir Path dir) {
        try (SqliteMemoryStore real = SqliteMemoryStore.open(dir)) {
            seed(real);
            FaultyStore faulty = new FaultyStore(real);
            faulty.failLeaseOf(DreamFixture.BRUNO);
            DreamRun run = new DreamRun(faulty).at(DreamFixture.day(10));

            DreamReport night = run.cycle.runAll(List.of(DreamFixture.ANA, DreamFixture.BRUNO), DreamListener.NONE);

            assertThat(night.failed()).as("only the user whose lease failed").isEqualTo(1);
            assertThat(night.endUsers()).isEqualTo(1);
            assertThat(night.promoted()).as("the other user was dreamed").isPositive();
            assertThat(real.tryLease(DreamFixture.ANA, DreamCycle.LEASE, "another", DreamFixture.day(10),
                    DreamFixture.day(11))).as("the run released what it held").isTrue();
        }
    }
}
