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
 * (median and p99, nearest rank). Token and latency figures are over the category 1–4 questions.
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
     * @param foundByProvenanceOnly of those, ids found only through a recalled item's source ids
     * @param foundByTextOnly       of those, ids found only as text (no recalled item names them)
     * @param provenanceRefused     ids not found, though a recalled item cited them: it shared no
     *                              content word with the turn (see {@link ContentTerms})
     * @param tokens                the context's tokens
     * @param latencyNanos          how long building the context took
     */
    record Outcome(String sampleId, int qaIndex, int category, int evidence, int found,
                   int foundByProvenanceOnly, int foundByTextOnly, int provenanceRefused, int tokens,
                   long latencyNanos) {
        double recall() {
            return (double) found / evidence;
        }
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
    record BudgetSummary(int budget, Recall categories1to4, Map<String, Recall> byCategory,
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

    /** The summaries of one system, by ascending budget. */
    List<BudgetSummary> summarize(String system) {
        List<BudgetSummary> out = new ArrayList<>();
        outcomes.getOrDefault(system, Map.of()).entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> out.add(summarize(e.getKey(), e.getValue())));
        return out;
    }

    private static BudgetSummary summarize(int budget, List<Outcome> all) {
        List<Outcome> main = filter(all, o -> o.category() <= 4);
        Map<String, Recall> byCategory = new LinkedHashMap<>();
        for (int c = 1; c <= 5; c++) {
            int category = c;
            byCategory.put(String.valueOf(c), recall(filter(all, o -> o.category() == category)));
        }
        long[] latencies = main.stream().mapToLong(Outcome::latencyNanos).sorted().toArray();
        return new BudgetSummary(budget, recall(main), byCategory, recall(all),
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
