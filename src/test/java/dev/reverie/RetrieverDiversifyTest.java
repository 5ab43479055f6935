package dev.reverie;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class RetrieverDiversifyTest {

    static final Instant T0 = Instant.parse("2026-03-02T09:00:00Z");
    static final String[] WORDS = {"friday", "appointment", "dipyrone", "allergy", "morning", "doctor", "invoice",
            "parking", "recife", "teacher"};

    /** The textbook definition: every round, each candidate's similarity to every chosen one. */
    static List<ScoredCandidate> naive(List<ScoredCandidate> ranked, int limit, double lambda) {
        List<ScoredCandidate> pool = new ArrayList<>(ranked);
        List<ScoredCandidate> chosen = new ArrayList<>();
        while (!pool.isEmpty() && chosen.size() < limit) {
            int bestIndex = 0;
            double bestValue = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < pool.size(); i++) {
                double maxSim = 0;
                for (ScoredCandidate c : chosen) {
                    maxSim = Math.max(maxSim, sim(pool.get(i).candidate(), c.candidate()));
                }
                double value = lambda * pool.get(i).score() - (1 - lambda) * maxSim;
                if (value > bestValue) {
                    bestValue = value;
                    bestIndex = i;
                }
            }
            chosen.add(pool.remove(bestIndex));
        }
        return chosen;
    }

    /** Words, whether or not the candidates carry embeddings (the random vectors below must not matter). */
    static double sim(Candidate a, Candidate b) {
        // the textbook Jaccard over the term strings: the reference for Retriever's hashed term sets
        java.util.Set<String> ta = new HashSet<>(dev.reverie.internal.Terms.comparisonTerms(a.text(), 256));
        java.util.Set<String> tb = new HashSet<>(dev.reverie.internal.Terms.comparisonTerms(b.text(), 256));
        if (ta.isEmpty() && tb.isEmpty()) {
            return 1;
        }
        java.util.Set<String> inter = new HashSet<>(ta);
        inter.retainAll(tb);
        return (double) inter.size() / (ta.size() + tb.size() - inter.size());
    }

    @Test
    void mmr_picks_what_the_textbook_definition_picks_on_random_candidates() {
        Random random = new Random(11);
        Retriever retriever = new Retriever(null, MemoryPolicy.defaults(), null);
        for (int round = 0; round < 200; round++) {
            int n = random.nextInt(60);
            boolean vectors = random.nextBoolean();
            List<ScoredCandidate> ranked = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < n; i++) {
                StringBuilder text = new StringBuilder();
                for (int w = 0; w < 1 + random.nextInt(6); w++) {
                    text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
                }
                Embedding e = null;
                if (vectors && random.nextInt(5) > 0) {
                    float[] v = new float[8];
                    for (int d = 0; d < v.length; d++) {
                        v[d] = (float) random.nextGaussian();
                    }
                    e = Embedding.of(v);
                }
                String id = "c" + i;
                seen.add(id);
                Candidate c = new Candidate(id, MemoryKind.FACT, text.toString().strip(), random.nextInt(100), T0,
                        Provenance.operator(T0), List.of(), false, e);
                ranked.add(new ScoredCandidate(c, random.nextDouble(), random.nextDouble(), 1, 1));
            }
            int limit = 1 + random.nextInt(12);
            assertThat(retriever.diversify(ranked, limit)).as("round %d", round)
                    .containsExactlyElementsOf(naive(ranked, limit, MemoryPolicy.defaults().mmrLambda()));
        }
    }
}
