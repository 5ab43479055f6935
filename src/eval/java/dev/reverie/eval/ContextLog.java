package dev.reverie.eval;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SequenceWriter;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes every assembled context to a JSON-lines file ({@code --contexts FILE}), one object per
 * system, budget and question, streamed as the run goes so that nothing is held in memory: the raw
 * material for an answer-level evaluation or for reading what a system really gave the model.
 *
 * <p>Each line holds {@code system}, {@code budget}, {@code sample_id}, {@code question_index} (the
 * question's index in the sample's {@code qa} list), {@code category}, {@code question},
 * {@code answer} (the gold answer, the adversarial answer for category 5, or empty), {@code tokens},
 * the harness's own scores of that context ({@code evidence} turns, {@code evidence_found},
 * {@code word_cover} in [0, 1], {@code answer_terms}, {@code answer_terms_found}) and
 * {@code context} (the full text the system returned: every message, in order).
 *
 * <p>Not thread-safe; the harness writes from one thread.
 */
final class ContextLog implements AutoCloseable {

    private final Path file;
    private final BufferedWriter out;
    private final SequenceWriter lines;
    private long written;

    /** Opens (and truncates) {@code file}, creating its folder. */
    ContextLog(Path file) {
        this.file = file;
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
            lines = new ObjectMapper().writer().withRootValueSeparator("\n").writeValues(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open --contexts file " + file.toAbsolutePath(), e);
        }
    }

    /** Appends one context with its scores (evidence turns found, word and answer coverage). */
    void write(String system, int budget, String sampleId, LocomoData.QaItem qa, RetrievedContext context,
               Scoreboard.Outcome outcome) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("system", system);
        line.put("budget", budget);
        line.put("sample_id", sampleId);
        line.put("question_index", qa.index());
        line.put("category", qa.category());
        line.put("question", qa.question());
        line.put("answer", qa.answer());
        line.put("tokens", context.tokens());
        line.put("evidence", outcome.evidence());
        line.put("evidence_found", outcome.found());
        line.put("word_cover", outcome.wordCoverage());
        line.put("answer_terms", outcome.answerTerms());
        line.put("answer_terms_found", outcome.answerTermsFound());
        line.put("context", context.text());
        try {
            lines.write(line);
            written++;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to --contexts file " + file.toAbsolutePath(), e);
        }
    }

    /** How many contexts were written. */
    long written() {
        return written;
    }

    /** The file written to. */
    Path file() {
        return file;
    }

    @Override
    public void close() {
        try {
            if (written > 0) {
                // the separator goes between lines only; end the last one too
                lines.flush();
                out.write('\n');
            }
            lines.close();
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close --contexts file " + file.toAbsolutePath(), e);
        }
    }
}
