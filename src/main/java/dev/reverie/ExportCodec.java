package dev.reverie;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jsr310.deser.InstantDeserializer;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import dev.reverie.internal.Checks;
import dev.reverie.internal.Ids;
import dev.reverie.internal.Json;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.SessionSummary;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.Lock;

/**
 * Reads one end user's data out of a store into a {@link UserExport}, writes it as versioned JSON,
 * and reads such JSON back, validating all of it before anything is written. The file is a single
 * JSON object: {@code format} ({@value #FORMAT}), {@code formatVersion}, {@code scope},
 * {@code exportedAt}, {@code styleProfile}, {@code observations}, {@code memories}, {@code history}
 * and {@code sessions}, each record with every field it has in the store. Thread-safe (stateless
 * apart from a configured mapper and redactor). Not API.
 *
 * <p>An import file is untrusted input: besides the records' own checks, times must lie in years
 * 0001 to 9999 and be ISO-8601 strings, text fields must be JSON strings (no number or boolean is
 * coerced to text, no number to an enum), texts have length limits ({@link MemoryDraft#MAX_TEXT_LENGTH}
 * for memories, observations, history and the style profile, {@link #MAX_SUMMARY_LENGTH} for
 * summaries, {@link Turn#MAX_TEXT_LENGTH} for turns), and a summary may cover at most its session's
 * turns. Every text then goes through the {@link SecretRedactor}, as recorded turns do, before
 * anything is stored; a memory or observation whose text the redactor changed loses its embedding,
 * which was computed from the secret.
 */
final class ExportCodec {

    /** The value of the {@code format} field of every export file. */
    static final String FORMAT = "reverie-export";
    /** The format version this release writes and the newest it reads. */
    static final int FORMAT_VERSION = 1;

    /** Longest session summary text an import accepts. */
    static final int MAX_SUMMARY_LENGTH = 100_000;
    /** Earliest time an import accepts. */
    static final Instant MIN_TIME = Instant.parse("0001-01-01T00:00:00Z");
    /** Latest time an import accepts. */
    static final Instant MAX_TIME = Instant.parse("9999-12-31T23:59:59.999999999Z");

    private static final int PAGE = 10_000;

    private final ObjectMapper mapper;
    private final Ids ids;
    private final SecretRedactor redactor;

    /** A codec that redacts imported texts with {@code redactor}, its event ids from {@code ids}. */
    ExportCodec(SecretRedactor redactor, Ids ids) {
        this.redactor = Checks.notNull("redactor", redactor);
        this.ids = Checks.notNull("ids", ids);
        SimpleModule bounded = new SimpleModule("reverie-import-bounds");
        bounded.addDeserializer(Instant.class, new BoundedInstantDeserializer());
        mapper = Json.create()
                .registerModule(bounded)
                .enable(SerializationFeature.INDENT_OUTPUT)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS);
        // text is text: never turn a number or a boolean into a string, nor a string into a number
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        for (LogicalType numeric : List.of(LogicalType.Integer, LogicalType.Float, LogicalType.Boolean)) {
            mapper.coercionConfigFor(numeric).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        }
        // the caller owns the streams
        mapper.getFactory().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        mapper.getFactory().disable(JsonParser.Feature.AUTO_CLOSE_SOURCE);
    }

    /**
     * Writes the end user's export to {@code out}: everything is read while {@code lock} (the scope's
     * lock) is held, so no admin edit, dream or retrieval update lands half-way, then written after
     * it is released. The stream is flushed, not closed.
     */
    void exportTo(MemoryStore store, Scope scope, Clock clock, Lock lock, OutputStream out) {
        UserExport export;
        lock.lock();
        try {
            export = collect(store, scope, clock.instant());
        } finally {
            lock.unlock();
        }
        write(export, out);
    }

    /**
     * Reads and validates the whole export from {@code in} first, then, under {@code lock}, checks
     * that the end user is empty and writes everything in one atomic batch. The stream is not closed.
     */
    void importFrom(MemoryStore store, Scope scope, Clock clock, Lock lock, InputStream in) {
        UserExport export = read(in, scope);
        lock.lock();
        try {
            requireEmpty(store, scope);
            store.write(toBatch(export, clock.instant()));
        } finally {
            lock.unlock();
        }
    }

    /** Reads every record of {@code scope} from the store. The caller holds the scope's lock. */
    UserExport collect(MemoryStore store, Scope scope, Instant now) {
        List<Observation> observations = new ArrayList<>();
        for (int offset = 0; ; offset += PAGE) {
            List<Observation> page = store.observations(scope, ObservationFilter.all().page(offset, PAGE));
            observations.addAll(page);
            if (page.size() < PAGE) {
                break;
            }
        }
        List<Memory> memories = new ArrayList<>();
        for (int offset = 0; ; offset += PAGE) {
            List<Memory> page = store.memories(scope, MemoryFilter.all().page(offset, PAGE));
            memories.addAll(page);
            if (page.size() < PAGE) {
                break;
            }
        }
        List<UserExport.SessionExport> sessions = new ArrayList<>();
        for (String sessionId : store.sessions(scope)) {
            List<SessionTurn> turns = new ArrayList<>();
            for (long from = 0; ; ) {
                List<SessionTurn> page = store.sessionTurns(scope, sessionId, from, PAGE);
                turns.addAll(page);
                if (page.size() < PAGE) {
                    break;
                }
                from = page.get(page.size() - 1).seq() + 1;
            }
            sessions.add(new UserExport.SessionExport(sessionId, turns,
                    store.sessionSummary(scope, sessionId).orElse(null), store.archivedTurns(scope, sessionId)));
        }
        return new UserExport(FORMAT, FORMAT_VERSION, scope, now, store.styleProfile(scope).orElse(null),
                observations, memories, store.history(scope), sessions);
    }

    /** Writes {@code export} as JSON to {@code out} and flushes it; the stream stays open. */
    void write(UserExport export, OutputStream out) {
        try {
            mapper.writeValue(out, export);
            out.flush();
        } catch (IOException e) {
            throw new MemoryTransferException("could not write the export of " + export.scope() + " to the output stream ("
                    + e + "): the output is incomplete; discard it and export again to a stream that accepts writes", e);
        }
    }

    /**
     * Parses and fully validates an export for {@code target}: the format marker, a version this
     * release reads, the scope, every record (as its constructor validates it), that every nested
     * record belongs to the scope, unique ids, gap-free session sequences and consistent embedding
     * dimensions. Any problem is a {@link MemoryFormatException} saying what and where.
     */
    UserExport read(InputStream in, Scope target) {
        JsonNode root;
        try (JsonParser parser = mapper.getFactory().createParser(in)) {
            root = mapper.readTree(parser);
            if (root != null && parser.nextToken() != null) {
                throw new MemoryFormatException("the export has content after its JSON object (at "
                        + location(parser) + "); nothing was imported");
            }
        } catch (JsonProcessingException e) {
            throw new MemoryFormatException("the export is not valid JSON (" + e.getOriginalMessage() + " at "
                    + location(e) + "); nothing was imported", e);
        } catch (IOException e) {
            throw new MemoryTransferException("could not read the export from the input stream (" + e
                    + "); nothing was imported: import again from a readable stream", e);
        }
        if (root == null || !root.isObject()) {
            throw new MemoryFormatException("the export must be a JSON object with format '" + FORMAT
                    + "', was " + (root == null || root.isMissingNode() ? "empty" : root.getNodeType().toString())
                    + "; nothing was imported");
        }
        JsonNode format = root.get("format");
        if (format == null || !FORMAT.equals(format.asText())) {
            throw new MemoryFormatException("the export's format field must be '" + FORMAT + "', was "
                    + (format == null ? "missing" : "'" + format.asText() + "'") + "; nothing was imported");
        }
        JsonNode version = root.get("formatVersion");
        if (version == null || !version.canConvertToInt() || !version.isIntegralNumber()) {
            throw new MemoryFormatException("the export's formatVersion must be an integer, was "
                    + (version == null ? "missing" : version.toString()) + "; nothing was imported");
        }
        int v = version.asInt();
        if (v > FORMAT_VERSION) {
            throw new MemoryFormatException("the export has format version " + v + ", newer than version "
                    + FORMAT_VERSION + " that this Reverie release reads; upgrade Reverie to import it"
                    + " (nothing was imported)");
        }
        if (v < 1) {
            throw new MemoryFormatException("the export's formatVersion must be at least 1, was " + v
                    + "; nothing was imported");
        }
        UserExport export;
        try {
            export = mapper.treeToValue(root, UserExport.class);
        } catch (JsonMappingException e) {
            throw new MemoryFormatException("the export is malformed at " + path(e) + ": " + rootMessage(e)
                    + "; nothing was imported", e);
        } catch (JsonProcessingException e) {
            throw new MemoryFormatException("the export is malformed: " + e.getOriginalMessage()
                    + "; nothing was imported", e);
        }
        validate(export, target);
        return redacted(export);
    }

    /** ISO-8601 instants within {@link #MIN_TIME} and {@link #MAX_TIME}: every store can hold them and do arithmetic on them. */
    private static final class BoundedInstantDeserializer extends StdDeserializer<Instant> {
        BoundedInstantDeserializer() {
            super(Instant.class);
        }

        @Override
        public Instant deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.hasToken(JsonToken.VALUE_STRING)) {
                return (Instant) ctxt.handleUnexpectedToken(Instant.class, p.currentToken(), p,
                        "a time must be an ISO-8601 string such as 2026-03-01T09:00:00Z, was " + p.currentToken());
            }
            Instant at = InstantDeserializer.INSTANT.deserialize(p, ctxt);
            if (at != null && (at.isBefore(MIN_TIME) || at.isAfter(MAX_TIME))) {
                return (Instant) ctxt.handleWeirdStringValue(Instant.class, p.getText(),
                        "a time must lie between " + MIN_TIME + " and 9999-12-31T23:59:59Z");
            }
            return at;
        }
    }

    private static void validate(UserExport export, Scope target) {
        if (!export.scope().equals(target)) {
            throw new MemoryFormatException("the export belongs to scope " + export.scope()
                    + " but was imported into scope " + target + "; nothing was imported");
        }
        Scope s = export.scope();
        if (export.styleProfile() != null) {
            sameScope(s, export.styleProfile().scope(), "styleProfile");
            maxLength(export.styleProfile().description(), MemoryDraft.MAX_TEXT_LENGTH, "styleProfile.description");
        }
        Set<String> ids = new HashSet<>();
        Integer dim = null;
        for (int i = 0; i < export.observations().size(); i++) {
            Observation o = export.observations().get(i);
            sameScope(s, o.scope(), "observations[" + i + "]");
            maxLength(o.text(), MemoryDraft.MAX_TEXT_LENGTH, "observations[" + i + "].text");
            maxLength(o.value(), MemoryDraft.MAX_TEXT_LENGTH, "observations[" + i + "].value");
            unique(ids, o.id(), "observations[" + i + "].id");
            dim = sameDimension(dim, o.embedding() == null ? null : o.embedding().dimension(),
                    "observations[" + i + "].embedding");
        }
        ids.clear();
        dim = null;
        for (int i = 0; i < export.memories().size(); i++) {
            Memory m = export.memories().get(i);
            sameScope(s, m.scope(), "memories[" + i + "]");
            maxLength(m.text(), MemoryDraft.MAX_TEXT_LENGTH, "memories[" + i + "].text");
            maxLength(m.value(), MemoryDraft.MAX_TEXT_LENGTH, "memories[" + i + "].value");
            unique(ids, m.id(), "memories[" + i + "].id");
            dim = sameDimension(dim, m.embedding() == null ? null : m.embedding().dimension(),
                    "memories[" + i + "].embedding");
        }
        ids.clear();
        for (int i = 0; i < export.history().size(); i++) {
            MemoryEvent e = export.history().get(i);
            sameScope(s, e.scope(), "history[" + i + "]");
            maxLength(e.before(), MemoryDraft.MAX_TEXT_LENGTH, "history[" + i + "].before");
            maxLength(e.after(), MemoryDraft.MAX_TEXT_LENGTH, "history[" + i + "].after");
            maxLength(e.cause(), MemoryDraft.MAX_TEXT_LENGTH, "history[" + i + "].cause");
            unique(ids, e.id(), "history[" + i + "].id");
        }
        ids.clear();
        for (int i = 0; i < export.sessions().size(); i++) {
            UserExport.SessionExport session = export.sessions().get(i);
            String where = "sessions[" + i + "]";
            unique(ids, session.sessionId(), where + ".sessionId");
            for (int j = 0; j < session.turns().size(); j++) {
                SessionTurn t = session.turns().get(j);
                turnOf(s, session.sessionId(), t, where + ".turns[" + j + "]");
                maxLength(t.text(), Turn.MAX_TEXT_LENGTH, where + ".turns[" + j + "].text");
                if (t.seq() != j) {
                    throw new MemoryFormatException(where + ".turns[" + j + "].seq must be " + j
                            + " (session turns are numbered from 0 without gaps), was " + t.seq()
                            + "; nothing was imported");
                }
            }
            if (session.summary() != null) {
                sameScope(s, session.summary().scope(), where + ".summary");
                if (!session.summary().sessionId().equals(session.sessionId())) {
                    throw new MemoryFormatException(where + ".summary.sessionId must be '" + session.sessionId()
                            + "', was '" + session.summary().sessionId() + "'; nothing was imported");
                }
                maxLength(session.summary().text(), MAX_SUMMARY_LENGTH, where + ".summary.text");
                long covered = session.summary().coveredUpTo();
                if (covered < 0 || covered > session.turns().size()) {
                    // a summary covering turns that do not exist would hide every turn the session gets later
                    throw new MemoryFormatException(where + ".summary.coveredUpTo must be between 0 and the session's "
                            + session.turns().size() + " turns, was " + covered + "; nothing was imported");
                }
            }
            Set<Long> seqs = new HashSet<>();
            for (int j = 0; j < session.archive().size(); j++) {
                SessionTurn t = session.archive().get(j);
                turnOf(s, session.sessionId(), t, where + ".archive[" + j + "]");
                maxLength(t.text(), Turn.MAX_TEXT_LENGTH, where + ".archive[" + j + "].text");
                if (!seqs.add(t.seq())) {
                    throw new MemoryFormatException(where + ".archive[" + j + "].seq " + t.seq()
                            + " appears twice; nothing was imported");
                }
            }
        }
    }

    private static void maxLength(String text, int max, String where) {
        if (text != null && text.length() > max) {
            throw new MemoryFormatException(where + " must be at most " + max + " characters, was " + text.length()
                    + "; nothing was imported");
        }
    }

    /** The export with every text redacted, as the write path redacts recorded turns. */
    private UserExport redacted(UserExport e) {
        StyleProfile p = e.styleProfile();
        StyleProfile style = p == null ? null : new StyleProfile(p.scope(), p.preferredLength(), p.formality(),
                p.language(), p.emoji(), p.directness(), redact(p.description()), p.observations(), p.updatedAt());
        List<Observation> observations = new ArrayList<>(e.observations().size());
        for (Observation o : e.observations()) {
            String text = redact(o.text());
            String value = redact(o.value());
            boolean changed = !text.equals(o.text()) || !value.equals(o.value());
            observations.add(o.toBuilder().text(text).value(value).embedding(changed ? null : o.embedding()).build());
        }
        List<Memory> memories = new ArrayList<>(e.memories().size());
        for (Memory m : e.memories()) {
            String text = redact(m.text());
            String value = redact(m.value());
            boolean changed = !text.equals(m.text()) || !value.equals(m.value());
            memories.add(changed ? m.toBuilder().text(text).value(value).embedding(null).build() : m);
        }
        List<MemoryEvent> history = new ArrayList<>(e.history().size());
        for (MemoryEvent h : e.history()) {
            history.add(new MemoryEvent(h.id(), h.scope(), h.memoryId(), h.type(), h.at(), redactNullable(h.before()),
                    redactNullable(h.after()), redact(h.cause())));
        }
        List<UserExport.SessionExport> sessions = new ArrayList<>(e.sessions().size());
        for (UserExport.SessionExport session : e.sessions()) {
            SessionSummary sum = session.summary();
            sessions.add(new UserExport.SessionExport(session.sessionId(), redactTurns(session.turns()),
                    sum == null ? null : new SessionSummary(sum.scope(), sum.sessionId(), redact(sum.text()),
                            sum.coveredUpTo(), sum.updatedAt()),
                    redactTurns(session.archive())));
        }
        return new UserExport(e.format(), e.formatVersion(), e.scope(), e.exportedAt(), style, observations,
                memories, history, sessions);
    }

    private List<SessionTurn> redactTurns(List<SessionTurn> turns) {
        List<SessionTurn> out = new ArrayList<>(turns.size());
        for (SessionTurn t : turns) {
            // the speaker too, as recordTurn redacts it ("fetch https://admin:…@intranet" as a tool's name)
            out.add(new SessionTurn(t.scope(), t.sessionId(), t.seq(), t.turnId(), t.role(), redactNullable(t.speaker()),
                    redact(t.text()), t.at()));
        }
        return out;
    }

    private String redact(String text) {
        return redactor.redact(text).text();
    }

    private String redactNullable(String text) {
        return text == null ? null : redact(text);
    }

    private static void turnOf(Scope s, String sessionId, SessionTurn t, String where) {
        sameScope(s, t.scope(), where);
        if (!t.sessionId().equals(sessionId)) {
            throw new MemoryFormatException(where + ".sessionId must be '" + sessionId + "', was '" + t.sessionId()
                    + "'; nothing was imported");
        }
    }

    private static void sameScope(Scope expected, Scope actual, String where) {
        if (!expected.equals(actual)) {
            throw new MemoryFormatException(where + ".scope must be " + expected + " like the file's scope, was "
                    + actual + "; nothing was imported");
        }
    }

    private static void unique(Set<String> seen, String id, String where) {
        if (!seen.add(id)) {
            throw new MemoryFormatException(where + " '" + id + "' appears twice; nothing was imported");
        }
    }

    private static Integer sameDimension(Integer known, Integer dim, String where) {
        if (dim == null) {
            return known;
        }
        if (known != null && !known.equals(dim)) {
            throw new MemoryFormatException(where + " has dimension " + dim + " but earlier embeddings have "
                    + known + "; nothing was imported");
        }
        return dim;
    }

    /**
     * Fails with {@link IllegalStateException} unless {@code scope} holds no data at all (memories,
     * observations, sessions, style profile, history): import restores into an empty end user only.
     */
    void requireEmpty(MemoryStore store, Scope scope) {
        long memories = store.countMemories(scope, EnumSet.allOf(MemoryStatus.class));
        boolean observations = !store.observations(scope, ObservationFilter.all().page(0, 1)).isEmpty();
        int sessions = store.sessions(scope).size();
        boolean style = store.styleProfile(scope).isPresent();
        boolean history = !store.history(scope).isEmpty();
        if (memories > 0 || observations || sessions > 0 || style || history) {
            List<String> found = new ArrayList<>();
            if (memories > 0) {
                found.add(memories + " memories");
            }
            if (observations) {
                found.add("observations");
            }
            if (sessions > 0) {
                found.add(sessions + " sessions");
            }
            if (style) {
                found.add("a style profile");
            }
            if (history) {
                found.add("memory history");
            }
            throw new IllegalStateException("end user " + scope + " already has data (" + String.join(", ", found)
                    + "); import restores into an empty end user only: export the current data if you need it,"
                    + " call eraseEndUser(scope), then import (nothing was imported)");
        }
    }

    /**
     * One batch that restores {@code export}: style profile, observations, memories, history in its
     * original order, sessions (turns, summary, archive), then one IMPORTED event per memory.
     */
    WriteBatch toBatch(UserExport export, Instant now) {
        Scope s = export.scope();
        WriteBatch batch = WriteBatch.of(s);
        if (export.styleProfile() != null) {
            batch.put(export.styleProfile());
        }
        export.observations().forEach(batch::put);
        export.memories().forEach(batch::put);
        export.history().forEach(batch::append);
        for (UserExport.SessionExport session : export.sessions()) {
            session.turns().forEach(batch::append);
            if (session.summary() != null) {
                batch.put(session.summary());
            }
            session.archive().forEach(batch::archive);
        }
        String cause = "import of an export made at " + export.exportedAt();
        for (Memory m : export.memories()) {
            batch.append(new MemoryEvent(ids.next("e"), s, m.id(), MemoryEventType.IMPORTED, now, null, m.text(),
                    cause));
        }
        return batch;
    }

    private static String location(JsonProcessingException e) {
        return e.getLocation() == null ? "an unknown position"
                : "line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
    }

    private static String location(JsonParser p) {
        return "line " + p.currentLocation().getLineNr() + ", column " + p.currentLocation().getColumnNr();
    }

    private static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.length() == 0 ? "the top level" : sb.toString();
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        if (t instanceof JsonProcessingException j) {
            return j.getOriginalMessage();
        }
        return t.getMessage();
    }
}
