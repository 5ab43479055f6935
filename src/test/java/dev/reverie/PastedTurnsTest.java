package dev.reverie;

import dev.reverie.internal.PastedContent;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The remembered answer is the reading's, for the same text, an equal text and texts that share a slot. */
class PastedTurnsTest {

    @Test
    void the_remembered_answer_is_always_the_readings() {
        String pasted = "Summarize this article: I moved to Nairobi last year.";
        String own = "I moved to Nairobi last year: it was a big change.";
        for (int round = 0; round < 2; round++) {
            assertThat(PastedTurns.pastes(pasted)).isTrue();
            assertThat(PastedTurns.pastes(new String(pasted))).isTrue();
            assertThat(PastedTurns.pastes(own)).isFalse();
        }
        // many texts, so slots are shared and overwritten: every answer still equals a fresh reading
        for (int i = 0; i < 3 * PastedTurns.SLOTS; i++) {
            String text = i % 3 == 0 ? "Translate this email:\n\nHi, I'm Tom " + i : "I walked " + i + " km today: nice.";
            assertThat(PastedTurns.pastes(text)).as(text).isEqualTo(PastedContent.pastes(text)).isEqualTo(i % 3 == 0);
        }
        String longOwn = "I live in Porto. ".repeat(PastedTurns.MAX_CACHED_CHARS / 17 + 1);
        assertThat(PastedTurns.pastes(longOwn)).isFalse();
        assertThat(PastedTurns.pastes("Summarize this article:\n" + longOwn)).isTrue();
    }

    @Test
    void two_texts_that_share_a_slot_are_both_remembered() {
        String a = "I moved to Nairobi last year, text a0.";
        String b = null;
        for (int i = 1; b == null; i++) {
            String candidate = "I moved to Nairobi last year, text a" + i + ".";
            if (PastedTurns.firstSlot(candidate) == PastedTurns.firstSlot(a)) {
                b = candidate;
            }
        }
        PastedTurns.pastes(a);
        PastedTurns.pastes(b);
        long before = PastedTurns.readings();
        for (int round = 0; round < 5; round++) {
            assertThat(PastedTurns.pastes(a)).isFalse();
            assertThat(PastedTurns.pastes(b)).isFalse();
        }
        assertThat(PastedTurns.readings()).isEqualTo(before);
    }
}
