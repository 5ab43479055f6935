package dev.reverie.dream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.reverie.ContextManager;
import dev.reverie.Memory;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryPolicy;
import dev.reverie.MutableClock;
import dev.reverie.Observation;
import dev.reverie.ObservationFilter;
import dev.reverie.ObservationStatus;
import dev.reverie.Scope;
import dev.reverie.Turn;
import dev.reverie.TurnReceipt;
import dev.reverie.spi.MemoryStore;
import dev.reverie.store.sqlite.SqliteMemoryStore;

import java.io.File;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Measures what the dream cycle keeps of the LoCoMo conversations ({@code ../shared/eval/locomo}):
 * each conversation is one end user; every turn goes through the real write path
 * ({@link ContextManager#recordTurn}, rule-based extraction, with the turn's dia_id, speaker and the
 * session's date), the cycle runs after every session with the clock at the session's date, and a
 * day after the last session we count which turns some ACTIVE memory still carries as a source turn
 * id: the evidence turns of the questions (categories 1–4) should survive months of cycles, small
 * talk should not. Not a test: a tuning tool whose output {@code docs/dream.md} quotes.
 *
 * <pre>mvn -q -o test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=dev.reverie.dream.DreamLocomoRetention [-Dexec.args="path/to/locomo-dev.json defaults|tuned|both"]</pre>
 */
public final class DreamLocomoRetention {

    private static final DateTimeFormatter DATE = new java.time.format.DateTimeFormatterBuilder()
            .parseCaseInsensitive().appendPattern("h:mm a 'on' d MMMM, yyyy").toFormatter(Locale.ENGLISH);

    private DreamLocomoRetention() {
    }

    public static void main(String[] args) throws Exception {
        String path = args.length > 0 ? args[0] : "../shared/eval/locomo/locomo-dev.json";
        String which = args.length > 1 ? args[1] : "both";
        JsonNode samples = new ObjectMapper().readTree(new File(path));
        if (!which.equals("tuned")) {
            measure("defaults", MemoryPolicy.defaults(), samples);
        }
        if (!which.equals("defaults")) {
            measure("EVENT half-life 180 d, TTL 365 d", MemoryPolicy.defaults().toBuilder()
                    .halfLife(MemoryKind.EVENT, Duration.ofDays(180)).ttl(MemoryKind.EVENT, Duration.ofDays(365))
                    .build(), samples);
        }
    }

    private static void measure(String label, MemoryPolicy policy, JsonNode samples) {
        int evidence = 0;
        int evidenceExtracted = 0;
        int evidenceKept = 0;
        int other = 0;
        int otherExtracted = 0;
        int otherKept = 0;
        long activeAtEnd = 0;
        DreamReport total = DreamReport.EMPTY;
        List<String> lost = new ArrayList<>();
        Map<String, Integer> reasons = new java.util.TreeMap<>();
        long started = System.nanoTime();
        for (JsonNode sample : samples) {
            MutableClock clock = new MutableClock(Instant.EPOCH);
            try (MemoryStore store = SqliteMemoryStore.inMemory();
                 ContextManager memory = ContextManager.builder().store(store).clock(clock).policy(policy)
                         .archive(false).build()) {
                DreamCycle cycle = DreamCycle.builder(store).policy(policy).clock(clock).build();
                Scope scope = Scope.of("locomo", "eval", sample.get("sample_id").asText());
                JsonNode conv = sample.get("conversation");
                Map<String, String> texts = new LinkedHashMap<>();
                Set<String> extracted = new HashSet<>();
                Map<String, String> fate = new HashMap<>();
                Set<String> promotedTurns = new HashSet<>();
                Instant last = Instant.EPOCH;
                for (int n = 1; conv.has("session_" + n); n++) {
                    Instant at = LocalDateTime.parse(conv.get("session_" + n + "_date_time").asText(), DATE)
                            .toInstant(ZoneOffset.UTC);
                    clock.set(at);
                    for (JsonNode turn : conv.get("session_" + n)) {
                        String dia = turn.get("dia_id").asText();
                        texts.put(dia, turn.get("text").asText());
                        TurnReceipt receipt = memory.recordTurn(scope, "session_" + n,
                                Turn.user(turn.get("text").asText()).withId(dia)
                                        .withSpeaker(turn.get("speaker").asText()).at(at));
                        if (receipt.observations() > 0) {
                            extracted.add(dia);
                        }
                    }
                    memory.flush();
                    clock.set(at.plus(Duration.ofHours(6)));
                    List<Observation> pending = store.observations(scope, ObservationFilter.pending());
                    total = total.plus(cycle.run(scope));
                    for (Observation o : pending) {
                        Observation judged = store.observation(scope, o.id()).orElse(o);
                        for (String t : o.sourceTurnIds()) {
                            if (judged.status() == ObservationStatus.CONSOLIDATED || judged.status() == ObservationStatus.DISCARDED
                                    && judged.reinforcementCount() == 1 && !promotedTurns.contains(t)) {
                                fate.merge(t, judged.status() == ObservationStatus.CONSOLIDATED ? "promoted" : "discarded",
                                        (a, b) -> a.equals("promoted") ? a : b);
                            }
                            if (judged.status() == ObservationStatus.CONSOLIDATED) {
                                promotedTurns.add(t);
                            }
                        }
                    }
                    last = at;
                }
                clock.set(last.plus(Duration.ofDays(1)));
                total = total.plus(cycle.run(scope));
                Set<String> kept = new HashSet<>();
                Map<String, String> inactive = new HashMap<>();
                for (Memory m : store.memories(scope, MemoryFilter.all())) {
                    if (m.kind() == MemoryKind.SYNTHESIS) {
                        activeAtEnd += m.status() == dev.reverie.MemoryStatus.ACTIVE ? 1 : 0;
                        continue;
                    }
                    if (m.status() == dev.reverie.MemoryStatus.ACTIVE) {
                        activeAtEnd++;
                        kept.addAll(m.sourceTurnIds());
                    } else {
                        String why = m.status() + " " + store.history(scope, m.id()).stream()
                                .filter(e -> e.type().name().equals(m.status().name())).map(e -> e.cause())
                                .findFirst().orElse("").replaceAll("\\b(m|syn)-[0-9a-f]+", "<id>");
                        m.sourceTurnIds().forEach(t -> inactive.putIfAbsent(t, why));
                    }
                }
                Set<String> evidenceIds = evidence(sample, texts.keySet());
                for (String dia : texts.keySet()) {
                    boolean isKept = kept.contains(dia);
                    boolean isExtracted = extracted.contains(dia);
                    if (evidenceIds.contains(dia)) {
                        evidence++;
                        evidenceExtracted += isExtracted ? 1 : 0;
                        evidenceKept += isKept ? 1 : 0;
                        if (isExtracted && !isKept) {
                            String why = inactive.getOrDefault(dia, fate.getOrDefault(dia, "?").equals("promoted")
                                    ? "forgotten (decay or ttl)" : fate.getOrDefault(dia, "never judged"));
                            reasons.merge(why, 1, Integer::sum);
                            if (lost.size() < 15) {
                                lost.add(why + " | " + dia + " " + Text.abbreviate(texts.get(dia), 100));
                            }
                        }
                    } else {
                        other++;
                        otherExtracted += isExtracted ? 1 : 0;
                        otherKept += isKept ? 1 : 0;
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "%s:%n"
                        + "  evidence turns (cat 1-4): %d, extracted %.1f %%, in an ACTIVE memory at the end %.1f %%"
                        + " (%.1f %% of the extracted)%n"
                        + "  other turns: %d, extracted %.1f %%, in an ACTIVE memory at the end %.1f %%%n"
                        + "  ACTIVE memories at the end: %d; summed report: %s%n  %.1f s%n",
                label, evidence, 100.0 * evidenceExtracted / evidence, 100.0 * evidenceKept / evidence,
                100.0 * evidenceKept / evidenceExtracted, other, 100.0 * otherExtracted / other,
                100.0 * otherKept / other, activeAtEnd, total, (System.nanoTime() - started) / 1e9);
        System.out.println("  extracted evidence turns not ACTIVE at the end, by reason: " + reasons);
        lost.forEach(l -> System.out.println("    lost: " + l));
    }

    private static Set<String> evidence(JsonNode sample, Set<String> turns) {
        Set<String> out = new HashSet<>();
        for (JsonNode qa : sample.get("qa")) {
            int category = qa.get("category").asInt();
            if (category < 1 || category > 4) {
                continue;
            }
            for (JsonNode e : qa.get("evidence")) {
                for (String id : e.asText().replace("D:", "D").split("[;\\s]+")) {
                    if (turns.contains(id)) {
                        out.add(id);
                    }
                }
            }
        }
        return out;
    }
}
