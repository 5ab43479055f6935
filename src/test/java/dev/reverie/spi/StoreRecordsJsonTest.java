package dev.reverie.spi;

import dev.reverie.Role;
import dev.reverie.Scope;
import dev.reverie.internal.Json;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pins the JSON of the store-facing records {@link SessionTurn} and {@link SessionSummary}: the
 * stores persist it, so the documents below (written by the code before these records moved from
 * {@code dev.reverie} to {@code dev.reverie.spi}, and before {@code Role} became {@code Role})
 * must read back unchanged and be written byte for byte.
 */
class StoreRecordsJsonTest {

    private static final Scope SCOPE = Scope.of("clinic-42", "receptionist", "patient-123");
    private static final Instant T0 = Instant.parse("2026-03-01T10:15:30Z");
    private static final Instant T1 = Instant.parse("2026-03-02T11:00:00.123Z");

    static final String TURN_JSON =
            "{\"scope\":{\"tenantId\":\"clinic-42\",\"agentId\":\"receptionist\","
            + "\"endUserId\":\"patient-123\"},\"sessionId\":\"session-7\",\"seq\":3,\"turnId\":\"D1:3\","
            + "\"role\":\"ASSISTANT\",\"speaker\":\"Marina\",\"text\":\"Noted, Dra. Marina.\","
            + "\"at\":\"2026-03-01T10:15:30Z\"}";

    static final String TOOL_TURN_JSON =
            "{\"scope\":{\"tenantId\":\"clinic-42\",\"agentId\":\"receptionist\","
            + "\"endUserId\":\"patient-123\"},\"sessionId\":\"session-7\",\"seq\":4,\"turnId\":\"t-4\","
            + "\"role\":\"TOOL\",\"speaker\":null,\"text\":\"Friday 10:00 free\","
            + "\"at\":\"2026-03-02T11:00:00.123Z\"}";

    static final String SUMMARY_JSON =
            "{\"scope\":{\"tenantId\":\"clinic-42\",\"agentId\":\"receptionist\","
            + "\"endUserId\":\"patient-123\"},\"sessionId\":\"session-7\","
            + "\"text\":\"Moved the appointment to Friday.\",\"coveredUpTo\":8,"
            + "\"updatedAt\":\"2026-03-02T11:00:00.123Z\"}";

    private static SessionTurn turn() {
        return new SessionTurn(SCOPE, "session-7", 3, "D1:3", Role.ASSISTANT, "Marina", "Noted, Dra. Marina.", T0);
    }

    private static SessionTurn toolTurn() {
        return new SessionTurn(SCOPE, "session-7", 4, "t-4", Role.TOOL, null, "Friday 10:00 free", T1);
    }

    private static SessionSummary summary() {
        return new SessionSummary(SCOPE, "session-7", "Moved the appointment to Friday.", 8, T1);
    }

    @Test
    void session_turn_writes_the_pinned_json() {
        assertThat(Json.write(turn())).isEqualTo(TURN_JSON);
        assertThat(Json.write(toolTurn())).isEqualTo(TOOL_TURN_JSON);
    }

    @Test
    void session_turn_reads_a_document_written_before_the_move() {
        assertThat(Json.read(TURN_JSON, SessionTurn.class)).isEqualTo(turn());
        assertThat(Json.read(TOOL_TURN_JSON, SessionTurn.class)).isEqualTo(toolTurn());
    }

    @Test
    void session_summary_writes_the_pinned_json() {
        assertThat(Json.write(summary())).isEqualTo(SUMMARY_JSON);
    }

    @Test
    void session_summary_reads_a_document_written_before_the_move() {
        assertThat(Json.read(SUMMARY_JSON, SessionSummary.class)).isEqualTo(summary());
    }
}
