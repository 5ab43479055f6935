package dev.reverie.crash;

import dev.reverie.ContextManager;
import dev.reverie.MemoryFilter;
import dev.reverie.MutableClock;
import dev.reverie.ObservationFilter;
import dev.reverie.Scope;
import dev.reverie.Turn;
import dev.reverie.dream.DreamCycle;
import dev.reverie.dream.DreamListener;
import dev.reverie.multi.ChildJvm;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.SessionTurn;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The crash suite (DESIGN §9, issue 14): a child JVM ({@link CrashChild}) is killed with SIGKILL
 * ({@code Process.destroyForcibly()} on Linux) in the middle of recordTurn, a dream cycle and an
 * import, on each store in its durable mode; after reopening, every write the child acknowledged is
 * there, nothing is half-written, and a rerun of the dream ends where an uninterrupted one does.
 *
 * <p>Not part of the default test run (the class name does not end in {@code Test}); run it with
 * {@code mvn -B -Pcrash test}. Each kill takes a few seconds, mostly the child JVM's start.
 */
class KillNineCrash {

    static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    static final Instant DREAM_AT = T0.plus(Duration.ofDays(2));
    static final long WAIT_MS = 120_000;

    @TempDir
    Path dir;

    private static String uri(String store, Path folder) {
        return switch (store) {
            case "sqlite" -> "sqlite:" + folder;
            case "sqlite-sync-normal" -> "sqlite:" + folder + "?sync=normal";
            case "lucene" -> "lucene:" + folder;
            default -> throw new IllegalArgumentException(store);
        };
    }

    // ------------------------------------------------------------------ recordTurn

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "sqlite-sync-normal", "lucene"})
    void record_turn_killed_mid_write_loses_no_acknowledged_turn(String store) throws Exception {
        killWhileRecording(store, "record", new int[] {15, 40});
    }

    /**
     * Four writer threads share group commits (SQLite: one transaction; Lucene: one translog append and
     * fsync): the kill lands while a group is being committed, and no acknowledged turn of any writer
     * may be missing (on Lucene every one of them is in the translog only, since the index commits in
     * the background).
     */
    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void record_turn_with_concurrent_writers_killed_loses_no_acknowledged_turn(String store) throws Exception {
        killWhileRecording(store, "record-concurrent", new int[] {60, 200});
    }

    private void killWhileRecording(String store, String mode, int[] kills) throws Exception {
        for (int killAfter : kills) {
            Path data = dir.resolve(mode + "-" + killAfter);
            List<String> acks;
            try (ChildJvm child = ChildJvm.start(CrashChild.class, dir.resolve(mode + "-" + killAfter + ".err"),
                    mode, uri(store, data))) {
                for (int i = 0; i < killAfter; i++) {
                    assertThat(child.awaitLine("ACK ", WAIT_MS)).as("child stderr: %s", child.stderr()).isNotNull();
                }
                child.kill();
                acks = child.lines("ACK ");
            }
            try (MemoryStore reopened = MemoryStores.open(uri(store, data));
                 ContextManager memory = ContextManager.builder().store(reopened).build()) {
                Set<String> sessions = new HashSet<>();
                for (String ack : acks) {
                    String[] a = ack.split(" ");
                    Scope scope = CrashChild.scope(a[0]);
                    sessions.add(a[0] + " " + a[1]);
                    assertThat(ids(reopened.sessionTurns(scope, a[1], 0, Integer.MAX_VALUE))).as("session of " + ack)
                            .contains(a[2]);
                    assertThat(ids(reopened.archivedTurns(scope, a[1]))).as("archive of " + ack).contains(a[2]);
                }
                for (String s : sessions) {
                    String[] a = s.split(" ");
                    List<SessionTurn> turns = reopened.sessionTurns(CrashChild.scope(a[0]), a[1], 0, Integer.MAX_VALUE);
                    for (int i = 0; i < turns.size(); i++) {
                        assertThat(turns.get(i).seq()).as("seqs of " + s).isEqualTo(i);
                    }
                    // the session goes on after the crash
                    memory.recordTurn(CrashChild.scope(a[0]), a[1], Turn.user("back after the crash"));
                    assertThat(reopened.sessionLength(CrashChild.scope(a[0]), a[1])).isEqualTo(turns.size() + 1L);
                }
                System.out.println("crash suite: " + store + " " + mode + " killed after " + acks.size()
                        + " acknowledged turns, all present");
            }
        }
    }

    // ------------------------------------------------------------------ recall statistics

    /**
     * Recall statistics written one at a time: on Lucene they are logged, kept in memory and folded into
     * the index only now and then, so a background commit leaves them out of the doc values while the
     * translog keeps their generation; the child writes recalls, waits for such a commit, writes more,
     * and is killed without a clean close. Recovery must count every recall exactly once: the committed
     * generation's recalls added to the committed doc values, the later ones replayed on top.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void recalls_killed_after_unfolded_commits_are_each_counted_once(String store) throws Exception {
        int before = 600;
        int after = 300;
        Path data = dir.resolve("recalls");
        try (ChildJvm child = ChildJvm.start(CrashChild.class, dir.resolve("recalls.err"), "recalls",
                uri(store, data), Integer.toString(before), Integer.toString(after))) {
            assertThat(child.awaitLine("DONE", WAIT_MS)).as("child stderr: %s", child.stderr()).isNotNull();
            child.kill();
        }
        try (MemoryStore reopened = MemoryStores.open(uri(store, data))) {
            for (int u = 0; u < CrashChild.USERS.size(); u++) {
                String user = CrashChild.USERS.get(u);
                int written = (before + after) / CrashChild.USERS.size() + (u < (before + after) % CrashChild.USERS.size() ? 1 : 0);
                assertThat(reopened.memory(CrashChild.scope(user), CrashChild.RECALLED_ID).orElseThrow()
                        .retrievalCount()).as("recalls of " + user).isEqualTo(written);
            }
            System.out.println("crash suite: " + store + " recalls killed after " + (before + after)
                    + " acknowledged recalls, each counted once");
        }
    }

    // ------------------------------------------------------------------ dream

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void dream_killed_mid_cycle_reruns_to_where_an_uninterrupted_cycle_ends(String store) throws Exception {
        Path seed = dir.resolve("seed");
        seed(store, seed);
        Path reference = dir.resolve("reference");
        copy(seed, reference);
        try (MemoryStore s = MemoryStores.open(uri(store, reference))) {
            DreamCycle.builder(s).clock(Clock.fixed(DREAM_AT, ZoneOffset.UTC)).build()
                    .runAll(CrashChild.TENANT, CrashChild.AGENT, DreamListener.NONE);
        }
        List<String> expected = state(store, reference, true);

        for (int killAt : new int[] {2, 9, 17}) {
            Path data = dir.resolve("dream-" + killAt);
            copy(seed, data);
            String seen;
            try (ChildJvm child = ChildJvm.start(CrashChild.class, dir.resolve("dream-" + killAt + ".err"),
                    "dream", uri(store, data), String.valueOf(DREAM_AT.toEpochMilli()))) {
                for (int i = 0; i < killAt; i++) {
                    assertThat(child.awaitLine("PHASE ", WAIT_MS)).as("child stderr: %s", child.stderr()).isNotNull();
                }
                child.kill();
                List<String> phases = child.lines("PHASE ");
                seen = phases.get(phases.size() - 1) + (child.lines().contains("DONE") ? " (had finished)" : "");
            }
            try (MemoryStore s = MemoryStores.open(uri(store, data))) {
                // the killed child's lease (SQLite keeps it in the file) has expired by the rerun's lease clock
                DreamCycle.builder(s).clock(Clock.fixed(DREAM_AT, ZoneOffset.UTC))
                        .leaseClock(Clock.offset(Clock.systemUTC(), Duration.ofDays(1))).build()
                        .runAll(CrashChild.TENANT, CrashChild.AGENT, DreamListener.NONE);
            }
            assertThat(state(store, data, true)).as("state after a dream killed at " + seen).isEqualTo(expected);
            System.out.println("crash suite: " + store + " dream killed at phase " + seen + ", rerun matches");
        }
    }

    // ------------------------------------------------------------------ import

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void import_killed_mid_file_leaves_each_user_whole_or_absent(String store) throws Exception {
        Path seed = dir.resolve("seed");
        seed(store, seed);
        Path exports = Files.createDirectories(dir.resolve("exports"));
        try (ContextManager memory = ContextManager.builder().store(uri(store, seed))
                .clock(new MutableClock(DREAM_AT)).build()) {
            memory.dream(CrashChild.TENANT, CrashChild.AGENT, DreamListener.NONE);
            for (String user : CrashChild.USERS) {
                try (OutputStream out = Files.newOutputStream(exports.resolve(user + ".json"))) {
                    memory.admin().exportTo(CrashChild.scope(user), out);
                }
            }
        }
        List<String> whole = state(store, seed, false);

        Path data = dir.resolve("imported");
        List<String> acked;
        try (ChildJvm child = ChildJvm.start(CrashChild.class, dir.resolve("import.err"), "import", uri(store, data),
                exports.toString())) {
            assertThat(child.awaitLine("ACK ", WAIT_MS)).as("child stderr: %s", child.stderr()).isNotNull();
            assertThat(child.awaitLine("IMPORTING ", WAIT_MS)).isNotNull();
            child.kill();
            acked = child.lines("ACK ");
        }
        try (MemoryStore s = MemoryStores.open(uri(store, data));
             ContextManager memory = ContextManager.builder().store(s).build()) {
            List<String> absent = new ArrayList<>();
            for (String user : CrashChild.USERS) {
                List<String> mine = userState(s, CrashChild.scope(user), false);
                if (mine.isEmpty()) {
                    assertThat(acked).as("acknowledged import of " + user).doesNotContain(user);
                    absent.add(user);
                } else {
                    assertThat(mine).as("import of " + user + " is whole").isEqualTo(
                            whole.stream().filter(l -> l.startsWith(user + " ")).toList());
                }
            }
            for (String user : absent) {
                try (InputStream in = Files.newInputStream(exports.resolve(user + ".json"))) {
                    memory.admin().importFrom(CrashChild.scope(user), in);
                }
            }
            System.out.println("crash suite: " + store + " import killed after " + acked.size() + " users, "
                    + absent.size() + " absent (none half-written), reimported");
        }
        assertThat(state(store, data, false)).isEqualTo(whole);
    }

    // ------------------------------------------------------------------ helpers

    /** The same turns for every run: six users, sessions of five turns, recorded at fixed times. */
    private static void seed(String store, Path folder) {
        MutableClock clock = new MutableClock(T0);
        try (ContextManager memory = ContextManager.builder().store(uri(store, folder)).clock(clock).build()) {
            for (int batch = 0; batch < 24; batch++) {
                String[] first = CrashChild.turn(batch * 5);
                List<Turn> turns = new ArrayList<>();
                for (int k = 0; k < 5; k++) {
                    turns.add(Turn.user(CrashChild.turn(batch * 5 + k)[2]).withId("t" + batch + "-" + k));
                }
                memory.recordTurn(CrashChild.scope(first[0]), "seed-" + batch, turns);
                clock.advance(Duration.ofMinutes(7));
            }
        }
    }

    /** Every user's memories, observations, style profile and (with history) audit events, as text lines. */
    private static List<String> state(String store, Path folder, boolean history) {
        try (MemoryStore s = MemoryStores.open(uri(store, folder))) {
            List<String> out = new ArrayList<>();
            for (String user : CrashChild.USERS) {
                out.addAll(userState(s, CrashChild.scope(user), history));
            }
            return out;
        }
    }

    private static List<String> userState(MemoryStore s, Scope scope, boolean history) {
        List<String> out = new ArrayList<>();
        String user = scope.endUserId() + " ";
        s.memories(scope, MemoryFilter.all()).stream().map(m -> user + m).sorted().forEach(out::add);
        s.observations(scope, ObservationFilter.all()).stream().map(o -> user + o).sorted().forEach(out::add);
        s.styleProfile(scope).ifPresent(p -> out.add(user + p));
        for (String session : s.sessions(scope)) {
            s.sessionTurns(scope, session, 0, Integer.MAX_VALUE).forEach(t -> out.add(user + t));
        }
        if (history) {
            s.history(scope).forEach(e -> out.add(user + e));
        }
        return out;
    }

    private static Set<String> ids(List<SessionTurn> turns) {
        Set<String> out = new HashSet<>();
        turns.forEach(t -> out.add(t.turnId()));
        return out;
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }
}
