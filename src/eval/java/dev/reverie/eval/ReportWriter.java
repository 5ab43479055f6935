package dev.reverie.eval;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes a run's results as {@code results.json} (everything, for tools) and {@code results.md} (the
 * tables, for people). Stateless and thread-safe.
 */
final class ReportWriter {

    /**
     * One system's results.
     *
     * @param name          the system's name
     * @param description   what it does
     * @param ingestSeconds time spent feeding the conversations (recording, indexing, embedding, dreaming)
     * @param budgets       per budget
     * @param notes         system-specific figures (embedding time, dream counters, store)
     */
    record SystemResult(String name, String description, double ingestSeconds,
                        List<Scoreboard.BudgetSummary> budgets, Map<String, Object> notes) {
    }

    /**
     * A whole run.
     *
     * @param benchmark what was measured
     * @param data      the data file and its counts
     * @param run       date, machine and settings
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
        md.append("Recall is over categories 1–4 (mean of found / evidence per question); \"all\" and \"any\" are ")
                .append("the shares of questions with every / at least one evidence turn found; tokens are the ")
                .append("mean context size (o200k_base); latency is the time to build one context.\n\n");
        md.append("| system | budget | recall 1–4 | all found | any found | cat 1 | cat 2 | cat 3 | cat 4 | ")
                .append("recall 1–5 | tokens | p50 ms | p99 ms |\n");
        md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (SystemResult system : result.systems()) {
            for (Scoreboard.BudgetSummary b : system.budgets()) {
                md.append("| ").append(system.name())
                        .append(" | ").append(b.budget())
                        .append(" | ").append(pct(b.categories1to4().meanRecall()))
                        .append(" | ").append(pct(b.categories1to4().allFound()))
                        .append(" | ").append(pct(b.categories1to4().anyFound()));
                for (int c = 1; c <= 4; c++) {
                    md.append(" | ").append(pct(b.byCategory().get(String.valueOf(c)).meanRecall()));
                }
                md.append(" | ").append(pct(b.categories1to5().meanRecall()))
                        .append(" | ").append(Math.round(b.meanTokens()))
                        .append(" | ").append(ms(b.latencyP50Ms()))
                        .append(" | ").append(ms(b.latencyP99Ms()))
                        .append(" |\n");
            }
        }
        md.append("\n| system | what it is | ingest s | notes |\n| --- | --- | ---: | --- |\n");
        for (SystemResult system : result.systems()) {
            md.append("| ").append(system.name()).append(" | ").append(system.description()).append(" | ")
                    .append(String.format(Locale.ROOT, "%.1f", system.ingestSeconds())).append(" | ")
                    .append(notes(system.notes())).append(" |\n");
        }
        return md.toString();
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
