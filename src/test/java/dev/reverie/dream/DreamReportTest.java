package dev.reverie.dream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The report's JSON form and arithmetic. */
class DreamReportTest {

    private static final DreamReport SAMPLE = new DreamReport(10, 4, 7, 3, 2, 1, 5, 2, 1, 1, 0, 20, 24, 9, 1, 1, 0);

    @Test
    void serializes_with_snake_case_keys_and_reads_back() throws Exception {
        ObjectMapper mapper = new ObjectMapper();

        String json = mapper.writeValueAsString(SAMPLE);
        JsonNode node = mapper.readTree(json);

        List<String> keys = new ArrayList<>();
        node.fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactly("considered", "duplicates", "promoted", "discarded", "reinforced",
                "superseded", "decayed", "forgotten", "deprecated", "synthesized", "styled", "rem_before",
                "rem_after", "pruned", "llm_fallbacks", "end_users", "failed", "skipped");
        assertThat(node.get("rem_before").asLong()).isEqualTo(20);
        assertThat(node.get("rem_after").asLong()).isEqualTo(24);
        assertThat(node.get("llm_fallbacks").asLong()).isEqualTo(1);
        assertThat(mapper.readValue(json, DreamReport.class)).isEqualTo(SAMPLE);
    }

    @Test
    void plus_sums_every_counter() {
        DreamReport twice = SAMPLE.plus(SAMPLE);

        assertThat(twice).isEqualTo(new DreamReport(20, 8, 14, 6, 4, 2, 10, 4, 2, 2, 0, 40, 48, 18, 2, 2, 0));
        assertThat(DreamReport.EMPTY.plus(SAMPLE)).isEqualTo(SAMPLE);
    }

    @Test
    void changed_nothing_ignores_the_counts_that_describe_rather_than_change() {
        assertThat(DreamReport.EMPTY.changedNothing()).isTrue();
        assertThat(new DreamReport(3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 5, 0, 0, 1, 0).changedNothing()).isTrue();
        assertThat(new DreamReport(0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 5, 5, 0, 0, 1, 0).changedNothing()).isFalse();
    }
}
