package dev.reverie.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.reverie.HealthAlert;
import dev.reverie.LayerHealth;
import dev.reverie.Memory;
import dev.reverie.MemoryEvent;
import dev.reverie.Observation;
import dev.reverie.Provenance;
import dev.reverie.Scope;
import dev.reverie.StyleProfile;
import dev.reverie.spi.SessionTurn;

import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON shapes the operator tools show: the console's API and the command line's {@code --json}
 * output write the same snake_case objects, so a script written against one reads the other.
 * Embeddings are left out (they are numbers nobody reads); every other field an operator audits is
 * there. Strings are escaped for JSON and, beyond that, {@code < > & '} are written as
 * {@code \u003c}-style escapes, so a memory reading {@code <script>} can never become markup even if a
 * client mishandles the content type. Shared by {@code dev.reverie.cli}; not part of the library API.
 * Thread-safe.
 */
public final class OperatorJson {

    private static final ObjectMapper MAPPER = createMapper();

    private OperatorJson() {
    }

    /** The mapper behind {@link #write}: ISO-8601 times, HTML-safe string escapes. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /** {@code value} as compact JSON. */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code value} as indented JSON. */
    public static String writePretty(Object value) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One L4 memory; {@code expired} is judged at {@code now}. */
    public static Map<String, Object> memory(Memory m, Instant now) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("id", m.id());
        j.put("kind", m.kind());
        j.put("text", m.text());
        j.put("subject", m.subject());
        j.put("value", m.value());
        j.put("importance", m.importance());
        j.put("status", m.status());
        j.put("permanent", m.permanent());
        j.put("expires_at", m.expiresAt());
        j.put("expired", m.expired(now));
        j.put("confidence", m.confidence());
        j.put("created_at", m.createdAt());
        j.put("updated_at", m.updatedAt());
        j.put("reinforcement_count", m.reinforcementCount());
        j.put("retrieval_count", m.retrievalCount());
        j.put("last_retrieved_at", m.lastRetrievedAt());
        j.put("superseded_by", m.supersededBy());
        j.put("provenance", provenance(m.provenance()));
        j.put("source_turn_ids", m.sourceTurnIds());
        j.put("source_observation_ids", m.sourceObservationIds());
        return j;
    }

    /** One L3 observation. */
    public static Map<String, Object> observation(Observation o) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("id", o.id());
        j.put("kind", o.kind());
        j.put("text", o.text());
        j.put("subject", o.subject());
        j.put("value", o.value());
        j.put("status", o.status());
        j.put("confidence", o.confidence());
        j.put("observed_at", o.observedAt());
        j.put("session_id", o.sessionId());
        j.put("reinforcement_count", o.reinforcementCount());
        j.put("consolidated_at", o.consolidatedAt());
        j.put("provenance", provenance(o.provenance()));
        j.put("source_turn_ids", o.sourceTurnIds());
        return j;
    }

    /** One history event of a memory. */
    public static Map<String, Object> event(MemoryEvent e) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("id", e.id());
        j.put("memory_id", e.memoryId());
        j.put("type", e.type());
        j.put("at", e.at());
        j.put("before", e.before());
        j.put("after", e.after());
        j.put("cause", e.cause());
        return j;
    }

    /** The end user's style profile. */
    public static Map<String, Object> style(StyleProfile p) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("preferred_length", p.preferredLength());
        j.put("formality", p.formality());
        j.put("language", p.language());
        j.put("emoji", p.emoji());
        j.put("directness", p.directness());
        j.put("description", p.description());
        j.put("observations", p.observations());
        j.put("updated_at", p.updatedAt());
        return j;
    }

    /** One archived conversation turn. */
    public static Map<String, Object> turn(SessionTurn t) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("seq", t.seq());
        j.put("turn_id", t.turnId());
        j.put("role", t.role());
        j.put("speaker", t.speaker());
        j.put("text", t.text());
        j.put("at", t.at());
        return j;
    }

    /** One end user of a tenant and agent, with counts. */
    public static Map<String, Object> user(Scope scope, long activeMemories, int sessions) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("tenant", scope.tenantId());
        j.put("agent", scope.agentId());
        j.put("user", scope.endUserId());
        j.put("active_memories", activeMemories);
        j.put("sessions", sessions);
        return j;
    }

    /** Layer health: window, alerts and every metric by name. */
    public static Map<String, Object> health(LayerHealth h) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("since", h.since());
        j.put("at", h.at());
        j.put("healthy", h.healthy());
        j.put("alerts", h.alerts().stream().map(OperatorJson::alert).toList());
        j.put("metrics", new TreeMap<>(h.toMap()));
        return j;
    }

    /** One health alert. */
    public static Map<String, Object> alert(HealthAlert a) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("type", a.type());
        j.put("layer", a.layer());
        j.put("tenant", a.tenantId());
        j.put("agent", a.agentId());
        j.put("value", a.value());
        j.put("threshold", a.threshold());
        j.put("message", a.message());
        return j;
    }

    private static Map<String, Object> provenance(Provenance p) {
        if (p == null) {
            return null;
        }
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("source", p.source());
        j.put("session_id", p.sessionId());
        j.put("turn_id", p.turnId());
        j.put("observed_at", p.observedAt());
        j.put("outcome", p.outcome());
        j.put("trust", p.trust());
        return j;
    }

    private static ObjectMapper createMapper() {
        ObjectMapper mapper = new ObjectMapper()
                .registerModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
        mapper.getFactory().setCharacterEscapes(new HtmlSafeEscapes());
        return mapper;
    }

    /** JSON's own escapes plus {@code < > & '} as unicode escapes. */
    private static final class HtmlSafeEscapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private final int[] escapes;

        HtmlSafeEscapes() {
            escapes = standardAsciiEscapesForJSON();
            escapes['<'] = ESCAPE_STANDARD;
            escapes['>'] = ESCAPE_STANDARD;
            escapes['&'] = ESCAPE_STANDARD;
            escapes['\''] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return escapes;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return null;
        }
    }
}
