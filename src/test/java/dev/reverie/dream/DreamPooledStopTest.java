package dev.reverie.dream;

import dev.reverie.ObservationFilter;
import dev.reverie.Scope;
import dev.reverie.StoreClosedException;
import dev.reverie.spi.MemoryStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A night's run on several threads ({@link DreamCycle.Builder#threads}) that is stopped while its
 * pool computes and writes users, by a closed store or by an interrupt: the run ends (it never
 * hangs) and keeps no scope lock; an interrupted run gives its leases back, so a second run
 * (another lease holder, the same scope locks) dreams every user that was left, while the leases of
 * a run whose store closed under it (it cannot give them back) hold their users until they run out. The first step of a run goes user by user, so these runs have more users than
 * one step ({@link DreamCycle#STAGE_STEP}) and are stopped after it, on the pooled path. The timeout
 * only turns a deadlock (a lock left held) into a failure instead of a hung build.
 */
class DreamPooledStopTest extends DreamFixture {

    private static final int USERS = 4 * DreamCycle.STAGE_STEP;

    private final AtomicBoolean closed = new AtomicBoolean();

    /** The real store, except that every call fails as a closed store's would while {@link #closed} is set. */
    private MemoryStore closable() {
        return (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(),
                new Class<?>[] {MemoryStore.class}, (proxy, method, args) -> {
                    if (closed.get() && !method.getName().equals("close")) {
                        throw new StoreClosedException("store test is closed");
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private List<Scope> usersWithOneFact() {
        List<Scope> users = new ArrayList<>();
        for (int i = 0; i < USERS; i++) {
            Scope s = Scope.of("clinic-42", "receptionist", String.format("u%02d", i));
            Obs.write(store, Obs.fact(s, "a", "user.likes", "jazz", "I like jazz").at(day(0)));
            users.add(s);
        }
        nightOf(0);
        return users;
    }

    /** The scope locks both runs of a test share: a lock the stopped run kept would block the second one. */
    private final Map<Scope, ReentrantLock> locks = new ConcurrentHashMap<>();

    /**
     * A four-thread cycle with its own lease holder: the second run is another holder, so a lease the
     * stopped run kept (the same holder may take its own lease again) would make it skip that user.
     */
    private DreamCycle pooled(MemoryStore on, String holder) {
        return DreamCycle.builder(on).clock(clock).leaseClock(clock).threads(4).leaseHolder(holder)
                .scopeLocks(s -> locks.computeIfAbsent(s, k -> new ReentrantLock())).build();
    }

    private long pending(List<Scope> users) {
        return users.stream().mapToLong(u -> store.observations(u, ObservationFilter.pending()).size()).sum();
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void a_store_closed_during_a_pooled_step_stops_the_run_and_leaves_nothing_held() {
        List<Scope> users = usersWithOneFact();
        DreamCycle c = pooled(closable(), "night-1");
        DreamListener closesAfterTheFirstStep = new DreamListener() {
            @Override
            public void endUserFinished(Scope scope, long done, long total, DreamReport report) {
                if (done == DreamCycle.STAGE_STEP + 2) {
                    closed.set(true);
                }
            }
        };

        assertThatThrownBy(() -> c.runAll(users, closesAfterTheFirstStep))
                .isInstanceOf(StoreClosedException.class).hasMessage("store test is closed");
        long left = pending(users);
        assertThat(left).as("users the closed store stopped").isPositive().isLessThan(USERS - DreamCycle.STAGE_STEP);

        closed.set(false);
        // a closed store cannot give leases back: the steps in flight keep theirs until they run out,
        // and another holder skips those users meanwhile (no scope lock is kept: this run would block)
        DreamReport soon = pooled(store, "night-2").runAll(users, DreamListener.NONE);
        assertThat(soon.failed()).isZero();
        assertThat(soon.skipped()).as("users leased by the steps in flight").isBetween(1L,
                (long) 2 * DreamCycle.STAGE_STEP);
        // the skipped include users the stopped run had already written but could not release
        assertThat(pending(users)).isPositive().isLessThanOrEqualTo(soon.skipped());

        clock.advance(DreamCycle.DEFAULT_LEASE_DURATION.plusSeconds(1));
        DreamReport later = pooled(store, "night-3").runAll(users, DreamListener.NONE);

        assertThat(later.failed()).isZero();
        assertThat(later.skipped()).as("leases left after they ran out").isZero();
        assertThat(later.endUsers()).isEqualTo(USERS);
        assertThat(pending(users)).isZero();
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void an_interrupt_during_a_pooled_step_stops_the_run_and_a_second_run_dreams_the_rest() {
        List<Scope> users = usersWithOneFact();
        DreamCycle c = pooled(store, "night-1");
        DreamListener interruptsAfterTheFirstStep = new DreamListener() {
            @Override
            public void endUserFinished(Scope scope, long done, long total, DreamReport report) {
                if (done == DreamCycle.STAGE_STEP + 2) {
                    Thread.currentThread().interrupt();
                }
            }
        };

        DreamReport first;
        try {
            first = c.runAll(users, interruptsAfterTheFirstStep);
        } finally {
            assertThat(Thread.interrupted()).as("the interrupt is left for the caller to see").isTrue();
        }

        assertThat(first.failed()).isZero();
        assertThat(first.endUsers()).isGreaterThanOrEqualTo(DreamCycle.STAGE_STEP + 2).isLessThan(USERS);
        assertThat(pending(users)).isEqualTo(USERS - first.endUsers());

        DreamReport rerun = pooled(store, "night-2").runAll(users, DreamListener.NONE);

        assertThat(rerun.failed()).isZero();
        assertThat(rerun.skipped()).isZero();
        assertThat(pending(users)).isZero();
    }
}
