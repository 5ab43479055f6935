package dev.reverie.extract;

import dev.reverie.internal.Checks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces secrets in free text by {@code [REDACTED:<type>]} before anything is stored: API keys
 * (OpenAI, Anthropic, AWS, GitHub, GitLab, Slack, Google, Stripe), bearer tokens, JWTs, PEM private
 * keys, passwords after a label ("password: x", "minha senha é x" — the label is kept, the value
 * goes), credentials inside connection strings, and card numbers that pass the Luhn check. Every
 * rule is a precompiled pattern guarded by a cheap substring test, so a sentence without any
 * secret-like marker costs a handful of {@code indexOf} calls; no pattern can backtrack
 * catastrophically (every repetition is bounded or followed by a literal). Immutable and
 * thread-safe: one instance serves every thread.
 *
 * <p>Types: {@code private_key}, {@code connection_string}, {@code jwt}, {@code anthropic_key},
 * {@code openai_key}, {@code stripe_key}, {@code github_token}, {@code gitlab_token},
 * {@code slack_token}, {@code google_api_key}, {@code aws_access_key}, {@code aws_secret_key},
 * {@code bearer_token}, {@code secret} (a value after a label such as {@code api_key=} or
 * {@code client_secret:}), {@code password}, {@code card_number}.
 */
public final class SecretRedactor {

    /** Rules in the order they run: the most specific first, so a JWT inside a bearer header is a {@code jwt}. */
    private final List<Rule> rules;

    /** A redactor with every built-in rule. */
    public SecretRedactor() {
        this.rules = builtInRules();
    }

    /**
     * Redacts {@code text}.
     *
     * @throws IllegalArgumentException if {@code text} is null
     */
    public Redaction redact(String text) {
        Checks.notNull("text", text);
        if (text.length() < 6) {
            return Redaction.unchanged(text);
        }
        String current = text;
        String lower = text.toLowerCase(Locale.ROOT);
        int digits = countDigits(text);
        Map<String, Integer> counts = null;
        for (Rule rule : rules) {
            if (!rule.hint.mayMatch(text, lower, digits)) {
                continue;
            }
            Matcher m = rule.pattern.matcher(current);
            StringBuilder out = null;
            int last = 0;
            int found = 0;
            while (m.find()) {
                int start = m.start(rule.group);
                int end = rule.accept.end(current, m, start, m.end(rule.group));
                if (end <= start) {
                    continue;
                }
                if (out == null) {
                    out = new StringBuilder(current.length());
                }
                out.append(current, last, start).append(Redaction.marker(rule.type));
                last = end;
                found++;
            }
            if (out != null) {
                out.append(current, last, current.length());
                current = out.toString();
                if (counts == null) {
                    counts = new LinkedHashMap<>();
                }
                counts.merge(rule.type, found, Integer::sum);
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

    // ------------------------------------------------------------------------------------------

    /** A cheap pre-test on the original text, its lower-case copy and its digit count. */
    @FunctionalInterface
    private interface Hint {
        boolean mayMatch(String text, String lower, int digits);
    }

    /**
     * Decides whether a match is a secret and where the secret ends (trailing punctuation may be
     * left out); an end not after start rejects the match.
     */
    @FunctionalInterface
    private interface Accept {
        int end(String text, Matcher m, int start, int end);

        Accept ALL = (text, m, start, end) -> end;
    }

    private record Rule(String type, Pattern pattern, int group, Hint hint, Accept accept) {
    }

    private static List<Rule> builtInRules() {
        return List.of(
                new Rule("private_key", Pattern.compile(
                        "-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----"
                                + "(?:.*?-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----|.*)", Pattern.DOTALL),
                        0, (t, l, d) -> t.contains("-----BEGIN"), Accept.ALL),
                new Rule("connection_string", Pattern.compile(
                        "\\b[A-Za-z][A-Za-z0-9+.\\-]{1,30}://([^\\s:/@?#\\[\\]]{0,128}:[^\\s@/?#]{1,256})@"
                                + "(?=[\\p{L}\\p{N}\\[._\\-])"),
                        1, (t, l, d) -> t.contains("://") && t.indexOf('@') >= 0, Accept.ALL),
                new Rule("connection_string", Pattern.compile(
                        "(?i)\\b(?:jdbc:[a-z0-9:]{1,40}|[a-z][a-z0-9+.\\-]{1,30}://)[^\\s]{0,400}?[?&;]"
                                + "(?:password|pwd|passwd|pass)=([^&;\\s#\"']{1,256})"),
                        1, (t, l, d) -> (l.contains("jdbc:") || l.contains("://"))
                        && (l.contains("password=") || l.contains("pwd=") || l.contains("passwd=") || l.contains("pass=")),
                        notAlreadyRedacted()),
                new Rule("jwt", Pattern.compile(
                        "\\beyJ[A-Za-z0-9_\\-]{8,}\\.[A-Za-z0-9_\\-]{8,}\\.[A-Za-z0-9_\\-]{8,}"),
                        0, (t, l, d) -> t.contains("eyJ"), Accept.ALL),
                new Rule("anthropic_key", Pattern.compile("\\bsk-ant-[A-Za-z0-9_\\-]{20,}"),
                        0, (t, l, d) -> t.contains("sk-ant-"), Accept.ALL),
                new Rule("openai_key", Pattern.compile(
                        "\\bsk-(?:proj-|svcacct-|admin-|None-)?([A-Za-z0-9_\\-]{20,})"),
                        0, (t, l, d) -> t.contains("sk-"), (t, m, s, e) -> hasDigitAndLetter(m.group(1)) ? e : -1),
                new Rule("stripe_key", Pattern.compile("\\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}"),
                        0, (t, l, d) -> t.contains("_live_") || t.contains("_test_"), Accept.ALL),
                new Rule("github_token", Pattern.compile(
                        "\\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})"),
                        0, (t, l, d) -> t.contains("gh") && (t.contains("github_pat_") || t.contains("ghp_")
                        || t.contains("gho_") || t.contains("ghu_") || t.contains("ghs_") || t.contains("ghr_")),
                        Accept.ALL),
                new Rule("gitlab_token", Pattern.compile("\\bglpat-[A-Za-z0-9_\\-]{20,}"),
                        0, (t, l, d) -> t.contains("glpat-"), Accept.ALL),
                new Rule("slack_token", Pattern.compile("\\bxox[baprs]-[A-Za-z0-9\\-]{10,}"),
                        0, (t, l, d) -> t.contains("xox"), Accept.ALL),
                new Rule("google_api_key", Pattern.compile("\\bAIza[0-9A-Za-z_\\-]{35}(?![0-9A-Za-z_\\-])"),
                        0, (t, l, d) -> t.contains("AIza"), Accept.ALL),
                new Rule("aws_access_key", Pattern.compile("\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b"),
                        0, (t, l, d) -> t.contains("AKIA") || t.contains("ASIA"), Accept.ALL),
                new Rule("aws_secret_key", Pattern.compile(
                        "(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])"),
                        0, (t, l, d) -> l.contains("aws") || l.contains("secret"), SecretRedactor::awsSecretEnd),
                new Rule("bearer_token", Pattern.compile("(?i)\\bbearer\\s+([A-Za-z0-9._~+/\\-]{16,}=*)"),
                        1, (t, l, d) -> l.contains("bearer"), (t, m, s, e) -> hasDigit(m.group(1)) ? e : -1),
                new Rule("secret", Pattern.compile(
                        "(?i)\\b(?:api[_\\-]?key|apikey|secret[_\\-]?key|client[_\\-]?secret|access[_\\-]?token"
                                + "|auth[_\\-]?token|refresh[_\\-]?token|secret|token|chave(?: de api| da api| secreta)?)"
                                + "[\"']?\\s{0,3}[:=]\\s{0,3}[\"']?([A-Za-z0-9_\\-./+=]{12,256})"),
                        1, (t, l, d) -> l.contains("key") || l.contains("secret") || l.contains("token")
                        || l.contains("chave"), (t, m, s, e) -> hasDigitAndLetter(m.group(1)) ? e : -1),
                new Rule("password", PASSWORD, 1,
                        (t, l, d) -> l.contains("pass") || l.contains("pwd") || l.contains("senha"),
                        SecretRedactor::passwordEnd),
                new Rule("card_number", Pattern.compile(
                        "(?<![\\p{L}\\p{N}_+\\-./])(?:\\d[ \\-]?){12,18}\\d(?![\\p{L}\\p{N}_\\-]|[.,]\\d)"),
                        0, (t, l, d) -> d >= 13, (t, m, s, e) -> isCardNumber(m.group()) ? e : -1));
    }

    private static final String PASSWORD_LABEL = "(?:password|passwd|passphrase|pwd|senha|palavra-passe)";
    private static final String PASSWORD_QUALIFIER = "(?:\\s{1,3}(?:for|of|to|on|do|da|de|no|na)\\s{1,3}"
            + "(?:(?:the|my|our|your|o|a|meu|minha|nosso|nossa)\\s{1,3})?[\\p{L}\\p{N}_.@\\-]{1,40})?";
    private static final String PASSWORD_SEPARATOR = "(?:[\"']?\\s{0,3}(?:=>|[:=])\\s{0,3}"
            + "|\\s{1,3}(?:is\\s{1,3}now|is|was|will\\s{1,3}be|é|eh|era|será|sera|agora\\s{1,3}é|ficou)\\s{1,3}(?::\\s{0,3})?)";
    private static final Pattern PASSWORD = Pattern.compile("(?iu)\\b" + PASSWORD_LABEL + PASSWORD_QUALIFIER
            + PASSWORD_SEPARATOR + "(\"[^\"\\r\\n]{1,128}\"|'[^'\\r\\n]{1,128}'|[^\\s\"'<>,;]{1,128})");

    /** Words that follow a password label in ordinary prose ("the password is wrong", "senha: use a mesma"). */
    private static final Set<String> NOT_A_PASSWORD = Set.of(
            "a", "an", "the", "is", "was", "to", "too", "and", "or", "not", "no", "yes", "it", "it's", "its", "this",
            "that", "there", "here", "can", "could", "should", "would", "will", "you", "your", "my", "me", "i", "we",
            "they", "he", "she", "wrong", "incorrect", "invalid", "correct", "right", "required", "needed",
            "mandatory", "optional", "empty", "blank", "missing", "expired", "weak", "strong", "short", "long",
            "secure", "insecure", "same", "different", "changed", "reset", "new", "old", "case", "case-sensitive",
            "sensitive", "hidden", "saved", "stored", "encrypted", "hashed", "protected", "forgotten", "lost",
            "unknown", "please", "set", "ok", "okay", "fine", "in", "on", "at", "for", "with", "below", "above",
            "attached", "sent", "inside", "also", "still", "now", "being", "been", "has", "have", "had", "just",
            "only", "so", "very", "really", "quite", "actually", "probably", "written", "off", "back", "again",
            "never", "always", "secret", "confidential", "personal", "private", "default", "none", "null", "n/a",
            "mesma", "mesmo", "errada", "errado", "incorreta", "incorreto", "inválida", "invalida", "inválido",
            "correta", "obrigatória", "obrigatoria", "necessária", "necessaria", "vazia", "fraca", "forte", "curta",
            "longa", "segura", "nova", "antiga", "expirada", "diferente", "alterada", "trocada", "o", "um", "uma",
            "de", "do", "da", "que", "e", "é", "não", "nao", "sim", "isso", "esta", "essa", "aqui", "ali", "muito",
            "pra", "para", "por", "com", "sem", "use", "usar", "igual", "padrão", "padrao", "secreta", "segredo",
            "confidencial", "pessoal", "privada", "minha", "meu", "sua", "seu", "tua", "teu", "dele", "dela",
            "nossa", "nosso", "agora", "ainda", "também", "tambem", "anotada", "escrita", "nunca", "sempre",
            "jamais", "?", "...", "…", "-", "*", "field", "campo", "manager", "gerenciador", "hint", "dica", "see",
            "check", "ask", "ver", "veja", "pergunte", "consulte", "olhe", "look", "contact", "fale");

    private static Accept notAlreadyRedacted() {
        return (t, m, s, e) -> t.startsWith("[REDACTED:", s) ? -1 : e;
    }

    /** Keeps the label, drops trailing sentence punctuation, rejects ordinary words and earlier markers. */
    private static int passwordEnd(String text, Matcher m, int start, int end) {
        char first = text.charAt(start);
        if (first == '"' || first == '\'') {
            return end - start > 2 ? end : -1;
        }
        if (text.startsWith("[REDACTED:", start)) {
            return -1;
        }
        while (end > start && ".!?):]}".indexOf(text.charAt(end - 1)) >= 0) {
            end--;
        }
        if (end <= start) {
            return -1;
        }
        String value = text.substring(start, end).toLowerCase(Locale.ROOT);
        return NOT_A_PASSWORD.contains(value) ? -1 : end;
    }

    /** A 40-character base64-ish run is an AWS secret only next to "aws"/"secret" and with mixed case. */
    private static int awsSecretEnd(String text, Matcher m, int start, int end) {
        boolean upper = false;
        boolean lower = false;
        boolean other = false;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                upper = true;
            } else if (c >= 'a' && c <= 'z') {
                lower = true;
            } else {
                other = true;
            }
        }
        if (!(upper && lower && other)) {
            return -1;
        }
        String before = text.substring(Math.max(0, start - 80), start).toLowerCase(Locale.ROOT);
        return before.contains("aws") || before.contains("secret") ? end : -1;
    }

    static boolean isCardNumber(String candidate) {
        int digits = 0;
        int groups = 1;
        int groupLen = 0;
        int[] lens = new int[20];
        for (int i = 0; i < candidate.length(); i++) {
            char c = candidate.charAt(i);
            if (c >= '0' && c <= '9') {
                digits++;
                groupLen++;
            } else {
                lens[groups - 1] = groupLen;
                groups++;
                groupLen = 0;
            }
        }
        lens[groups - 1] = groupLen;
        if (digits < 13 || digits > 19) {
            return false;
        }
        char first = candidate.charAt(0);
        if (first < '2' || first > '6') {
            return false; // issuer ranges of the card networks in use (Visa 4, Mastercard 2/5, Amex 3, Discover 6)
        }
        if (groups > 1 && !validGrouping(lens, groups)) {
            return false;
        }
        return luhn(candidate);
    }

    /** 4-4-4-4(-3) with a shorter last group, or the Amex/Diners 4-6-5 and 4-6-4 shapes. */
    private static boolean validGrouping(int[] lens, int groups) {
        if (groups == 3 && lens[0] == 4 && lens[1] == 6 && (lens[2] == 5 || lens[2] == 4)) {
            return true;
        }
        for (int i = 0; i < groups - 1; i++) {
            if (lens[i] != 4) {
                return false;
            }
        }
        return lens[groups - 1] >= 1 && lens[groups - 1] <= 4;
    }

    static boolean luhn(String candidate) {
        int sum = 0;
        boolean dbl = false;
        for (int i = candidate.length() - 1; i >= 0; i--) {
            char c = candidate.charAt(i);
            if (c < '0' || c > '9') {
                continue;
            }
            int d = c - '0';
            if (dbl) {
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
            dbl = !dbl;
        }
        return sum % 10 == 0;
    }

    private static int countDigits(String text) {
        int n = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9') {
                n++;
            }
        }
        return n;
    }

    private static boolean hasDigit(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                return true;
            }
        }
        return false;
    }

    private static boolean hasDigitAndLetter(String s) {
        boolean digit = false;
        boolean letter = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                digit = true;
            } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
                letter = true;
            }
        }
        return digit && letter;
    }
}
