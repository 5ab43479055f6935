package dev.reverie;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of {@code secret-rules.tsv}: a pattern, the marker type it writes, the cheap pre-test
 * that decides whether the pattern runs at all, the group that holds the secret and the check
 * that decides whether a match really is one. Immutable.
 *
 * @param id          unique rule id, e.g. {@code sendgrid-api-key}
 * @param type        the marker type, {@code [REDACTED:<type>]}
 * @param triggers    the pre-test: the rule runs only when every trigger holds
 * @param group       the secret's group: a number or a name
 * @param validator   decides whether a match is a secret and its exact span
 * @param pattern     the compiled pattern
 */
record SecretRule(String id, String type, List<Trigger> triggers, String group, SecretValidator validator,
                  Pattern pattern) {

    SecretRule {
        triggers = List.copyOf(triggers);
    }

    /**
     * One alternative group of the pre-test: it holds when the lower-cased text contains one of the
     * keywords (indexes into {@link SecretRules#keywords()}), or has at least {@code minDigits}
     * digits, or an unbroken run of at least {@code minRun} non-space characters (0: not used).
     */
    record Trigger(int[] keywordIds, int minDigits, int minRun, int minWords) {

        boolean holds(int digits, int longestRun, int wordRun, boolean[] present) {
            if (minDigits > 0 && digits >= minDigits) {
                return true;
            }
            if (minRun > 0 && longestRun >= minRun) {
                return true;
            }
            if (minWords > 0 && wordRun >= minWords) {
                return true;
            }
            for (int k : keywordIds) {
                if (present[k]) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Whether the pre-test passes: every trigger holds. */
    boolean mayMatch(int digits, int longestRun, int wordRun, boolean[] present) {
        for (Trigger t : triggers) {
            if (!t.holds(digits, longestRun, wordRun, present)) {
                return false;
            }
        }
        return true;
    }

    /** The start of the secret group in a successful match, or -1 when the group did not take part. */
    int groupStart(Matcher m) {
        return isNumber(group) ? m.start(Integer.parseInt(group)) : m.start(group);
    }

    /** The end of the secret group in a successful match. */
    int groupEnd(Matcher m) {
        return isNumber(group) ? m.end(Integer.parseInt(group)) : m.end(group);
    }

    static boolean isNumber(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return !s.isEmpty();
    }
}
