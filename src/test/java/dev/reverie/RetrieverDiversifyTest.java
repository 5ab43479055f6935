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
        return naive(ranked, limit, lambda, Long.MAX_VALUE);
    }

    /** As above, stopping once the picks' estimated tokens (characters / 4 + 8 each) reach {@code budget}. */
    static List<ScoredCandidate> naive(List<ScoredCandidate> ranked, int limit, double lambda, long budget) {
        List<ScoredCandidate> pool = new ArrayList<>(ranked);
        List<ScoredCandidate> chosen = new ArrayList<>();
        long estimated = 0;
        while (!pool.isEmpty() && chosen.size() < limit && estimated < budget) {
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
            ScoredCandidate pick = pool.remove(bestIndex);
            chosen.add(pick);
            estimated += pick.candidate().text().length() / 4 + 8;
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

    @Test
    void mmr_picks_the_textbook_picks_on_large_pools_with_ties_empty_texts_and_a_token_bound() {
        Random random = new Random(23);
        String[] vocabulary = new String[300];
        for (int i = 0; i < vocabulary.length; i++) {
            vocabulary[i] = "w" + Integer.toString(i * 7919, 36) + "x";
        }
        for (int round = 0; round < 60; round++) {
            double lambda = round % 3 == 0 ? 0.5 : 0.85;
            Retriever retriever = new Retriever(null, MemoryPolicy.builder().mmrLambda(lambda).build(), null);
            int n = 1 + random.nextInt(250);
            List<ScoredCandidate> ranked = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                StringBuilder text = new StringBuilder();
                int words = random.nextInt(8) == 0 ? 0 : 1 + random.nextInt(30); // some with no terms at all
                for (int w = 0; w < words; w++) {
                    // a skewed vocabulary: a few words shared by many candidates, as names are in a conversation
                    int at = random.nextInt(4) == 0 ? random.nextInt(5) : random.nextInt(vocabulary.length);
                    text.append(vocabulary[at]).append(' ');
                }
                if (words == 0) {
                    text.append(random.nextBoolean() ? "" : "a the of"); // stop words only: an empty term set
                }
                // coarse scores: many exact ties, which go to the earlier-ranked candidate
                double score = random.nextInt(6) / 5.0;
                Candidate c = new Candidate("c" + i, MemoryKind.EVENT, text.toString().strip(), 50, T0,
                        Provenance.operator(T0), List.of(), false, null);
                ranked.add(new ScoredCandidate(c, score, score, 1, 1));
            }
            ranked.sort(java.util.Comparator.comparingDouble(ScoredCandidate::score).reversed());
            int limit = 1 + random.nextInt(n + 5);
            int tokenBudget = random.nextBoolean() ? Integer.MAX_VALUE : 1 + random.nextInt(2_000);
            long budget = tokenBudget == Integer.MAX_VALUE ? Long.MAX_VALUE : (long) (Retriever.OVERPICK * tokenBudget);
            List<ScoredCandidate> expected = naive(ranked, limit, lambda, budget);
            assertThat(retriever.diversify(ranked, limit, tokenBudget)).as("round %d", round)
                    .containsExactlyElementsOf(expected);
            // both ways of computing the similarities, whichever the expected number of picks chose
            assertThat(retriever.diversifyIndexed(ranked, limit, budget)).as("indexed, round %d", round)
                    .containsExactlyElementsOf(expected);
            assertThat(retriever.diversifyPairwise(ranked, limit, budget)).as("pairwise, round %d", round)
                    .containsExactlyElementsOf(expected);
            if (round == 0) {
                assertThat(expected.size()).isGreaterThan(1);
            }
        }
    }
}
