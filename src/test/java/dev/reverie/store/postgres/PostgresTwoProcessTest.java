package dev.reverie.store.postgres;

import dev.reverie.Memory;
import dev.reverie.MemoryFilter;
import dev.reverie.Scope;
import dev.reverie.spi.SessionTurn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two application instances (two JVMs, each with its own store and manager) on one database:
 * recording into their own users, into sessions of their own of a shared user and into one session
 * both append to, while both dream every user in a loop. Nothing fails, every acknowledged turn is
 * stored exactly once, the shared session's seqs have no gaps, and no user ends with the same memory
 * twice.
 */
class PostgresTwoProcessTest {

    private static final int TURNS_PER_USER = 15;

    @TempDir
    Path folder;

    @Test
    void two_instances_recording_and_dreaming_lose_nothing_and_duplicate_nothing() throws Exception {
        String location = EmbeddedPostgresServer.url(folder);
        List<Process> processes = new ArrayList<>();
        List<Path> reports = new ArrayList<>();
        for (String name : List.of("alpha", "beta")) {
            Path report = folder.resolve(name + ".report");
            reports.add(report);
            processes.add(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"),
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                    TwoProcessWorker.class.getName(), location, name,
                    String.valueOf(TURNS_PER_USER), report.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(folder.resolve(name + ".log").toFile())
                    .start());
        }
        for (int i = 0; i < processes.size(); i++) {
            Process p = processes.get(i);
            boolean done = p.waitFor(5, TimeUnit.MINUTES);
            if (!done) {
                p.destroyForcibly();
            }
            assertThat(done).as("instance " + i + " finished in time").isTrue();
            assertThat(p.exitValue()).as("instance %d exit code; log:%n%s", i,
                    Files.readString(folder.resolve((i == 0 ? "alpha" : "beta") + ".log"))).isZero();
        }

        Map<String, Set<String>> acknowledged = new HashMap<>(); // "user session" -> turn ids
        int dreams = 0;
        int skipped = 0;
        for (Path report : reports) {
            for (String line : Files.readAllLines(report)) {
                String[] parts = line.split(" ");
                switch (parts[0]) {
                    case "ack" -> acknowledged.computeIfAbsent(parts[1] + " " + parts[2], k -> new HashSet<>())
                            .add(parts[3]);
                    case "errors" -> assertThat(Integer.parseInt(parts[1])).as(report + " errors").isZero();
                    case "dreams" -> dreams += Integer.parseInt(parts[1]);
                    case "skipped" -> skipped += Integer.parseInt(parts[1]);
                    default -> throw new AssertionError("unexpected report line " + line);
                }
            }
        }
        assertThat(acknowledged.values().stream().mapToInt(Set::size).sum())
                .isEqualTo(2 * (TwoProcessWorker.OWN_USERS + 2) * TURNS_PER_USER);
        assertThat(dreams).isPositive();

        try (PostgresMemoryStore store = PostgresMemoryStore.open(location)) {
            for (Map.Entry<String, Set<String>> e : acknowledged.entrySet()) {
                String[] key = e.getKey().split(" ");
                Scope scope = Scope.of(TwoProcessWorker.TENANT, TwoProcessWorker.AGENT, key[0]);
                List<SessionTurn> stored = store.sessionTurns(scope, key[1], 0, 10_000);
                assertThat(stored).extracting(SessionTurn::turnId).as(e.getKey())
                        .containsExactlyInAnyOrderElementsOf(e.getValue());
                assertThat(stored).extracting(SessionTurn::seq).as(e.getKey() + " seqs")
                        .containsExactlyElementsOf(java.util.stream.LongStream.range(0, stored.size()).boxed().toList());
            }
            Scope shared = Scope.of(TwoProcessWorker.TENANT, TwoProcessWorker.AGENT, TwoProcessWorker.SHARED_USER);
            assertThat(store.sessionLength(shared, TwoProcessWorker.SHARED_SESSION)).isEqualTo(2L * TURNS_PER_USER);
            List<Scope> users = store.endUsers(TwoProcessWorker.TENANT, TwoProcessWorker.AGENT);
            assertThat(users).hasSize(2 * TwoProcessWorker.OWN_USERS + 1);
            int memories = 0;
            for (Scope user : users) {
                List<String> active = store.memories(user, MemoryFilter.active()).stream()
                        .map(Memory::text).map(t -> t.strip().toLowerCase(Locale.ROOT)).toList();
                memories += active.size();
                assertThat(active).as("active memories of " + user.endUserId()).doesNotHaveDuplicates();
            }
            assertThat(memories).as("the dreams promoted memories").isPositive();
            System.out.printf(Locale.ROOT, "two instances: %d turns acknowledged and stored, %d dreams, %d dreams"
                    + " skipped under another instance's lease, %d active memories, no duplicates%n",
                    acknowledged.values().stream().mapToInt(Set::size).sum(), dreams, skipped, memories);
        }
    }
}
