package dev.reverie;

import dev.reverie.internal.Checks;
import dev.reverie.internal.Ids;
import dev.reverie.internal.ScopeLocks;
import dev.reverie.spi.Embedder;
import dev.reverie.spi.ExtractedFact;
import dev.reverie.spi.Extractor;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.TurnInput;
import dev.reverie.spi.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one path every recorded turn takes (DESIGN §6): redact secrets, append the turns to the
 * session and to the verbatim archive (episodic recall), extract typed observations into L3 with
 * provenance — all in one atomic store batch, so an acknowledged turn is never missing from episodic
 * recall. Thread-safe, and safe with other managers or processes sharing the store: the store numbers
 * the turns inside its write transaction ({@link WriteBatch#appendAtSessionEnd}), so sequence numbers
 * never collide.
 *
 * <p>With an {@link Embedder}, the new observations and archived turns get their vectors off the
 * caller's thread: once the turn's batch is durable, their (redacted) texts are queued; a background
 * writer embeds every text it has drained in one {@link Embedder#embedAll} call and, under the
 * scope's lock, re-puts each observation or archived turn that still exists unchanged and still has
 * no vector. The turn's write stays one atomic
 * batch; an embedder failure is logged and counted, never thrown at the caller, and leaves the
 * observation lexically searchable. {@link #flushEmbeddings()} waits for what was queued.
 */
final class WritePipeline implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(WritePipeline.class);
    /** Most texts sent to the embedder in one call. */
    static final int EMBED_CHUNK = 256;

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final MemoryStore store;
    private final Ids ids;
    private final Clock clock;
    private final SecretRedactor redactor;
    private final Extractor extractor;
    private final ScopeLocks locks;
    private final boolean archive;
    private final Embedder embedder;
    private final BackgroundWriter<ToEmbed> embeddings;
    private final FailedRunCriterion failedRuns;
    private final java.util.concurrent.atomic.AtomicLong extractorErrors = new java.util.concurrent.atomic.AtomicLong();
    /** Most sessions whose last recorded turn is remembered ({@link #lastTurns}). */
    static final int MAX_REMEMBERED_SESSIONS = 4_096;
    /** The most of a last turn's text remembered for the next one's extraction. */
    static final int MAX_REMEMBERED_CHARS = 1_000;

    /**
     * A session's last recorded turn: its redacted text (its end, at most {@link #MAX_REMEMBERED_CHARS}),
     * who said it, and whether it asked for a secret ({@link AskedSecrets}).
     */
    private record LastTurn(String text, String who, AskedSecrets.Asked asked) {
    }

    /**
     * The last recorded turn of recent sessions: the next turn's bare value is redacted when the last one
     * asked for a secret ("What's the Wi-Fi password?", then "RmqxoNf3$FPS"), and the next turn's extraction
     * knows what the turn before said when somebody else said it ("How is your sister?", then "Allergic to
     * shellfish now."), even when the two are recorded by different calls. Least recently recorded
     * dropped first; in memory only (another process recording the session's next turn does not see it).
     */
    private final Map<String, LastTurn> lastTurns = new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, LastTurn> eldest) {
            return size() > MAX_REMEMBERED_SESSIONS;
        }
    };

    /** Who said a turn, to tell the turn before's speaker from this one's. */
    private static String who(Turn t) {
        return t.role() + "\u0000" + (t.speaker() == null ? "" : t.speaker().strip());
    }

    /**
     * New observations (by id) and archived turns of one recorded call, waiting for their vectors;
     * {@code texts} holds the observations' texts, then the turns'.
     */
    private record ToEmbed(Scope scope, List<String> ids, List<SessionTurn> turns, List<String> texts) {
    }

    /**
     * @param extractor the extractor, or {@code null} to record turns without extracting observations
     * @param archive   whether to keep the verbatim (redacted) conversation archive
     */
    /**
     * @param extractor the extractor, or {@code null} to record turns without extracting observations
     * @param archive   whether to keep the verbatim (redacted) conversation archive
     * @param embedder  the embedder for new observations, or {@code null} to store them without vectors
     * @param ids       where the ids of turns without one, observations and events come from
     */
    WritePipeline(MemoryStore store, Clock clock, SecretRedactor redactor, Extractor extractor,
                         ScopeLocks locks, boolean archive, Embedder embedder, Ids ids) {
        this.store = store;
        this.ids = Checks.notNull("ids", ids);
        this.clock = clock;
        this.redactor = redactor;
        this.extractor = extractor;
        this.locks = locks;
        this.archive = archive;
        this.embedder = embedder;
        this.embeddings = embedder == null ? null : new BackgroundWriter<>("embeddings", 10_000, this::writeEmbeddings);
        this.failedRuns = new FailedRunCriterion(store, locks, clock, this, ids);
    }

    /** A redacted speaker name within the 128 characters a speaker may have (markers are longer than short secrets). */
    private static String name(String redacted) {
        return redacted.length() <= 128 ? redacted : redacted.substring(0, 128);
    }

    /** Records {@code turns} in order; see the class comment. */
    TurnReceipt record(Scope scope, String sessionId, List<Turn> turns) {
        Checks.notNull("scope", scope);
        Checks.id("sessionId", sessionId);
        Checks.notNull("turns", turns);
        if (turns.isEmpty()) {
            throw new IllegalArgumentException("turns must not be empty");
        }
        for (int i = 0; i < turns.size(); i++) {
            if (turns.get(i) == null) {
                throw new IllegalArgumentException("turns[" + i + "] must not be null");
            }
        }
        Instant now = clock.instant();
        int redactions = 0;
        List<Turn> clean = new ArrayList<>(turns.size());
        String session = scope.tenantId() + '\u0000' + scope.agentId() + '\u0000' + scope.endUserId() + '\u0000' + sessionId;
        LastTurn last;
        synchronized (lastTurns) {
            last = lastTurns.get(session);
        }
        AskedSecrets.Asked asked = last == null ? AskedSecrets.Asked.NONE : last.asked();
        for (Turn t : turns) {
            // a bare value answering the turn before's request for a secret goes too
            Redaction r = AskedSecrets.answer(redactor.redact(t.text()), asked);
            asked = AskedSecrets.asks(t.text());
            redactions += r.total();
            Turn c = r.total() == 0 ? t : t.withText(r.text());
            // the names are stored too (the speaker, a tool's name as its speaker): a secret pasted into
            // one ("fetch https://admin:…@intranet") is redacted as in the text
            Redaction speaker = c.speaker() == null ? null : redactor.redact(c.speaker());
            Redaction tool = c.toolName() == null ? null : redactor.redact(c.toolName());
            if (speaker != null && speaker.total() > 0 || tool != null && tool.total() > 0) {
                redactions += (speaker == null ? 0 : speaker.total()) + (tool == null ? 0 : tool.total());
                c = new Turn(c.role(), c.text(), c.id(), speaker == null ? null : name(speaker.text()),
                        tool == null ? null : tool.text(), c.at());
            }
            if (c.role() == Role.TOOL && c.speaker() == null && c.toolName().strip().length() <= 128) {
                // a tool speaks under its name: extraction and replay say whose output it is
                c = c.withSpeaker(c.toolName().strip());
            }
            clean.add(c);
        }
        Turn newest = clean.get(clean.size() - 1);
        String newestText = newest.text().length() <= MAX_REMEMBERED_CHARS ? newest.text()
                : newest.text().substring(newest.text().length() - MAX_REMEMBERED_CHARS);
        synchronized (lastTurns) {
            lastTurns.put(session, new LastTurn(newestText, who(newest), asked));
        }
        // extraction is pure computation: do it before taking the session lock
        List<List<ExtractedFact>> facts = new ArrayList<>(clean.size());
        List<String> turnIds = new ArrayList<>(clean.size());
        String beforeText = last == null ? null : last.text();
        String beforeWho = last == null ? null : last.who();
        for (Turn t : clean) {
            String turnId = t.id() != null ? t.id() : ids.next("t");
            turnIds.add(turnId);
            Instant at = t.at() != null ? t.at() : now;
            String who = who(t);
            // the turn before, when somebody else said it: what a reply without a subject is about
            String before = beforeText != null && !who.equals(beforeWho) ? beforeText : null;
            facts.add(extract(new TurnInput(t.role(), t.text(), t.speaker(), turnId, at, before)));
            beforeText = t.text();
            beforeWho = who;
        }
        List<SessionTurn> stored = new ArrayList<>(clean.size());
        List<String> observationIds = new ArrayList<>();
        List<String> observationTexts = new ArrayList<>();
        int observations = 0;
        // seqs are offsets from the session's end, resolved by the store inside its write transaction:
        // two managers or processes sharing the store never read the same "next seq"
        WriteBatch batch = WriteBatch.of(scope);
        List<SessionTurn> offsets = new ArrayList<>(clean.size());
        for (int i = 0; i < clean.size(); i++) {
            Turn t = clean.get(i);
            Instant at = t.at() != null ? t.at() : now;
            SessionTurn st = new SessionTurn(scope, sessionId, i, turnIds.get(i), t.role(), t.speaker(), t.text(), at);
            offsets.add(st);
            batch.appendAtSessionEnd(st);
            if (archive) {
                batch.archiveAtSessionEnd(st);
            }
            Provenance provenance = Provenance.ofTurn(t.role(), sessionId, turnIds.get(i), at);
            for (ExtractedFact f : facts.get(i)) {
                Observation o = observation(scope, sessionId, turnIds.get(i), at, provenance, f);
                batch.putNew(o);
                if (o.kind() != MemoryKind.STYLE) {
                    // STYLE observations are never searched (MemoryStore#searchObservations): no vector
                    observationIds.add(o.id());
                    observationTexts.add(o.text());
                }
                observations++;
            }
        }
        ReentrantLock lock = locks.lockFor(List.of(scope, sessionId));
        lock.lock();
        try {
            store.write(batch);
        } finally {
            lock.unlock();
        }
        long first = batch.assignedSeq(sessionId);
        for (SessionTurn st : offsets) {
            stored.add(st.withSeq(first + st.seq()));
        }
        List<SessionTurn> toEmbed = archive ? stored : List.of();
        if (embeddings != null && (!observationIds.isEmpty() || !toEmbed.isEmpty())) {
            List<String> texts = new ArrayList<>(observationTexts);
            for (SessionTurn t : toEmbed) {
                texts.add(t.searchText());
            }
            embeddings.submit(new ToEmbed(scope, observationIds, toEmbed, texts));
        }
        return new TurnReceipt(turnIds, observations, redactions);
    }

    /**
     * The extractor's facts, or none when it throws: the turn is still recorded (session and archive),
     * and the failure is logged and counted ({@link #failures()}), never thrown at the caller.
     */
    private List<ExtractedFact> extract(TurnInput input) {
        if (extractor == null) {
            return List.of();
        }
        try {
            List<ExtractedFact> out = extractor.extract(input);
            return out == null ? List.of() : out;
        } catch (RuntimeException | StackOverflowError e) {
            extractorErrors.incrementAndGet();
            LOG.warn("extractor {} failed on turn {}; the turn is recorded without observations: {}",
                    extractor.getClass().getSimpleName(), input.turnId(), e.toString());
            return List.of();
        }
    }

    /**
     * The failures this pipeline absorbed so far (cumulative): extractor errors, LLM extraction
     * fallbacks, embedding failures and drops.
     */
    dev.reverie.LayerHealth.Failures failures() {
        long fallbacks = extractor instanceof dev.reverie.extract.LlmExtractor llm ? llm.fallbacks() : 0;
        long failed = embeddings == null ? 0 : embeddings.failed();
        long dropped = embeddings == null ? 0 : embeddings.dropped();
        return new dev.reverie.LayerHealth.Failures(extractorErrors.get(), fallbacks, failed, dropped);
    }

    private Observation observation(Scope scope, String sessionId, String turnId, Instant at,
                                           Provenance provenance, ExtractedFact f) {
        String text = f.text();
        if (f.eventTime() != null) {
            String day = DAY.format(f.eventTime());
            if (!text.contains(day)) {
                text = text + Rendering.eventNote(day);
            }
        }
        return Observation.builder().id(ids.next("o")).scope(scope).kind(f.kind()).text(text).subject(f.subject())
                .value(f.value()).cardinality(f.cardinality()).polarity(f.polarity()).confidence(f.confidence())
                .observedAt(at).sessionId(sessionId).provenance(provenance).sourceTurnIds(List.of(turnId)).build();
    }

    /**
     * Reports how the run that produced {@code turnId} ended: records the outcome on its observations
     * and, when FAILED, deprecates the memories that rest on failed turns only (see
     * {@link FailedRunCriterion}). Returns the ids of the memories it deprecated.
     */
    List<String> reportRun(Scope scope, String turnId, Outcome outcome) {
        return failedRuns.report(scope, turnId, outcome);
    }

    /**
     * Sets the outcome on the provenance of every observation that came from {@code turnId}; returns
     * how many changed. Memories are handled by {@link #reportRun} (the failed-run criterion).
     */
    int reportOutcome(Scope scope, String turnId, Outcome outcome) {
        Checks.notNull("scope", scope);
        Checks.id("turnId", turnId);
        Checks.notNull("outcome", outcome);
        WriteBatch batch = WriteBatch.of(scope);
        int page = 0;
        int size = 1_000;
        while (true) {
            List<Observation> obs = store.observations(scope, ObservationFilter.all().page(page * size, size));
            for (Observation o : obs) {
                if (turnId.equals(o.provenance().turnId()) && o.provenance().outcome() != outcome) {
                    batch.put(o.withProvenance(o.provenance().withOutcome(outcome)));
                }
            }
            if (obs.size() < size) {
                break;
            }
            page++;
        }
        store.write(batch);
        return batch.size();
    }


    private void writeEmbeddings(List<ToEmbed> jobs) {
        List<String> texts = new ArrayList<>();
        for (ToEmbed j : jobs) {
            texts.addAll(j.texts());
        }
        List<float[]> vectors = new ArrayList<>(texts.size());
        for (int from = 0; from < texts.size(); from += EMBED_CHUNK) {
            List<String> chunk = texts.subList(from, Math.min(texts.size(), from + EMBED_CHUNK));
            List<float[]> out = embedder.embedAll(chunk);
            if (out == null || out.size() != chunk.size()) {
                throw new IllegalStateException("embedder returned " + (out == null ? "null" : out.size() + " vectors")
                        + " for " + chunk.size() + " texts");
            }
            vectors.addAll(out);
        }
        int dimension = embedder.dimension();
        Map<Scope, Map<String, float[]>> byScope = new LinkedHashMap<>();
        Map<Scope, Map<SessionTurn, float[]>> turnsByScope = new LinkedHashMap<>();
        int next = 0;
        for (ToEmbed j : jobs) {
            for (String id : j.ids()) {
                byScope.computeIfAbsent(j.scope(), k -> new LinkedHashMap<>()).put(id, vectors.get(next++));
            }
            for (SessionTurn t : j.turns()) {
                byScope.computeIfAbsent(j.scope(), k -> new LinkedHashMap<>());
                turnsByScope.computeIfAbsent(j.scope(), k -> new LinkedHashMap<>()).put(t, vectors.get(next++));
            }
        }
        for (Map.Entry<Scope, Map<String, float[]>> e : byScope.entrySet()) {
            Scope scope = e.getKey();
            // the scope's lock: a concurrent dream or admin change of the observation is never overwritten
            ReentrantLock lock = locks.lockFor(scope);
            lock.lock();
            try {
                WriteBatch batch = WriteBatch.of(scope);
                for (Map.Entry<String, float[]> v : e.getValue().entrySet()) {
                    Optional<Observation> current = store.observation(scope, v.getKey());
                    if (current.isEmpty() || current.get().embedding() != null) {
                        continue;
                    }
                    float[] vector = v.getValue();
                    if (vector == null || vector.length != dimension) {
                        LOG.warn("embeddings: observation {} got a vector of {} components, the embedder's dimension "
                                + "is {}; stored without a vector", v.getKey(),
                                vector == null ? "no" : vector.length, dimension);
                        continue;
                    }
                    batch.put(current.get().withEmbedding(Embedding.of(vector)));
                }
                for (Map.Entry<SessionTurn, float[]> v : turnsByScope.getOrDefault(scope, Map.of()).entrySet()) {
                    SessionTurn t = v.getKey();
                    // only a turn still archived as it was: an erased or purged turn is never written back
                    if (v.getValue() != null && v.getValue().length == dimension
                            && store.archivedTurns(scope, t.sessionId(), t.seq(), t.seq()).contains(t)) {
                        batch.archive(t, Embedding.of(v.getValue()));
                    }
                }
                if (!batch.isEmpty()) {
                    store.write(batch);
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /** Embedding counters: observation groups embedded, failed, dropped (all zero without an embedder). */
    long[] embeddingCounters() {
        return embeddings == null ? new long[3]
                : new long[] {embeddings.written(), embeddings.failed(), embeddings.dropped()};
    }

    /** Waits until the observations recorded so far have their vectors (or their embedding failed). */
    void flushEmbeddings() {
        if (embeddings != null) {
            embeddings.flush();
        }
    }

    /** Drains the embedding queue. */
    @Override
    public void close() {
        if (embeddings != null) {
            embeddings.close();
        }
    }
}
