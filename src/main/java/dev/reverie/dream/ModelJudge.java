package dev.reverie.dream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.reverie.StyleProfile;
import dev.reverie.internal.Json;
import dev.reverie.spi.LanguageModel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The dream cycle's questions to an optional {@link LanguageModel}: is this a paraphrase, write the
 * synthesis sentence, describe the style profile. Each prompt is a classpath resource next to this
 * class with a JSON answer contract; the inputs are inserted as JSON strings. When there is no model
 * every method answers "unknown" and the caller uses its rule; when the model throws or answers
 * anything but the contract, the failure is counted in {@link Counts#llmFallbacks} and the caller
 * uses its rule too. Immutable and thread-safe when the model is.
 */
final class ModelJudge {

    /** A paraphrase judgement. */
    enum Verdict { SAME, DIFFERENT, UNKNOWN }

    private static final Logger LOG = LoggerFactory.getLogger(ModelJudge.class);
    private static final int MAX_SYNTHESIS = 600;
    private static final int MAX_DESCRIPTION = 400;

    private final LanguageModel model;
    private final String paraphrase;
    private final String synthesis;
    private final String style;

    ModelJudge(LanguageModel model) {
        this.model = model;
        this.paraphrase = model == null ? "" : resource("paraphrase.prompt");
        this.synthesis = model == null ? "" : resource("synthesis.prompt");
        this.style = model == null ? "" : resource("style.prompt");
    }

    boolean present() {
        return model != null;
    }

    /** Whether two statements under one subject say the same thing. */
    Verdict sameMeaning(String subject, String a, String b, Counts counts) {
        if (model == null) {
            return Verdict.UNKNOWN;
        }
        String prompt = paraphrase.replace("{{subject}}", quote(subject)).replace("{{a}}", quote(a))
                .replace("{{b}}", quote(b));
        JsonNode answer = ask(prompt, counts);
        if (answer == null) {
            return Verdict.UNKNOWN;
        }
        JsonNode same = answer.get("same");
        if (same == null || !same.isBoolean()) {
            return malformed("paraphrase", "no boolean \"same\"", counts, Verdict.UNKNOWN);
        }
        return same.booleanValue() ? Verdict.SAME : Verdict.DIFFERENT;
    }

    /** The sentence of a synthesis about {@code entity} connecting {@code facts}, or empty for the rule. */
    Optional<String> synthesis(String entity, List<String> facts, Counts counts) {
        if (model == null) {
            return Optional.empty();
        }
        String prompt = synthesis.replace("{{entity}}", quote(entity)).replace("{{facts}}", Json.write(facts));
        return text(ask(prompt, counts), "text", MAX_SYNTHESIS, "synthesis", counts);
    }

    /** A one-sentence description of a style profile, or empty for the rule. */
    Optional<String> styleDescription(StyleProfile p, Counts counts) {
        if (model == null) {
            return Optional.empty();
        }
        ObjectNode profile = Json.mapper().createObjectNode();
        profile.put("preferred_length", p.preferredLength());
        profile.put("formality", p.formality());
        profile.put("language", p.language());
        profile.put("emoji", p.emoji());
        profile.put("directness", p.directness());
        String prompt = style.replace("{{profile}}", profile.toString());
        return text(ask(prompt, counts), "description", MAX_DESCRIPTION, "style", counts);
    }

    private Optional<String> text(JsonNode answer, String field, int max, String what, Counts counts) {
        if (answer == null) {
            return Optional.empty();
        }
        JsonNode v = answer.get(field);
        if (v == null || !v.isTextual() || v.textValue().isBlank() || v.textValue().length() > max) {
            return malformed(what, "no \"" + field + "\" text of 1 to " + max + " characters", counts,
                    Optional.empty());
        }
        return Optional.of(v.textValue().strip());
    }

    /** The model's JSON object answer, or null (counted) when the call fails or the answer is not JSON. */
    private JsonNode ask(String prompt, Counts counts) {
        String raw;
        try {
            raw = model.complete(prompt);
        } catch (RuntimeException e) {
            counts.llmFallbacks++;
            LOG.warn("language model failed, using the rule-based path: {}", e.toString());
            return null;
        }
        if (raw == null) {
            return malformed("answer", "null answer", counts, null);
        }
        int start = raw.indexOf('{');
        int end = raw.lastIndexOf('}');
        if (start < 0 || end < start) {
            return malformed("answer", "no JSON object", counts, null);
        }
        try {
            JsonNode node = Json.mapper().readTree(raw.substring(start, end + 1));
            if (node == null || !node.isObject()) {
                return malformed("answer", "not a JSON object", counts, null);
            }
            return node;
        } catch (JsonProcessingException e) {
            return malformed("answer", "invalid JSON", counts, null);
        }
    }

    private static <T> T malformed(String what, String why, Counts counts, T fallback) {
        counts.llmFallbacks++;
        LOG.warn("language model {} was malformed ({}), using the rule-based path", what, why);
        return fallback;
    }

    private static String quote(String s) {
        return Json.write(s);
    }

    private static String resource(String name) {
        try (InputStream in = ModelJudge.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("prompt resource dev/reverie/dream/" + name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read prompt resource " + name, e);
        }
    }
}
