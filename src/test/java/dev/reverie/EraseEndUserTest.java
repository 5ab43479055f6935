package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.SessionSummary;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static dev.reverie.GovernanceFixtures.T0;
import static dev.reverie.GovernanceFixtures.memory;
import static dev.reverie.GovernanceFixtures.observation;
import static dev.reverie.GovernanceFixtures.put;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * eraseEndUser leaves no trace on disk: every file of the SQLite store (database, -wal, -shm) is
 * searched byte by byte for the erased user's unique strings, while another user's strings are
 * still found in the same files, which shows the search works.
 */
class EraseEndUserTest {

    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice-qv7k2");
    static final Scope BOB = Scope.of("clinic-42", "receptionist", "bob-wm3x9");

    /** Each string is unique to one place its user's data lives; lower-case words so they also reach the FTS index as is. */
    static final List<String> ALICE_STRINGS = List.of("alice-qv7k2", "zorbaxturn", "quillonarchive",
            "vexlumobservation", "plimzatmemory", "drobnikedited", "krastolsummary", "yuvenstyle", "mordahistory");
    static final List<String> BOB_STRINGS = List.of("bob-wm3x9", "brambleturn", "hoxtonobservation",
            "zimmelmemory", "ravelstyle");

    @TempDir
    Path dir;
    MemoryStore store;
    ContextManager memory;

    @BeforeEach
    void setUp() {
        open();
        memory.recordTurn(ALICE, "s1", Turn.user("my code word is zorbaxturn"),
                Turn.assistant("stored quillonarchive for you"));
        put(store, ALICE, observation(ALICE, "o1", "alice said vexlumobservation", "t1", T0),
                memory(ALICE, "m1", "alice keeps plimzatmemory", List.of("t1"), T0),
                new SessionSummary(ALICE, "s1", "summary mentions krastolsummary", 1, T0),
                new StyleProfile(ALICE, "short", "informal", "en", false, "direct", "writes like yuvenstyle", 3, T0));
        Memory added = memory.admin().remember(ALICE, MemoryDraft.of(MemoryKind.FACT, "first mordahistory")).get(0);
        memory.admin().edit(ALICE, added.id(), "now drobnikedited");

        memory.recordTurn(BOB, "s1", Turn.user("bob says brambleturn"));
        put(store, BOB, observation(BOB, "o1", "bob said hoxtonobservation", "t1", T0),
                memory(BOB, "m1", "bob keeps zimmelmemory", List.of("t1"), T0),
                new StyleProfile(BOB, "long", "formal", "en", false, "elaborate", "writes like ravelstyle", 2, T0));
        memory.flush();
    }

    void open() {
        store = MemoryStores.open("sqlite:" + dir);
        memory = ContextManager.builder().store(store).clock(new MutableClock(T0)).build();
    }

    @AfterEach
    void tearDown() {
        memory.close();
        store.close();
    }

    @Test
    void erase_leaves_none_of_the_users_strings_in_any_file_while_another_users_remain() throws IOException {
        // the search finds both users' strings before the erase (in the database or its WAL)
        memory.close();
        store.close();
        assertThat(filesContaining(ALICE_STRINGS)).as("alice's strings before erase").isEqualTo(ALICE_STRINGS);
        open();

        memory.admin().eraseEndUser(ALICE);
        memory.close();
        store.close();

        List<Path> files = storeFiles();
        assertThat(files).isNotEmpty();
        assertThat(files.stream().map(p -> p.getFileName().toString())).allMatch(n -> n.startsWith("tenant-"));
        assertThat(filesContaining(ALICE_STRINGS)).as("alice's strings after erase").isEmpty();
        assertThat(filesContaining(BOB_STRINGS)).as("bob's strings after erase").isEqualTo(BOB_STRINGS);

        open();
        assertThat(store.endUsers("clinic-42", "receptionist")).containsExactly(BOB);
        assertThat(memory.admin().memories(ALICE, MemoryFilter.all())).isEmpty();
        assertThat(memory.admin().observations(ALICE)).isEmpty();
        assertThat(memory.admin().sessions(ALICE)).isEmpty();
        assertThat(memory.admin().styleProfile(ALICE)).isEmpty();
        assertThat(store.history(ALICE)).isEmpty();
        assertThat(store.searchMemories(ALICE, "plimzatmemory", java.util.EnumSet.allOf(MemoryStatus.class),
                java.util.EnumSet.allOf(MemoryKind.class), 10)).isEmpty();
        assertThat(memory.admin().memories(BOB)).extracting(Memory::text).containsExactly("bob keeps zimmelmemory");
    }

    @Test
    void erase_leaves_no_trace_when_each_index_was_merged_into_one_segment() throws Exception {
        // the FTS5 indexes are contentless: a deletion is a tombstone kept with the segment that holds the
        // entry, so with one segment per index nothing but the erase's own merge rewrites that segment
        store.maintain("clinic-42");
        for (String index : List.of("memories_fts", "observations_fts", "archive_fts")) {
            assertThat(segments(index)).as(index + " merged").isEqualTo(1);
        }
        store.write(dev.reverie.spi.WriteBatch.of(ALICE).deleteObservation("o1"));
        assertThat(tombstonePages("observations_fts")).as("a deletion is a tombstone").isPositive();
        memory.admin().eraseEndUser(ALICE);
        memory.close();
        store.close();
        // the files first (a connection opened afterwards may checkpoint the log away)
        assertThat(filesContaining(ALICE_STRINGS)).as("alice's strings after erase").isEmpty();
        assertThat(filesContaining(BOB_STRINGS)).as("bob's strings after erase").isEqualTo(BOB_STRINGS);
        for (String index : List.of("memories_fts", "observations_fts", "archive_fts")) {
            assertThat(tombstonePages(index)).as(index + ": merged away with what they marked").isZero();
        }
        open();
        assertThat(store.searchTurns(BOB, "brambleturn", 5)).hasSize(1);
        assertThat(store.searchTurns(ALICE, "zorbaxturn", 5)).isEmpty();
    }

    @Test
    void erase_waits_for_pending_archive_writes_so_none_lands_afterwards() throws IOException {
        memory.recordTurn(ALICE, "s2", Turn.user("late archive line glarvintail"));
        memory.admin().eraseEndUser(ALICE);
        memory.flush();
        assertThat(memory.admin().conversation(ALICE, "s2")).isEmpty();
        memory.close();
        store.close();
        assertThat(filesContaining(List.of("glarvintail"))).isEmpty();
    }

    /**
     * The tombstone pages of an FTS5 index: rows of its {@code _data} table from id 2^53 on (FTS5 keys
     * them by segment id plus 2^16, shifted 37 bits), which mark entries deleted but not yet merged out.
     */
    private long tombstonePages(String index) throws java.sql.SQLException {
        return count("SELECT count(*) FROM " + index + "_data WHERE id >= (1 << 53)");
    }

    /** The segments of an FTS5 index (the distinct segment ids of its term index). */
    private long segments(String index) throws java.sql.SQLException {
        return count("SELECT count(DISTINCT segid) FROM " + index + "_idx");
    }

    private long count(String sql) throws java.sql.SQLException {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:"
                + dir.resolve("tenant-clinic-42.db"));
             java.sql.Statement st = c.createStatement(); java.sql.ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private List<Path> storeFiles() throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).toList();
        }
    }

    /** The strings (in the given order) that occur in at least one file of the store folder. */
    private List<String> filesContaining(List<String> needles) throws IOException {
        return dev.reverie.spi.FileScan.needlesIn(dir, needles);
    }
}
