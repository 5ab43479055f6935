package dev.reverie;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * False positives on ordinary prose: the share of secret-free sentences the redactor changes, on a
 * built-in English and Portuguese corpus (everyday talk, with the traps: "password", "senha",
 * "token", "key", phone numbers, dates, prices, order numbers) and, when the evaluation data is
 * present, on every LoCoMo dialogue turn. Prints the measured rates; fails above 0.5 %.
 */
class SecretRedactorProseTest {

    private static final double MAX_RATE = 0.005;
    private static final Path LOCOMO = Path.of(System.getProperty("reverie.locomo",
            "../shared/eval/locomo/locomo-dev.json"));

    private final SecretRedactor redactor = new SecretRedactor();

    @Test
    void ordinary_english_and_portuguese_prose_is_left_alone() throws IOException {
        List<String> en = sentences("ordinary-prose-en.txt");
        List<String> pt = sentences("ordinary-prose-pt.txt");
        assertThat(en.size() + pt.size()).isGreaterThanOrEqualTo(300);
        double enRate = rate("English prose", en);
        double ptRate = rate("Portuguese prose", pt);
        List<String> all = new ArrayList<>(en);
        all.addAll(pt);
        double rate = rate("English + Portuguese prose", all);
        assertThat(enRate).as("English false-positive rate").isLessThanOrEqualTo(MAX_RATE);
        assertThat(ptRate).as("Portuguese false-positive rate").isLessThanOrEqualTo(MAX_RATE);
        assertThat(rate).isLessThanOrEqualTo(MAX_RATE);
    }

    @Test
    void locomo_dialogue_turns_are_left_alone() throws IOException {
        assumeTrue(Files.isRegularFile(LOCOMO), "LoCoMo file not found at " + LOCOMO.toAbsolutePath());
        List<String> turns = RedactionTiming.locomoTurns(LOCOMO);
        assertThat(turns).isNotEmpty();
        assertThat(rate("LoCoMo turns", turns)).isLessThanOrEqualTo(MAX_RATE);
    }

    private double rate(String name, List<String> texts) {
        List<String> changed = new ArrayList<>();
        for (String text : texts) {
            Redaction r = redactor.redact(text);
            if (r.changed()) {
                changed.add(text + "  ->  " + r.text());
            }
        }
        double rate = (double) changed.size() / texts.size();
        System.out.printf("SecretRedactor false positives, %s: %d of %d changed (%.2f %%)%n", name, changed.size(),
                texts.size(), rate * 100);
        changed.forEach(c -> System.out.println("  changed: " + c));
        return rate;
    }

    private static List<String> sentences(String resource) throws IOException {
        try (InputStream in = SecretRedactorProseTest.class.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        }
    }
}
