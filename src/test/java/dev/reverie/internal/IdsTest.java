package dev.reverie.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class IdsTest {

    private static List<String> draw(Ids ids, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(ids.next(i % 2 == 0 ? "o" : "t"));
        }
        return out;
    }

    @Test
    void a_seed_gives_the_same_distinct_uuid_shaped_ids_every_time_and_random_ones_never_repeat() {
        List<String> first = draw(Ids.seeded(42), 1_000);
        assertThat(draw(Ids.seeded(42), 1_000)).isEqualTo(first);
        assertThat(new HashSet<>(first)).hasSize(1_000);
        for (String id : first) {
            UUID u = UUID.fromString(id.substring(2));
            assertThat(u.version()).isEqualTo(4);
            assertThat(u.variant()).isEqualTo(2);
            assertThat(u.toString()).isEqualTo(id.substring(2));
        }
        assertThat(first.get(0)).startsWith("o-");
        assertThat(first.get(1)).startsWith("t-");

        assertThat(draw(Ids.seeded(43), 1_000)).doesNotContainAnyElementsOf(first);
        // two seeded sources drawn in turns each give their own sequence: no state is shared
        Ids a = Ids.seeded(42);
        Ids b = Ids.seeded(43);
        List<String> fromA = new ArrayList<>();
        List<String> fromB = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            fromA.add(a.next(i % 2 == 0 ? "o" : "t"));
            fromB.add(b.next(i % 2 == 0 ? "o" : "t"));
        }
        assertThat(fromA).isEqualTo(first.subList(0, 500));
        assertThat(fromB).isEqualTo(draw(Ids.seeded(43), 500));
        List<String> random = draw(Ids.random(), 1_000);
        assertThat(random).doesNotContainAnyElementsOf(first);
        assertThat(draw(Ids.random(), 1_000)).doesNotContainAnyElementsOf(random);
        assertThat(UUID.fromString(random.get(0).substring(2)).version()).isEqualTo(4);
    }
}
