package dev.reverie.dream;

import dev.reverie.MemoryEvent;
import dev.reverie.MemoryEventType;
import dev.reverie.MemoryStoreException;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStore;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link DreamCycle#runAll(List, DreamListener)}: several users' phases committed together, on a real SQLite store. */
class DreamNightRunTest extends DreamFixture {

    private static final Scope CARLA = Scope.of("clinic-42", "receptionist", "carla");

    /** Counts the calls made to the store by method name; {@code writeAll} fails when asked to. */
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private volatile boolean failWriteAll;

    private MemoryStore counting(MemoryStore real) {
        return (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(),
                new Class<?>[] {MemoryStore.class}, (self, method, args) -> {
                    calls.computeIfAbsent(method.getName(), k -> new AtomicInteger()).incrementAndGet();
                    if (failWriteAll && method.getName().equals("writeAll")) {
                        throw new MemoryStoreException("injected failure of the joint commit");
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private void seed() {
        for (Scope s : List.of(ANA, BRUNO, CARLA)) {
            Obs.write(store, Obs.fact(s, "a", "user.likes", "jazz", "I like jazz").at(day(0)),
                    Obs.fact(s, "b", "user.likes", "jazz", "I like jazz").session("s2").at(day(0)),
                    Obs.fact(s, "c", "user.job", "nurse", "I work as a nurse").at(day(0)));
        }
        nightOf(0);
    }

    private int calls(String method) {
        return calls.getOrDefault(method, new AtomicInteger()).get();
    }

    @Test
    void night_run_commits_the_users_phases_together_and_reports_a_phase_once_committed() {
        seed();
        DreamCycle night = DreamCycle.builder(counting(store)).clock(clock).build();
        List<String> events = new ArrayList<>();

        DreamReport report = night.runAll(List.of(ANA, BRUNO, CARLA), new DreamListener() {
            @Override
            public void phaseFinished(Scope scope, DreamPhase phase, DreamReport counters) {
                events.add(scope.endUserId() + " " + phase + " writes=" + calls("writeAll"));
            }
        });

        assertThat(report.endUsers()).isEqualTo(3);
        assertThat(report.promoted()).isEqualTo(6);
        assertThat(calls("writeAll")).as("one joint commit").isEqualTo(1);
        assertThat(calls("write")).as("no per-user, per-phase commit").isZero();
        assertThat(calls("maintain")).isEqualTo(1);
        assertThat(events).hasSize(12).allSatisfy(e -> assertThat(e).endsWith("writes=1"));
        assertThat(events.subList(0, 4)).containsExactly("ana LIGHT writes=1", "ana DEEP writes=1",
                "ana REM writes=1", "ana PRUNE writes=1");
        assertThat(cycle.runAll(List.of(ANA, BRUNO, CARLA), DreamListener.NONE).changedNothing()).isTrue();
    }

    @Test
    void a_failed_joint_commit_is_written_user_by_user_and_phase_by_phase() {
        seed();
        failWriteAll = true;
        DreamCycle night = DreamCycle.builder(counting(store)).clock(clock).build();

        DreamReport report = night.runAll(List.of(ANA, BRUNO, CARLA), DreamListener.NONE);

        assertThat(report.endUsers()).isEqualTo(3);
        assertThat(report.failed()).isZero();
        assertThat(calls("write")).as("LIGHT and DEEP of each user").isEqualTo(6);
        for (Scope s : List.of(ANA, BRUNO, CARLA)) {
            assertThat(active(s)).hasSize(2);
        }
        assertThat(cycle.runAll(List.of(ANA, BRUNO, CARLA), DreamListener.NONE).changedNothing()).isTrue();
    }

    @Test
    void a_user_listed_twice_is_dreamed_once_and_then_changes_nothing() {
        seed();

        DreamReport report = cycle.runAll(List.of(ANA, BRUNO, ANA), DreamListener.NONE);

        assertThat(report.endUsers()).isEqualTo(3);
        assertThat(report.promoted()).isEqualTo(4);
        assertThat(store.history(ANA)).extracting(MemoryEvent::type)
                .containsExactly(MemoryEventType.CREATED, MemoryEventType.CREATED);
    }

    @Test
    void a_night_on_several_threads_ends_as_on_one_and_the_listener_hears_the_same_calls_on_the_calling_thread() {
        // given the same 20 users (more than two steps: the second commits the first while computing) with 40
        // observations each, on two stores
        List<Scope> users = new ArrayList<>();
        for (int u = 0; u < 20; u++) {
            users.add(Scope.of("clinic-42", "receptionist", String.format(java.util.Locale.ROOT, "user-%02d", u)));
        }
        MemoryStore other = dev.reverie.store.sqlite.SqliteMemoryStore.inMemory();
        try (other) {
            for (MemoryStore s : List.of(store, other)) {
                java.util.Random random = new java.util.Random(7);
                for (Scope user : users) {
                    dev.reverie.spi.WriteBatch batch = dev.reverie.spi.WriteBatch.of(user);
                    for (int i = 0; i < 40; i++) {
                        batch.put(DreamThroughput.observation(random, user, i, T0.plus(java.time.Duration.ofMinutes(30L * i))));
                    }
                    s.write(batch);
                }
            }
            nightOf(5);
            Thread caller = Thread.currentThread();
            List<String> heardAlone = new ArrayList<>();
            List<String> heardTogether = new ArrayList<>();

            // when one night computes them one at a time and the other four at a time
            DreamReport alone = DreamCycle.builder(store).clock(clock).threads(1).build()
                    .runAll(users, recording(heardAlone, caller));
            DreamReport together = DreamCycle.builder(other).clock(clock).threads(4).build()
                    .runAll(users, recording(heardTogether, caller));

            // then the reports and the rows are the same, and the listener heard the same calls of each user, in
            // the same order, all on the calling thread (only where commits fall between users may differ)
            assertThat(alone.endUsers()).isEqualTo(20);
            assertThat(together).isEqualTo(alone);
            for (Scope user : users) {
                assertThat(Snapshot.rows(other, user)).as("rows of %s", user).isEqualTo(Snapshot.rows(store, user));
            }
            assertThat(heardTogether).hasSizeGreaterThan(20 * 8).hasSameSizeAs(heardAlone)
                    .noneMatch(call -> call.startsWith("from another thread"));
            assertThat(byUser(heardTogether)).isEqualTo(byUser(heardAlone));
        }
    }

    /** The calls heard, grouped by end user (the first word of each), in order. */
    private static Map<String, List<String>> byUser(List<String> heard) {
        Map<String, List<String>> out = new java.util.TreeMap<>();
        for (String call : heard) {
            out.computeIfAbsent(call.substring(0, call.indexOf(' ')), k -> new ArrayList<>()).add(call);
        }
        return out;
    }

    /** Records every call as text; a call from any thread but {@code caller} is recorded as such. */
    private static DreamListener recording(List<String> heard, Thread caller) {
        return new DreamListener() {
            private void add(String call) {
                heard.add(Thread.currentThread() == caller ? call : "from another thread: " + call);
            }

            @Override
            public void phaseStarted(Scope scope, DreamPhase phase) {
                add(scope.endUserId() + " started " + phase);
            }

            @Override
            public void progress(Scope scope, DreamPhase phase, long done, long total) {
                add(scope.endUserId() + " " + phase + " " + done + "/" + total);
            }

            @Override
            public void phaseFinished(Scope scope, DreamPhase phase, DreamReport counters) {
                add(scope.endUserId() + " finished " + phase + " " + counters);
            }

            @Override
            public void endUserFinished(Scope scope, long done, long total, DreamReport report) {
                add(scope.endUserId() + " done " + done + "/" + total + " " + report);
            }
        };
    }
}
