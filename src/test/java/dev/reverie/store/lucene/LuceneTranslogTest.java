package dev.reverie.store.lucene;

import dev.reverie.ContextManager;
import dev.reverie.Embedding;
import dev.reverie.Memory;
import dev.reverie.MemoryEvent;
import dev.reverie.MemoryEventType;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryKind;
import dev.reverie.ObservationFilter;
import dev.reverie.Scope;
import dev.reverie.StyleProfile;
import dev.reverie.Turn;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.SessionSummary;
import dev.reverie.spi.WriteBatch;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Lucene store's translog: an acknowledged write is in the fsynced log before it returns, and a
 * store opened on what a crash left on disk (simulated by copying the folder of a store that is still
 * open, so uncommitted segments held in RAM are not there) replays it. The kill -9 version runs in
 * the crash suite ({@code KillNineCrash}).
 */
class LuceneTranslogTest {

    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    private static final Scope ANA = Scope.of("clinic", "desk", "ana");

    @TempDir
    Path dir;

    @Test
    void every_acknowledged_write_survives_a_crash_through_the_translog() throws IOException {
        Path live = dir.resolve("live");
        Path crashed = dir.resolve("crashed");
        List<String> expected;
        try (LuceneMemoryStore store = openWithoutBackgroundCommits(live);
             ContextManager memory = ContextManager.builder().store(store)
                     .clock(Clock.fixed(T0, ZoneOffset.UTC)).build()) {
            writeEveryKind(store, memory);
            expected = state(store);
            assertThat(committedDocs(tenantFolder(live))).as("nothing but the claim was committed yet").isZero();
            copy(tenantFolder(live), tenantFolder(crashed));
        }
        try (LuceneMemoryStore reopened = LuceneMemoryStore.open(crashed)) {
            assertThat(state(reopened)).isEqualTo(expected);
        }
        // replayed once: a second open finds everything committed and an empty log
        try (LuceneMemoryStore again = LuceneMemoryStore.open(crashed)) {
            assertThat(state(again)).isEqualTo(expected);
            assertThat(translogFiles(tenantFolder(crashed))).singleElement()
                    .satisfies(p -> assertThat(Files.size(p)).isZero());
        }
    }

    @Test
    void replay_starts_after_the_last_commit_and_stops_at_a_torn_tail() throws IOException {
        Path live = dir.resolve("live");
        Path crashed = dir.resolve("crashed");
        Memory a = memory("m-a", "committed before the crash");
        Memory b = memory("m-b", "only in the translog");
        try (LuceneMemoryStore store = openWithoutBackgroundCommits(live)) {
            store.write(WriteBatch.of(ANA).put(a));
            store.commit();
            assertThat(translogFiles(tenantFolder(live))).singleElement()
                    .satisfies(p -> assertThat(Files.size(p)).as("a commit empties the log").isZero());
            store.write(WriteBatch.of(ANA).put(b));
            copy(tenantFolder(live), tenantFolder(crashed));
        }
        // a crash in the middle of an append leaves a torn entry, which was never acknowledged
        Path log = translogFiles(tenantFolder(crashed)).get(0);
        Files.write(log, new byte[] {0, 0, 1, 0, 42, 42, 42}, StandardOpenOption.APPEND);

        try (LuceneMemoryStore reopened = LuceneMemoryStore.open(crashed)) {
            assertThat(reopened.memory(ANA, "m-a")).contains(a);
            assertThat(reopened.memory(ANA, "m-b")).contains(b);
            Memory c = memory("m-c", "written after the recovery");
            reopened.write(WriteBatch.of(ANA).put(c));
        }
        try (LuceneMemoryStore again = LuceneMemoryStore.open(crashed)) {
            assertThat(again.memories(ANA, MemoryFilter.all())).extracting(Memory::id)
                    .containsExactlyInAnyOrder("m-a", "m-b", "m-c");
        }
    }

    @Test
    void recalls_before_a_commit_are_not_replayed_again_after_a_crash() throws IOException {
        Path live = dir.resolve("live");
        Path crashed = dir.resolve("crashed");
        Memory a = memory("m-a", "recalled on both sides of a commit");
        try (LuceneMemoryStore store = openWithoutBackgroundCommits(live)) {
            store.write(WriteBatch.of(ANA).put(a));
            store.write(WriteBatch.of(ANA).addRecalls("m-a", 1, T0.plusSeconds(1)));
            store.commit();
            store.write(WriteBatch.of(ANA).addRecalls("m-a", 2, T0.plusSeconds(2)));
            // two recall batches of one memory in one joint write: they add up
            store.writeEach(List.of(WriteBatch.of(ANA).addRecalls("m-a", 3, T0.plusSeconds(3)),
                    WriteBatch.of(ANA).addRecalls("m-a", 4, T0.plusSeconds(4))));
            store.write(WriteBatch.of(ANA).addRecalls("m-a", 5, T0.plusSeconds(5)));
            assertThat(store.memory(ANA, "m-a")).get().extracting(Memory::retrievalCount).isEqualTo(15);
            copy(tenantFolder(live), tenantFolder(crashed));
        }
        Memory expected = a.toBuilder().retrievalCount(15).lastRetrievedAt(T0.plusSeconds(5)).build();
        try (LuceneMemoryStore reopened = LuceneMemoryStore.open(crashed)) {
            assertThat(reopened.memory(ANA, "m-a")).contains(expected);
        }
        try (LuceneMemoryStore again = LuceneMemoryStore.open(crashed)) {
            assertThat(again.memory(ANA, "m-a")).contains(expected);
        }
    }

    @Test
    void commit_every_write_mode_keeps_no_translog() throws IOException {
        try (LuceneMemoryStore store = LuceneMemoryStore.builder(dir).commitEveryWrite().build()) {
            assertThat(store.describe()).endsWith("?commit=every");
            store.write(WriteBatch.of(ANA).put(memory("m-a", "durable by its own commit")));
            assertThat(committedDocs(store.tenantFolder(ANA.tenantId()))).isEqualTo(1);
            assertThat(translogFiles(store.tenantFolder(ANA.tenantId()))).isEmpty();
        }
    }

    /** Turns, observations and the archive through recordTurn, then every other kind of write. */
    private static void writeEveryKind(MemoryStore store, ContextManager memory) {
        memory.recordTurn(ANA, "s1", Turn.user("I'm allergic to penicillin. Please call me Ana Paula."),
                Turn.assistant("Noted, Ana Paula."));
        memory.recordTurn(ANA, "s1", Turn.user("I live in Recife and I work as a nurse."));
        Memory vector = memory("m-vec", "likes jazz").toBuilder()
                .embedding(Embedding.of(new float[] {0.5f, -1.25f, 3f})).build();
        Memory gone = memory("m-gone", "deleted later");
        store.write(WriteBatch.of(ANA).put(vector).put(gone)
                .append(new MemoryEvent("e1", ANA, "m-vec", MemoryEventType.CREATED, T0, null, "likes jazz", "test"))
                .put(new SessionSummary(ANA, "s1", "Ana Paula, allergic to penicillin", 1, T0))
                .put(new StyleProfile(ANA, "short", "formal", "en", false, "direct", "short and formal", 3, T0)));
        store.write(WriteBatch.of(ANA).deleteMemory("m-gone"));
        // the dream's status-only changes go through the log too
        String observation = store.observations(ANA, ObservationFilter.all()).get(0).id();
        store.write(WriteBatch.of(ANA)
                .setStatus(observation, dev.reverie.ObservationStatus.CONSOLIDATED, T0.plusSeconds(5))
                .setMemoryStatus("m-vec", dev.reverie.MemoryStatus.SUPERSEDED, "m-other", T0.plusSeconds(6)));
        assertThat(store.memory(ANA, "m-vec")).get().extracting(Memory::status)
                .isEqualTo(dev.reverie.MemoryStatus.SUPERSEDED);
        // recall statistics (doc values updated in place) go through the log as well
        store.write(WriteBatch.of(ANA).addRecalls("m-vec", 3, T0.plusSeconds(7)));
        store.write(WriteBatch.of(ANA).addRecalls("m-vec", 2, T0.plusSeconds(8)));
        assertThat(store.memory(ANA, "m-vec")).get().extracting(Memory::retrievalCount).isEqualTo(5);
    }

    private static List<String> state(MemoryStore s) {
        List<String> out = new ArrayList<>();
        s.memories(ANA, MemoryFilter.all()).forEach(m -> out.add(m + " " + m.embedding()));
        s.observations(ANA, ObservationFilter.all()).forEach(o -> out.add(o.toString()));
        for (String session : s.sessions(ANA)) {
            s.sessionTurns(ANA, session, 0, Integer.MAX_VALUE).forEach(t -> out.add("turn " + t));
            s.archivedTurns(ANA, session).forEach(t -> out.add("archived " + t));
            s.sessionSummary(ANA, session).ifPresent(x -> out.add(x.toString()));
        }
        s.history(ANA).forEach(e -> out.add(e.toString()));
        s.styleProfile(ANA).ifPresent(p -> out.add(p.toString()));
        assertThat(out).hasSizeGreaterThan(8);
        return out;
    }

    private static LuceneMemoryStore openWithoutBackgroundCommits(Path folder) {
        return LuceneMemoryStore.builder(folder).translogCommitInterval(java.time.Duration.ofMinutes(10)).build();
    }

    private static Memory memory(String id, String text) {
        return Memory.builder(id, ANA, MemoryKind.FACT, text, T0).subject("user.fact." + id).build();
    }

    private static Path tenantFolder(Path storeFolder) {
        return storeFolder.resolve(LuceneMemoryStore.folderName(ANA.tenantId()));
    }

    private static List<Path> translogFiles(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".tlog")).sorted().toList();
        }
    }

    private static int committedDocs(Path folder) throws IOException {
        try (Directory d = FSDirectory.open(folder)) {
            SegmentInfos.readLatestCommit(d);
            try (DirectoryReader reader = DirectoryReader.open(d)) {
                return reader.numDocs();
            }
        }
    }

    /** What is on disk now: the files of an open index, without what it holds in RAM. */
    static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path p : files.toList()) {
                Files.copy(p, to.resolve(p.getFileName().toString()));
            }
        }
    }
}
