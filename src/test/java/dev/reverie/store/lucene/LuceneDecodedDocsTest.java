package dev.reverie.store.lucene;

import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.Scope;
import dev.reverie.spi.Scored;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Search hits decoded once per segment and document ({@link DecodedDocs}) never show a stale
 * record: a record rewritten (new text, new status) is a new document, so the next search decodes
 * it afresh, and a repeated search returns the very records decoded before. Erasing an end user
 * empties the table, so no decoded record of theirs stays in memory. Real index in a temporary
 * folder; the table is shared by the JVM's stores, so each check looks at what this test wrote.
 */
class LuceneDecodedDocsTest {

    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");
    private static final Scope ANA = LuceneRefreshOnReadTest.ANA;
    private static final EnumSet<ObservationStatus> ANY = EnumSet.allOf(ObservationStatus.class);

    @TempDir
    Path dir;

    private LuceneMemoryStore store;

    @BeforeEach
    void open() {
        store = LuceneMemoryStore.builder(dir).build();
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static Observation observation(String id, String text) {
        return LuceneRefreshOnReadTest.observation(id, text);
    }

    private List<Observation> search(String text) {
        return store.searchObservations(ANA, text, ANY, 10).stream().map(Scored::item).toList();
    }

    @Test
    void a_rewritten_record_is_decoded_afresh_and_an_unchanged_one_is_reused() {
        Observation tea = observation("o1", "likes green tea");
        Observation coffee = observation("o2", "likes black coffee");
        store.write(WriteBatch.of(ANA).put(tea).put(coffee));

        List<Observation> first = search("likes");
        assertThat(first).containsExactlyInAnyOrder(tea, coffee);
        List<Observation> again = search("likes");
        // the same segment and documents: the very objects decoded by the first search
        assertThat(again).hasSize(2);
        for (Observation o : again) {
            assertThat(first).anySatisfy(f -> assertThat(f).isSameAs(o));
        }

        Observation rewritten = observation("o1", "likes green tea and jasmine");
        store.write(WriteBatch.of(ANA).put(rewritten));
        assertThat(search("likes")).containsExactlyInAnyOrder(rewritten, coffee);

        store.write(WriteBatch.of(ANA).setStatus("o2", ObservationStatus.CONSOLIDATED, T0));
        assertThat(search("coffee")).containsExactly(coffee.withStatus(ObservationStatus.CONSOLIDATED, T0));
        assertThat(search("jasmine")).containsExactly(rewritten);
    }

    @Test
    void erasing_an_end_user_forgets_every_decoded_record() {
        store.write(WriteBatch.of(ANA).put(observation("o1", "allergic to penicillin")));
        assertThat(search("penicillin")).hasSize(1);
        assertThat(DecodedDocs.held()).isPositive();

        store.erase(ANA);

        assertThat(DecodedDocs.held()).isZero();
        assertThat(search("penicillin")).isEmpty();
    }
}
