package dev.reverie;

import dev.reverie.internal.Terms;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A secret given as the bare answer to a request for one, across turns: "What's the Wi-Fi password?"
 * then "RmqxoNf3$FPS", "send me the code" then "482913". Each turn is redacted on its own
 * ({@link SecretRedactor}), and a reply of one word carries no label for a rule to see; here a turn
 * that asks for a secret (ending its sentence on the secret's noun) marks the next turn of its session,
 * and a next turn that is only a value shaped like a secret (a word with a digit, a symbol or inner
 * capitals that is no ordinary word; 4–10 digits after a request for a code or PIN, 6–10 after one for
 * a password) loses it. Stateless and thread-safe.
 */
final class AskedSecrets {

    private AskedSecrets() {
    }

    /** What a turn asked for: nothing, a password or key, or a numeric code or PIN. */
    enum Asked {
        NONE, SECRET, CODE
    }

    /** What a request for a secret names last: "the Wi-Fi password", "your API key", "a senha do roteador". */
    private static final String SECRET_NOUNS = "pass\\s?words?|passwd|pass\\s?phrase|pass\\s?code|pwd|"
            + "(?:api|access|secret|private|license)\\s?key|(?:api|access|auth|bearer|personal\\s+access)\\s+token|"
            + "client\\s+secret|wi-?fi\\s+key|wpa2?\\s+key|senha|palavra[\\s-]passe|contrase[ñn]a|clave|"
            + "mot\\s+de\\s+passe|passwort|kennwort|parola|wachtwoord|has[łl]o";
    /** Codes that unlock something; a bare "code" may be a program's ("what code did you run?"). */
    private static final String CODE_NOUNS = "pin(?:\\s?code)?|otp|cvv2?|cvc|(?:security|verification|confirmation|"
            + "one[\\s-]time|2fa|mfa|sms|login|sign[\\s-]in|access|door|gate|alarm|auth(?:entication)?|recovery|backup)"
            + "\\s+code|c[óo]digo\\s+(?:de\\s+)?(?:verifica[çc][ãa]o|seguran[çc]a|acesso|confirma[çc][ãa]o|sms|pin)";

    /**
     * A request for a secret that ends its sentence on the secret's noun: a question or a request verb
     * before it ("What's the Wi-Fi password?", "Please type the verification code we texted you.", "qual
     * a senha do roteador?"). What follows the noun may only say whose or what for ("for the router",
     * "do roteador", "we texted you", "please"); "the token limit", "a password manager", "the PIN diode"
     * name something else.
     */
    private static final Pattern ASKS = Pattern.compile("(?iu)\\b(?:what(?:'s|\\s+is|\\s+was)|send|give|tell|"
            + "enter|type|share|paste|provide|need|confirm|repeat|read\\s+me|qual(?:\\s+(?:é|e|eh))?|manda|mande|passa|"
            + "passe|me\\s+diz|diga|digite|informe|envie|cu[áa]l\\s+es|quel\\s+est|wie\\s+lautet|was\\s+ist)\\b"
            + "[^.!?\\n]{0,40}?\\b(?<noun>" + SECRET_NOUNS + "|" + CODE_NOUNS + ")"
            + "(?:\\s+(?:for|of|to|on|do|da|de|del|pro|pra|para)\\s+[^.!?\\n]{1,40}?"
            + "|\\s+(?:(?:we|i|they|the\\s+bank|the\\s+app)\\s+)?(?:just\\s+)?(?:texted|sent|emailed|gave)(?:\\s+(?:you|to\\s+you))?"
            + "|\\s+(?:please|pls|por\\s+favor))?"
            + "\\s*(?:,\\s*please)?\\s*(?:[?.!:](?=\\s|$)|$)");
    /** A code or PIN noun, once a request was found. */
    private static final Pattern CODE_NOUN = Pattern.compile("(?iu)^(?:" + CODE_NOUNS + ")$");

    /** A short lead before the value: "it's", "sure,", "here:", "é". */
    private static final Pattern LEAD = Pattern.compile("(?iu)^(?:(?:sure|ok(?:ay)?|yes|yeah|yep|sim|claro|here|"
            + "aqui)[\\s,:!-]{1,3})?(?:(?:it'?s|it\\s+is|its|here\\s+it\\s+is|here\\s+you\\s+go|é|eh|e|es|c'est|ist)"
            + "[\\s,:]{1,3})?");

    /** What {@code text} asks for. */
    static Asked asks(String text) {
        if (text == null || text.length() > 2_000) {
            return Asked.NONE;
        }
        Matcher m = ASKS.matcher(text);
        if (!m.find()) {
            return Asked.NONE;
        }
        return CODE_NOUN.matcher(m.group("noun").strip()).matches() ? Asked.CODE : Asked.SECRET;
    }

    /** {@code reply} (already redacted on its own) with a bare secret answering {@code asked} replaced. */
    static Redaction answer(Redaction reply, Asked asked) {
        if (asked == Asked.NONE) {
            return reply;
        }
        String text = reply.text();
        String t = text.strip();
        if (t.isEmpty() || t.length() > 160 || t.indexOf('\n') >= 0) {
            return reply;
        }
        Matcher lead = LEAD.matcher(t);
        int from = lead.lookingAt() ? lead.end() : 0;
        String rest = t.substring(from);
        // one value, then at most closing punctuation: "RmqxoNf3$FPS", "it's hunter2!", "482913."
        int end = rest.length();
        while (end > 0 && ".!".indexOf(rest.charAt(end - 1)) >= 0) {
            end--;
        }
        String value = rest.substring(0, end);
        if (value.length() < 3 || value.length() > 128 || value.chars().anyMatch(Character::isWhitespace)
                || value.startsWith("[REDACTED:") || !secretShaped(value, asked)) {
            return reply;
        }
        int at = text.indexOf(value, text.indexOf(t) + from);
        String type = asked == Asked.CODE ? "pin" : "password";
        Map<String, Integer> counts = new HashMap<>(reply.countsByType());
        counts.merge(type, 1, Integer::sum);
        return new Redaction(text.substring(0, at) + Redaction.marker(type) + text.substring(at + value.length()),
                counts, reply.total() + 1);
    }

    private static boolean secretShaped(String value, Asked asked) {
        boolean digits = value.chars().allMatch(c -> c >= '0' && c <= '9');
        if (digits) {
            // a code or PIN of 4–10 digits; a numeric password of 6 or more
            return value.length() <= 10 && value.length() >= (asked == Asked.CODE ? 4 : 6);
        }
        if (asked == Asked.CODE && value.length() <= 10 && value.chars().allMatch(Character::isLetterOrDigit)
                && value.chars().anyMatch(Character::isDigit)) {
            return true; // "A7K29Q"
        }
        String lower = value.toLowerCase(Locale.ROOT);
        if (Terms.ordinaryWord(lower) || SecretAssignments.NOT_A_PASSWORD.contains(lower)
                || SecretAssignments.FUNCTION_WORDS.contains(lower) || SecretAssignments.isPlaceholder(value)) {
            return false;
        }
        boolean digit = false;
        boolean symbol = false;
        boolean innerUpper = false;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            digit |= Character.isDigit(c);
            symbol |= !Character.isLetterOrDigit(c) && c != '\'' && c != '-';
            innerUpper |= i > 0 && Character.isUpperCase(c) && Character.isLowerCase(value.charAt(i - 1));
        }
        if (value.startsWith("http") || value.indexOf('@') > 0 && value.indexOf('.') > value.indexOf('@')) {
            return false; // a link or an e-mail address answers other questions
        }
        return digit && value.chars().anyMatch(Character::isLetter) || symbol && value.length() >= 6 || innerUpper;
    }
}
