package dev.reverie.spi;

import dev.reverie.Cardinality;
import dev.reverie.Memory;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStatus;
import dev.reverie.MemoryStoreException;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.Outcome;
import dev.reverie.Polarity;
import dev.reverie.Provenance;
import dev.reverie.Scope;
import dev.reverie.Source;
import dev.reverie.Trust;
import dev.reverie.internal.TenantNames;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Safety properties every file-backed store must have beyond the {@link MemoryStoreContract}:
 * tenants never share a file however their ids are chosen, a file moved under another tenant's name
 * is refused, an erased end user's text is gone from every file as soon as erase returns, hostile
 * admin filters fail clearly, and text that differs only in Unicode form or invisible characters
 * matches. Extend it with the store's opener and its tenant-to-file layout.
 */
public abstract class StoreSafetyContract {

    /** Opens (or reopens) a durable store whose data lives under {@code folder}. */
    protected abstract MemoryStore openStore(Path folder);

    /** The file or folder that holds {@code tenantId}'s data in {@code store}. */
    protected abstract Path tenantLocation(MemoryStore store, String tenantId);

    /** Moves everything of {@code from}'s location to where {@code to}'s data would live (the store is closed). */
    protected abstract void moveTenant(MemoryStore closedStore, String from, String to) throws IOException;

    /** Makes every acknowledged write durable now (stores with a group-commit mode override it). */
    protected void commitPending() {
    }

    @TempDir
    protected Path folder;
    protected MemoryStore store;

    protected static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    protected static final Scope ALICE = Scope.of("clinic-1", "receptionist", "alice");
    protected static final Scope BOB = Scope.of("clinic-1", "receptionist", "bob");

    private int ids;

    @BeforeEach
    void openIt() {
        store = openStore(folder);
    }

    @AfterEach
    void closeIt() {
        store.close();
    }

    protected Memory memory(Scope scope, String text) {
        String id = "m" + (++ids);
        return Memory.builder(id, scope, MemoryKind.FACT, text, T0.plusSeconds(ids)).subject("user.fact." + id)
                .provenance(new Provenance(Source.USER, "s1", "t" + id, T0, Outcome.UNKNOWN, Trust.FIRST_PARTY))
                .sourceTurnIds(List.of("t" + id)).build();
    }

    protected Observation observation(Scope scope, String text) {
        String id = "o" + (++ids);
        return new Observation(id, scope, MemoryKind.FACT, text, "user.fact." + id, text.toLowerCase(),
                Cardinality.MULTI, Polarity.POSITIVE, 0.8, T0.plusSeconds(ids), "s1",
                new Provenance(Source.USER, "s1", "t" + id, T0, Outcome.UNKNOWN, Trust.FIRST_PARTY),
                List.of("t" + id), 1, ObservationStatus.PENDING, null, null);
    }

    protected void put(Scope scope, Object... items) {
        WriteBatch b = WriteBatch.of(scope);
        for (Object item : items) {
            if (item instanceof Memory m) {
                b.put(m);
            } else {
                b.put((Observation) item);
            }
        }
        store.write(b);
    }

    protected List<String> texts(Scope scope, MemoryFilter filter) {
        return store.memories(scope, filter).stream().map(Memory::text).toList();
    }

    protected List<String> searchTexts(Scope scope, String query) {
        return store.searchMemories(scope, query, EnumSet.allOf(MemoryStatus.class), EnumSet.allOf(MemoryKind.class),
                10).stream().map(h -> h.item().text()).toList();
    }

    // ------------------------------------------------------------ tenant isolation

    @Test
    void tenants_whose_ids_collided_under_the_old_hashed_names_get_separate_files_and_data() {
        String longId = "A".repeat(70); // escapes to 210 characters, so its name is hashed
        String lookalike = "h-" + TenantNames.sha256(longId); // the id that once escaped to the same name
        Scope longTenant = Scope.of(longId, "receptionist", "alice");
        Scope lookalikeTenant = Scope.of(lookalike, "receptionist", "alice");

        put(longTenant, memory(longTenant, "long tenant keeps the ledger"));
        put(lookalikeTenant, memory(lookalikeTenant, "lookalike tenant keeps the keys"));

        assertThat(tenantLocation(store, longId)).isNotEqualTo(tenantLocation(store, lookalike));
        assertThat(texts(longTenant, MemoryFilter.all())).containsExactly("long tenant keeps the ledger");
        assertThat(texts(lookalikeTenant, MemoryFilter.all())).containsExactly("lookalike tenant keeps the keys");
        store.close();
        store = openStore(folder);
        assertThat(texts(longTenant, MemoryFilter.all())).containsExactly("long tenant keeps the ledger");
        assertThat(texts(lookalikeTenant, MemoryFilter.all())).containsExactly("lookalike tenant keeps the keys");
        assertThat(searchTexts(lookalikeTenant, "ledger")).isEmpty();
    }

    @Test
    void a_tenants_file_moved_under_another_tenants_name_is_refused_at_open() throws IOException {
        Scope acme = Scope.of("acme", "receptionist", "alice");
        Scope globex = Scope.of("globex", "receptionist", "alice");
        put(acme, memory(acme, "acme's private note"));
        store.close();
        moveTenant(store, "acme", "globex");

        store = openStore(folder);
        assertThatThrownBy(() -> store.memories(globex, MemoryFilter.all()))
                .isInstanceOf(MemoryStoreException.class)
                .hasMessageContaining("belongs to tenant 'acme'")
                .hasMessageContaining("not to tenant 'globex'");
        assertThatThrownBy(() -> store.write(WriteBatch.of(globex).put(memory(globex, "globex note"))))
                .isInstanceOf(MemoryStoreException.class)
                .hasMessageContaining("belongs to tenant 'acme'");
    }

    @Test
    void a_tenants_own_file_reopens() {
        Scope acme = Scope.of("acme", "receptionist", "alice");
        put(acme, memory(acme, "acme's private note"));
        store.close();
        store = openStore(folder);
        assertThat(texts(acme, MemoryFilter.all())).containsExactly("acme's private note");
    }

    // ------------------------------------------------------------ hostile admin filters

    @Test
    void a_text_filter_with_a_nul_character_is_refused_instead_of_matching_everything() {
        put(ALICE, memory(ALICE, "likes green tea"), memory(ALICE, "lives in Porto"));
        assertThatThrownBy(() -> store.memories(ALICE, MemoryFilter.all().withText("\u0000")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("textContains").hasMessageContaining("control characters")
                .hasMessageContaining("U+0000");
        assertThatThrownBy(() -> MemoryFilter.all().withText("tea\u0000"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at index 3");
    }

    @Test
    void a_huge_text_filter_is_refused_with_the_limit_and_the_longest_allowed_one_works() {
        put(ALICE, memory(ALICE, "likes green tea"));
        assertThatThrownBy(() -> store.memories(ALICE, MemoryFilter.all().withText("x".repeat(100_000))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("textContains").hasMessageContaining("at most 1000 characters")
                .hasMessageContaining("was 100000");
        // the longest allowed fragment, full of LIKE metacharacters and multi-byte text, is a plain miss
        String longest = "%_\\é".repeat(250);
        assertThat(longest).hasSize(1000);
        assertThat(store.memories(ALICE, MemoryFilter.all().withText(longest))).isEmpty();
        assertThat(texts(ALICE, MemoryFilter.all().withText("GREEN"))).containsExactly("likes green tea");
    }

    @Test
    void a_text_filter_ignores_case_beyond_ascii_the_same_way_on_every_store() {
        put(ALICE, memory(ALICE, "Mora em SÃO PAULO"), memory(ALICE, "Lives in Porto"));
        assertThat(texts(ALICE, MemoryFilter.all().withText("são paulo"))).containsExactly("Mora em SÃO PAULO");
        assertThat(texts(ALICE, MemoryFilter.all().withText("ÃO"))).containsExactly("Mora em SÃO PAULO");
        assertThat(texts(ALICE, MemoryFilter.all().withText("ão").page(1, 10))).isEmpty();
        assertThat(texts(ALICE, MemoryFilter.all().withText("porto"))).containsExactly("Lives in Porto");
    }

    // ------------------------------------------------------------ text normalisation

    @Test
    void composed_decomposed_and_zero_width_spellings_find_the_same_memory() {
        put(ALICE, memory(ALICE, "meets friends at the caf\u00e9 downtown"),
                memory(ALICE, "orders a cafe\u0301zinho every morning"),
                memory(ALICE, "ha\u200Bzel\uFEFFnut spread for breakfast"),
                memory(ALICE, "reads \u200Fshal\u200Dom\u200E books"));
        for (String query : List.of("caf\u00e9", "cafe\u0301", "ca\u200Bf\u00e9", "\uFEFFcafe", "\u200Fcaf\u00e9\u200E")) {
            assertThat(searchTexts(ALICE, query)).as(query).contains("meets friends at the caf\u00e9 downtown");
        }
        for (String query : List.of("cafezinho", "caf\u00e9zinho", "cafe\u0301zinho", "cafe\u200Dzinho")) {
            assertThat(searchTexts(ALICE, query)).as(query).containsExactly("orders a cafe\u0301zinho every morning");
        }
        for (String query : List.of("hazelnut", "hazel\u200Bnut", "\uFF48\uFF41\uFF5A\uFF45\uFF4C\uFF4E\uFF55\uFF54")) {
            assertThat(searchTexts(ALICE, query)).as(query).containsExactly("ha\u200Bzel\uFEFFnut spread for breakfast");
        }
        assertThat(searchTexts(ALICE, "shalom")).containsExactly("reads \u200Fshal\u200Dom\u200E books");
    }

    // ------------------------------------------------------------ erasure

    @Test
    void erase_leaves_no_byte_of_the_users_text_in_any_file_before_the_store_closes() throws IOException {
        List<String> aliceWords = List.of("zorbaxmemoryword", "quillonobservationword");
        List<String> bobWords = List.of("hoxtonmemoryword");
        put(ALICE, memory(ALICE, "alice keeps zorbaxmemoryword"), observation(ALICE, "alice said quillonobservationword"));
        put(ALICE, memory(ALICE, "another alice line"));
        put(BOB, memory(BOB, "bob keeps hoxtonmemoryword"));
        for (int i = 0; i < 25; i++) {
            // many small writes of both users, so segments get merged and hold both users' documents
            put(i % 2 == 0 ? ALICE : BOB, memory(i % 2 == 0 ? ALICE : BOB, "filler line number " + i));
        }
        commitPending();
        assertThat(filesContaining(aliceWords)).as("alice's words before the erase").isEqualTo(aliceWords);

        store.erase(ALICE);

        assertThat(filesContaining(aliceWords)).as("alice's words after the erase").isEmpty();
        assertThat(filesContaining(bobWords)).as("bob's words after the erase").isEqualTo(bobWords);
        assertThat(texts(BOB, MemoryFilter.all())).hasSize(13).contains("bob keeps hoxtonmemoryword");
        assertThat(texts(ALICE, MemoryFilter.all())).isEmpty();
    }

    /** The needles (in order) found in at least one file under the store folder. */
    protected List<String> filesContaining(List<String> needles) throws IOException {
        return FileScan.needlesIn(folder, needles);
    }
}
