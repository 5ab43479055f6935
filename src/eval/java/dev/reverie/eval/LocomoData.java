package dev.reverie.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads a LoCoMo data file (the format of {@code locomo10.json}, described in
 * {@code shared/eval/locomo/README.md}) into samples of dated sessions, turns and cleaned QA items.
 *
 * <p>Sessions are found through the {@code session_N} lists, in order of N, never through the
 * {@code session_N_date_time} keys (some samples have date keys for sessions without turns). Turns
 * that shared an image get their caption appended once, for every system alike, as
 * {@code " [shares a photo of: <caption>]"}. Evidence strings are cleaned as the README says: split
 * on {@code ;} and whitespace, {@code D:} fixed to {@code D}, ids that match no turn dropped. The
 * {@code observation}, {@code session_summary} and {@code event_summary} fields are never read:
 * they are generated views of the answers.
 *
 * <p>Stateless; the returned records are immutable and thread-safe.
 */
public final class LocomoData {

    /** How a shared image is appended to the turn's text, for every system alike. */
    static final String CAPTION_FORMAT = " [shares a photo of: %s]";

    private static final DateTimeFormatter SESSION_DATE = new DateTimeFormatterBuilder()
            .parseCaseInsensitive()
            .appendPattern("h:mm a 'on' d MMMM, yyyy")
            .toFormatter(Locale.ENGLISH);

    private LocomoData() {
    }

    /**
     * One conversation with its questions.
     *
     * @param id        the {@code sample_id}
     * @param speakerA  the first speaker's name
     * @param speakerB  the second speaker's name
     * @param sessions  the sessions in order
     * @param questions every QA item, in file order (including ones with no usable evidence)
     */
    public record Sample(String id, String speakerA, String speakerB, List<Session> sessions,
                         List<QaItem> questions) {
        public Sample {
            sessions = List.copyOf(sessions);
            questions = List.copyOf(questions);
        }

        /** Every turn of every session, in conversation order. */
        public List<DialogTurn> turns() {
            List<DialogTurn> all = new ArrayList<>();
            for (Session session : sessions) {
                all.addAll(session.turns());
            }
            return all;
        }

        /** The turns by {@code dia_id}. */
        public Map<String, DialogTurn> turnsById() {
            Map<String, DialogTurn> byId = new LinkedHashMap<>();
            for (DialogTurn turn : turns()) {
                byId.put(turn.diaId(), turn);
            }
            return byId;
        }

        /** The date of the last session. */
        public Instant lastSessionDate() {
            return sessions.get(sessions.size() - 1).date();
        }
    }

    /**
     * One session of a conversation.
     *
     * @param number   N of {@code session_N}
     * @param dateText the original {@code session_N_date_time} string
     * @param date     that string as an instant (UTC)
     * @param turns    the turns in {@code dia_id} order
     */
    public record Session(int number, String dateText, Instant date, List<DialogTurn> turns) {
        public Session {
            turns = List.copyOf(turns);
        }

        /** The session id the systems record this session under, e.g. {@code session-3}. */
        public String sessionId() {
            return "session-" + number;
        }
    }

    /**
     * One turn of a session.
     *
     * @param diaId   the turn id, e.g. {@code D3:5}
     * @param session the session number
     * @param speaker the speaker's name
     * @param text    the turn's text, with the image caption appended when it shared one
     * @param at      the session's date
     */
    public record DialogTurn(String diaId, int session, String speaker, String text, Instant at) {
    }

    /**
     * One question.
     *
     * @param index    position in the sample's {@code qa} list, from 0
     * @param question the question
     * @param category 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial
     * @param evidence cleaned evidence ids, each naming a turn of the sample
     * @param answer   the gold answer, or the adversarial answer for category 5, or empty
     */
    public record QaItem(int index, String question, int category, List<String> evidence, String answer) {
        public QaItem {
            evidence = List.copyOf(evidence);
        }

        /** Whether at least one evidence id names a turn, so the item can be scored. */
        public boolean usable() {
            return !evidence.isEmpty();
        }
    }

    /**
     * Reads every sample of a LoCoMo file.
     *
     * @throws IllegalArgumentException when the file is missing, is not JSON of the expected shape,
     *                                  or holds a date that does not parse; the message names the
     *                                  path and the place in the file
     */
    public static List<Sample> load(Path path) {
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException("LoCoMo data file not found: " + path.toAbsolutePath());
        }
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(path.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read LoCoMo data file " + path.toAbsolutePath()
                    + ": " + e.getMessage(), e);
        }
        if (root == null || !root.isArray()) {
            throw new IllegalArgumentException("LoCoMo data file " + path.toAbsolutePath()
                    + " must hold a JSON list of samples");
        }
        List<Sample> samples = new ArrayList<>();
        for (JsonNode node : root) {
            samples.add(sample(path, node));
        }
        return samples;
    }

    private static Sample sample(Path path, JsonNode node) {
        String id = text(path, node, "sample_id", "sample");
        JsonNode conversation = node.get("conversation");
        if (conversation == null || !conversation.isObject()) {
            throw new IllegalArgumentException(where(path, id) + ": missing 'conversation' object");
        }
        List<Session> sessions = new ArrayList<>();
        for (int n = 1; conversation.has("session_" + n); n++) {
            sessions.add(session(path, id, conversation, n));
        }
        if (sessions.isEmpty()) {
            throw new IllegalArgumentException(where(path, id) + ": no 'session_1' list of turns");
        }
        Set<String> turnIds = new LinkedHashSet<>();
        sessions.forEach(s -> s.turns().forEach(t -> turnIds.add(t.diaId())));
        List<QaItem> questions = new ArrayList<>();
        JsonNode qa = node.path("qa");
        for (int i = 0; i < qa.size(); i++) {
            questions.add(question(path, id, i, qa.get(i), turnIds));
        }
        return new Sample(id, conversation.path("speaker_a").asText(""),
                conversation.path("speaker_b").asText(""), sessions, questions);
    }

    private static Session session(Path path, String sampleId, JsonNode conversation, int n) {
        String key = "session_" + n;
        String dateText = conversation.path(key + "_date_time").asText("");
        Instant date = parseSessionDate(dateText, where(path, sampleId) + " " + key + "_date_time");
        List<DialogTurn> turns = new ArrayList<>();
        for (JsonNode t : conversation.get(key)) {
            String diaId = text(path, t, "dia_id", sampleId + " " + key);
            String text = t.path("text").asText("");
            String caption = t.path("blip_caption").asText("");
            if (!caption.isBlank()) {
                text = text + String.format(Locale.ROOT, CAPTION_FORMAT, caption.strip());
            }
            turns.add(new DialogTurn(diaId, n, text(path, t, "speaker", sampleId + " " + diaId),
                    text, date));
        }
        turns.sort((a, b) -> Integer.compare(turnNumber(a.diaId()), turnNumber(b.diaId())));
        return new Session(n, dateText, date, turns);
    }

    private static QaItem question(Path path, String sampleId, int index, JsonNode q, Set<String> turnIds) {
        List<String> evidence = new ArrayList<>();
        for (JsonNode e : q.path("evidence")) {
            evidence.addAll(cleanEvidence(e.asText(""), turnIds));
        }
        int category = q.path("category").asInt(0);
        if (category < 1 || category > 5) {
            throw new IllegalArgumentException(where(path, sampleId) + " qa[" + index
                    + "]: category must be 1 to 5, was " + q.path("category"));
        }
        String answer = q.has("answer") ? q.get("answer").asText() : q.path("adversarial_answer").asText("");
        return new QaItem(index, q.path("question").asText(""), category,
                List.copyOf(new LinkedHashSet<>(evidence)), answer);
    }

    /**
     * Cleans one evidence string: splits it on {@code ;} and whitespace, fixes {@code D:} to
     * {@code D}, and keeps the ids that name a turn.
     */
    static List<String> cleanEvidence(String raw, Set<String> turnIds) {
        List<String> ids = new ArrayList<>();
        for (String part : raw.split("[;\\s]+")) {
            String id = part.strip();
            if (id.startsWith("D:")) {
                id = "D" + id.substring(2);
            }
            if (turnIds.contains(id)) {
                ids.add(id);
            }
        }
        return ids;
    }

    /** Parses a session date such as {@code "1:56 pm on 8 May, 2023"} as UTC. */
    static Instant parseSessionDate(String text, String where) {
        try {
            return LocalDateTime.parse(text.strip(), SESSION_DATE).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(where + ": cannot parse session date '" + text
                    + "' (expected e.g. '1:56 pm on 8 May, 2023')", e);
        }
    }

    private static int turnNumber(String diaId) {
        int colon = diaId.lastIndexOf(':');
        try {
            return Integer.parseInt(diaId.substring(colon + 1));
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }

    private static String text(Path path, JsonNode node, String field, String context) {
        JsonNode value = node.get(field);
        if (value == null || value.asText("").isBlank()) {
            throw new IllegalArgumentException(path.toAbsolutePath() + ": " + context
                    + " has no '" + field + "'");
        }
        return value.asText();
    }

    private static String where(Path path, String sampleId) {
        return path.toAbsolutePath() + " sample " + sampleId;
    }
}
