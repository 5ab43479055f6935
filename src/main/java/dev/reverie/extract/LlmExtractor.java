package dev.reverie.extract;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.reverie.Cardinality;
import dev.reverie.MemoryKind;
import dev.reverie.Polarity;
import dev.reverie.Role;
import dev.reverie.internal.Checks;
import dev.reverie.internal.PastedContent;
import dev.reverie.internal.Json;
import dev.reverie.spi.ExtractedFact;
import dev.reverie.spi.Extractor;
import dev.reverie.spi.LanguageModel;
import dev.reverie.spi.Subjects;
import dev.reverie.spi.TurnInput;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * An {@link Extractor} that asks a {@link LanguageModel} for the turn's facts under a JSON contract
 * (the prompt is the resource {@code dev/reverie/extract/extract-prompt.txt}): an array of objects
 * with {@code kind, subject, value, text, cardinality, polarity, confidence, event_date}. The answer
 * is validated field by field (known kind other than SYNTHESIS, lower-case dotted subject, string
 * value, non-blank text, SINGLE/MULTI, POSITIVE/NEGATIVE, confidence a number in [0, 1], event date
 * {@code YYYY-MM-DD}, an ISO instant or null). A model that throws, or an answer that is malformed,
 * truncated, mistyped or wrapped in prose (a {@code ```json} fence alone is tolerated) makes the
 * whole turn go to the fallback extractor and increments {@link #fallbacks()}; this class never
 * throws. Only USER turns are sent to the model: ASSISTANT turns (which never yield facts about the
 * user) and TOOL turns (third-party text is not worth a model call) go straight to the fallback. The
 * prompt asks for {@code user.} subjects; each is put under the turn's owner
 * ({@link Subjects#rescope}), so a named speaker's facts are keyed by the speaker
 * ({@code ana.location}) and a model can never write into another owner's subjects.
 *
 * <p>Thread-safe when the model and the fallback are: the only mutable state is an atomic counter.
 */
public final class LlmExtractor implements Extractor {

    /** Where the prompt template lives on the classpath. */
    public static final String PROMPT_RESOURCE = "dev/reverie/extract/extract-prompt.txt";
    /** More elements than this in one answer is treated as a runaway answer, not as facts. */
    static final int MAX_FACTS = 50;

    private static final Logger LOG = LoggerFactory.getLogger(LlmExtractor.class);
    private static final Pattern SUBJECT = Pattern.compile("[a-z][a-z0-9_]*(?:\\.[a-z0-9_\\-]+){0,6}");
    private static final int MAX_SUBJECT = 128;
    private static final int MAX_VALUE = 300;
    private static final int MAX_TEXT = 1_000;

    private final LanguageModel model;
    private final Extractor fallback;
    private final String template;
    private final ObjectReader reader;
    private final AtomicLong fallbacks = new AtomicLong();

    /**
     * @param model    the model to ask
     * @param fallback what answers a turn the model could not (normally a {@link RuleBasedExtractor})
     * @throws IllegalArgumentException if either is null
     * @throws IllegalStateException    if the prompt resource is missing from the classpath
     */
    public LlmExtractor(LanguageModel model, Extractor fallback) {
        this.model = Checks.notNull("model", model);
        this.fallback = Checks.notNull("fallback", fallback);
        this.template = loadTemplate();
        this.reader = Json.mapper().reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    }

    /** How many turns went to the fallback because the model threw or answered outside the contract. */
    public long fallbacks() {
        return fallbacks.get();
    }

    @Override
    public List<ExtractedFact> extract(TurnInput turn) {
        if (turn == null) {
            return List.of();
        }
        if (turn.role() != Role.USER || turn.text().isBlank()) {
            return safeFallback(turn);
        }
        // what the user pastes (an email, an article) is somebody else's: the model never sees it, so no
        // fact about the user comes from it (as with the rule-based extractor)
        String own = PastedContent.withoutPastes(turn.text());
        if (own != turn.text() && own.equals(PastedContent.LEFT_OUT)) {
            return List.of(); // all of it pasted: the prompt would hold the marker alone
        }
        String answer;
        try {
            answer = model.complete(prompt(turn, own));
        } catch (RuntimeException | StackOverflowError e) {
            return fallBack(turn, "the model threw " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        try {
            return owned(parse(answer), Subjects.owner(turn.role(), turn.speaker()));
        } catch (InvalidAnswer e) {
            return fallBack(turn, e.getMessage());
        } catch (RuntimeException e) {
            return fallBack(turn, "unreadable answer: " + e);
        }
    }

    /**
     * The prompt for {@code turn}: the template with role, speaker, UTC date and the delimited
     * {@code text} (the turn's, without what it pastes).
     */
    private String prompt(TurnInput turn, String text) {
        LocalDate day = turn.at().atOffset(ZoneOffset.UTC).toLocalDate();
        String date = day + " (" + day.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + ")";
        String speaker = turn.speaker() == null || turn.speaker().isBlank() ? "(none)" : turn.speaker().strip();
        // the turn text is data: it must not be able to close its own delimiter
        String data = text.replace("</turn", "<\\/turn").replace("<turn", "<\\turn");
        return template.replace("{{role}}", turn.role().name())
                .replace("{{speaker}}", speaker)
                .replace("{{date}}", date)
                .replace("{{text}}", data);
    }

    /** The facts with their subjects put under {@code owner} (the prompt asks for {@code user.} keys). */
    private static List<ExtractedFact> owned(List<ExtractedFact> facts, String owner) {
        List<ExtractedFact> out = new ArrayList<>(facts.size());
        for (ExtractedFact f : facts) {
            String subject = Subjects.rescope(f.subject(), owner);
            out.add(subject.equals(f.subject()) ? f : new ExtractedFact(f.kind(), f.text(), subject, f.value(),
                    f.cardinality(), f.polarity(), f.confidence(), f.eventTime()));
        }
        return List.copyOf(out);
    }

    /** The facts of a model answer, or {@link InvalidAnswer} naming the first breach of the contract. */
    List<ExtractedFact> parse(String answer) throws InvalidAnswer {
        if (answer == null || answer.isBlank()) {
            throw new InvalidAnswer("empty answer");
        }
        String json = stripFence(answer.strip());
        if (!json.startsWith("[") || !json.endsWith("]")) {
            throw new InvalidAnswer("the answer is not a bare JSON array: " + Checks.abbreviate(json));
        }
        JsonNode root;
        try {
            root = reader.readTree(json);
        } catch (JsonProcessingException e) {
            throw new InvalidAnswer("malformed JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isArray()) {
            throw new InvalidAnswer("the answer is not a JSON array");
        }
        if (root.size() > MAX_FACTS) {
            throw new InvalidAnswer("too many facts: " + root.size() + " > " + MAX_FACTS);
        }
        List<ExtractedFact> facts = new ArrayList<>(root.size());
        for (int i = 0; i < root.size(); i++) {
            facts.add(fact(root.get(i), i));
        }
        return List.copyOf(facts);
    }

    private static ExtractedFact fact(JsonNode node, int index) throws InvalidAnswer {
        String at = "fact " + index + ": ";
        if (node == null || !node.isObject()) {
            throw new InvalidAnswer(at + "not a JSON object");
        }
        MemoryKind kind = enumField(node, "kind", MemoryKind.class, at);
        if (kind == MemoryKind.SYNTHESIS) {
            throw new InvalidAnswer(at + "kind SYNTHESIS cannot be extracted from a turn");
        }
        String subject = text(node, "subject", at, false, MAX_SUBJECT);
        if (!SUBJECT.matcher(subject).matches()) {
            throw new InvalidAnswer(at + "subject '" + Checks.abbreviate(subject) + "' is not a lower-case dotted key");
        }
        String value = text(node, "value", at, true, MAX_VALUE);
        String text = text(node, "text", at, false, MAX_TEXT);
        Cardinality cardinality = enumField(node, "cardinality", Cardinality.class, at);
        Polarity polarity = enumField(node, "polarity", Polarity.class, at);
        JsonNode c = node.get("confidence");
        if (c == null || !c.isNumber()) {
            throw new InvalidAnswer(at + "confidence must be a number");
        }
        double confidence = c.asDouble();
        if (!(confidence >= 0 && confidence <= 1)) {
            throw new InvalidAnswer(at + "confidence must be between 0 and 1, was " + confidence);
        }
        Instant eventTime = eventDate(node.get("event_date"), at);
        return new ExtractedFact(kind, text.strip(), subject, value.strip(), cardinality, polarity, confidence, eventTime);
    }

    private static String text(JsonNode node, String field, String at, boolean mayBeEmpty, int max) throws InvalidAnswer {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual()) {
            throw new InvalidAnswer(at + field + " must be a string");
        }
        String s = v.asText();
        if (!mayBeEmpty && s.isBlank()) {
            throw new InvalidAnswer(at + field + " must not be blank");
        }
        if (s.length() > max) {
            throw new InvalidAnswer(at + field + " is longer than " + max + " characters");
        }
        return s;
    }

    private static <E extends Enum<E>> E enumField(JsonNode node, String field, Class<E> type, String at)
            throws InvalidAnswer {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual()) {
            throw new InvalidAnswer(at + field + " must be a string");
        }
        try {
            return Enum.valueOf(type, v.asText().strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidAnswer(at + "unknown " + field + " '" + Checks.abbreviate(v.asText()) + "'");
        }
    }

    private static Instant eventDate(JsonNode v, String at) throws InvalidAnswer {
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new InvalidAnswer(at + "event_date must be a string or null");
        }
        String s = v.asText().strip();
        if (s.isEmpty()) {
            return null;
        }
        try {
            return s.length() == 10 ? LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant() : Instant.parse(s);
        } catch (DateTimeException e) {
            throw new InvalidAnswer(at + "event_date '" + Checks.abbreviate(s) + "' is not YYYY-MM-DD");
        }
    }

    /** Removes one surrounding ```json fence; an unclosed fence is left, so the answer fails as truncated. */
    private static String stripFence(String s) {
        if (!s.startsWith("```")) {
            return s;
        }
        int firstLine = s.indexOf('\n');
        if (firstLine < 0 || !s.endsWith("```") || s.length() < firstLine + 4) {
            return s;
        }
        String head = s.substring(3, firstLine).strip();
        if (!head.isEmpty() && !head.equalsIgnoreCase("json")) {
            return s;
        }
        return s.substring(firstLine + 1, s.length() - 3).strip();
    }

    private List<ExtractedFact> fallBack(TurnInput turn, String reason) {
        fallbacks.incrementAndGet();
        LOG.debug("LLM extraction fell back to {} for turn {}: {}", fallback.getClass().getSimpleName(),
                turn.turnId(), reason);
        return safeFallback(turn);
    }

    private List<ExtractedFact> safeFallback(TurnInput turn) {
        try {
            List<ExtractedFact> facts = fallback.extract(turn);
            return facts == null ? List.of() : facts;
        } catch (RuntimeException | StackOverflowError e) {
            // absorbed and counted: one line at WARN, the trace at DEBUG for whoever investigates
            LOG.warn("fallback extractor {} threw for turn {}: {}", fallback.getClass().getSimpleName(), turn.turnId(),
                    e.toString());
            LOG.debug("fallback extractor failure for turn {}", turn.turnId(), e);
            return List.of();
        }
    }

    private static String loadTemplate() {
        try (InputStream in = LlmExtractor.class.getClassLoader().getResourceAsStream(PROMPT_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the extraction prompt " + PROMPT_RESOURCE
                        + " is missing from the classpath; it ships in the Reverie jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("could not read the extraction prompt " + PROMPT_RESOURCE, e);
        }
    }

    /** An answer that breaks the JSON contract; the message says how. */
    static final class InvalidAnswer extends Exception {
        InvalidAnswer(String message) {
            super(message, null, false, false);
        }
    }
}
