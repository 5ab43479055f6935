package dev.reverie;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The rule table's own test: every rule in {@code secret-rules.tsv} has at least one positive
 * example and one near miss in {@code secret-rule-examples.tsv}, so the examples cannot drift from
 * the rules. Each positive must be caught by its rule alone (with the rule's marker type) and by the
 * whole redactor; each near miss must be left alone by both.
 */
class SecretRuleExamplesTest {

    /** One line of the examples file. */
    record Example(String ruleId, boolean positive, String secret, String text) {
        @Override
        public String toString() {
            return ruleId + (positive ? " + " : " - ") + (text.length() > 70 ? text.substring(0, 70) + "…" : text);
        }
    }

    private static final SecretRules RULES = SecretRules.builtIn();
    private static final SecretRedactor ALL = new SecretRedactor();

    static List<Example> examples() throws IOException {
        List<Example> out = new ArrayList<>();
        try (InputStream in = SecretRuleExamplesTest.class.getResourceAsStream("secret-rule-examples.tsv")) {
            assertThat(in).as("secret-rule-examples.tsv on the test class path").isNotNull();
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line : reader.lines().toList()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] c = line.split("\t", 4);
                assertThat(c).as("4 columns in: %s", line).hasSize(4);
                assertThat(c[1]).as("sign in: %s", line).isIn("+", "-");
                out.add(new Example(c[0], c[1].equals("+"), c[2].replace("\\n", "\n"), c[3].replace("\\n", "\n")));
            }
        }
        return out;
    }

    static List<Example> positives() throws IOException {
        return examples().stream().filter(Example::positive).toList();
    }

    static List<Example> nearMisses() throws IOException {
        return examples().stream().filter(e -> !e.positive()).toList();
    }

    @Test
    void every_rule_has_a_positive_and_a_near_miss() throws IOException {
        List<Example> examples = examples();
        Set<String> ruleIds = RULES.rules().stream().map(SecretRule::id).collect(Collectors.toCollection(TreeSet::new));
        Set<String> withPositive = examples.stream().filter(Example::positive).map(Example::ruleId).collect(Collectors.toSet());
        Set<String> withNearMiss = examples.stream().filter(e -> !e.positive()).map(Example::ruleId).collect(Collectors.toSet());
        Set<String> missing = new TreeSet<>();
        for (String id : ruleIds) {
            if (!withPositive.contains(id)) {
                missing.add(id + " (no positive)");
            }
            if (!withNearMiss.contains(id)) {
                missing.add(id + " (no near miss)");
            }
        }
        assertThat(missing).as("rules without examples").isEmpty();
        Set<String> unknown = examples.stream().map(Example::ruleId).filter(id -> !ruleIds.contains(id))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(unknown).as("examples naming no rule").isEmpty();
        System.out.printf("secret rules: %d, examples: %d positive, %d near misses%n", ruleIds.size(),
                withPositive.size() == 0 ? 0 : examples.stream().filter(Example::positive).count(),
                examples.stream().filter(e -> !e.positive()).count());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("positives")
    void positive_is_redacted_by_its_rule_and_by_the_redactor(Example e) {
        assertThat(e.text()).as("the example holds its secret").contains(e.secret());
        SecretRule rule = RULES.only(e.ruleId()).rules().get(0);
        String alone = new SecretRedactor(RULES.only(e.ruleId())).redact(e.text()).text();
        assertThat(alone).as("rule %s alone", e.ruleId()).doesNotContain(e.secret())
                .contains(Redaction.marker(rule.type()));
        Redaction all = ALL.redact(e.text());
        assertThat(all.text()).as("whole redactor").doesNotContain(e.secret());
        assertThat(ALL.redact(all.text()).text()).as("idempotent").isEqualTo(all.text());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nearMisses")
    void near_miss_is_left_alone(Example e) {
        assertThat(new SecretRedactor(RULES.only(e.ruleId())).redact(e.text()).text()).as("rule %s alone", e.ruleId())
                .isEqualTo(e.text());
        assertThat(ALL.redact(e.text()).text()).as("whole redactor").isEqualTo(e.text());
    }

    @Test
    void rule_file_errors_name_the_line() {
        assertThatThrownBy(() -> SecretRules.parse(List.of("a\tb\tkw\t0\t-"), "rules.tsv"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rules.tsv line 1").hasMessageContaining("6 tab-separated columns");
        assertThatThrownBy(() -> SecretRules.parse(List.of("a\tb\tkw\t0\tnope\tx"), "rules.tsv"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown validator 'nope'");
        assertThatThrownBy(() -> SecretRules.parse(List.of("a\tb\tkw\t0\t-\t(", "a\tb\tkw\t0\t-\tx"), "rules.tsv"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bad regex");
        assertThatThrownBy(() -> SecretRules.parse(List.of("a\tb\tkw\t0\t-\tx", "a\tb\tkw\t0\t-\tx"), "rules.tsv"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 2: duplicate rule id 'a'");
        assertThatThrownBy(() -> SecretRules.parse(List.of("a\tb\tKW\t0\t-\tx"), "rules.tsv"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be lower case");
        assertThatThrownBy(() -> SecretRules.parse(List.of("a\tb\tkw\ts\t-\tx"), "rules.tsv"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("group 's' is not in the regex");
        assertThatThrownBy(() -> SecretRules.parse(List.of("a\tb\twords>=0\t0\t-\tx"), "rules.tsv"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rules.tsv line 1");
    }

    @Test
    void a_words_trigger_runs_its_rule_only_on_a_text_with_that_many_plain_words_in_a_row() {
        SecretRules rules = SecretRules.parse(List.of("w\tsecret\twords>=4\t0\t-\t\\bzeta\\b"), "rules.tsv");
        SecretRedactor redactor = new SecretRedactor(rules);
        assertThat(redactor.redact("alpha beta gamma zeta").text()).isEqualTo("alpha beta gamma [REDACTED:secret]");
        assertThat(redactor.redact("alpha beta, gamma zeta").text()).contains("zeta"); // a comma breaks the run
        assertThat(redactor.redact("alpha  beta gamma zeta").text()).contains("zeta"); // so do two spaces
        assertThat(redactor.redact("al beta gamma zeta").text()).contains("zeta"); // and a word of two letters
    }
}
