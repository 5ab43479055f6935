package dev.reverie.internal;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class IdsTest {

    @AfterEach
    void random_again() {
        Ids.reproducible(null);
    }

    private static List<String> draw(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(Ids.next(i % 2 == 0 ? "o" : "t"));
        }
        return out;
    }

    @Test
    void a_seed_gives_the_same_distinct_uuid_shaped_ids_every_time_and_none_gives_random_ones() {
        Ids.reproducible(42L);
        List<String> first = draw(1_000);
        Ids.reproducible(42L);
        assertThat(draw(1_000)).isEqualTo(first);
        assertThat(new HashSet<>(first)).hasSize(1_000);
        for (String id : first) {
            UUID u = UUID.fromString(id.substring(2));
            assertThat(u.version()).isEqualTo(4);
            assertThat(u.variant()).isEqualTo(2);
            assertThat(u.toString()).isEqualTo(id.substring(2));
        }
        assertThat(first.get(0)).startsWith("o-");
        assertThat(first.get(1)).startsWith("t-");

        Ids.reproducible(43L);
        assertThat(draw(1_000)).doesNotContainAnyElementsOf(first);
        Ids.reproducible(null);
        List<String> random = draw(1_000);
        Ids.reproducible(null);
        assertThat(draw(1_000)).doesNotContainAnyElementsOf(random).doesNotContainAnyElementsOf(first);
    }
}
