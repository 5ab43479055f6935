package dev.reverie.extract;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of {@code secret-rules.tsv}: a pattern, the marker type it writes, the cheap pre-test
 * that decides whether the pattern runs at all, the group that holds the secret and the check
 * that decides whether a match really is one. Immutable.
 *
 * @param id          unique rule id, e.g. {@code sendgrid-api-key}
 * @param type        the marker type, {@code [REDACTED:<type>]}
 * @param keywordIds  indexes into {@link SecretRules#keywords()}: the rule runs when the lower-cased
 *                    text contains one of them (or meets {@code minDigits}/{@code minRun})
 * @param minDigits   the rule also runs when the text has at least this many digits (0: never)
 * @param minRun      the rule also runs when the text has a run of this many non-space characters (0: never)
 * @param group       the secret's group: a number or a name
 * @param validator   decides whether a match is a secret and its exact span
 * @param pattern     the compiled pattern
 */
record SecretRule(String id, String type, int[] keywordIds, int minDigits, int minRun, String group,
                  SecretValidator validator, Pattern pattern) {

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
