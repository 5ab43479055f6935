package dev.reverie;

import dev.reverie.spi.TokenCounter;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The assembler's token-count cache: counts equal the counter's, each text counted once. */
class CachingTokenCounterTest {

    /** A counter that counts its calls: words, and a message overhead of its own. */
    private static final class CountingCounter implements TokenCounter {
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger messageCalls = new AtomicInteger();

        @Override
        public int count(String text) {
            calls.incrementAndGet();
            return text.isBlank() ? 0 : text.trim().split("\\s+").length;
        }

        @Override
        public int countMessage(String content) {
            messageCalls.incrementAndGet();
            return count(content) + 7;
        }
    }

    @Test
    void cached_counts_equal_the_counter_and_each_text_is_counted_once() {
        CountingCounter inner = new CountingCounter();
        TokenCounter cached = CachingTokenCounter.of(inner);
        List<String> texts = new ArrayList<>();
        Random random = new Random(7);
        for (int i = 0; i < 2_000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int w = 0, n = 1 + random.nextInt(30); w < n; w++) {
                sb.append("w").append(random.nextInt(500)).append(' ');
            }
            texts.add(sb.toString());
        }
        for (String t : texts) {
            assertThat(cached.count(t)).isEqualTo(inner.count(t));
        }
        int callsAfterFirstPass = inner.calls.get();
        for (String t : texts) {
            assertThat(cached.count(t)).isEqualTo(t.trim().split("\\s+").length);
        }
        // 2,000 texts in 131,072 slots: nearly all are answered from the cache the second time
        assertThat(inner.calls.get() - callsAfterFirstPass).isLessThan(100);
        assertThat(cached.messageOverhead()).isEqualTo(inner.messageOverhead());
    }

    @Test
    void a_message_count_is_the_counters_own_not_the_text_count_plus_a_guess() {
        CountingCounter inner = new CountingCounter();
        TokenCounter cached = CachingTokenCounter.of(inner);
        assertThat(cached.count("one two three")).isEqualTo(3);
        assertThat(cached.countMessage("one two three")).isEqualTo(10);
        assertThat(cached.countMessage("one two three")).isEqualTo(10);
        assertThat(inner.messageCalls.get()).isEqualTo(1);
        assertThat(CachingTokenCounter.of(cached)).isSameAs(cached);
    }
}
