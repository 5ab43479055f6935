package dev.reverie;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.reverie.internal.Json;
import dev.reverie.spi.Embedder;

import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.Locale;
import java.util.Set;

/**
 * On-demand recall for LLM function calling ({@link RecallMode#ON_DEMAND}): the host registers
 * {@link #name()}, {@link #description()} and {@link #parametersJsonSchema()} as a tool, and passes
 * the model's arguments to {@link #call(String)}, which returns JSON results. The scope is sealed
 * when the tool is created: the arguments have no field that can name a tenant, agent or user, and
 * unknown fields are refused, so the model can never reach another person's memory. Malformed
 * arguments get a JSON error result, never an exception. Thread-safe.
 */
public final class MemoryTool {

    /** Most results one call returns. */
    public static final int MAX_LIMIT = 20;
    private static final Set<String> FIELDS = Set.of("query", "kinds", "limit");
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final String SCHEMA = """
            {"type":"object","properties":{\
            "query":{"type":"string","description":"What to look for in the user's long-term memory"},\
            "kinds":{"type":"array","items":{"type":"string","enum":["FACT","PREFERENCE","EVENT","SKILL","STYLE","SYNTHESIS"]},\
            "description":"Only these kinds of memory (optional)"},\
            "limit":{"type":"integer","minimum":1,"maximum":20,"description":"Most results to return (default 5)"}},\
            "required":["query"],"additionalProperties":false}""";

    private final Scope scope;
    private final Retriever retriever;
    private final Embedder embedder;
    private final Clock clock;
    private final ObjectMapper mapper = Json.mapper();

    MemoryTool(Scope scope, Retriever retriever, Embedder embedder, Clock clock) {
        this.scope = scope;
        this.retriever = retriever;
        this.embedder = embedder;
        this.clock = clock;
    }

    /** The tool's function name. */
    public String name() {
        return "recall_memory";
    }

    /** What the tool does, for the model. */
    public String description() {
        return "Search what you remember about the current user (facts, preferences, events, skills) "
                + "from earlier conversations. Returns dated memories, most relevant first.";
    }

    /** The JSON schema of the arguments. */
    public String parametersJsonSchema() {
        return SCHEMA;
    }

    /** The scope this tool is sealed to (for the host's logs; never shown to the model). */
    public Scope scope() {
        return scope;
    }

    /**
     * Runs a search with the model's JSON arguments and returns {@code {"results":[...]}} or
     * {@code {"error":"..."}}.
     */
    public String call(String argumentsJson) {
        JsonNode args;
        try {
            args = argumentsJson == null ? null : mapper.readTree(argumentsJson);
        } catch (Exception e) {
            return error("arguments are not valid JSON");
        }
        if (args == null || !args.isObject()) {
            return error("arguments must be a JSON object like {\"query\":\"...\"}");
        }
        for (Iterator<String> it = args.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!FIELDS.contains(f)) {
                return error("unknown argument '" + f + "'; allowed: query, kinds, limit");
            }
        }
        JsonNode q = args.get("query");
        if (q == null || !q.isTextual() || q.asText().isBlank()) {
            return error("query must be a non-empty string");
        }
        if (q.asText().length() > 10_000) {
            return error("query must be at most 10000 characters");
        }
        int limit = 5;
        JsonNode l = args.get("limit");
        if (l != null) {
            if (!l.canConvertToInt() || !l.isIntegralNumber() || l.asInt() < 1 || l.asInt() > MAX_LIMIT) {
                return error("limit must be an integer from 1 to " + MAX_LIMIT);
            }
            limit = l.asInt();
        }
        Set<MemoryKind> kinds = EnumSet.allOf(MemoryKind.class);
        JsonNode k = args.get("kinds");
        if (k != null) {
            if (!k.isArray() || k.isEmpty()) {
                return error("kinds must be a non-empty array of FACT, PREFERENCE, EVENT, SKILL, STYLE, SYNTHESIS");
            }
            kinds = EnumSet.noneOf(MemoryKind.class);
            for (JsonNode kind : k) {
                try {
                    kinds.add(MemoryKind.valueOf(kind.asText().toUpperCase(Locale.ROOT)));
                } catch (IllegalArgumentException e) {
                    return error("unknown kind '" + kind.asText() + "'");
                }
            }
        }
        String query = q.asText();
        float[] vector = embedder == null ? null : embedder.embed(query);
        ObjectNode out = mapper.createObjectNode();
        ArrayNode results = out.putArray("results");
        for (ScoredCandidate sc : retriever.retrieve(scope, query, vector, kinds, false, true, null, clock.instant(), limit)) {
            ObjectNode r = results.addObject();
            r.put("id", sc.candidate().id());
            r.put("kind", sc.candidate().kind().name());
            r.put("text", sc.candidate().text());
            r.put("date", DAY.format(sc.candidate().lastSeen()));
            r.put("score", Math.round(sc.score() * 1000) / 1000.0);
            if (sc.candidate().provenance().trust() == Trust.THIRD_PARTY) {
                r.put("third_party", true);
            }
            if (sc.candidate().episode()) {
                // a verbatim past turn: who said it, so the model can tell the user's words from others'
                r.put("verbatim", true);
                r.put("said_by", sc.candidate().turn().speaker() != null ? sc.candidate().turn().speaker()
                        : sc.candidate().turn().role().name().toLowerCase(Locale.ROOT));
            }
        }
        return out.toString();
    }

    private String error(String message) {
        ObjectNode out = mapper.createObjectNode();
        out.put("error", message);
        return out.toString();
    }
}
