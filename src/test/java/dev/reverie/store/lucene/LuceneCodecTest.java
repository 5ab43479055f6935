package dev.reverie.store.lucene;

import dev.reverie.Memory;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStatus;
import dev.reverie.Scope;
import dev.reverie.spi.WriteBatch;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Lucene store writes its segments with {@link ReverieCodec} (stored fields in smaller chunks),
 * finds it by the name written in them, and still reads, updates and erases an index that Lucene's
 * default codec wrote (every index of an earlier Reverie version), rewriting its segments with the
 * new codec as they merge.
 */
class LuceneCodecTest {

    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    private static final Scope ANA = Scope.of("clinic", "desk", "ana");
    private static final Scope BIA = Scope.of("clinic", "desk", "bia");
    /** Enough records of a few hundred bytes for several stored-field chunks of either codec. */
    private static final int RECORDS = 400;

    @TempDir
    Path dir;

    @Test
    void the_codec_is_found_by_the_name_it_writes() {
        assertThat(Codec.forName(ReverieCodec.NAME)).isInstanceOf(ReverieCodec.class);
        assertThat(Codec.forName(ReverieCodec.NAME).storedFieldsFormat().toString())
                .contains("chunkSize=" + ReverieCodec.CHUNK_BYTES).contains("maxDocsPerChunk=" + ReverieCodec.CHUNK_DOCS);
        assertThat(ReverieCodec.find()).isSameAs(Codec.forName(ReverieCodec.NAME));
    }

    @Test
    void new_segments_are_written_with_the_reverie_codec_and_read_back() throws IOException {
        Path folder = dir.resolve("new");
        List<Memory> written = fill(folder, List.of(ANA)).get(0);
        assertThat(codecs(tenantFolder(folder))).isNotEmpty().containsOnly(ReverieCodec.NAME);
        try (LuceneMemoryStore store = LuceneMemoryStore.open(folder)) {
            assertThat(store.memories(ANA, MemoryFilter.all().page(0, 10_000))).containsExactlyElementsOf(written);
            // search hits are decoded from the stored fields too
            assertThat(store.searchMemories(ANA, "appointment medication", EnumSet.allOf(MemoryStatus.class),
                    EnumSet.allOf(MemoryKind.class), 100)).hasSize(100)
                    .allSatisfy(hit -> assertThat(written).contains(hit.item()));
        }
    }

    @Test
    void an_index_of_the_default_codec_is_read_updated_and_erased_and_rewritten_as_it_merges() throws IOException {
        Path current = dir.resolve("current");
        List<List<Memory>> both = fill(current, List.of(ANA, BIA));
        List<Memory> ana = both.get(0);
        List<Memory> bia = both.get(1);
        Path earlier = dir.resolve("earlier");
        rewriteWithDefaultCodec(tenantFolder(current), tenantFolder(earlier));
        assertThat(codecs(tenantFolder(earlier))).containsExactly("Lucene912");

        Memory added = memory(ANA, 9_999, "written after the upgrade");
        try (LuceneMemoryStore store = LuceneMemoryStore.builder(earlier).translogCommitInterval(Duration.ofHours(1)).build()) {
            assertThat(store.memories(ANA, MemoryFilter.all().page(0, 10_000))).containsExactlyElementsOf(ana);
            assertThat(store.memories(BIA, MemoryFilter.all().page(0, 10_000))).containsExactlyElementsOf(bia);
            store.write(WriteBatch.of(ANA).put(added));
            store.write(WriteBatch.of(BIA).put(memory(BIA, 9_998, "Bia, after the upgrade")));
            store.commit(); // a segment of the new codec beside the old one, both holding Bia
            assertThat(codecs(tenantFolder(earlier))).containsExactlyInAnyOrder("Lucene912", ReverieCodec.NAME);
            store.erase(BIA);
            assertThat(store.memories(BIA, MemoryFilter.all())).isEmpty();
            assertThat(store.memories(ANA, MemoryFilter.all().page(0, 10_000))).hasSize(RECORDS + 1);
        }
        List<Memory> expected = new ArrayList<>(ana);
        expected.add(added);
        // the erasure rewrote both segments (each held some of Bia's records): nothing of the old codec is left
        assertThat(codecs(tenantFolder(earlier))).isNotEmpty().containsOnly(ReverieCodec.NAME);
        try (LuceneMemoryStore store = LuceneMemoryStore.open(earlier)) {
            assertThat(store.memories(ANA, MemoryFilter.all().page(0, 10_000))).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(store.memories(BIA, MemoryFilter.all())).isEmpty();
        }
    }

    /**
     * Writes {@value #RECORDS} memories of each scope in a few batches, the scopes' batches in turn (so
     * every segment holds records of each), and closes the store; returns each scope's memories as stored.
     */
    private static List<List<Memory>> fill(Path folder, List<Scope> scopes) {
        // no background commit (it could cut a segment between two scopes' batches)
        try (LuceneMemoryStore store = LuceneMemoryStore.builder(folder).translogCommitInterval(Duration.ofHours(1)).build()) {
            for (int batch = 0; batch < 4; batch++) {
                for (int s = 0; s < scopes.size(); s++) {
                    Scope scope = scopes.get(s);
                    WriteBatch b = WriteBatch.of(scope);
                    for (int i = 0; i < RECORDS / 4; i++) {
                        int n = batch * (RECORDS / 4) + i;
                        b.put(memory(scope, s * RECORDS + n, "record " + n + " of " + scope.endUserId()
                                + ": the patient asked about the appointment on the " + (n % 28 + 1)
                                + "th and mentioned a note about medication number " + (n * 7919 % 1000)));
                    }
                    store.write(b);
                }
            }
            List<List<Memory>> out = new ArrayList<>();
            for (Scope scope : scopes) {
                List<Memory> stored = store.memories(scope, MemoryFilter.all().page(0, 10_000));
                assertThat(stored).hasSize(RECORDS);
                out.add(stored);
            }
            return out;
        }
    }

    private static Memory memory(Scope scope, int n, String text) {
        return Memory.builder(String.format("m-%04d", n), scope, MemoryKind.FACT, text, T0.plusSeconds(n))
                .subject("user.note." + n).build();
    }

    /**
     * What an earlier Reverie version left in a tenant folder: the same documents and commit data in
     * one segment written by Lucene's default codec.
     */
    private static void rewriteWithDefaultCodec(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Directory in = FSDirectory.open(from); Directory out = FSDirectory.open(to);
             DirectoryReader reader = DirectoryReader.open(in)) {
            Map<String, String> commitData = reader.getIndexCommit().getUserData();
            IndexWriterConfig config = new IndexWriterConfig().setCodec(Codec.forName("Lucene912"))
                    .setMergePolicy(NoMergePolicy.INSTANCE);
            try (IndexWriter writer = new IndexWriter(out, config)) {
                writer.addIndexes(reader.leaves().stream().map(l -> (CodecReader) l.reader()).toArray(CodecReader[]::new));
                writer.setLiveCommitData(commitData.entrySet());
                writer.commit();
            }
        }
        try (Stream<Path> files = Files.list(from)) {
            for (Path p : files.filter(p -> p.getFileName().toString().endsWith(".tlog")).toList()) {
                Files.copy(p, to.resolve(p.getFileName()));
            }
        }
    }

    private static List<String> codecs(Path tenantFolder) throws IOException {
        try (Directory d = FSDirectory.open(tenantFolder)) {
            List<String> out = new ArrayList<>();
            for (SegmentCommitInfo info : SegmentInfos.readLatestCommit(d)) {
                out.add(info.info.getCodec().getName());
            }
            return out;
        }
    }

    private static Path tenantFolder(Path storeFolder) {
        return storeFolder.resolve(LuceneMemoryStore.folderName(ANA.tenantId()));
    }
}
