package dev.reverie.dream;

import dev.reverie.Memory;
import dev.reverie.MemoryEvent;
import dev.reverie.MemoryFilter;
import dev.reverie.Observation;
import dev.reverie.ObservationFilter;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.WriteBatch;
import dev.reverie.store.lucene.LuceneMemoryStore;
import dev.reverie.store.sqlite.SqliteMemoryStore;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pins the decisions of the dream cycle on a fixed data set: three end users with 120 seeded
 * observations each, dreamed on three nights (after 3, 40 and 200 days, with 60 more observations
 * before the second), must give exactly these reports and end in exactly this state (a digest of
 * every observation's and memory's status, counts, importance and text, and of the history). Speed
 * work on the cycle or the stores (joint commits, status-only writes) must never move these numbers;
 * the values were taken from the cycle as it was before that work. Runs each user's cycle on its own
 * ({@link DreamCycle#run}) and as a nightly run ({@link DreamCycle#runAll}), on SQLite and Lucene.
 */
class DreamGoldenTest {

    private static final Instant START = Instant.parse("2025-03-03T09:00:00Z");
    private static final String TENANT = "golden";
    private static final String AGENT = "assistant";
    private static final List<Scope> USERS = List.of(Scope.of(TENANT, AGENT, "u0"), Scope.of(TENANT, AGENT, "u1"),
            Scope.of(TENANT, AGENT, "u2"));

    /** The summed report of each night, as {@link DreamReport#toString()}. */
    private static final List<String> REPORTS = List.of(
            "DreamReport[considered=282, duplicates=78, promoted=260, discarded=17, reinforced=0, superseded=16,"
                    + " decayed=0, forgotten=0, deprecated=0, synthesized=0, styled=5,"
                    + " remBefore=244, remAfter=244, pruned=0, llmFallbacks=0, endUsers=3, failed=0, skipped=0]",
            "DreamReport[considered=150, duplicates=30, promoted=141, discarded=4, reinforced=28, superseded=19,"
                    + " decayed=203, forgotten=0, deprecated=0, synthesized=0, styled=5,"
                    + " remBefore=338, remAfter=338, pruned=360, llmFallbacks=0, endUsers=3, failed=0, skipped=0]",
            "DreamReport[considered=0, duplicates=0, promoted=0, discarded=0, reinforced=0, superseded=0,"
                    + " decayed=291, forgotten=34, deprecated=0, synthesized=0, styled=0,"
                    + " remBefore=338, remAfter=304, pruned=180, llmFallbacks=0, endUsers=3, failed=0, skipped=0]");
    /** SHA-256 of {@link #state}: every row and history event after the third night. */
    private static final String STATE = "677f776beae377d7147b6b79eba50d95070f3cc9dcc63624846604e6ef25b119";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource({"sqlite, run", "sqlite, runAll", "lucene, run", "lucene, runAll"})
    void the_cycle_makes_exactly_the_pinned_decisions(String storeKind, String mode) throws Exception {
        try (MemoryStore store = storeKind.equals("sqlite") ? SqliteMemoryStore.open(dir)
                : LuceneMemoryStore.open(dir)) {
            Random random = new Random(42);
            write(store, random, 0, 120, START);
            List<String> reports = new ArrayList<>();
            reports.add(night(store, mode, START.plus(Duration.ofDays(3))).toString());
            write(store, random, 120, 60, START.plus(Duration.ofDays(4)));
            reports.add(night(store, mode, START.plus(Duration.ofDays(40))).toString());
            reports.add(night(store, mode, START.plus(Duration.ofDays(200))).toString());

            String state = state(store);
            assertThat(reports).containsExactlyElementsOf(REPORTS);
            assertThat(sha256(state)).as(state).isEqualTo(STATE);
        }
    }

    private static void write(MemoryStore store, Random random, int from, int count, Instant start) {
        for (Scope scope : USERS) {
            WriteBatch batch = WriteBatch.of(scope);
            for (int i = from; i < from + count; i++) {
                batch.put(DreamThroughput.observation(random, scope, i, start.plus(Duration.ofMinutes(30L * (i - from)))));
            }
            store.write(batch);
        }
    }

    private static DreamReport night(MemoryStore store, String mode, Instant at) {
        DreamCycle cycle = DreamCycle.builder(store).clock(java.time.Clock.fixed(at, java.time.ZoneOffset.UTC)).build();
        if (mode.equals("runAll")) {
            return cycle.runAll(TENANT, AGENT, DreamListener.NONE);
        }
        DreamReport total = DreamReport.EMPTY;
        for (Scope scope : USERS) {
            total = total.plus(cycle.run(scope));
        }
        return total;
    }

    /** Every observation, memory and history event of the users, one line each, in a fixed order. */
    private static String state(MemoryStore store) {
        List<String> lines = new ArrayList<>();
        for (Scope scope : USERS) {
            for (Observation o : store.observations(scope, ObservationFilter.all().page(0, MemoryFilter.MAX_LIMIT))) {
                lines.add(String.format(Locale.ROOT, "%s obs %s %s %s %d %s %s", scope.endUserId(), o.id(), o.status(),
                        o.consolidatedAt(), o.reinforcementCount(), o.sourceTurnIds(), o.text()));
            }
            for (Memory m : store.memories(scope, MemoryFilter.all().page(0, MemoryFilter.MAX_LIMIT))) {
                lines.add(String.format(Locale.ROOT, "%s mem %s %s %s %.6f %d %s %s %s %s %s %s", scope.endUserId(),
                        m.id(), m.kind(), m.status(), m.importance(), m.reinforcementCount(), m.supersededBy(),
                        m.updatedAt(), m.lastReinforcedAt(), m.expiresAt(), m.sourceObservationIds(), m.text()));
            }
            for (MemoryEvent e : store.history(scope)) {
                lines.add(String.format(Locale.ROOT, "%s event %s %s %s %s %s %s", scope.endUserId(), e.id(),
                        e.memoryId(), e.type(), e.at(), e.after(), e.cause()));
            }
        }
        lines.sort(null);
        return String.join("\n", lines);
    }

    private static String sha256(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }
}
