package dev.reverie.dream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The report's JSON form and arithmetic. */
class DreamReportTest {

    private static final DreamReport SAMPLE = DreamReport.builder().considered(10).duplicates(4).promoted(7)
            .discarded(3).reinforced(2).superseded(1).decayed(5).forgotten(2).deprecated(1).synthesized(1)
            .remBefore(20).remAfter(24).pruned(9).llmFallbacks(1).endUsers(1).build();

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

        assertThat(twice).isEqualTo(DreamReport.builder().considered(20).duplicates(8).promoted(14).discarded(6)
                .reinforced(4).superseded(2).decayed(10).forgotten(4).deprecated(2).synthesized(2).remBefore(40)
                .remAfter(48).pruned(18).llmFallbacks(2).endUsers(2).build());
        assertThat(DreamReport.EMPTY.plus(SAMPLE)).isEqualTo(SAMPLE);
    }

    @Test
    void changed_nothing_ignores_the_counts_that_describe_rather_than_change() {
        assertThat(DreamReport.EMPTY.changedNothing()).isTrue();
        DreamReport quiet = DreamReport.builder().considered(3).remBefore(5).remAfter(5).endUsers(1).build();
        assertThat(quiet.changedNothing()).isTrue();
        assertThat(quiet.toBuilder().considered(0).decayed(1).build().changedNothing()).isFalse();
    }

    @Test
    @SuppressWarnings("deprecation")
    void the_positional_constructors_of_0_1_0_still_build_the_same_report() {
        DreamReport positional = new DreamReport(10, 4, 7, 3, 2, 1, 5, 2, 1, 1, 0, 20, 24, 9, 1, 1, 0);
        DreamReport withSkipped = new DreamReport(10, 4, 7, 3, 2, 1, 5, 2, 1, 1, 0, 20, 24, 9, 1, 1, 0, 3);

        assertThat(positional).isEqualTo(SAMPLE).hasSameHashCodeAs(SAMPLE);
        assertThat(withSkipped).isEqualTo(SAMPLE.toBuilder().skipped(3).build());
        assertThat(withSkipped.skipped()).isEqualTo(3);
        assertThat(positional.toString()).startsWith("DreamReport[considered=10, duplicates=4,")
                .endsWith("failed=0, skipped=0]");
    }

    @Test
    void a_builder_starts_at_zero_and_reports_are_values() {
        assertThat(DreamReport.builder().build()).isEqualTo(DreamReport.EMPTY);
        assertThat(SAMPLE.toBuilder().build()).isEqualTo(SAMPLE).isNotSameAs(SAMPLE);
        assertThat(SAMPLE.plus(DreamReport.EMPTY)).isEqualTo(SAMPLE);
        assertThat(SAMPLE).isNotEqualTo(SAMPLE.toBuilder().failed(1).build());
    }
}
