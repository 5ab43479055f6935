package dev.reverie;

import dev.reverie.spi.SessionTurn;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class RenderingDatesTest {

    private static final DateTimeFormatter ISO_DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    @Test
    void remembered_dates_are_what_the_formatter_writes_across_days_sharing_a_slot_and_day_edges() {
        List<Instant> instants = new ArrayList<>();
        Random random = new Random(18);
        for (int i = 0; i < 5_000; i++) {
            // seconds across ±3,000 years around the epoch, any nanosecond
            long seconds = (long) ((random.nextDouble() * 2 - 1) * 3_000L * 365 * 86_400);
            instants.add(Instant.ofEpochSecond(seconds, random.nextInt(1_000_000_000)));
        }
        for (long day : new long[] {-1, 0, 1, 255, 256, 257, 19_000, 19_256, -257}) {
            // a day's first and last nanosecond, and the days that share its slot
            instants.add(Instant.ofEpochSecond(day * 86_400));
            instants.add(Instant.ofEpochSecond(day * 86_400 + 86_399, 999_999_999));
            instants.add(Instant.ofEpochSecond((day + 256) * 86_400 + 5));
        }
        instants.add(Instant.parse("2023-05-08T13:56:00Z"));
        instants.add(Instant.parse("+12023-05-08T00:00:00Z"));
        // twice, in an order where neighbours alternate between slots' old and new days
        for (int round = 0; round < 2; round++) {
            for (Instant at : instants) {
                assertThat(Rendering.date(at)).as("%s", at).isEqualTo(ISO_DAY.format(at));
            }
        }
    }

    @Test
    void lines_carry_the_date_of_the_day_they_were_said_their_kind_marks_and_speaker() {
        Instant at = Instant.parse("2023-05-08T23:59:59.999Z");
        assertThat(Rendering.line(MemoryKind.FACT, "Ana lives in Porto", at, Provenance.ofTurn(Role.USER, "s1", "t1", at)))
                .isEqualTo("- [2023-05-08] (fact) Ana lives in Porto");
        assertThat(Rendering.line(MemoryKind.FACT, "Ana lives in Porto", at.plusMillis(1),
                Provenance.ofTurn(Role.USER, "s1", "t1", at))).startsWith("- [2023-05-09] ");
        Provenance tool = new Provenance(Source.TOOL, "s1", "t2", at, Outcome.UNKNOWN, Trust.THIRD_PARTY);
        assertThat(Rendering.line(MemoryKind.PREFERENCE, "likes <memory>tea</memory>\nat night", at, tool))
                .isEqualTo("- [2023-05-08] (preference) [third-party, unverified] likes ‹memory›tea‹/memory› at night");
        Scope ana = Scope.of("t", "a", "ana");
        SessionTurn said = new SessionTurn(ana, "s1", 4, "t4", Role.USER, "Ana", "I moved to\nPorto", at);
        assertThat(Rendering.episodeLine(said, true)).isEqualTo("- [2023-05-08] Ana: I moved to Porto");
        assertThat(Rendering.episodeLine(said, false)).isEqualTo("- Ana: I moved to Porto");
        SessionTurn fetched = new SessionTurn(ana, "s1", 5, "t5", Role.TOOL, "weather", "rain", at);
        assertThat(Rendering.episodeLine(fetched, true))
                .isEqualTo("- [2023-05-08] [third-party, unverified] tool weather: rain");
        SessionTurn nameless = new SessionTurn(ana, "s1", 6, "t6", Role.ASSISTANT, null, "Noted.", at);
        assertThat(Rendering.episodeLine(nameless, false)).isEqualTo("- assistant: Noted.");
        // a user's turn that pastes a text is somebody else's words, marked; the assistant's own draft is not
        SessionTurn pasting = new SessionTurn(ana, "s1", 7, "t7", Role.USER, "Ana",
                "Summarize this article: I moved to Nairobi last year.", at);
        assertThat(Rendering.episodeLine(pasting, false))
                .isEqualTo("- [third-party, unverified] Ana (pasting a text): Summarize this article: I moved to Nairobi"
                        + " last year.");
        SessionTurn draft = new SessionTurn(ana, "s1", 8, "t8", Role.ASSISTANT, null,
                "Here is the email we agreed on:\n\nDear Bob, the launch is on Friday.", at);
        assertThat(Rendering.episodeLine(draft, false))
                .isEqualTo("- assistant: Here is the email we agreed on:  Dear Bob, the launch is on Friday.");
    }
}
