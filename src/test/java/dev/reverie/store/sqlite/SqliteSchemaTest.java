package dev.reverie.store.sqlite;

import dev.reverie.internal.Json;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** The TEXT time columns (observations.consolidated_at, memories.last_retrieved_at) and the select lists. */
class SqliteSchemaTest {

    @Test
    void the_column_holds_the_instant_as_the_json_record_writes_it_and_reads_it_back_exactly() {
        for (Instant at : OldSchemaFiles.TIMES) {
            String text = SqliteSchema.timeText(at);
            assertThat(Json.write(at)).isEqualTo("\"" + text + "\"");
            assertThat(Json.instant(text)).isEqualTo(at).isEqualTo(Json.read(Json.write(at), Instant.class));
            assertThat(SqliteSchema.time(text)).isEqualTo(at);
        }
        assertThat(SqliteSchema.timeText(null)).isNull();
        assertThat(SqliteSchema.time(null)).isNull();
    }

    @Test
    void sqlite_versions_compare_part_by_part() {
        assertThat(SqliteSchema.olderThan("3.42.9", SqliteSchema.MIN_SQLITE)).isTrue();
        assertThat(SqliteSchema.olderThan("3.40.1", "3.43.0")).isTrue();
        assertThat(SqliteSchema.olderThan("2.99.99", "3.43.0")).isTrue();
        assertThat(SqliteSchema.olderThan("3.43", "3.43.0")).isFalse();
        assertThat(SqliteSchema.olderThan("3.43.0", "3.43.0")).isFalse();
        assertThat(SqliteSchema.olderThan("3.43.1", "3.43.0")).isFalse();
        assertThat(SqliteSchema.olderThan("3.100.0", "3.43.0")).as("numbers, not text").isFalse();
        assertThat(SqliteSchema.olderThan("3.54.1", "3.43.0")).isFalse();
        assertThat(SqliteSchema.olderThan("3.42.0-beta", "3.43.0")).isTrue();
    }

    @Test
    void select_lists_are_qualified_by_the_alias_when_there_is_one() {
        assertThat(SqliteSchema.columns("m", "data", "embedding")).isEqualTo("m.data, m.embedding");
        assertThat(SqliteSchema.columns("", "data", "embedding")).isEqualTo("data, embedding");
        assertThat(MemoryRows.columns("")).isEqualTo("data, embedding, retrieval_count, last_retrieved_at");
        assertThat(ObservationRows.columns("o")).isEqualTo("o.data, o.embedding, o.status, o.consolidated_at");
    }
}
