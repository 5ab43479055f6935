package dev.reverie.eval;

import dev.reverie.spi.TokenCounter;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class TurnPackerTest {

    private final TokenCounter counter = TokenCounter.o200k();
    private final TurnPacker packer = new TurnPacker(counter);

    private List<TurnPacker.PackableTurn> turns(long seed, int count) {
        Random random = new Random(seed);
        List<LocomoData.DialogTurn> dialog = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            StringBuilder text = new StringBuilder();
            for (int w = 0, n = 1 + random.nextInt(80); w < n; w++) {
                text.append("word").append(random.nextInt(500)).append(' ');
            }
            dialog.add(new LocomoData.DialogTurn("D1:" + i, 1, i % 2 == 0 ? "Ann" : "Bob", text.toString().strip(),
                    Instant.parse("2023-05-08T13:56:00Z")));
        }
        return packer.prepare(new LocomoData.Sample("s", "Ann", "Bob",
                List.of(new LocomoData.Session(1, "1:56 pm on 8 May, 2023", Instant.parse("2023-05-08T13:56:00Z"),
                        dialog)), List.of()));
    }

    @Test
    void render_shows_the_day_the_speaker_and_the_text() {
        LocomoData.DialogTurn turn = new LocomoData.DialogTurn("D1:1", 1, "Caroline", "Hi!",
                Instant.parse("2023-05-08T13:56:00Z"));
        assertThat(TurnPacker.render(turn)).isEqualTo("[8 May 2023] Caroline: Hi!");
    }

    @Test
    void packed_contexts_never_exceed_the_budget_and_count_every_message() {
        for (long seed = 1; seed <= 20; seed++) {
            List<TurnPacker.PackableTurn> turns = turns(seed, 60);
            List<TurnPacker.Ranked> ranked = new ArrayList<>();
            turns.forEach(t -> ranked.add(new TurnPacker.Ranked(t, 0)));
            java.util.Collections.shuffle(ranked, new Random(seed));
            for (int budget : new int[] {128, 300, 512, 2000}) {
                RetrievedContext skip = packer.pack("What did Ann do?", budget, ranked, false);
                RetrievedContext stop = packer.pack("What did Ann do?", budget, ranked, true);
                assertThat(skip.tokens()).isLessThanOrEqualTo(budget);
                assertThat(stop.tokens()).isLessThanOrEqualTo(budget);
                assertThat(skip.recalled().size()).isGreaterThanOrEqualTo(stop.recalled().size());
                int expected = counter.countMessage(TurnPacker.SYSTEM_PROMPT) + counter.countMessage("What did Ann do?");
                for (RetrievedContext.Recalled item : skip.recalled()) {
                    expected += counter.countMessage(item.text());
                }
                assertThat(skip.tokens()).isEqualTo(expected);
            }
        }
    }

    @Test
    void packed_turns_appear_in_conversation_order_whatever_their_rank() {
        List<TurnPacker.PackableTurn> turns = turns(7, 5);
        List<TurnPacker.Ranked> ranked = List.of(new TurnPacker.Ranked(turns.get(3), 3),
                new TurnPacker.Ranked(turns.get(0), 2), new TurnPacker.Ranked(turns.get(2), 1));

        RetrievedContext context = packer.pack("q", 100_000, ranked, false);

        String text = context.text();
        assertThat(text.indexOf(turns.get(0).rendered())).isLessThan(text.indexOf(turns.get(2).rendered()));
        assertThat(text.indexOf(turns.get(2).rendered())).isLessThan(text.indexOf(turns.get(3).rendered()));
        assertThat(context.recalled()).extracting(RetrievedContext.Recalled::label)
                .containsExactly("D1:4", "D1:1", "D1:3");
    }

    @Test
    void percentile_is_nearest_rank() {
        long[] values = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(Scoreboard.percentile(values, 0.5)).isEqualTo(5);
        assertThat(Scoreboard.percentile(values, 0.99)).isEqualTo(10);
        assertThat(Scoreboard.percentile(new long[0], 0.5)).isZero();
    }
}
