package dev.reverie.eval;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class EvalOptionsTest {

    @Test
    void defaults_tune_on_three_conversations_and_run_every_sample() {
        EvalOptions options = EvalOptions.parse(new String[] {"--data", "x.json"});

        assertThat(options.tuneSamples()).containsExactlyInAnyOrder("conv-26", "conv-30", "conv-41");
        assertThat(options.samples()).isEmpty();
        assertThat(options.contexts()).isNull();
    }

    @Test
    void samples_split_and_contexts_are_parsed() {
        EvalOptions options = EvalOptions.parse(new String[] {"--data", "x.json", "--samples", "conv-26, conv-30",
                "--split", "tune=conv-30", "--contexts", "out/c.jsonl"});

        assertThat(options.samples()).isEqualTo(Set.of("conv-26", "conv-30"));
        assertThat(options.tuneSamples()).isEqualTo(Set.of("conv-30"));
        assertThat(options.contexts()).isEqualTo(Path.of("out/c.jsonl"));
    }

    @Test
    void a_split_without_tune_is_refused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> EvalOptions.parse(new String[] {"--data", "x.json", "--split", "conv-26"}))
                .withMessageContaining("--split must be tune=");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> EvalOptions.parse(new String[] {"--data", "x.json", "--samples", ","}))
                .withMessageContaining("--samples needs at least one sample id");
    }

    @Test
    void the_store_is_sqlite_lucene_or_postgresql() {
        assertThat(EvalOptions.parse(new String[] {"--data", "x.json"}).store()).isEqualTo("sqlite");
        assertThat(EvalOptions.parse(new String[] {"--data", "x.json", "--store", " PostgreSQL"}).store())
                .isEqualTo("postgresql");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> EvalOptions.parse(new String[] {"--data", "x.json", "--store", "mysql"}))
                .withMessageContaining("--store must be sqlite, lucene or postgresql").withMessageContaining("mysql");
    }

    @Test
    void the_prompt_and_the_question_are_not_context() {
        String question = "What did Melanie paint?";
        String context = TurnPacker.SYSTEM_PROMPT + "\n[8 May 2023] Melanie: a lake\n" + question;

        assertThat(LocomoEval.withoutPromptAndQuestion(context, question).strip())
                .isEqualTo("[8 May 2023] Melanie: a lake");
    }
}
