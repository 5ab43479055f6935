package dev.reverie.eval;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LocomoDataTest {

    private static final Set<String> TURNS = Set.of("D8:6", "D9:17", "D11:26", "D1:3");

    @Test
    void cleanEvidence_splits_fixes_and_drops_as_the_readme_says() {
        assertThat(LocomoData.cleanEvidence("D8:6; D9:17", TURNS)).containsExactly("D8:6", "D9:17");
        assertThat(LocomoData.cleanEvidence("D:11:26", TURNS)).containsExactly("D11:26");
        assertThat(LocomoData.cleanEvidence("D", TURNS)).isEmpty();
        assertThat(LocomoData.cleanEvidence("D10:19", TURNS)).isEmpty();
        assertThat(LocomoData.cleanEvidence(" D1:3 ", TURNS)).containsExactly("D1:3");
    }

    @Test
    void parseSessionDate_reads_lower_case_am_pm_as_utc() {
        assertThat(LocomoData.parseSessionDate("1:56 pm on 8 May, 2023", "test"))
                .isEqualTo(Instant.parse("2023-05-08T13:56:00Z"));
        assertThat(LocomoData.parseSessionDate("12:09 am on 13 September, 2023", "test"))
                .isEqualTo(Instant.parse("2023-09-13T00:09:00Z"));
    }

    @Test
    void parseSessionDate_names_the_place_and_the_value_when_it_fails() {
        assertThatThrownBy(() -> LocomoData.parseSessionDate("yesterday", "conv-1 session_2_date_time"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("conv-1 session_2_date_time")
                .hasMessageContaining("'yesterday'");
    }

    @Test
    void load_follows_session_lists_not_date_keys_and_appends_captions(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("tiny.json");
        Files.writeString(file, """
                [{"sample_id": "conv-x",
                  "conversation": {
                    "speaker_a": "Ann", "speaker_b": "Bob",
                    "session_1_date_time": "1:56 pm on 8 May, 2023",
                    "session_1": [
                      {"speaker": "Ann", "dia_id": "D1:2", "text": "Second."},
                      {"speaker": "Bob", "dia_id": "D1:1", "text": "First.", "blip_caption": "a photo of a cat"}],
                    "session_2_date_time": "10:04 am on 19 June, 2023",
                    "session_2": [{"speaker": "Ann", "dia_id": "D2:1", "text": "Later."}],
                    "session_3_date_time": "10:04 am on 20 June, 2023"},
                  "qa": [
                    {"question": "Q1?", "answer": 2022, "evidence": ["D1:1; D2:1", "D:1:2", "D"], "category": 1},
                    {"question": "Q2?", "adversarial_answer": "no", "evidence": [], "category": 5}],
                  "observation": {}, "session_summary": {}, "event_summary": {}}]
                """);

        List<LocomoData.Sample> samples = LocomoData.load(file);

        assertThat(samples).hasSize(1);
        LocomoData.Sample sample = samples.get(0);
        assertThat(sample.sessions()).hasSize(2);
        assertThat(sample.turns()).extracting(LocomoData.DialogTurn::diaId).containsExactly("D1:1", "D1:2", "D2:1");
        assertThat(sample.turns().get(0).text()).isEqualTo("First. [shares a photo of: a photo of a cat]");
        assertThat(sample.turns().get(2).at()).isEqualTo(Instant.parse("2023-06-19T10:04:00Z"));
        assertThat(sample.questions().get(0).evidence()).containsExactly("D1:1", "D2:1", "D1:2");
        assertThat(sample.questions().get(0).answer()).isEqualTo("2022");
        assertThat(sample.questions().get(1).usable()).isFalse();
    }

    @Test
    void load_names_the_missing_file() {
        Path missing = Path.of("no", "such", "locomo.json");
        assertThatThrownBy(() -> LocomoData.load(missing))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("LoCoMo data file not found")
                .hasMessageContaining(missing.toAbsolutePath().toString());
    }
}
