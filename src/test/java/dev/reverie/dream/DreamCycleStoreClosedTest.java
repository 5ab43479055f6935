package dev.reverie.dream;

import dev.reverie.Scope;
import dev.reverie.StoreClosedException;
import dev.reverie.spi.MemoryStore;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link DreamCycle#runAll} stops only on a closed store, never on any other illegal state. */
class DreamCycleStoreClosedTest extends DreamFixture {

    /**
     * The real store, except that the {@code n}-th single-batch write throws what {@code failure}
     * makes, and so does every joint write (a night's run then falls back to writing user by user,
     * where the {@code n}-th write fails one user).
     */
    private MemoryStore failingOnWrite(int n, Supplier<RuntimeException> failure) {
        AtomicInteger writes = new AtomicInteger();
        return (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(),
                new Class<?>[] {MemoryStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("writeAll")
                            || method.getName().equals("write") && writes.incrementAndGet() == n) {
                        throw failure.get();
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private void threeUsersWithOneFact() {
        for (String user : List.of("u1", "u2", "u3")) {
            Scope s = Scope.of("clinic-42", "receptionist", user);
            Obs.write(store, Obs.fact(s, "a", "user.likes", "jazz", "I like jazz").at(day(0)));
        }
        nightOf(0);
    }

    @Test
    void run_all_goes_on_after_an_illegal_state_that_is_not_a_closed_store() {
        threeUsersWithOneFact();
        DreamCycle c = DreamCycle.builder(failingOnWrite(1,
                () -> new IllegalStateException("a store bug, not a closed store"))).clock(clock).build();

        DreamReport report = c.runAll("clinic-42", "receptionist", DreamListener.NONE);

        assertThat(report.failed()).isEqualTo(1);
        assertThat(report.endUsers()).isEqualTo(2);
    }

    @Test
    void run_all_stops_at_a_closed_store() {
        threeUsersWithOneFact();
        DreamCycle c = DreamCycle.builder(failingOnWrite(1,
                () -> new StoreClosedException("store test is closed"))).clock(clock).build();

        assertThatThrownBy(() -> c.runAll("clinic-42", "receptionist", DreamListener.NONE))
                .isInstanceOf(StoreClosedException.class).hasMessage("store test is closed");
    }

    @Test
    void a_closed_store_fails_the_run_with_its_own_signal() {
        store.close();

        assertThatThrownBy(() -> cycle.runAll("clinic-42", "receptionist", DreamListener.NONE))
                .isInstanceOf(StoreClosedException.class).hasMessageContaining("is closed: open it again");
    }
}
