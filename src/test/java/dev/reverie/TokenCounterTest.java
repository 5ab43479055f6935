package dev.reverie;

import dev.reverie.spi.TokenCounter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TokenCounterTest {

    private final TokenCounter counter = TokenCounter.o200k();

    @Test
    void o200k_counts_match_the_reference_tokenizer() {
        // reference counts from tiktoken's o200k_base
        assertThat(counter.count("hello world")).isEqualTo(2);
        assertThat(counter.count("Hello, world!")).isEqualTo(4);
        assertThat(counter.count("")).isZero();
        assertThat(counter.countMessage("hello world")).isEqualTo(2 + counter.messageOverhead());
    }

    @Test
    void longer_text_costs_more_tokens() {
        assertThat(counter.count("Please call me Dra. Marina. I'm allergic to dipyrone."))
                .isGreaterThan(counter.count("Please call me Dra. Marina."));
    }
}
