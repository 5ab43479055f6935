package dev.reverie.dream;

import dev.reverie.Memory;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryPolicy;
import dev.reverie.MemoryStatus;
import dev.reverie.MutableClock;
import dev.reverie.Observation;
import dev.reverie.ObservationFilter;
import dev.reverie.ObservationStatus;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStore;
import dev.reverie.store.sqlite.SqliteMemoryStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** A real in-memory store (SQLite by default), a hand-moved clock and a default cycle, shared by the dream tests. */
abstract class DreamFixture {

    static final Instant T0 = Instant.parse("2025-03-03T09:00:00Z");
    static final Scope ANA = Scope.of("clinic-42", "receptionist", "ana");
    static final Scope BRUNO = Scope.of("clinic-42", "receptionist", "bruno");

    MemoryStore store;
    MutableClock clock;
    DreamCycle cycle;

    @BeforeEach
    void openStore() {
        store = newStore();
        clock = new MutableClock(T0);
        cycle = cycle(MemoryPolicy.defaults());
    }

    /** The store the tests run on: the embedded SQLite default; a subclass may run them on another. */
    MemoryStore newStore() {
        return SqliteMemoryStore.inMemory();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    DreamCycle cycle(MemoryPolicy policy) {
        return DreamCycle.builder(store).policy(policy).clock(clock).build();
    }

    static Instant day(int n) {
        return T0.plus(Duration.ofDays(n));
    }

    /** Moves the clock to the evening of day {@code n}, when the nightly cycle runs. */
    void nightOf(int n) {
        clock.set(day(n).plus(Duration.ofHours(12)));
    }

    List<Memory> active(Scope scope) {
        return store.memories(scope, MemoryFilter.active());
    }

    List<Memory> all(Scope scope) {
        return store.memories(scope, MemoryFilter.all());
    }

    Optional<Memory> activeWith(Scope scope, String textFragment) {
        return active(scope).stream().filter(m -> m.text().contains(textFragment)).findFirst();
    }

    Memory only(Scope scope, String subject) {
        List<Memory> found = active(scope).stream().filter(m -> m.subject().equals(subject)).toList();
        assertThat(found).as("ACTIVE memories with subject %s", subject).hasSize(1);
        return found.get(0);
    }

    Observation observation(Scope scope, String id) {
        return store.observation(scope, id).orElseThrow();
    }

    List<Observation> observations(Scope scope, ObservationStatus status) {
        return store.observations(scope, ObservationFilter.all().withStatuses(status));
    }

    long count(Scope scope, MemoryStatus status) {
        return store.countMemories(scope, java.util.EnumSet.of(status));
    }
}
