package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.store.postgres.EmbeddedPostgresServer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A manager given an id seed mints the same ids in every run (turns recorded without an id,
 * observations, memories the operator adds, their history events); without one, ids are random.
 * On each built-in store, fresh for every manager; a fixed clock.
 */
class IdSeedTest {

    private static final Scope ALICE = Scope.of("clinic", "receptionist", "alice");
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-05-01T10:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path dir;

    /** A fresh store of {@code kind} for {@code folder}. */
    private String uri(String kind, String folder) {
        return switch (kind) {
            case "sqlite" -> "sqlite:" + dir.resolve(folder);
            case "lucene" -> "lucene:" + dir.resolve(folder);
            case "postgres" -> EmbeddedPostgresServer.url(Path.of("ids-" + dir.getFileName() + "-" + folder));
            default -> throw new IllegalArgumentException(kind);
        };
    }

    /** Every id one conversation and one operator edit produce, in a fresh store. */
    private List<String> ids(String kind, String folder, Long seed) {
        try (MemoryStore store = MemoryStores.open(uri(kind, folder))) {
            ContextManager.Builder builder = ContextManager.builder().store(store).clock(CLOCK);
            if (seed != null) {
                builder.idSeed(seed);
            }
            try (ContextManager memory = builder.build()) {
                List<String> out = new ArrayList<>(memory.recordTurn(ALICE, "s1",
                        Turn.user("I'm allergic to penicillin and I live in Porto."),
                        Turn.assistant("Noted, thank you.")).turnIds());
                memory.flush();
                memory.admin().observations(ALICE).forEach(o -> out.add(o.id()));
                for (Memory m : memory.admin().remember(ALICE,
                        MemoryDraft.of(MemoryKind.PREFERENCE, "Prefers morning appointments"))) {
                    out.add(m.id());
                    memory.admin().history(ALICE, m.id()).forEach(e -> out.add(e.id()));
                }
                return out;
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene", "postgres"})
    void the_same_seed_mints_the_same_ids_and_no_seed_random_ones(String kind) {
        List<String> seeded = ids(kind, "a", 7L);
        assertThat(seeded).hasSizeGreaterThanOrEqualTo(6).doesNotHaveDuplicates();
        assertThat(seeded).anyMatch(id -> id.startsWith("o-")).anyMatch(id -> id.startsWith("m-"))
                .anyMatch(id -> id.startsWith("e-")).anyMatch(id -> id.startsWith("t-"));
        assertThat(ids(kind, "b", 7L)).isEqualTo(seeded);
        assertThat(ids(kind, "c", 8L)).doesNotContainAnyElementsOf(seeded);
        List<String> random = ids(kind, "d", null);
        assertThat(random).hasSameSizeAs(seeded).doesNotContainAnyElementsOf(seeded);
        assertThat(ids(kind, "e", null)).doesNotContainAnyElementsOf(random);
    }
}
