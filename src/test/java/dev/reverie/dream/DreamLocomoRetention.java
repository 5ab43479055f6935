package dev.reverie.dream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.reverie.Memory;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryPolicy;
import dev.reverie.Observation;
import dev.reverie.Scope;
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
 * every turn goes into L3 as an episodic observation of its speaker (the write path's fallback, the
 * weakest signal an extractor gives), the cycle runs after every session with the clock at the
 * session's date, and at the end (a day after the last session) we count which turns some ACTIVE
 * memory still carries as a source turn id: the evidence turns of the questions (categories 1–4)
 * must survive, the rest may go. Not a test: a tuning tool whose output {@code docs/dream.md} quotes.
 *
 * <pre>mvn -q -o test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=dev.reverie.dream.DreamLocomoRetention [-Dexec.args="path/to/locomo-dev.json defaults|tuned"]</pre>
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
        int evidenceKept = 0;
        int evidencePromoted = 0;
        int other = 0;
        int otherKept = 0;
        int otherPromoted = 0;
        DreamReport total = DreamReport.EMPTY;
        Importance importance = new Importance(policy);
        long started = System.nanoTime();
        for (JsonNode sample : samples) {
            try (MemoryStore store = SqliteMemoryStore.inMemory()) {
                MutableClock clock = new MutableClock(Instant.EPOCH);
                DreamCycle cycle = DreamCycle.builder(store).policy(policy).clock(clock).build();
                JsonNode conv = sample.get("conversation");
                Map<String, Scope> scopes = new HashMap<>();
                Map<String, String> owner = new HashMap<>();
                Set<String> worthy = new HashSet<>();
                Instant last = Instant.EPOCH;
                for (int n = 1; conv.has("session_" + n); n++) {
                    Instant at = LocalDateTime.parse(conv.get("session_" + n + "_date_time").asText(), DATE)
                            .toInstant(ZoneOffset.UTC);
                    Map<Scope, List<Observation>> byUser = new LinkedHashMap<>();
                    for (JsonNode turn : conv.get("session_" + n)) {
                        String speaker = turn.get("speaker").asText();
                        Scope scope = scopes.computeIfAbsent(speaker, s -> Scope.of("locomo", "eval",
                                sample.get("sample_id").asText() + "-" + s.replaceAll("[^A-Za-z0-9]", "")));
                        String dia = turn.get("dia_id").asText();
                        owner.put(dia, speaker);
                        Observation o = Obs.episode(scope, "o-" + dia.replace(':', '-'), turn.get("text").asText())
                                .turns(dia).session("session_" + n).at(at).build();
                        if (importance.of(o) >= policy.importanceCutoff()) {
                            worthy.add(dia);
                        }
                        byUser.computeIfAbsent(scope, k -> new ArrayList<>()).add(o);
                    }
                    byUser.values().forEach(list -> Obs.write(store, list.toArray(new Observation[0])));
                    clock.set(at.plus(Duration.ofHours(6)));
                    for (Scope scope : scopes.values()) {
                        total = total.plus(cycle.run(scope));
                    }
                    last = at;
                }
                clock.set(last.plus(Duration.ofDays(1)));
                Map<String, Set<String>> kept = new HashMap<>();
                for (Map.Entry<String, Scope> e : scopes.entrySet()) {
                    total = total.plus(cycle.run(e.getValue()));
                    Set<String> k = new HashSet<>();
                    for (Memory m : store.memories(e.getValue(), MemoryFilter.all())) {
                        if (m.status() == dev.reverie.MemoryStatus.ACTIVE && m.kind() != MemoryKind.SYNTHESIS) {
                            k.addAll(m.sourceTurnIds());
                        }
                    }
                    kept.put(e.getKey(), k);
                }
                Set<String> evidenceIds = evidence(sample, owner.keySet());
                for (Map.Entry<String, String> e : owner.entrySet()) {
                    boolean isKept = kept.get(e.getValue()).contains(e.getKey());
                    boolean isPromoted = worthy.contains(e.getKey());
                    if (evidenceIds.contains(e.getKey())) {
                        evidence++;
                        evidenceKept += isKept ? 1 : 0;
                        evidencePromoted += isPromoted ? 1 : 0;
                    } else {
                        other++;
                        otherKept += isKept ? 1 : 0;
                        otherPromoted += isPromoted ? 1 : 0;
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "%s:%n  evidence turns (cat 1-4): %d, at or above the cutoff %.1f %%, ACTIVE at the end %.1f %%%n"
                        + "  other turns: %d, at or above the cutoff %.1f %%, ACTIVE at the end %.1f %%%n  report: %s%n  %.1f s%n",
                label, evidence, 100.0 * evidencePromoted / evidence, 100.0 * evidenceKept / evidence, other,
                100.0 * otherPromoted / other, 100.0 * otherKept / other, total,
                (System.nanoTime() - started) / 1e9);
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
