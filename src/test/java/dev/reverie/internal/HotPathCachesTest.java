package dev.reverie.internal;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class HotPathCachesTest {

    @Test
    void folding_ascii_text_takes_the_short_way_to_the_same_result() {
        for (String s : List.of("Hello World", "ALL CAPS 123", "mixed-Case_words!", "")) {
            assertThat(Terms.fold(s)).isEqualTo(s.toLowerCase(java.util.Locale.ROOT));
        }
        assertThat(Terms.fold("Crème Brûlée")).isEqualTo("creme brulee");
        assertThat(Terms.fold("zero\u200Bwidth ﬁne")).isEqualTo("zerowidth fine");
    }

    @Test
    void instants_parse_by_hand_exactly_as_the_iso_parser_reads_them() {
        Random random = new Random(3);
        for (int i = 0; i < 20_000; i++) {
            java.time.Instant t = java.time.Instant.ofEpochSecond(random.nextLong(-62_000_000_000L, 253_000_000_000L),
                    switch (i % 4) {
                        case 0 -> 0;
                        case 1 -> random.nextInt(1000) * 1_000_000;
                        case 2 -> random.nextInt(1_000_000) * 1_000;
                        default -> random.nextInt(1_000_000_000);
                    });
            String text = t.toString();
            assertThat(IsoInstants.parse(text)).as(text).isEqualTo(java.time.Instant.parse(text));
        }
        // what the hand parser does not take goes to the full parser (null here), never a wrong instant
        for (String other : List.of("2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z",
                "2026-01-01T00:00:60Z", "2026-01-01T00:00:00.Z", "2026-01-01T00:00:00.1234567890Z",
                "2026-01-01T00:00:00+01:00", "+12026-01-01T00:00:00Z", "2026-01-01 00:00:00Z", "2026-1-01T00:00:00Z",
                "")) {
            assertThat(IsoInstants.parse(other)).as(other).isNull();
        }
        assertThat(IsoInstants.parse("2024-02-29T23:59:59.5Z")).isEqualTo(java.time.Instant.parse("2024-02-29T23:59:59.5Z"));
    }

    @Test
    void stored_records_read_their_instants_as_before() {
        java.time.Instant at = java.time.Instant.parse("2026-03-01T09:00:00.123456Z");
        dev.reverie.spi.SessionTurn t = new dev.reverie.spi.SessionTurn(dev.reverie.Scope.of("t", "a", "u"), "s", 0, "t0",
                dev.reverie.Role.USER, null, "hello", at);
        assertThat(Json.read(Json.write(t), dev.reverie.spi.SessionTurn.class)).isEqualTo(t);
        // numeric timestamps (not written by Reverie, but readable before) still go to Jackson's parser
        assertThat(Json.read("\"2026-03-01T10:00:00+01:00\"", java.time.Instant.class))
                .isEqualTo(java.time.Instant.parse("2026-03-01T09:00:00Z"));
        assertThat(Json.read("1772355600", java.time.Instant.class))
                .isEqualTo(java.time.Instant.ofEpochSecond(1_772_355_600L));
    }

    @Test
    void decoded_records_equal_a_fresh_decoding_and_a_repeated_json_is_decoded_once() {
        dev.reverie.spi.SessionTurn turn = new dev.reverie.spi.SessionTurn(dev.reverie.Scope.of("t", "a", "u"), "s1", 3,
                "s1:t3", dev.reverie.Role.USER, "Ana", "We moved to Recife in May.",
                java.time.Instant.parse("2026-03-02T10:15:30.123Z"));
        String json = Json.write(turn);
        dev.reverie.spi.SessionTurn first = DecodedRecords.read(json, dev.reverie.spi.SessionTurn.class);
        assertThat(first).isEqualTo(turn).isEqualTo(Json.read(json, dev.reverie.spi.SessionTurn.class));
        // an equal JSON text that is another String object still hits, and gets the same record
        assertThat(DecodedRecords.read(new String(json.toCharArray()), dev.reverie.spi.SessionTurn.class))
                .isSameAs(first);
        // another text is decoded, never mistaken for the remembered one
        String other = Json.write(turn.withSeq(4));
        assertThat(DecodedRecords.read(other, dev.reverie.spi.SessionTurn.class).seq()).isEqualTo(4);
        // an erased scope's records are dropped: the next read decodes again
        DecodedRecords.forget(turn.scope());
        assertThat(DecodedRecords.read(json, dev.reverie.spi.SessionTurn.class)).isEqualTo(turn).isNotSameAs(first);
    }

    @Test
    void erasing_one_scope_keeps_the_decoded_turns_of_another() {
        java.time.Instant at = java.time.Instant.parse("2026-03-02T10:15:30Z");
        dev.reverie.spi.SessionTurn kept = new dev.reverie.spi.SessionTurn(dev.reverie.Scope.of("t", "a", "kept"), "s1",
                0, "s1:t0", dev.reverie.Role.USER, null, "The garden needs water on Fridays.", at);
        dev.reverie.spi.SessionTurn erased = new dev.reverie.spi.SessionTurn(dev.reverie.Scope.of("t", "a", "erased"),
                "s1", 0, "s1:t0", dev.reverie.Role.TOOL, null, "Forecast: rain on Friday.", at);
        String keptJson = Json.write(kept);
        String erasedJson = Json.write(erased);
        dev.reverie.spi.SessionTurn keptFirst = DecodedRecords.read(keptJson, dev.reverie.spi.SessionTurn.class);
        dev.reverie.spi.SessionTurn erasedFirst = DecodedRecords.read(erasedJson, dev.reverie.spi.SessionTurn.class);

        DecodedRecords.forget(erased.scope());

        // the erased scope's turn is decoded again; the other scope's stays remembered
        assertThat(DecodedRecords.read(erasedJson, dev.reverie.spi.SessionTurn.class)).isEqualTo(erased)
                .isNotSameAs(erasedFirst);
        assertThat(DecodedRecords.read(keptJson, dev.reverie.spi.SessionTurn.class)).isSameAs(keptFirst);
    }

    @Test
    void a_record_read_before_its_scopes_erasure_and_decoded_after_it_is_not_kept() {
        // a search read this row just before the erasure committed, and decodes it just after
        dev.reverie.spi.SessionTurn turn = new dev.reverie.spi.SessionTurn(dev.reverie.Scope.of("t", "a", "leaving"),
                "s1", 0, "s1:t0", dev.reverie.Role.USER, null, "My new address is 12 Rua Aurora.",
                java.time.Instant.parse("2026-03-02T10:15:30Z"));
        String json = Json.write(turn);
        DecodedRecords.forget(turn.scope());

        dev.reverie.spi.SessionTurn decoded = DecodedRecords.read(json, dev.reverie.spi.SessionTurn.class);

        assertThat(decoded).isEqualTo(turn); // the search still gets its record
        assertThat(DecodedRecords.holds(turn.scope())).isFalse(); // but the erased text is not kept
        assertThat(DecodedRecords.read(json, dev.reverie.spi.SessionTurn.class)).isNotSameAs(decoded);
        // another end user's records are kept as before
        dev.reverie.spi.SessionTurn other = new dev.reverie.spi.SessionTurn(dev.reverie.Scope.of("t", "a", "staying"),
                "s1", 0, "s1:t0", dev.reverie.Role.USER, null, "I still live in Recife.", turn.at());
        String otherJson = Json.write(other);
        dev.reverie.spi.SessionTurn first = DecodedRecords.read(otherJson, dev.reverie.spi.SessionTurn.class);
        assertThat(DecodedRecords.holds(other.scope())).isTrue();
        assertThat(DecodedRecords.read(otherJson, dev.reverie.spi.SessionTurn.class)).isSameAs(first);
    }

    @Test
    void decoded_record_slots_spread_like_random_ones_and_every_char_of_a_short_record_moves_the_slot() {
        // 4,096 texts shaped like stored records, differing in a few chars of id and text
        java.util.Set<Integer> slots = new java.util.HashSet<>();
        String base = "{\"id\":\"%08d\",\"scope\":{\"tenantId\":\"clinic-1\"},\"text\":\"%s\",\"at\":\"2026-01-01\"}";
        for (int i = 0; i < DecodedRecords.SLOTS; i++) {
            slots.add(DecodedRecords.slot(base.formatted(i, "note " + (i * 7919 % 10_007))));
        }
        // uniform slots would fill 1 - 1/e = 63 % of the table
        assertThat(slots.size()).isGreaterThan(DecodedRecords.SLOTS * 58 / 100);
        // a record this short is hashed whole: a change of one char at any position reaches the slot
        String text = base.formatted(42, "the same words");
        int moved = 0;
        for (int i = 0; i < text.length(); i++) {
            char[] chars = text.toCharArray();
            chars[i] ^= 1;
            moved += DecodedRecords.slot(new String(chars)) != DecodedRecords.slot(text) ? 1 : 0;
        }
        assertThat(moved).isGreaterThan(text.length() * 95 / 100);
    }

    @Test
    void long_records_spread_by_their_sample_and_their_ids_and_times_move_the_slot() {
        // 4,096 records of ~1 KiB: one user's scope, ids and times differ, texts of one length differ
        String filler = "x".repeat(900);
        java.util.Set<Integer> slots = new java.util.HashSet<>();
        String base = "{\"id\":\"m-%08d\",\"scope\":{\"tenantId\":\"clinic-1\"},\"text\":\"%s\",\"at\":\"%s\"}";
        for (int i = 0; i < DecodedRecords.SLOTS; i++) {
            String text = (Integer.toString(i * 7919 % 10_007, 36) + filler).substring(0, 900);
            slots.add(DecodedRecords.slot(base.formatted(i, text, "2026-01-01T00:00:00Z")));
        }
        assertThat(slots.size()).isGreaterThan(DecodedRecords.SLOTS * 58 / 100);
        // the same text under another id, or said at another time, takes another slot
        String text = "the same words ".repeat(60);
        String one = base.formatted(1, text, "2026-01-01T00:00:00Z");
        int movedById = 0;
        int movedByTime = 0;
        for (int i = 2; i < 202; i++) {
            movedById += DecodedRecords.slot(base.formatted(i, text, "2026-01-01T00:00:00Z")) != DecodedRecords.slot(one)
                    ? 1 : 0;
            movedByTime += DecodedRecords.slot(base.formatted(1, text, "2026-01-01T00:%02d:%02dZ".formatted(i / 60, i % 60)))
                    != DecodedRecords.slot(one) ? 1 : 0;
        }
        assertThat(movedById).isGreaterThan(190);
        assertThat(movedByTime).isGreaterThan(190);
    }
}
