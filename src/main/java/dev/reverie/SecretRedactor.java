package dev.reverie;

import dev.reverie.SecretValidator.Span;
import dev.reverie.internal.Checks;
import dev.reverie.internal.Terms;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces secrets in free text by {@code [REDACTED:<type>]} before anything is stored. The rules
 * are data, {@code secret-rules.tsv} next to this class (modelled on gitleaks' rule set): provider
 * keys and tokens (AWS, GitHub, GitLab, Slack, Stripe, Google, OpenAI, Anthropic, Twilio, Mailgun,
 * SendGrid, npm, PyPI, Hugging Face, Discord, Telegram, Shopify, Square, Heroku, DigitalOcean, Azure
 * and more), any key made of a vendor prefix and a random body ({@code tvly-…}, {@code lsv2_pt_…}),
 * JWTs, PEM private keys, Base58Check wallet keys (checksum validated), credentials in URLs and
 * connection strings, bearer and basic authorization, {@code *_KEY / *_TOKEN / *_SECRET / *_PASSWORD}
 * assignments (env, YAML, JSON), passwords disclosed in English or Portuguese prose (the label is
 * kept, the value goes, a passphrase to the end of its clause) and, shaped like credentials, in
 * Spanish, French, German, Italian, Dutch and Polish, PINs and door codes, and card numbers (Luhn),
 * CPF numbers (check digits) and IBANs (mod-97).
 *
 * <p>Like gitleaks, each rule runs only when one of its keywords occurs in the lower-cased text (or
 * the text has enough digits, or a long enough unbroken run), so a sentence with no secret-like
 * marker costs one lower-casing pass and one keyword scan (only the keywords that start with
 * the character at hand are compared). No pattern can backtrack
 * catastrophically (every repetition is bounded or followed by a literal). Matches that overlap an
 * earlier {@code [REDACTED:…]} marker are skipped, so redaction is idempotent. Immutable and
 * thread-safe: one instance serves every thread.
 */
final class SecretRedactor {

    private static final String MARKER_PREFIX = "[REDACTED:";
    /** How many rejected matches per rule and text are searched again from their value (see {@link #redact}). */
    private static final int RETRIES = 32;
    /** How many encodings deep a secret is looked for ({@link EncodedSecrets}): base64 of base64 of a key. */
    private static final int MAX_DEPTH = 2;

    private final SecretRules rules;

    /** A redactor with every built-in rule (the rule file is parsed once, on first use). */
    SecretRedactor() {
        this(SecretRules.builtIn());
    }

    SecretRedactor(SecretRules rules) {
        this.rules = rules;
    }

    /** The ids of the rules, in the order they run. */
    List<String> ruleIds() {
        return rules.rules().stream().map(SecretRule::id).toList();
    }

    /**
     * Redacts {@code text}.
     *
     * @throws IllegalArgumentException if {@code text} is null
     */
    Redaction redact(String text) {
        Checks.notNull("text", text);
        try {
            Redaction plain = redact(text, 0);
            String folded = undisguised(text);
            if (folded == text) {
                return plain;
            }
            // a secret written with characters that only look like the ones the rules read ("sk-…" with a
            // zero-width space inside, "pаssword" with a Cyrillic "а", full-width digits) is found in the
            // folded text; then the folded text is what is kept, so the disguise cannot smuggle it past
            Redaction unfolded = redact(folded, 0);
            return unfolded.total() > plain.total() ? unfolded : plain;
        } finally {
            SecretValidator.forgetText(); // the text the validators remembered holds the secrets just removed
        }
    }

    /** {@code text} with the characters that disguise a secret folded: {@link Terms#undisguised}. */
    static String undisguised(String text) {
        return Terms.undisguised(text);
    }

    /** {@code text} redacted; {@code depth} is how many encodings the text was found inside. */
    private Redaction redact(String text, int depth) {
        if (text.length() < 6) {
            return Redaction.unchanged(text);
        }
        String lower = text.toLowerCase(Locale.ROOT);
        int digits = 0;
        int longestRun = 0;
        int run = 0;
        // the longest run of words of 3-8 lower-case letters (the first may be a capital) one space apart
        int wordRun = 0;
        int words = 0;
        int letters = 0;
        boolean plain = true;
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : '\n';
            if (c >= '0' && c <= '9') {
                digits++;
            }
            if (Character.isWhitespace(c)) {
                run = 0;
                if (plain && letters >= 3 && letters <= 8) {
                    int length = words + 1;
                    wordRun = Math.max(wordRun, length);
                    words = c == ' ' ? length : 0; // a run goes on only over one plain space
                } else {
                    words = 0;
                }
                letters = 0;
                plain = true;
                continue;
            }
            if (++run > longestRun) {
                longestRun = run;
            }
            if (c >= 'a' && c <= 'z' || letters == 0 && c >= 'A' && c <= 'Z') {
                letters++;
            } else {
                plain = false;
            }
        }
        boolean[] present = new boolean[rules.keywords().size()];
        rules.findKeywords(lower, present);
        String current = text;
        Map<String, Integer> counts = null;
        if (depth < MAX_DEPTH && (longestRun >= EncodedSecrets.MIN_BASE64 || text.indexOf('%') >= 0)) {
            // encoded secrets first: a rule's partial match would leave a run that no longer decodes
            StringBuilder out = null;
            int last = 0;
            EncodedSecrets.Found f;
            while (last < text.length() && (f = EncodedSecrets.next(text, last, decoded -> {
                Redaction r = redact(decoded, depth + 1);
                return r.total() == 0 ? null : r.countsByType().keySet().iterator().next();
            })) != null) {
                if (f.start() < last) { // never expected (runs are found in order); a guard, not a path
                    break;
                }
                if (out == null) {
                    out = new StringBuilder(text.length());
                    counts = new LinkedHashMap<>();
                }
                out.append(text, last, f.start()).append(Redaction.marker(f.type()));
                last = f.end();
                counts.merge(f.type(), 1, Integer::sum);
            }
            if (out != null) {
                current = out.append(text, last, text.length()).toString();
            }
        }
        if (current.indexOf('\n') >= 0 && ((lower.indexOf('|') >= 0 && lower.contains("---"))
                || containsAny(lower, STRUCTURE_WORDS))) {
            // a table's secret column, a map of secrets: labels on another line than their values
            List<StructuredSecrets.Found> found = StructuredSecrets.find(current);
            if (!found.isEmpty()) {
                StringBuilder out = new StringBuilder(current.length());
                int last = 0;
                if (counts == null) {
                    counts = new LinkedHashMap<>();
                }
                for (StructuredSecrets.Found f : found) {
                    out.append(current, last, f.start()).append(Redaction.marker(f.type()));
                    last = f.end();
                    counts.merge(f.type(), 1, Integer::sum);
                }
                current = out.append(current, last, current.length()).toString();
            }
        }
        for (SecretRule rule : rules.rules()) {
            if (!rule.mayMatch(digits, longestRun, wordRun, present)) {
                continue;
            }
            Matcher m = rule.pattern().matcher(current);
            StringBuilder out = null;
            int last = 0;
            int found = 0;
            boolean markers = current.contains(MARKER_PREFIX);
            int from = 0;
            int retries = 0;
            while (from <= current.length() && m.find(from)) {
                // a match that holds no secret is passed over up to its value, not past it: its key may
                // have swallowed the real one's ("otpauth://…?secret=…", "secrets:\n  api_key: …"); a
                // rule whose secret is the whole match resumes after it, as before
                int start = rule.groupStart(m);
                // at most RETRIES such returns per rule and text, so a hostile text costs linear time
                int resume = start > m.start() && retries++ < RETRIES ? start : Math.max(m.end(), m.start() + 1);
                if (start < 0) {
                    from = Math.max(m.end(), m.start() + 1);
                    continue;
                }
                Span span = rule.validator().check(current, m, start, rule.groupEnd(m));
                if (span == null || span.end() <= span.start() || span.start() < last
                        || (markers && overlapsMarker(current, span.start(), span.end()))
                        || isLength(current, span.start(), span.end())
                        || isExpansionMessage(current, span.start())
                        || isReference(current, span.start(), span.end())) {
                    from = resume;
                    continue;
                }
                int spanEnd = wrapped(current, span.start(), span.end());
                from = Math.max(Math.max(m.end(), spanEnd), m.start() + 1);
                if (out == null) {
                    out = new StringBuilder(current.length());
                }
                out.append(current, last, span.start()).append(Redaction.marker(rule.type()));
                last = spanEnd;
                found++;
            }
            if (out != null) {
                out.append(current, last, current.length());
                current = out.toString();
                if (counts == null) {
                    counts = new LinkedHashMap<>();
                }
                counts.merge(rule.type(), found, Integer::sum);
            }
        }
        if (counts == null) {
            return Redaction.unchanged(text);
        }
        int total = 0;
        for (int c : counts.values()) {
            total += c;
        }
        return new Redaction(current, counts, total);
    }

    /** The shortest secret whose next line may be its continuation (a terminal wraps at 40–120 columns). */
    private static final int WRAPPED_FROM = 30;

    /**
     * The end of the secret {@code [start, end)} with its continuation: when a long secret ends a line
     * and the next line is one unbroken run of token characters (8 or more, a letter and a digit in it)
     * up to its end, a terminal or a narrow window wrapped the key there ("sk-proj-…⏎H-T3Blbk…"), and
     * the next line is the key's tail. Otherwise {@code end}.
     */
    static int wrapped(String text, int start, int end) {
        int n = text.length();
        if (end - start < WRAPPED_FROM) {
            return end;
        }
        int j = end;
        if (j < n && text.charAt(j) == '\r') {
            j++;
        }
        if (j >= n || text.charAt(j) != '\n') {
            return end;
        }
        j++;
        int k = j;
        boolean letter = false;
        boolean digit = false;
        while (k < n && k - j <= 4096) {
            char c = text.charAt(k);
            if (c >= '0' && c <= '9') {
                digit = true;
            } else if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) {
                letter = true;
            } else if (c != '_' && c != '-' && c != '+' && c != '/') {
                break;
            }
            k++;
        }
        while (k < n && text.charAt(k) == '=') {
            k++;
        }
        boolean lineEnds = k == n || text.charAt(k) == '\n' || text.charAt(k) == '\r';
        return lineEnds && k - j >= 8 && letter && digit ? k : end;
    }

    /** The words of a map of secrets' key ({@link StructuredSecrets}), lower case. */
    private static final List<String> STRUCTURE_WORDS = List.of("passwords", "secrets", "credentials", "tokens",
            "api_keys", "api-keys", "apikeys", "senhas", "segredos");

    private static boolean containsAny(String lower, List<String> words) {
        for (String w : words) {
            if (lower.contains(w)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code [start, end)} contains or lies inside a {@code [REDACTED:…]} marker. */
    private static boolean overlapsMarker(String text, int start, int end) {
        // only the markers that open between 40 characters before the span and its end are looked at
        // (a scan to the next marker anywhere would make a text of many matches cost quadratic time)
        for (int i = Math.max(0, start - 40); i < end; i++) {
            if (text.startsWith(MARKER_PREFIX, i)) {
                int close = text.indexOf(']', i);
                if (close < 0 || close >= start) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A small number followed by a unit of length says how long a secret is, and is none: "the
     * password is 12 characters or more?", "パスワードは12文字以上", "a senha tem 8 caracteres".
     */
    private static final Pattern LENGTH_UNIT = Pattern.compile("(?iu)[\\s\\-]{0,2}(?:characters?|chars?|digits?|letters?"
            + "|symbols?|caracteres|car[aá]cteres|caract[eè]res|d[ií]gitos|zeichen|stellen|ziffern|karakter|znak|cyfr"
            + "|символ|цифр|cifre|caratteri|tekens|merkki|文字|字符|位|桁|자)");

    private static boolean isLength(String text, int start, int end) {
        int i = start;
        while (i < end && i - start <= 3 && Character.isDigit(text.charAt(i))) {
            i++;
        }
        return i > start && i - start <= 3 && (i == end || !Character.isLetterOrDigit(text.charAt(i))
                || Character.isIdeographic(text.charAt(i)) || Character.UnicodeScript.of(text.charAt(i))
                == Character.UnicodeScript.HANGUL) && LENGTH_UNIT.matcher(text).region(i, text.length()).lookingAt();
    }

    /** A shell expansion's error message: {@code ${DB_PASSWORD:?missing}} names a secret and holds none. */
    private static final Pattern EXPANSION_BEFORE = Pattern.compile("\\$\\{[A-Za-z_][A-Za-z0-9_]{0,100}:?$");

    private static boolean isExpansionMessage(String text, int start) {
        return start < text.length() && text.charAt(start) == '?'
                && EXPANSION_BEFORE.matcher(text).region(Math.max(0, start - 104), start).find();
    }

    /**
     * A value that names where a secret comes from, or masks it, and holds none
     * ({@link SecretAssignments#isReference}: {@code $CI_JOB_TOKEN}, {@code var.db_password},
     * {@code sk_live_xxxxxxxx} …), whatever rule found it; and anything inside a template
     * ({@code {{resolve:secretsmanager:…:password}}}).
     */
    private static boolean isReference(String text, int start, int end) {
        if (SecretAssignments.isReference(text.substring(start, end))) {
            return true;
        }
        // inside a template of under 300 characters: "{{" before the span, "}}" after it, no "}}" between
        // "{{" and the span; looked for within that reach only, so each match costs constant time
        int from = Math.max(0, end - TEMPLATE_REACH);
        int open = -1;
        for (int i = Math.min(start, text.length() - 2); i >= from; i--) {
            if (text.startsWith("{{", i)) {
                open = i;
                break;
            }
        }
        if (open < 0) {
            return false;
        }
        for (int i = open + 2; i < start; i++) {
            if (text.startsWith("}}", i)) {
                return false;
            }
        }
        int stop = Math.min(text.length() - 1, open + TEMPLATE_REACH);
        for (int i = end; i < stop; i++) {
            if (text.startsWith("}}", i)) {
                return i - open < TEMPLATE_REACH;
            }
        }
        return false;
    }

    private static final int TEMPLATE_REACH = 300;

    /** Luhn check over the digits of {@code candidate}, separators ignored. */
    static boolean luhn(String candidate) {
        return SecretValidator.luhn(candidate);
    }

    /** Whether {@code candidate} is a card number: length, grouping, issuer digit and Luhn. */
    static boolean isCardNumber(String candidate) {
        return SecretValidator.isCardNumber(candidate);
    }
}
