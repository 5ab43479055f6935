package dev.reverie.dream;

import dev.reverie.Memory;
import dev.reverie.MemoryFilter;
import dev.reverie.Observation;
import dev.reverie.ObservationFilter;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.WriteBatch;
import dev.reverie.store.sqlite.SqliteMemoryStore;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A store written against 0.1.0 knows no status-only write operations: the dream sends it whole
 * records instead, and decides exactly as it does on a store that takes status changes.
 */
class DreamStoreWithoutStatusWritesTest extends DreamFixture {

    /** A real store that says it takes no status changes and fails any batch holding one. */
    private static MemoryStore withoutStatusWrites(MemoryStore real, AtomicInteger batches) {
        return (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(),
                new Class<?>[] {MemoryStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("supportsStatusWrites")) {
                        return false;
                    }
                    if (method.getName().equals("write") || method.getName().equals("writeAll")) {
                        List<?> written = args[0] instanceof List<?> l ? l : List.of(args[0]);
                        for (Object b : written) {
                            batches.incrementAndGet();
                            for (WriteBatch.Op op : ((WriteBatch) b).ops()) {
                                if (op instanceof WriteBatch.SetObservationStatus
                                        || op instanceof WriteBatch.SetMemoryStatus) {
                                    throw new IllegalArgumentException("unknown write operation " + op);
                                }
                            }
                        }
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private static void threeNightsOfFacts(MemoryStore s, Scope scope) {
        for (int day = 0; day < 3; day++) {
            Obs.write(s, Obs.fact(scope, "a" + day, "user.likes", "jazz", "I like jazz").at(day(day)));
            Obs.write(s, Obs.fact(scope, "b" + day, "user.likes", "jazz", "I really like jazz").at(day(day)));
            Obs.write(s, Obs.fact(scope, "c" + day, "user.location", day < 2 ? "Recife" : "Lisbon",
                    "I live in " + (day < 2 ? "Recife" : "Lisbon")).at(day(day)));
        }
    }

    private static List<String> statuses(MemoryStore s, Scope scope) {
        List<String> out = new ArrayList<>();
        for (Observation o : s.observations(scope, ObservationFilter.all())) {
            out.add(o.text() + " " + o.status());
        }
        for (Memory m : s.memories(scope, MemoryFilter.all())) {
            out.add(m.subject() + "=" + m.value() + " " + m.status() + " " + m.importance());
        }
        out.sort(String::compareTo);
        return out;
    }

    @Test
    void the_dream_writes_whole_records_to_a_store_without_status_writes_and_decides_the_same() {
        AtomicInteger batches = new AtomicInteger();
        try (MemoryStore plainReal = SqliteMemoryStore.inMemory()) {
            MemoryStore plain = withoutStatusWrites(plainReal, batches);
            assertThat(store.supportsStatusWrites()).isTrue();
            threeNightsOfFacts(store, ANA);
            threeNightsOfFacts(plainReal, ANA);
            DreamCycle withStatus = DreamCycle.builder(store).clock(clock).build();
            DreamCycle withoutStatus = DreamCycle.builder(plain).clock(clock).build();
            for (int night = 0; night < 3; night++) {
                nightOf(night);
                DreamReport a = withStatus.runAll(List.of(ANA), DreamListener.NONE);
                DreamReport b = withoutStatus.runAll(List.of(ANA), DreamListener.NONE);
                assertThat(b).isEqualTo(a);
                assertThat(b.failed()).isZero();
            }
            assertThat(batches.get()).as("the dream wrote to the plain store").isPositive();
            assertThat(statuses(plainReal, ANA)).isEqualTo(statuses(store, ANA)).isNotEmpty();
        }
    }
}
