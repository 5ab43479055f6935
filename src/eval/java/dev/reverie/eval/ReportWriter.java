package dev.reverie.eval;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Writes a run's results as {@code results.json} (everything, for tools) and {@code results.md} (the
 * tables, for people). Stateless and thread-safe.
 */
final class ReportWriter {

    /** The key of the tuning set in {@link SystemResult#bySet} and the run's split. */
    static final String TUNE = "tune";

    /** The key of the held-out set. */
    static final String HELD_OUT = "heldOut";

    /** The baseline the headline table's ratios compare with. */
    private static final String REFERENCE = "bm25";

    /**
     * One system's results.
     *
     * @param name          the system's name
     * @param description   what it does
     * @param ingestSeconds time spent feeding the conversations (recording, indexing, embedding, dreaming)
     * @param budgets       per budget, over every sample of the run
     * @param bySet         per budget over the tuning set ({@value #TUNE}) and the held-out set
     *                      ({@value #HELD_OUT}); a set no sample of the run is in has no budgets
     * @param notes         system-specific figures (embedding time, dream counters, store)
     */
    record SystemResult(String name, String description, double ingestSeconds,
                        List<Scoreboard.BudgetSummary> budgets,
                        Map<String, List<Scoreboard.BudgetSummary>> bySet, Map<String, Object> notes) {
    }

    /**
     * A whole run.
     *
     * @param benchmark what was measured
     * @param data      the data file and its counts
     * @param run       date, machine and settings, with the split under {@code split}
     * @param systems   the systems' results
     */
    record RunResult(String benchmark, Map<String, Object> data, Map<String, Object> run,
                     List<SystemResult> systems) {
    }

    private ReportWriter() {
    }

    static void write(Path folder, RunResult result) {
        try {
            Files.createDirectories(folder);
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValue(folder.resolve("results.json").toFile(), result);
            Files.writeString(folder.resolve("results.md"), markdown(result));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write results to " + folder.toAbsolutePath(), e);
        }
    }

    static String markdown(RunResult result) {
        StringBuilder md = new StringBuilder();
        md.append("# LoCoMo evidence recall\n\n");
        md.append("Data: `").append(result.data().get("path")).append("` (")
                .append(result.data().get("samples")).append(" conversations, ")
                .append(result.data().get("turns")).append(" turns, ")
                .append(result.data().get("questionsCategories1to4")).append(" scored questions in categories 1–4, ")
                .append(result.data().get("questionsCategory5")).append(" in category 5). ")
                .append("Mean conversation: ").append(result.data().get("meanConversationTokens"))
                .append(" tokens.\n\n");
        md.append("Run: ").append(result.run().get("date")).append(", ")
                .append(result.run().get("cores")).append(" cores, Java ")
                .append(result.run().get("java")).append(", ")
                .append(result.run().get("seconds")).append(" s in all.\n\n");
        List<String> tune = set(result, TUNE);
        List<String> heldOut = set(result, HELD_OUT);
        md.append("Tuning set (the defaults were tuned on it): ").append(names(tune))
                .append("; held out: ").append(names(heldOut)).append(".\n\n");
        md.append("Word cover is recall that credits a turn found through a derived memory only with the share of ")
                .append("its content words that memory carries; answer cover is the share of the gold answer's ")
                .append("content words (same analyzer, speakers' names aside) that the context holds outside the ")
                .append("prompt and the question");
        Scoreboard.AnswerCoverage counted = answerCounts(result);
        if (counted != null) {
            md.append(" (").append(counted.questions()).append(" questions scored, ").append(counted.leftOut())
                    .append(" left out because their answer has no content word)");
        }
        md.append(". Recall is over categories 1–4 (mean of found / evidence per question); \"all\" and \"any\" ")
                .append("are the shares of questions with every / at least one evidence turn found; tokens are the ")
                .append("mean context size (o200k_base); latency is the time to build one context; × ")
                .append(REFERENCE).append(" is the ratio to ").append(REFERENCE).append(" at the same budget.\n\n");
        headline(md, result, !tune.isEmpty() && !heldOut.isEmpty());
        md.append("\n## All conversations\n\n");
        table(md, result, SystemResult::budgets);
        if (!tune.isEmpty() && !heldOut.isEmpty()) {
            md.append("\n## Tuning set: ").append(names(tune)).append("\n\n");
            table(md, result, system -> system.bySet().get(TUNE));
            md.append("\n## Held-out set: ").append(names(heldOut)).append("\n\n");
            table(md, result, system -> system.bySet().get(HELD_OUT));
        } else {
            md.append("\nEvery conversation of this run is in the ").append(tune.isEmpty() ? "held-out" : "tuning")
                    .append(" set, so the table above is that set's.\n");
        }
        md.append("\n| system | what it is | ingest s | notes |\n| --- | --- | ---: | --- |\n");
        for (SystemResult system : result.systems()) {
            md.append("| ").append(system.name()).append(" | ").append(system.description()).append(" | ")
                    .append(String.format(Locale.ROOT, "%.1f", system.ingestSeconds())).append(" | ")
                    .append(notes(system.notes())).append(" |\n");
        }
        return md.toString();
    }

    /** The compact table: coverage first, recall, size and speed, with ratios to the reference. */
    private static void headline(StringBuilder md, RunResult result, boolean withHeldOut) {
        Map<Integer, Scoreboard.BudgetSummary> reference = new HashMap<>();
        result.systems().stream().filter(s -> s.name().equals(REFERENCE)).findFirst()
                .ifPresent(s -> s.budgets().forEach(b -> reference.put(b.budget(), b)));
        md.append("| system | budget | word cover | × ").append(REFERENCE).append(" | answer cover | recall 1–4 | × ")
                .append(REFERENCE).append(" | tokens | p50 ms |");
        md.append(withHeldOut ? " held-out word cover | held-out answer cover |\n" : "\n");
        md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
                .append(withHeldOut ? " ---: | ---: |\n" : "\n");
        for (SystemResult system : result.systems()) {
            Map<Integer, Scoreboard.BudgetSummary> heldOut = new HashMap<>();
            system.bySet().getOrDefault(HELD_OUT, List.of()).forEach(b -> heldOut.put(b.budget(), b));
            for (Scoreboard.BudgetSummary b : system.budgets()) {
                Scoreboard.BudgetSummary ref = reference.get(b.budget());
                md.append("| ").append(system.name())
                        .append(" | ").append(b.budget())
                        .append(" | ").append(pct(b.wordCoverage1to4()))
                        .append(" | ").append(ref == null ? "–" : ratio(b.wordCoverage1to4(), ref.wordCoverage1to4()))
                        .append(" | ").append(pct(b.answerCoverage1to4().meanCoverage()))
                        .append(" | ").append(pct(b.categories1to4().meanRecall()))
                        .append(" | ").append(ref == null ? "–"
                                : ratio(b.categories1to4().meanRecall(), ref.categories1to4().meanRecall()))
                        .append(" | ").append(Math.round(b.meanTokens()))
                        .append(" | ").append(ms(b.latencyP50Ms()))
                        .append(" |");
                if (withHeldOut) {
                    Scoreboard.BudgetSummary h = heldOut.get(b.budget());
                    md.append(' ').append(h == null ? "–" : pct(h.wordCoverage1to4()))
                            .append(" | ").append(h == null ? "–" : pct(h.answerCoverage1to4().meanCoverage()))
                            .append(" |");
                }
                md.append('\n');
            }
        }
    }

    /** Every figure of every system and budget, over the summaries {@code of} picks. */
    private static void table(StringBuilder md, RunResult result,
                              Function<SystemResult, List<Scoreboard.BudgetSummary>> of) {
        md.append("| system | budget | word cover 1–4 | answer cover 1–4 | recall 1–4 | all found | any found | ")
                .append("cat 1 | cat 2 | cat 3 | cat 4 | answer cat 1 | answer cat 2 | answer cat 3 | answer cat 4 | ")
                .append("recall 1–5 | tokens | p50 ms | p99 ms |\n");
        md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ")
                .append("---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (SystemResult system : result.systems()) {
            for (Scoreboard.BudgetSummary b : of.apply(system)) {
                md.append("| ").append(system.name())
                        .append(" | ").append(b.budget())
                        .append(" | ").append(pct(b.wordCoverage1to4()))
                        .append(" | ").append(pct(b.answerCoverage1to4().meanCoverage()))
                        .append(" | ").append(pct(b.categories1to4().meanRecall()))
                        .append(" | ").append(pct(b.categories1to4().allFound()))
                        .append(" | ").append(pct(b.categories1to4().anyFound()));
                for (int c = 1; c <= 4; c++) {
                    Scoreboard.Recall recall = b.byCategory().get(String.valueOf(c));
                    md.append(" | ").append(recall.questions() == 0 ? "–" : pct(recall.meanRecall()));
                }
                for (int c = 1; c <= 4; c++) {
                    Scoreboard.AnswerCoverage answer = b.answerCoverageByCategory().get(String.valueOf(c));
                    md.append(" | ").append(answer.questions() == 0 ? "–" : pct(answer.meanCoverage()));
                }
                md.append(" | ").append(pct(b.categories1to5().meanRecall()))
                        .append(" | ").append(Math.round(b.meanTokens()))
                        .append(" | ").append(ms(b.latencyP50Ms()))
                        .append(" | ").append(ms(b.latencyP99Ms()))
                        .append(" |\n");
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static List<String> set(RunResult result, String key) {
        Object split = result.run().get("split");
        if (split instanceof Map<?, ?> map && map.get(key) instanceof List<?> ids) {
            return (List<String>) ids;
        }
        return List.of();
    }

    /** The answer-coverage counts of the run (the same for every system and budget), or null. */
    private static Scoreboard.AnswerCoverage answerCounts(RunResult result) {
        return result.systems().stream().flatMap(s -> s.budgets().stream()).findFirst()
                .map(Scoreboard.BudgetSummary::answerCoverage1to4).orElse(null);
    }

    private static String names(List<String> ids) {
        return ids.isEmpty() ? "none in this run" : String.join(", ", ids);
    }

    private static String ratio(double value, double reference) {
        return reference == 0 ? "–" : String.format(Locale.ROOT, "%.2f×", value / reference);
    }

    private static String notes(Map<String, Object> notes) {
        StringBuilder out = new StringBuilder();
        notes.forEach((k, v) -> out.append(out.length() == 0 ? "" : "; ").append(k).append(' ').append(v));
        return out.toString();
    }

    private static String pct(double share) {
        return String.format(Locale.ROOT, "%.1f %%", 100 * share);
    }

    private static String ms(double millis) {
        return millis < 10 ? String.format(Locale.ROOT, "%.2f", millis) : String.format(Locale.ROOT, "%.0f", millis);
    }
}
