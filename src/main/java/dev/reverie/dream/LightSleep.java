package dev.reverie.dream;

import dev.reverie.Cardinality;
import dev.reverie.MemoryPolicy;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.Outcome;
import dev.reverie.Trust;
import dev.reverie.internal.Terms;
import dev.reverie.internal.Vectors;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Light sleep: collapses duplicate observations of one end user into one survivor, so repetition
 * becomes reinforcement. Two observations are duplicates when they have the same kind and polarity,
 * may hold the same statement (the same subject, or two episodic fallbacks) and either share the
 * same normalized value, or have near-identical text (token-set Jaccard at least
 * {@link MemoryPolicy#duplicateJaccard()}, or embedding cosine at least
 * {@link MemoryPolicy#duplicateCosine()}). A single-valued subject never merges two different values:
 * that is a contradiction, which deep sleep resolves.
 *
 * <p>The survivor of a group is its best-trusted (not failed, first-party, the user's own words),
 * latest observation; it gets the summed reinforcement count, the highest confidence and every
 * source turn id, and stays for deep sleep to judge. The others are marked DISCARDED (merged); their turn ids stay inside the survivor's, which is
 * how deep sleep later finds them again (their sessions count as support). Stateless apart from its
 * configuration; thread-safe.
 */
final class LightSleep {

    private static final Comparator<Observation> SURVIVOR_FIRST = Comparator
            .comparing((Observation o) -> o.provenance().outcome() == Outcome.FAILED)
            .thenComparing(o -> o.provenance().trust() == Trust.THIRD_PARTY)
            .thenComparing(o -> !Importance.authoritative(o.provenance()))
            .thenComparing(Observation::observedAt, Comparator.reverseOrder())
            .thenComparing(Observation::id);

    private final MemoryPolicy policy;

    LightSleep(MemoryPolicy policy) {
        this.policy = policy;
    }

    /** Merges the duplicates among {@code candidates} (oldest first), counting each merged-away one. */
    void run(UserState state, List<Observation> candidates, UserState.Changes changes, Counts counts,
             RunEmbeddings vectors, Progress progress) {
        int n = candidates.size();
        int[] parent = new int[n];
        for (int i = 0; i < n; i++) {
            parent[i] = i;
        }
        List<Set<String>> terms = new ArrayList<>(n);
        Map<String, Integer> byKey = new HashMap<>();
        SimilarityIndex<Integer> index = new SimilarityIndex<>(policy.duplicateJaccard());
        vectors.prefetch(candidates);
        Map<String, List<Integer>> byFamily = new HashMap<>();
        for (int i = 0; i < n; i++) {
            Observation o = candidates.get(i);
            Set<String> t = Terms.contentTerms(o.text());
            terms.add(t);
            Integer same = byKey.putIfAbsent(key(o), i);
            if (same != null) {
                union(parent, same, i);
            }
            for (int j : index.similar(t)) {
                if (mergeable(candidates.get(j), o)) {
                    union(parent, j, i);
                }
            }
            index.add(i, t);
            float[] v = vectors.of(o);
            if (v != null) {
                List<Integer> family = byFamily.computeIfAbsent(family(o), k -> new ArrayList<>());
                for (int j : family) {
                    if (find(parent, j) != find(parent, i) && mergeable(candidates.get(j), o)
                            && Vectors.cosineOrMinusOne(vectors.of(candidates.get(j)), v) >= policy.duplicateCosine()) {
                        union(parent, j, i);
                    }
                }
                family.add(i);
            }
            progress.tick(i + 1, n);
        }
        Map<Integer, List<Observation>> groups = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            groups.computeIfAbsent(find(parent, i), k -> new ArrayList<>()).add(candidates.get(i));
        }
        for (List<Observation> group : groups.values()) {
            if (group.size() > 1) {
                merge(state, group, changes, counts);
            }
        }
    }

    private void merge(UserState state, List<Observation> group, UserState.Changes changes, Counts counts) {
        List<Observation> ranked = new ArrayList<>(group);
        ranked.sort(SURVIVOR_FIRST);
        Observation survivor = ranked.get(0);
        List<Observation> chronological = new ArrayList<>(group);
        chronological.sort(Comparator.comparing(Observation::observedAt).thenComparing(Observation::id));
        Set<String> turns = new LinkedHashSet<>();
        int count = 0;
        double confidence = 0;
        for (Observation o : chronological) {
            turns.addAll(o.sourceTurnIds());
            count += o.reinforcementCount();
            confidence = Math.max(confidence, o.confidence());
        }
        changes.put(survivor.toBuilder().confidence(confidence).sourceTurnIds(List.copyOf(turns))
                .reinforcementCount(count).build());
        for (Observation o : ranked.subList(1, ranked.size())) {
            if (o.status() != ObservationStatus.DISCARDED) {
                changes.put(o.withStatus(ObservationStatus.DISCARDED, state.now));
            }
            counts.duplicates++;
        }
    }

    /** Whether {@code a} and {@code b} are duplicates by the rule of this phase. */
    boolean duplicates(Observation a, Observation b, RunEmbeddings vectors) {
        if (!mergeable(a, b)) {
            return false;
        }
        return key(a).equals(key(b))
                || Terms.jaccard(Terms.contentTerms(a.text()), Terms.contentTerms(b.text())) >= policy.duplicateJaccard()
                || Vectors.cosineOrMinusOne(vectors.of(a), vectors.of(b)) >= policy.duplicateCosine();
    }

    /**
     * Whether two observations may be merged at all: same kind and polarity, a shared subject family,
     * and for a single-valued subject the same value; for a many-valued one values that are one
     * within the other ("python" and "python programming": one statement extracted twice), never two
     * values with nothing in common (an allergy to penicillin and one to amoxicillin are two facts,
     * however alike the sentences that state them).
     */
    static boolean mergeable(Observation a, Observation b) {
        if (a.kind() != b.kind() || a.polarity() != b.polarity() || !Text.sameFamily(a.subject(), b.subject())) {
            return false;
        }
        if (!Text.episodic(a.subject()) && a.cardinality() == Cardinality.SINGLE) {
            return Terms.normalizeValue(a.value()).equals(Terms.normalizeValue(b.value()));
        }
        return Text.episodic(a.subject()) || Text.valuesMayMatch(a.value(), b.value());
    }

    /** Kind, subject, polarity and normalized value (the text when there is no value). */
    static String key(Observation o) {
        String value = o.value().isBlank() ? o.text() : o.value();
        return o.kind() + "|" + o.subject() + "|" + o.polarity() + "|" + Terms.normalizeValue(value);
    }

    private static String family(Observation o) {
        return Text.family(o.subject());
    }

    private static int find(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }

    private static void union(int[] parent, int a, int b) {
        int ra = find(parent, a);
        int rb = find(parent, b);
        if (ra != rb) {
            parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }
    }
}
