package dev.reverie;

import dev.reverie.SecretValidator.Span;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * The judgement behind the labelled-secret rules: whether a key such as {@code DB_PASSWORD},
 * {@code "apiKey"} or {@code client-secret} names a secret, whether its value is a real one rather
 * than a placeholder, and how far a password disclosed in prose runs. Stateless and thread-safe.
 *
 * <p>A key is <em>strong</em> when it is quoted (JSON), compound ({@code db_password},
 * {@code clientSecret}), upper case ({@code PASSWORD}) or exported: any non-placeholder value after it
 * is a secret. A bare prose word ({@code password}, {@code token}) is weak: after it the value must
 * look like a secret (a password that is not an ordinary word; a token of 8+ characters with a
 * letter and a digit), and {@code password:} followed by words is left to the passphrase rule.
 */
final class SecretAssignments {

    private SecretAssignments() {
    }

    /** A word set; the lists may repeat a word. */
    private static Set<String> words(String... words) {
        return Set.copyOf(Arrays.asList(words));
    }

    /** Key parts that make a compound key a non-secret setting: {@code token_count}, {@code api_key_id}, {@code password_hint}. */
    private static final Set<String> NOT_SECRET_PARTS = words("id", "ids", "name", "names", "type", "url", "uri",
            "file", "path", "length", "len", "size", "count", "expiry", "expires", "expiration", "ttl", "header",
            "endpoint", "region", "user", "username", "enabled", "enable", "format", "version", "limit", "limits",
            "timeout", "max", "min", "num", "foreign", "primary", "sort", "partition", "cache", "unique", "index",
            "field", "column", "prefix", "hint", "label", "policy", "rotation", "reset", "tokens", "keys", "secrets",
            "required", "env", "var", "location", "dir", "bits", "algorithm", "alg", "mode", "store", "manager",
            "usage", "chars", "strength", "changed", "updated", "created", "at", "date", "time",
            // what a setting is, not a secret: AUTH_PROVIDER=github, SESSION_DRIVER=redis, public_key: ssh-ed25519 …,
            // STRIPE_PUBLISHABLE_KEY=pk_live_… (a key made to be shared)
            "provider", "providers", "method", "methods", "driver", "domain", "samesite", "public", "publishable",
            "secure", "httponly", "host", "port", "scope", "scopes", "issuer", "audience", "strategy", "backend",
            "lifetime", "duration", "idempotency",
            // what names a secret without holding it: API_KEY_SECRET_REF=my-app-secrets, KEY_ALIAS=app-signing,
            // passwordEncoder=bcryptEncoder, keyGenerator=…, tokenValiditySeconds=…
            "ref", "reference", "alias", "encoder", "generator", "validity", "seconds");

    /** Parts after a password word that make the key a password setting: {@code password_max_age_days}. */
    private static final Set<String> PASSWORD_SETTING_PARTS = words("age", "days", "hours", "minutes", "seconds",
            "attempts", "retries", "history", "complexity", "rules", "pattern", "regex", "chars", "digits", "lowercase",
            "uppercase", "symbols", "special", "lockout", "warn", "warning", "grace", "reuse", "encoder", "hasher",
            "hashing", "validator", "validation", "strategy", "provider", "field", "input", "prompt", "label");

    private static final Set<String> SECRET_PARTS = words("secret", "token", "apikey", "credential", "credentials",
            "auth", "authtoken", "accesstoken", "accesskey", "secretkey", "privatekey", "signature", "sig", "sas",
            "pat", "bearer", "cookie", "session", "sessionid", "jsessionid", "phpsessid", "sid", "cvc", "cvv", "cvv2",
            "csc");
    /**
     * Parts that name a secret only in a compound or upper-case key ({@code HASH_SALT}, {@code
     * PASSWORD_PEPPER}, {@code WEBHOOK_HMAC}, {@code MNEMONIC}): a plain {@code salt = bcrypt.gensalt()}
     * or {@code seed: 42} is code or a setting.
     */
    private static final Set<String> CONFIG_SECRET_PARTS = words("salt", "pepper", "hmac", "mnemonic", "seed");

    /** Words that follow a password label in ordinary prose ("the password is wrong", "senha: use a mesma"). */
    static final Set<String> NOT_A_PASSWORD = words(
            "wrong", "incorrect", "invalid", "correct", "right", "required", "needed", "mandatory", "optional",
            "empty", "blank", "missing", "expired", "weak", "strong", "short", "long", "secure", "insecure",
            "same", "different", "changed", "reset", "new", "old", "case", "case-sensitive", "sensitive", "hidden",
            "saved", "stored", "encrypted", "hashed", "protected", "forgotten", "lost", "unknown", "please", "set",
            "ok", "okay", "fine", "attached", "sent", "written", "off", "back", "secret", "confidential", "personal",
            "private", "default", "none", "null", "n/a", "complicated", "complex", "simple", "easy", "hard",
            "difficult", "obvious", "weird", "strange", "funny", "stupid", "silly", "terrible", "bad", "good",
            "great", "useless", "broken", "locked", "blocked", "disabled", "enabled", "working", "valid", "unique",
            "random", "temporary", "permanent", "generated", "shared", "public", "known", "needed", "changing",
            "expiring", "field", "manager", "hint", "reminder", "see", "check", "ask", "look", "contact", "use",
            "type", "enter", "click", "try", "change", "update", "keep", "remember", "forget", "something",
            "anything", "nothing", "everything", "whatever", "somewhere", "below", "above", "attached", "inside",
            "mesma", "mesmo", "errada", "errado", "incorreta", "incorreto", "inválida", "invalida", "inválido",
            "invalido", "correta", "correto", "obrigatória", "obrigatoria", "necessária", "necessaria", "vazia",
            "fraca", "forte", "curta", "longa", "segura", "nova", "antiga", "expirada", "diferente", "alterada",
            "trocada", "bloqueada", "padrão", "padrao", "secreta", "segredo", "confidencial", "pessoal", "privada",
            "anotada", "escrita", "salva", "guardada", "difícil", "dificil", "fácil", "facil", "simples",
            "complicada", "temporária", "temporaria", "aleatória", "aleatoria", "campo", "gerenciador", "dica",
            "ver", "veja", "pergunte", "consulte", "olhe", "fale", "usar", "use", "digite", "igual", "algo", "nada",
            "tudo", "enorme", "grande", "pequena", "fácil", "boa", "ruim", "péssima", "pessima", "esquecida",
            "obrigatório", "obrigatorio", "necessário", "necessario", "opcional", "fraco", "curto", "longo",
            "seguro", "novo", "antigo", "secreto", "privado", "temporário", "temporario", "aleatório", "aleatorio",
            "pequeno", "bom", "péssimo", "pessimo", "único", "unico", "única", "unica", "comprida", "comprido",
            "sensível", "sensivel", "intransferível", "intransferivel", "pessoal", "case", "numérica", "numerica",
            // what prose says of a password's length or strength ("my password is longer than yours", "the
            // password is twelve characters long", "a senha é maior que 8 caracteres")
            "longer", "shorter", "stronger", "weaker", "better", "worse", "safer", "easier", "harder", "similar",
            "identical", "bigger", "smaller", "too", "at", "least", "four", "five", "six", "seven", "eight", "nine",
            "ten", "eleven", "twelve", "sixteen", "twenty", "characters", "digits", "letters", "maior", "menor",
            "melhor", "pior", "mínimo", "minimo", "máximo", "maximo", "caracteres", "dígitos", "digitos", "letras",
            "aquela", "aquele", "essa", "esse", "esta", "este");

    /** Function words: a passphrase holds none of them, prose always does. */
    static final Set<String> FUNCTION_WORDS = words(
            "a", "an", "the", "my", "your", "his", "her", "our", "their", "its", "it's", "it", "this", "that",
            "these", "those", "to", "of", "in", "on", "at", "for", "with", "by", "from", "about", "as", "into",
            "than", "too", "very", "so", "not", "no", "yes", "still", "also", "just", "only", "really", "quite",
            "now", "then", "again", "always", "never", "ever", "every", "each", "all", "some", "any", "being",
            "been", "be", "is", "was", "are", "were", "will", "would", "should", "can", "could", "must", "might",
            "may", "has", "have", "had", "do", "does", "did", "i", "i'm", "you", "he", "she", "we", "they", "me",
            "him", "us", "them", "what", "which", "who", "where", "when", "how", "why", "today", "yesterday",
            "tomorrow", "here", "there", "already", "since", "until", "like", "more", "less", "much", "many",
            "enough", "actually", "probably", "maybe", "perhaps", "definitely", "literally", "basically", "way",
            "kind", "sort", "bit", "lot", "time", "times", "one", "something", "same", "different", "up", "out",
            "down", "over", "after", "before", "under", "and", "or", "but", "because", "if", "though", "although",
            "while", "either", "neither", "nor", "o", "os", "as", "um", "uma", "uns", "umas", "de", "do", "da",
            "dos", "das", "em", "no", "na", "nos", "nas", "por", "pelo", "pela", "para", "pra", "com", "sem", "que",
            "se", "muito", "muita", "mais", "menos", "bem", "mal", "não", "nao", "sim", "já", "ja", "ainda",
            "sempre", "nunca", "também", "tambem", "só", "demais", "bastante", "tão", "tao", "meu", "minha", "seu",
            "sua", "teu", "tua", "nosso", "nossa", "dele", "dela", "este", "esta", "esse", "essa", "isso", "isto",
            "aquilo", "agora", "hoje", "ontem", "amanhã", "amanha", "aqui", "ali", "lá", "la", "é", "eh", "era",
            "foi", "ser", "está", "esta", "estava", "tem", "tinha", "vai", "eu", "ele", "ela", "nós", "nos",
            "eles", "elas", "você", "voce", "vocês", "quando", "onde", "como", "porque", "pois", "mas", "ou", "e",
            "então", "entao", "até", "ate", "desde", "depois", "antes", "sobre", "todo", "toda", "todos", "todas",
            "cada", "algum", "alguma", "nenhum", "nenhuma", "vez", "vezes", "coisa", "tipo", "jeito");

    /** Words that end a passphrase's clause: "my password is hunter2 and my pin is 1234". */
    private static final Set<String> CONJUNCTIONS = words("and", "but", "or", "so", "because", "since", "though",
            "although", "while", "which", "then", "if", "when", "unless", "e", "mas", "ou", "porque", "pois",
            "então", "entao", "que", "quando", "se", "enquanto", "embora", "caso");

    private static final String CLAUSE_END = ".,;:!?)]}\"'”’»…";

    /** The longest word a prose password is read from. */
    private static final int MAX_WORD_CHARS = 256;

    /** At most this many words in a passphrase. */
    private static final int MAX_WORDS = 8;

    static Span check(String text, Matcher m, int start, int end, boolean password) {
        String key = m.group("id");
        boolean quotedKey = m.group("q") != null;
        boolean exported = m.group("ex") != null;
        String sep = m.group("sep");
        List<String> parts = parts(key);
        boolean compound = parts.size() > 1;
        boolean quotedValue = text.charAt(start) == '"' || text.charAt(start) == '\'';
        boolean spacedEquals = !sep.equals(":") && start > 0 && Character.isWhitespace(text.charAt(start - 1));
        // "AccountKey= field goes in…" is prose; env files and code write KEY=value or key = "value"
        boolean strong = (quotedKey || compound || exported || isUpperCaseWord(key)) && (quotedValue || !spacedEquals);
        if (password) {
            // "vault master pass = 'quiet-Harbor-lantern-84'": a quoted word makes a bare "pass" a key too
            // ("boarding pass = 'Gate B12'" is no password)
            boolean quotedWord = quotedValue && text.substring(start, end).chars().noneMatch(Character::isWhitespace);
            if (!namesPassword(key, parts, compound || quotedKey || exported || isUpperCaseWord(key) || quotedWord)) {
                return null;
            }
            if (!strong && sep.equals(":")) {
                return null; // "password: correct horse battery staple" is the passphrase rule's
            }
        } else if (!namesSecret(parts, compound, isUpperCaseWord(key))) {
            return null;
        }
        Span v = unquote(text, start, end);
        if (v == null) {
            return null;
        }
        if (!quotedValue) {
            v = acrossOperators(text, v);
        }
        String value = text.substring(v.start(), v.end());
        if (isPlaceholder(value) || isPlaceholder(text.substring(start, end))) {
            return null;
        }
        String lower = value.toLowerCase(Locale.ROOT);
        if (!password && isPath(value)) {
            return null; // "ssh_key: ~/.ssh/id_ed25519.pub": where a key is kept, not the key
        }
        if (strong && !quotedValue) {
            v = toLineValueEnd(text, m.start(), v);
        }
        if (password) {
            if (strong) {
                return v;
            }
            return value.length() >= 3 && !NOT_A_PASSWORD.contains(lower) && !FUNCTION_WORDS.contains(lower) ? v : null;
        }
        if (!strong) {
            return value.length() >= 8 && SecretValidator.hasDigit(value, 0, value.length())
                    && SecretValidator.hasLetter(value, 0, value.length()) ? v : null;
        }
        if ((parts.contains("sid") || parts.contains("sessid")) && value.length() < 16) {
            return null; // ORACLE_SID=ORCL names a database; a session id is long
        }
        if (parts.contains("cvc") || parts.contains("cvv") || parts.contains("cvv2") || parts.contains("csc")) {
            return value.matches("\\d{3,4}") ? v : null; // a card's security code
        }
        if (value.length() < 4 || lower.equals("true") || lower.equals("false")) {
            return null;
        }
        boolean allDigits = !value.chars().anyMatch(c -> c < '0' || c > '9');
        return allDigits && value.length() < 12 ? null : v;
    }

    /**
     * An unquoted value the pattern stopped at {@code & ; < >} whose run goes on to the next blank is one
     * value ({@code secret_key = U(CrLo&_#^(7-)…} in an INI section), up to where the run starts
     * something else: the next parameter of a query or connection string ({@code &next=1},
     * {@code ;Database=x}), a markup tag ({@code </b>}, {@code <i>}), or nothing but a statement's
     * closing {@code ;}.
     */
    private static Span acrossOperators(String text, Span v) {
        int end = v.end();
        int limit = Math.min(text.length(), v.start() + 4096);
        int i = end;
        int last = end;
        while (i < limit && "&;<>".indexOf(text.charAt(i)) >= 0 && !startsSomethingElse(text, i, limit)) {
            i++;
            while (i < limit && !Character.isWhitespace(text.charAt(i)) && "&;<>".indexOf(text.charAt(i)) < 0) {
                i++;
            }
            last = i;
        }
        for (int k = end; k < last; k++) {
            if (Character.isLetterOrDigit(text.charAt(k))) {
                return new Span(v.start(), last);
            }
        }
        return v;
    }

    /** Whether the operator at {@code i} starts {@code name=} or a markup tag. */
    private static boolean startsSomethingElse(String text, int i, int limit) {
        char op = text.charAt(i);
        int j = i + 1;
        if (op == '<') {
            int k = j < limit && text.charAt(j) == '/' ? j + 1 : j;
            int name = k;
            while (k < limit && k - name < 10 && (text.charAt(k) >= 'a' && text.charAt(k) <= 'z'
                    || k > name && text.charAt(k) >= '0' && text.charAt(k) <= '9')) {
                k++;
            }
            if (k > name && k < limit && (text.charAt(k) == '>' || text.charAt(k) == ' ')) {
                return true; // "</b>", "<i>", "<a href…": a tag's lower-case name ("<zR4>" is no tag)
            }
        }
        if ((op == '&' || op == ';') && j < limit && (Character.isLetter(text.charAt(j)) || text.charAt(j) == '_')) {
            int k = j + 1;
            while (k < limit && (Character.isLetterOrDigit(text.charAt(k)) || "_.-".indexOf(text.charAt(k)) >= 0)) {
                k++;
            }
            return k < limit && text.charAt(k) == '=';
        }
        return false;
    }

    /**
     * A bare value of an env-file line ({@code DB_PASSWORD=Xk9&mP2;qL7<zR4>} alone on its line, or
     * after {@code export}) runs to the next blank: the pattern stops a value at {@code & ; < >},
     * which end a value in a URL query, a connection string or markup, not on a line of its own.
     */
    private static Span toLineValueEnd(String text, int keyStart, Span v) {
        int end = v.end();
        if (end >= text.length() || "&;<>".indexOf(text.charAt(end)) < 0) {
            return v;
        }
        int i = keyStart;
        while (i > 0 && (text.charAt(i - 1) == ' ' || text.charAt(i - 1) == '\t')) {
            i--;
        }
        if (i > 0 && text.charAt(i - 1) != '\n' && text.charAt(i - 1) != '\r') {
            return v; // not the line's only assignment: a query string or a connection string
        }
        while (end < text.length() && !Character.isWhitespace(text.charAt(end)) && end - v.start() < 4096) {
            end++;
        }
        return new Span(v.start(), end); // the whole run is the value, its last character too
    }

    /**
     * A password disclosed in prose, starting at {@code start}: a quoted value whole, otherwise the
     * words up to the end of the clause (punctuation, a line break, a conjunction, at most 8 words).
     * One word is a password unless it is an ordinary word ("wrong", "fraca"); several words are a
     * passphrase unless the clause reads as prose (a function word in it), in which case only a
     * first word that is not ordinary is taken ("the wifi password is Flamengo1981 for guests").
     */
    static Span passphrase(String text, int start) {
        int len = text.length();
        if (start >= len || text.startsWith("[REDACTED:", start)) {
            return null;
        }
        char open = text.charAt(start);
        int closeAt = closingQuote(open);
        if (closeAt >= 0) {
            char close = (char) closeAt;
            for (int i = start + 1; i < Math.min(len, start + 130); i++) {
                char c = text.charAt(i);
                if (c == '\n' || c == '\r') {
                    return null;
                }
                if (c == close) {
                    return i > start + 1 ? new Span(start + 1, i) : null;
                }
            }
            return null;
        }
        List<int[]> words = new ArrayList<>();
        int pos = start;
        while (words.size() < MAX_WORDS && pos < len) {
            int ws = pos;
            while (pos < len && !Character.isWhitespace(text.charAt(pos))) {
                if (pos - ws >= MAX_WORD_CHARS) {
                    return null; // a run this long is no password word (and rescanning it would cost)
                }
                pos++;
            }
            int te = pos;
            while (te > ws && CLAUSE_END.indexOf(text.charAt(te - 1)) >= 0) {
                te--;
            }
            if (te == ws) {
                break;
            }
            String w = text.substring(ws, te).toLowerCase(Locale.ROOT);
            if (!words.isEmpty() && (CONJUNCTIONS.contains(w) || w.startsWith("[redacted:"))) {
                break;
            }
            words.add(new int[] {ws, te});
            if (te < pos) {
                break; // sentence or clause punctuation after the word
            }
            int gap = pos;
            while (pos < len && (text.charAt(pos) == ' ' || text.charAt(pos) == '\t')) {
                pos++;
            }
            if (pos >= len || pos - gap > 2 || "\n\r(-–—[".indexOf(text.charAt(pos)) >= 0) {
                break;
            }
        }
        if (words.isEmpty()) {
            return null;
        }
        String first = text.substring(words.get(0)[0], words.get(0)[1]).toLowerCase(Locale.ROOT);
        if (isTemplate(text.substring(words.get(0)[0], words.get(0)[1]))
                || (words.size() == 1 && pos < len && text.charAt(pos) == '(')) {
            return null; // "password: ****", "password=${DB_PASSWORD}", "password = getpass(…)"
        }
        boolean ordinaryFirst = NOT_A_PASSWORD.contains(first) || FUNCTION_WORDS.contains(first)
                || looksLikeParticiple(first);
        // "the password is 12 characters with a symbol": a count of what it holds, not the password
        boolean counted = words.size() > 1 && NUMBER.matcher(first).matches() && COUNTED.contains(
                text.substring(words.get(1)[0], words.get(1)[1]).toLowerCase(Locale.ROOT));
        Span firstOnly = ordinaryFirst || counted || first.length() < 2 ? null
                : new Span(words.get(0)[0], words.get(0)[1]);
        if (ARTICLES.contains(first) && words.size() >= 4 && noneOrdinary(text, words)) {
            return new Span(words.get(0)[0], words.get(words.size() - 1)[1]); // "the quick brown fox"
        }
        if (words.size() == 1 || FUNCTION_WORDS.contains(first)) {
            return firstOnly != null ? firstOnly : describedValue(text, start);
        }
        for (int i = 1; i < words.size(); i++) {
            String w = text.substring(words.get(i)[0], words.get(i)[1]).toLowerCase(Locale.ROOT);
            if (FUNCTION_WORDS.contains(w)) {
                return firstOnly != null ? firstOnly : describedValue(text, start);
            }
        }
        if (ordinaryFirst && words.size() < 3) {
            return null;
        }
        return new Span(words.get(0)[0], words.get(words.size() - 1)[1]);
    }

    /** A number, in digits or words: what a count of characters starts with. */
    private static final java.util.regex.Pattern NUMBER = java.util.regex.Pattern.compile(
            "\\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|sixteen|twenty|thirty|"
                    + "dois|duas|tr[êe]s|quatro|cinco|seis|sete|oito|nove|dez|doze|vinte");

    /** What a number counts when prose says how long a password is. */
    private static final Set<String> COUNTED = words("characters", "chars", "digits", "letters", "symbols", "words",
            "caracteres", "dígitos", "digitos", "letras", "símbolos", "simbolos", "palavras");

    /**
     * Whether a word in prose is a template or a mask, not a password: {@code ${DB_PASSWORD}},
     * {@code $DB_PASSWORD}, {@code {{password}}}, {@code <your password>}, {@code %PASSWORD%},
     * {@code ****}; "$unshine2024" and "<Banana42>" are passwords.
     */
    static boolean isTemplate(String word) {
        return TEMPLATE.matcher(word).matches() || (!word.isEmpty() && isPlaceholder(word)
                && !word.startsWith("$") && !word.startsWith("<") && !word.startsWith("%"));
    }

    private static final java.util.regex.Pattern TEMPLATE = java.util.regex.Pattern.compile(
            "\\$\\{[^}]{0,80}}?|\\$\\(.{0,200}|\\$[A-Za-z_][A-Za-z_]{0,80}|\\$[A-Z_][A-Z0-9_]{0,80}|\\{\\{.{0,80}"
                    + "|<[A-Za-z_\\- ]{1,40}>?|%[A-Za-z_]{1,40}%");

    /** Words a described password may be told in (at most this many before the value). */
    private static final int MAX_DESCRIBED_WORDS = 14;

    /**
     * A password told after a description of it, in the same sentence: "the password is the word
     * flamingo42", "my password is my dog's name, Rex2015", "minha senha é a data do meu aniversário,
     * 12071985". Only a credential-shaped word is taken (letters and digits mixed, 5+ characters, or 6+
     * digits): the description itself is prose, and so is a sentence that names no such word.
     */
    private static Span describedValue(String text, int start) {
        int len = text.length();
        int pos = start;
        for (int n = 0; n < MAX_DESCRIBED_WORDS && pos < len; n++) {
            while (pos < len && (text.charAt(pos) == ' ' || text.charAt(pos) == '\t')) {
                pos++;
            }
            int ws = pos;
            while (pos < len && !Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
            int we = pos;
            while (we > ws && CLAUSE_END.indexOf(text.charAt(we - 1)) >= 0) {
                we--;
            }
            int wsq = ws;
            while (wsq < we && "\"'“‘«(".indexOf(text.charAt(wsq)) >= 0) {
                wsq++;
            }
            if (wsq < we && credentialShaped(text, wsq, we)) {
                return new Span(wsq, we);
            }
            String w = text.substring(wsq, we).toLowerCase(Locale.ROOT);
            if (NOT_A_PASSWORD.contains(w) || looksLikeParticiple(w) || WHERE_KEPT.contains(w)) {
                return null; // "the password is stored in 1Password": what is said of it, not what it is
            }
            if (we < pos && ".!?".indexOf(text.charAt(pos - 1)) >= 0) {
                return null; // the sentence ends
            }
            if (pos >= len || text.charAt(pos) == '\n' || text.charAt(pos) == '\r') {
                return null;
            }
        }
        return null;
    }

    /** Words that say where a password is kept, not what it is. */
    private static final Set<String> WHERE_KEPT = words("in", "on", "inside", "at", "under", "behind", "em", "no",
            "na", "nos", "nas", "dentro");

    /** Letters and digits mixed in 5+ characters, or 6+ digits, and nothing that makes it a link, time or address. */
    static boolean credentialShaped(String text, int start, int end) {
        int letters = 0;
        int digits = 0;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (Character.isDigit(c)) {
                digits++;
            } else if (Character.isLetter(c)) {
                letters++;
            } else if ("/:@[]".indexOf(c) >= 0) {
                return false;
            }
        }
        int length = end - start;
        return digits > 0 && (letters > 0 ? length >= 5 : digits == length && length >= 6);
    }

    /** "emailed", "changing", "alterada", "esquecido": a lower-case participle describes a password, it is not one. */
    static boolean looksLikeParticiple(String word) {
        if (word.length() < 5) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if (!Character.isLowerCase(word.charAt(i))) {
                return false;
            }
        }
        for (String end : PARTICIPLE_ENDINGS) {
            if (word.endsWith(end)) {
                return true;
            }
        }
        return false;
    }

    private static final List<String> PARTICIPLE_ENDINGS = List.of("ed", "ing", "ado", "ada", "ido", "ida", "ados",
            "adas", "idos", "idas", "ando", "endo", "indo", "ório", "ória", "ível", "ável", "oso", "osa");

    private static final Set<String> ARTICLES = words("the", "a", "an", "o", "um", "uma");

    /** Whether no word after the first is a function word or an ordinary word about passwords. */
    private static boolean noneOrdinary(String text, List<int[]> words) {
        for (int i = 1; i < words.size(); i++) {
            String w = text.substring(words.get(i)[0], words.get(i)[1]).toLowerCase(Locale.ROOT);
            if (FUNCTION_WORDS.contains(w) || NOT_A_PASSWORD.contains(w) || looksLikeParticiple(w)) {
                return false;
            }
        }
        return true;
    }

    /** The value without its quotes, or without trailing sentence punctuation when bare; null when empty. */
    static Span unquote(String text, int start, int end) {
        if (end - start >= 2) {
            char q = text.charAt(start);
            if ((q == '"' || q == '\'' || q == '`') && text.charAt(end - 1) == q) {
                return end - start > 2 ? new Span(start + 1, end - 1) : null;
            }
        }
        return trimValue(text, start, end);
    }

    /** Drops trailing sentence punctuation from a bare value; null when nothing is left. */
    static Span trimValue(String text, int start, int end) {
        while (end > start && ".,;:)]}>".indexOf(text.charAt(end - 1)) >= 0) {
            end--;
        }
        return end > start ? new Span(start, end) : null;
    }

    /** Type names a signature gives a password parameter ({@code password: str}, {@code String password}). */
    private static final Set<String> TYPE_NAMES = words("str", "string", "int", "integer", "bool", "boolean", "bytes",
            "byte", "char", "char*", "float", "double", "number", "object", "any", "secretstr", "optional[str]",
            "str|none", "string?", "[]byte", "&str", "charsequence", "char[]");

    /**
     * A variable after its dollar: {@code $DB_PASS}, {@code ${db_pass}}, {@code $env:TOKEN}, {@code $(cat f)},
     * {@code $1}: one case with underscores and digits, not a word of mixed case ({@code $ecretPa55}).
     */
    private static final java.util.regex.Pattern VARIABLE = java.util.regex.Pattern.compile(
            "\\$(?:\\{|\\(|env:|\\d++(?![A-Za-z!@#%^&*])|[A-Z_][A-Z0-9_]*+(?![a-z])|[a-z_][a-z0-9_]*+(?![A-Z]))");

    /** A variable or a format after its percent sign: {@code %DB_PASS%}, {@code %(password)s}, {@code %s}. */
    private static final java.util.regex.Pattern PERCENT_VARIABLE = java.util.regex.Pattern.compile(
            "%(?:[A-Za-z_][A-Za-z0-9_]*+%|\\(\\w++\\)[sd]|[sd](?![A-Za-z0-9]))");

    /**
     * References and masks that hold no secret wherever they stand, in code or in prose: {@code ${…}},
     * {@code $(…)}, an upper-case {@code $NAME} (also {@code $USER:$TOKEN}), {@code %NAME%}, a template
     * {@code {{…}}}, a Terraform reference ({@code var.db_password}), a prefix and a mask
     * ({@code sk_live_xxxxxxxx}). A lower-case {@code $name} is a reference only where code assigns it
     * ({@link #isPlaceholder}): "my password is $unshine2024" is a password.
     */
    private static final java.util.regex.Pattern REFERENCE = java.util.regex.Pattern.compile(
            "\\$\\{[^}\\s]{1,200}\\}(?::\\$\\{[^}\\s]{1,200}\\})?|\\$\\([^)]{1,200}\\)"
                    + "|\\$[A-Z_][A-Z0-9_]{1,100}(?::\\$[A-Z_][A-Z0-9_]{1,100})?|%[A-Za-z_][A-Za-z0-9_]{0,100}%"
                    + "|\\{\\{[^}]{1,300}\\}\\}|(?:var|local|data|module)\\.[\\w.\\-]{1,200}"
                    + "|[A-Za-z0-9]{1,12}(?:[_\\-][A-Za-z0-9]{1,12}){0,3}[_\\-](?:x{6,200}|X{6,200}|\\*{6,200})");

    /** Whether {@code value} (quotes aside) is one of the {@link #REFERENCE}s. */
    static boolean isReference(String value) {
        return REFERENCE.matcher(unquoted(value)).matches();
    }

    private static String unquoted(String value) {
        return value.length() >= 2 && "\"'`".indexOf(value.charAt(0)) >= 0
                && value.charAt(value.length() - 1) == value.charAt(0) ? value.substring(1, value.length() - 1) : value;
    }

    /**
     * Template values, references and masks, which hide no secret where code assigns a value: {@code ${DB_PASS}},
     * {@code $db_pass}, {@code <token>}, {@code ****}, every {@link #REFERENCE}; surrounding quotes are ignored.
     */
    static boolean isPlaceholder(String value) {
        value = unquoted(value);
        String v = value.toLowerCase(Locale.ROOT);
        if (value.startsWith("$") && !VARIABLE.matcher(value).lookingAt()
                || value.startsWith("%") && !PERCENT_VARIABLE.matcher(value).lookingAt()) {
            return false; // "$ecretPa55", "%Tr0ub4dor": a password that starts with a dollar or a percent sign
        }
        if (REFERENCE.matcher(value).matches()) {
            return true;
        }
        if (v.startsWith("[redacted") || v.startsWith("$") || v.startsWith("{{") || v.startsWith("<")
                || v.startsWith("%") || v.startsWith("process.env") || v.startsWith("os.environ")
                || v.startsWith("os.getenv") || v.startsWith("env(") || v.startsWith("your_")
                || v.startsWith("your-") || v.startsWith("<your")) {
            return true;
        }
        if (v.equals("null") || v.equals("none") || v.equals("nil") || v.equals("undefined") || v.equals("true")
                || v.equals("false") || v.equals("redacted") || v.equals("hidden")) {
            return true;
        }
        if (v.endsWith("...") || v.endsWith("…")) {
            String head = v.substring(0, v.length() - (v.endsWith("…") ? 1 : 3));
            if (head.length() <= 4 || head.endsWith("-") || head.endsWith("_")) {
                return true; // "sk-ant-api03-...", "github_pat_…": a prefix and an ellipsis, an elided example
            }
        }
        if (TYPE_NAMES.contains(v) || v.endsWith("(") || v.startsWith("getpass.") || v.startsWith("system.getenv")
                || v.startsWith("os.") || v.startsWith("input(")) {
            return true; // "password: str", "pw = System.getenv(": code that names or reads a secret
        }
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c != '*' && c != 'x' && c != '.' && c != '•' && c != '…' && c != '-' && c != '#') {
                return false;
            }
        }
        return true;
    }

    private static boolean namesPassword(String key, List<String> parts, boolean keyShaped) {
        String lower = key.toLowerCase(Locale.ROOT);
        // a bare "pass" or "pw" names a password only as a data key: quoted ("pass": …), exported, in
        // upper case (PASS=…) or compound (db_pass); "pass: the salt" in prose does not
        if (!(lower.contains("password") || lower.contains("passwd") || lower.contains("passphrase")
                || lower.contains("senha") || lower.contains("passcode") || parts.contains("pwd")
                || (keyShaped && (parts.contains("pass") || parts.contains("pw"))))) {
            return false;
        }
        if (NOT_SECRET_PARTS.contains(parts.get(parts.size() - 1)) || parts.contains("hint") || parts.contains("policy")
                || parts.contains("reset")) {
            return false;
        }
        // "password_max_age_days", "password_min_length": a setting about passwords, not one
        boolean after = false;
        for (String p : parts) {
            if (after && (NOT_SECRET_PARTS.contains(p) || PASSWORD_SETTING_PARTS.contains(p))) {
                return false;
            }
            after |= p.contains("password") || p.contains("passwd") || p.equals("pwd") || p.equals("pass")
                    || p.equals("pw") || p.contains("senha") || p.contains("passphrase");
        }
        return true;
    }

    /** Whether {@code value} is a file path: it starts at a home, root or relative folder and holds no space. */
    private static boolean isPath(String value) {
        // "/x8Y+2zQ/9wE4…==" is base64 that starts with a slash: an absolute path counts only with a file name
        return (value.startsWith("~/") || value.startsWith("./") || value.startsWith("../")
                || value.startsWith("/") && value.indexOf('/', 1) > 0 && FILE_NAME.matcher(value).find())
                && value.indexOf(' ') < 0;
    }

    /** A file name at the end of a path: letters, digits, dashes, then an extension of letters. */
    private static final java.util.regex.Pattern FILE_NAME =
            java.util.regex.Pattern.compile("/[A-Za-z0-9_\\-]{1,64}\\.[A-Za-z]{2,5}$");

    /** Whether a part of {@code key} names what a setting is, not a secret ({@code user}, {@code url}, …). */
    static boolean namesNonSecret(String key) {
        for (String p : parts(key)) {
            if (NOT_SECRET_PARTS.contains(p)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a setting named {@code key} holds a password or a secret (as an assignment's key would). */
    static boolean namesAnySecret(String key) {
        List<String> parts = parts(key);
        boolean compound = parts.size() > 1;
        return namesPassword(key, parts, compound) || namesSecret(parts, compound, isUpperCaseWord(key));
    }

    private static boolean namesSecret(List<String> parts, boolean compound, boolean upperCase) {
        boolean secret = false;
        for (int i = 0; i < parts.size(); i++) {
            String p = parts.get(i);
            if (NOT_SECRET_PARTS.contains(p)) {
                return false;
            }
            if (SECRET_PARTS.contains(p) || (compound && (p.equals("key") || p.equals("pass")))
                    || ((compound || upperCase) && CONFIG_SECRET_PARTS.contains(p))) {
                secret = true;
            }
        }
        return secret;
    }

    /** The lower-case parts of a key split at {@code _ - .} and camel case: {@code clientSecretKey → client, secret, key}. */
    static List<String> parts(String key) {
        List<String> out = new ArrayList<>(4);
        StringBuilder cur = new StringBuilder();
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c == '_' || c == '-' || c == '.') {
                flush(out, cur);
                continue;
            }
            if (Character.isUpperCase(c) && cur.length() > 0) {
                char prev = key.charAt(i - 1);
                boolean nextLower = i + 1 < key.length() && Character.isLowerCase(key.charAt(i + 1));
                if (Character.isLowerCase(prev) || Character.isDigit(prev) || (Character.isUpperCase(prev) && nextLower)) {
                    flush(out, cur);
                }
            }
            cur.append(Character.toLowerCase(c));
        }
        flush(out, cur);
        if (out.isEmpty()) {
            out.add("");
        }
        return out;
    }

    private static void flush(List<String> out, StringBuilder cur) {
        if (cur.length() > 0) {
            out.add(cur.toString());
            cur.setLength(0);
        }
    }

    private static boolean isUpperCaseWord(String key) {
        boolean letter = false;
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isLowerCase(c)) {
                return false;
            }
            letter |= Character.isLetter(c);
        }
        return letter && key.length() > 1;
    }

    private static int closingQuote(char open) {
        return switch (open) {
            case '"' -> '"';
            case '\'' -> '\'';
            case '“' -> '”';
            case '‘' -> '’';
            case '«' -> '»';
            case '`' -> '`';
            default -> -1;
        };
    }
}
