package dev.reverie.eval;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Collects one {@link Outcome} per system, budget and question, and summarises them the way the
 * README asks: mean recall, all-found and any-found rates over categories 1–4 and per category,
 * the same over categories 1–5 for comparison with the paper, context tokens, and query latency
 * (median and p99, nearest rank), next to the word coverage of the evidence and the answer coverage
 * of the gold answer. Token and latency figures are over the category 1–4 questions. A summary
 * covers every sample or a chosen set of them (the tuning or the held-out conversations).
 *
 * <p>Not thread-safe; the harness fills it from one thread.
 */
final class Scoreboard {

    /**
     * The score of one question at one budget.
     *
     * @param sampleId              the sample
     * @param qaIndex               the question's index in the sample
     * @param category              its category, 1–5
     * @param evidence              usable evidence ids
     * @param found                 evidence ids found (by text or by provenance)
     * @param covered               the found ids weighted by how much of each turn the context
     *                              carries: 1 for a turn found as text, else the share of the
     *                              turn's content words present in the recalled items citing it
     * @param foundByProvenanceOnly of those, ids found only through a recalled item's source ids
     * @param foundByTextOnly       of those, ids found only as text (no recalled item names them)
     * @param provenanceRefused     ids not found, though a recalled item cited them: it shared no
     *                              content word with the turn (see {@link ContentTerms})
     * @param answerTerms           the gold answer's content words (speakers' names aside); 0 when it
     *                              has none, which leaves the question out of answer coverage
     * @param answerTermsFound      of those, the ones the context holds outside the prompt and question
     * @param tokens                the context's tokens
     * @param latencyNanos          how long building the context took
     */
    record Outcome(String sampleId, int qaIndex, int category, int evidence, int found, double covered,
                   int foundByProvenanceOnly, int foundByTextOnly, int provenanceRefused,
                   int answerTerms, int answerTermsFound, int tokens, long latencyNanos) {
        double recall() {
            return (double) found / evidence;
        }

        double wordCoverage() {
            return covered / evidence;
        }

        boolean hasAnswerTerms() {
            return answerTerms > 0;
        }

        double answerCoverage() {
            return (double) answerTermsFound / answerTerms;
        }
    }

    /**
     * Answer coverage over a set of questions: the mean, over the questions whose gold answer has at
     * least one content word, of the share of those words the context holds.
     *
     * @param questions    questions scored
     * @param leftOut      questions left out because their answer has no content word
     * @param meanCoverage the mean share (0 when no question was scored)
     */
    record AnswerCoverage(int questions, int leftOut, double meanCoverage) {
    }

    /**
     * Recall figures over a set of questions.
     *
     * @param questions  how many
     * @param meanRecall mean of found / evidence
     * @param allFound   share with every evidence turn found
     * @param anyFound   share with at least one found
     */
    record Recall(int questions, double meanRecall, double allFound, double anyFound) {
    }

    /**
     * Everything reported for one system at one budget.
     *
     * @param budget                the token budget
     * @param categories1to4        the main figure
     * @param wordCoverage1to4      mean over questions of the evidence's word coverage (see
     *                              {@link Outcome#covered}): recall that gives a turn only the share
     *                              of its content words the context carries, categories 1–4
     * @param answerCoverage1to4    mean share of the gold answer's content words present in the context,
     *                              categories 1–4 (see {@link AnswerCoverage})
     * @param answerCoverageByCategory the same per category, keys "1" to "4"
     * @param byCategory            per category, keys "1" to "5"
     * @param categories1to5        over all categories, for comparison with the paper
     * @param meanTokens            mean context tokens
     * @param maxTokens             largest context
     * @param overBudget            contexts larger than the budget (must be 0)
     * @param latencyP50Ms          median time to build a context
     * @param latencyP99Ms          99th percentile
     * @param evidenceFound         evidence ids found, categories 1–4
     * @param foundByProvenanceOnly of those, found only through recalled items' source turn ids
     * @param foundByTextOnly       of those, found only as text in the context (for the raw-turn
     *                              baselines, which name every packed turn, this must be 0 unless two
     *                              turns share a text)
     * @param provenanceRefused     evidence ids cited by a recalled item that shared no content word
     *                              with the turn, so not counted (categories 1–4)
     */
    record BudgetSummary(int budget, Recall categories1to4, double wordCoverage1to4,
                         AnswerCoverage answerCoverage1to4, Map<String, AnswerCoverage> answerCoverageByCategory,
                         Map<String, Recall> byCategory,
                         Recall categories1to5, double meanTokens, int maxTokens, int overBudget,
                         double latencyP50Ms, double latencyP99Ms, int evidenceFound,
                         int foundByProvenanceOnly, int foundByTextOnly, int provenanceRefused) {
    }

    private final Map<String, Map<Integer, List<Outcome>>> outcomes = new LinkedHashMap<>();

    void add(String system, int budget, Outcome outcome) {
        outcomes.computeIfAbsent(system, s -> new LinkedHashMap<>())
                .computeIfAbsent(budget, b -> new ArrayList<>())
                .add(outcome);
    }

    /** The summaries of one system over every sample, by ascending budget. */
    List<BudgetSummary> summarize(String system) {
        return summarize(system, sample -> true);
    }

    /**
     * The summaries of one system over the samples {@code inSet} accepts, by ascending budget; empty
     * when no question of those samples was scored.
     */
    List<BudgetSummary> summarize(String system, Predicate<String> inSet) {
        List<BudgetSummary> out = new ArrayList<>();
        outcomes.getOrDefault(system, Map.of()).entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> {
                    List<Outcome> chosen = filter(e.getValue(), o -> inSet.test(o.sampleId()));
                    if (!chosen.isEmpty()) {
                        out.add(summarize(e.getKey(), chosen));
                    }
                });
        return out;
    }

    private static BudgetSummary summarize(int budget, List<Outcome> all) {
        List<Outcome> main = filter(all, o -> o.category() <= 4);
        Map<String, Recall> byCategory = new LinkedHashMap<>();
        for (int c = 1; c <= 5; c++) {
            int category = c;
            byCategory.put(String.valueOf(c), recall(filter(all, o -> o.category() == category)));
        }
        Map<String, AnswerCoverage> answerByCategory = new LinkedHashMap<>();
        for (int c = 1; c <= 4; c++) {
            int category = c;
            answerByCategory.put(String.valueOf(c), answerCoverage(filter(all, o -> o.category() == category)));
        }
        long[] latencies = main.stream().mapToLong(Outcome::latencyNanos).sorted().toArray();
        return new BudgetSummary(budget, recall(main),
                main.stream().mapToDouble(Outcome::wordCoverage).average().orElse(0),
                answerCoverage(main), answerByCategory, byCategory, recall(all),
                main.stream().mapToInt(Outcome::tokens).average().orElse(0),
                main.stream().mapToInt(Outcome::tokens).max().orElse(0),
                (int) all.stream().filter(o -> o.tokens() > budget).count(),
                percentile(latencies, 0.50) / 1e6, percentile(latencies, 0.99) / 1e6,
                main.stream().mapToInt(Outcome::found).sum(),
                main.stream().mapToInt(Outcome::foundByProvenanceOnly).sum(),
                main.stream().mapToInt(Outcome::foundByTextOnly).sum(),
                main.stream().mapToInt(Outcome::provenanceRefused).sum());
    }

    private static Recall recall(List<Outcome> outcomes) {
        if (outcomes.isEmpty()) {
            return new Recall(0, 0, 0, 0);
        }
        double n = outcomes.size();
        return new Recall(outcomes.size(),
                outcomes.stream().mapToDouble(Outcome::recall).sum() / n,
                outcomes.stream().filter(o -> o.found() == o.evidence()).count() / n,
                outcomes.stream().filter(o -> o.found() > 0).count() / n);
    }

    private static AnswerCoverage answerCoverage(List<Outcome> outcomes) {
        List<Outcome> scored = filter(outcomes, Outcome::hasAnswerTerms);
        return new AnswerCoverage(scored.size(), outcomes.size() - scored.size(),
                scored.stream().mapToDouble(Outcome::answerCoverage).average().orElse(0));
    }

    /** Nearest-rank percentile of sorted values; 0 when there are none. */
    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
    }

    private static List<Outcome> filter(List<Outcome> outcomes, Predicate<Outcome> keep) {
        return outcomes.stream().filter(keep).toList();
    }
}
