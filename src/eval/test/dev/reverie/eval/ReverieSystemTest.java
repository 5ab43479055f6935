package dev.reverie.eval;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReverieSystemTest {

    private static LocomoData.Sample sample(String id) {
        Instant day1 = Instant.parse("2023-05-08T13:56:00Z");
        Instant day2 = Instant.parse("2023-06-19T10:04:00Z");
        return new LocomoData.Sample(id, "Ann", "Bob", List.of(
                new LocomoData.Session(1, "1:56 pm on 8 May, 2023", day1, List.of(
                        new LocomoData.DialogTurn("D1:1", 1, "Ann", "I adopted a puppy called Biscuit last week.", day1),
                        new LocomoData.DialogTurn("D1:2", 1, "Bob", "Lovely! I started learning the cello.", day1))),
                new LocomoData.Session(2, "10:04 am on 19 June, 2023", day2, List.of(
                        new LocomoData.DialogTurn("D2:1", 2, "Ann", "Biscuit chewed my running shoes.", day2)))),
                List.of());
    }

    @Test
    void contexts_stay_within_the_budget_and_carry_prompt_and_question(@TempDir Path out) {
        try (ReverieSystem system = new ReverieSystem("reverie-lexical-nodream", "sqlite",
                "sqlite:" + ReverieSystem.freshFolder(out, "reverie-lexical-nodream").toAbsolutePath(), null, false)) {
            system.ingest(sample("conv-a"));

            for (int budget : new int[] {128, 512, 2000}) {
                RetrievedContext context = system.context("What is the name of Ann's puppy?", budget);
                assertThat(context.tokens()).isBetween(1, budget);
                assertThat(context.text()).contains(TurnPacker.SYSTEM_PROMPT)
                        .contains("What is the name of Ann's puppy?");
            }
            assertThat(system.notes()).containsEntry("turnsRecorded", 3);
        }
    }

    @Test
    void the_dreaming_variant_dreams_after_each_session_and_stays_within_budget(@TempDir Path out) {
        try (ReverieSystem system = new ReverieSystem("reverie-lexical", "sqlite",
                "sqlite:" + ReverieSystem.freshFolder(out, "reverie-lexical").toAbsolutePath(), null, true)) {
            system.ingest(sample("conv-a"));

            RetrievedContext context = system.context("What is the name of Ann's puppy?", 512);

            assertThat(context.tokens()).isBetween(1, 512);
            assertThat(system.notes()).containsEntry("dreams", 2).containsKey("dreamCounters");
        }
    }

    @Test
    void freshFolder_empties_what_an_earlier_run_left(@TempDir Path out) throws Exception {
        Path first = ReverieSystem.freshFolder(out, "x");
        Files.writeString(first.resolve("old.db"), "stale");

        Path second = ReverieSystem.freshFolder(out, "x");

        assertThat(second).isEqualTo(first);
        try (var files = Files.list(second)) {
            assertThat(files).isEmpty();
        }
    }
}
