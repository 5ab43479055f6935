package dev.reverie.eval;

import dev.reverie.AssembledContext;
import dev.reverie.ContextManager;
import dev.reverie.ContextMessage;
import dev.reverie.ContextRequest;
import dev.reverie.ImmutableLayer;
import dev.reverie.Memory;
import dev.reverie.MemoryAdmin;
import dev.reverie.MemoryEvent;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryPolicy;
import dev.reverie.MemoryStatus;
import dev.reverie.Observation;
import dev.reverie.ObservationFilter;
import dev.reverie.RecalledMemory;
import dev.reverie.Scope;
import dev.reverie.Turn;
import dev.reverie.TurnReceipt;
import dev.reverie.dream.DreamReport;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reverie itself, driven only through its public API as a host application would drive it.
 *
 * <p>One fresh store per system run ({@code sqlite} or {@code lucene} in a folder under the output
 * folder, {@code postgresql} as a new database on the run's embedded server), and one {@link ContextManager} over it per conversation, its ids seeded with the
 * conversation's id (so every run gives the same contexts), with the default {@link MemoryPolicy} and the default
 * extractor (rule-based), the harness's fixed system prompt as its immutable layer, and a
 * {@link SettableClock}. Each conversation gets its own scope {@code locomo/eval/<sample_id>}.
 * Turns go in one {@code recordTurn} call each, in order, as user turns with the {@code dia_id} as
 * turn id, the speaker's name and the session's date, each session under its own session id
 * ({@code session-N}) with the clock at the session's date. The dreaming variants call
 * {@link ContextManager#dream(Scope)} for the conversation's scope after each session, the clock
 * still at that session's date.
 *
 * <p>Questions are asked one day after the last session, in a new session {@code qa} that holds no
 * turns. That is the fair setup: a host starts a new session for a new conversation, so nothing is
 * in the temporal layer and everything the context holds about the past comes from memory. Asking
 * in the last session's id would give Reverie a free recency window over that session, which the
 * retrieval baselines do not get.
 *
 * <p>The {@code hybrid} variants give the manager the run's shared MiniLM embedder (queries are
 * cached, so latency measures retrieval; see {@link CachingEmbedder}). Not thread-safe.
 */
final class ReverieSystem implements EvalSystem {

    /** The session questions are asked in: one the conversation never used. */
    static final String QA_SESSION = "qa";

    /** How long after the last session the questions are asked. */
    static final Duration QUESTION_DELAY = Duration.ofDays(1);

    /** Page size when listing a scope's observations and memories for a diagnosis. */
    private static final int PAGE = 10_000;

    private final String name;
    private final String storeKind;
    private final CachingEmbedder embedder;
    private final SettableClock clock = new SettableClock(Instant.EPOCH);
    private final MemoryStore store;
    /** The manager of the conversation being ingested and asked (one per conversation, ids seeded by its id); null before the first. */
    private ContextManager memory;
    private final boolean dream;
    private final List<Long> recordNanos = new ArrayList<>();
    private final List<Long> dreamNanos = new ArrayList<>();
    private DreamReport dreamTotal = DreamReport.EMPTY;
    private long observations;
    private final Map<String, Integer> extractedPerTurn = new HashMap<>();
    private Scope scope;

    /**
     * @param name      the system's name
     * @param storeKind {@code sqlite}, {@code lucene} or {@code postgresql}
     * @param storeUri  the URI of a new, empty store of that kind
     * @param embedder  the embedder for hybrid retrieval, or {@code null} for lexical only
     * @param dream     whether to run the dream cycle after each session
     */
    ReverieSystem(String name, String storeKind, String storeUri, CachingEmbedder embedder, boolean dream) {
        this.name = name;
        this.storeKind = storeKind;
        this.embedder = embedder;
        this.store = MemoryStores.open(storeUri);
        this.dream = dream;
    }

    /**
     * A manager over the system's store whose ids come from {@code idSeed}: seeded per conversation,
     * a run gives every variant the same ids for a conversation, and every run the same contexts
     * (ids break ranking ties).
     */
    private ContextManager manager(long idSeed) {
        ContextManager.Builder builder = ContextManager.builder()
                .store(store)
                .immutable(ImmutableLayer.of(TurnPacker.SYSTEM_PROMPT))
                .clock(clock)
                .policy(MemoryPolicy.defaults())
                .idSeed(idSeed);
        if (embedder != null) {
            builder.embedder(embedder);
        }
        return builder.build();
    }

    /** A fresh, empty store folder for {@code system} under {@code out}/stores. */
    static Path freshFolder(Path out, String system) {
        Path folder = out.resolve("stores").resolve(system);
        try {
            if (Files.exists(folder)) {
                try (Stream<Path> paths = Files.walk(folder)) {
                    for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
            return Files.createDirectories(folder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare store folder " + folder.toAbsolutePath(), e);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return "Reverie: default (rule-based) extraction, " + (embedder == null ? "lexical" : "hybrid (MiniLM)")
                + " retrieval, " + (dream ? "dream after each session" : "no dream") + ", " + storeKind
                + " store, default policy, questions in a new session";
    }

    @Override
    public void ingest(LocomoData.Sample sample) {
        if (memory != null) {
            memory.flush();
            memory.close(); // the store stays open
        }
        memory = manager(sample.id().hashCode());
        scope = Scope.of("locomo", "eval", sample.id());
        extractedPerTurn.clear();
        for (LocomoData.Session session : sample.sessions()) {
            clock.set(session.date());
            for (LocomoData.DialogTurn turn : session.turns()) {
                long t0 = System.nanoTime();
                TurnReceipt receipt = memory.recordTurn(scope, session.sessionId(),
                        Turn.user(turn.text()).withId(turn.diaId()).withSpeaker(turn.speaker()).at(turn.at()));
                recordNanos.add(System.nanoTime() - t0);
                observations += receipt.observations();
                extractedPerTurn.put(turn.diaId(), receipt.observations());
            }
            if (dream) {
                memory.flush();
                long t0 = System.nanoTime();
                dreamTotal = dreamTotal.plus(memory.dream(scope));
                dreamNanos.add(System.nanoTime() - t0);
            }
        }
        clock.set(sample.lastSessionDate().plus(QUESTION_DELAY));
        memory.flush();
    }

    @Override
    public RetrievedContext context(String question, int budgetTokens) {
        AssembledContext context = memory.buildContext(ContextRequest.builder(scope, QA_SESSION)
                .query(question)
                .budgetTokens(budgetTokens)
                .build());
        StringBuilder text = new StringBuilder();
        for (ContextMessage message : context.messages()) {
            text.append(message.content()).append('\n');
        }
        List<RetrievedContext.Recalled> recalled = new ArrayList<>(context.recalled().size());
        for (RecalledMemory item : context.recalled()) {
            String label = (item.observation() ? "obs:" : "mem:") + item.kind().name().toLowerCase(Locale.ROOT)
                    + (item.pinned() ? ":pinned" : "");
            recalled.add(new RetrievedContext.Recalled(label, item.text(), item.score(), item.sourceTurnIds()));
        }
        return new RetrievedContext(text.toString(), context.usage().total(), recalled);
    }

    /**
     * Which observations and memories came from {@code turnId}, with their status, and for a memory
     * that can no longer be recalled the last event of its history: where the turn was lost. Read
     * through {@link ContextManager#admin()}, as an operator would.
     */
    @Override
    public String diagnose(String turnId) {
        MemoryAdmin admin = memory.admin();
        List<String> lines = new ArrayList<>();
        for (int offset = 0; ; offset += PAGE) {
            List<Observation> batch = admin.observations(scope, ObservationFilter.all().page(offset, PAGE));
            for (Observation o : batch) {
                if (o.sourceTurnIds().contains(turnId)) {
                    lines.add("observation " + o.status() + " " + o.kind() + ": " + o.text());
                }
            }
            if (batch.size() < PAGE) {
                break;
            }
        }
        for (int offset = 0; ; offset += PAGE) {
            List<Memory> batch = admin.memories(scope, MemoryFilter.all().page(offset, PAGE));
            for (Memory m : batch) {
                if (m.sourceTurnIds().contains(turnId)) {
                    String line = String.format(Locale.ROOT, "memory %s %s importance %.0f: %s", m.status(),
                            m.kind(), m.importance(), m.text());
                    if (m.status() != MemoryStatus.ACTIVE) {
                        List<MemoryEvent> history = admin.history(scope, m.id());
                        if (!history.isEmpty()) {
                            MemoryEvent last = history.get(history.size() - 1);
                            line += " [last event " + last.type() + " at " + last.at() + ": " + last.cause() + "]";
                        }
                    }
                    lines.add(line);
                }
            }
            if (batch.size() < PAGE) {
                break;
            }
        }
        int extracted = extractedPerTurn.getOrDefault(turnId, 0);
        if (lines.isEmpty()) {
            return extracted == 0 ? "recordTurn extracted no observation from " + turnId + " (lost at extraction)"
                    : "recordTurn extracted " + extracted + " observation(s) from " + turnId
                    + "; none remains, nor a memory (discarded and pruned, or forgotten, by the dream)";
        }
        return "recordTurn extracted " + extracted + " observation(s); now:\n" + String.join("\n", lines);
    }

    @Override
    public Map<String, Object> notes() {
        long[] sorted = recordNanos.stream().mapToLong(Long::longValue).sorted().toArray();
        Map<String, Object> notes = new LinkedHashMap<>();
        notes.put("store", store.describe());
        notes.put("turnsRecorded", sorted.length);
        notes.put("observationsExtracted", observations);
        notes.put("recordTurnP50Ms", Math.round(Scoreboard.percentile(sorted, 0.5) / 1e4) / 100.0);
        notes.put("recordTurnP99Ms", Math.round(Scoreboard.percentile(sorted, 0.99) / 1e4) / 100.0);
        if (dream) {
            long[] dreamSorted = dreamNanos.stream().mapToLong(Long::longValue).sorted().toArray();
            notes.put("dreams", dreamSorted.length);
            notes.put("dreamP50Ms", Math.round(Scoreboard.percentile(dreamSorted, 0.5) / 1e4) / 100.0);
            notes.put("dreamCounters", dreamTotal);
        }
        return notes;
    }

    @Override
    public void close() {
        if (memory != null) {
            memory.close();
        }
        store.close();
    }
}
