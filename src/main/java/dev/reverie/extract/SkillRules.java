package dev.reverie.extract;

import dev.reverie.Cardinality;
import dev.reverie.MemoryKind;
import dev.reverie.Polarity;
import dev.reverie.internal.Terms;

import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Skills: {@code user.skill} (multi, kind SKILL). Value = the language, technology or instrument
 * ("I know Kotlin" → Kotlin, "sei programar em Python" → Python, "falo inglês" → inglês, "I play
 * guitar" → guitar) or the ability ("I can swim" → swim, "I'm good at cooking" → cooking). "I
 * know X" only counts when X is a known technology or language, so "I know Omar" is not a skill.
 * Stateless and thread-safe.
 */
final class SkillRules {

    /** Adverbs and negations that may sit between "I" and the verb ("I can't really speak ..."). */
    private static final String ADV = "(?:" + IdentityRules.ADV
            + "|(?:don't|dont|do\\s+not|can't|cant|cannot|never|can)\\s+)";

    private enum Target { TECH, LANGUAGE, INSTRUMENT, ANY }

    private record Rule(String[] needles, Pattern pattern, Target object, String english, String portuguese) {
    }

    private static final List<Rule> RULES = List.of(
            rule("know how", "\\bi\\s+" + ADV + "{0,2}know\\s+how\\s+to\\s+", Target.ANY, "%1$s knows how to %2$s", "%1$s sabe %2$s"),
            rule("know", "\\bi\\s+" + ADV + "{0,2}know\\s+(?:a\\s+(?:bit|little)\\s+(?:of\\s+)?|some\\s+)?", Target.TECH,
                    "%1$s knows %2$s", "%1$s conhece %2$s"),
            rule("speak", "\\bi\\s+" + ADV + "{0,2}(?:can\\s+)?(?:also\\s+)?speak\\s+(?:a\\s+little\\s+|some\\s+|fluent\\s+|basic\\s+"
                    + "|a\\s+bit\\s+of\\s+)?", Target.LANGUAGE, "%1$s speaks %2$s", "%1$s fala %2$s"),
            rule("fluent", "\\b(?:i'm|im|i\\s+am)\\s+" + ADV + "{0,2}fluent\\s+in\\s+|\\b(?:eu\\s+)?sou\\s+fluente\\s+em\\s+",
                    Target.LANGUAGE, "%1$s is fluent in %2$s", "%1$s é fluente em %2$s"),
            rule("play", "\\bi\\s+" + ADV + "{0,2}(?:can\\s+)?play\\s+(?:the\\s+)?"
                    // "I've been playing the piano since I was 6" (read as "I'm playing …"): with its years, a skill
                    + "|\\b(?:i'm|im|i've\\s+been|i\\s+have\\s+been)\\s+playing\\s+(?:the\\s+)?(?=[a-z]+(?:\\s+[a-z]+)?\\s+(?:for|since)\\b)",
                    Target.INSTRUMENT, "%1$s plays %2$s",
                    "%1$s toca %2$s"),
            rule("program|code|develop|write", "\\bi\\s+" + ADV + "{0,2}(?:program|code|develop|write\\s+code|write\\s+software)\\s+(?:mostly\\s+|mainly\\s+)?in\\s+",
                    Target.TECH, "%1$s programs in %2$s", "%1$s programa em %2$s"),
            rule("can", "\\bi\\s+" + ADV + "{0,2}(?:can|can't|cant|cannot)\\s+(?=(?:cook|drive|swim|dance|sing|paint|draw|knit|sew|ski|surf|juggle"
                    + "|skate|ride|code|program|fix|build|bake|sail|dive)\\b)", Target.ANY, "%1$s can %2$s", "%1$s sabe %2$s"),
            rule("good|great|skilled|experienced|proficient|expert", "\\b(?:i'm|im|i\\s+am)\\s+" + ADV + "{0,2}(?:really\\s+|pretty\\s+|very\\s+|quite\\s+)?(?:good|great|skilled"
                    + "|experienced|proficient|an\\s+expert|expert)\\s+(?:at|in|with)\\s+", Target.ANY,
                    "%1$s is good at %2$s", "%1$s é bom/boa em %2$s"),
            rule("experience", "\\bi\\s+(?:have|'ve\\s+got)\\s+(?:\\d+\\s+years\\s+of\\s+|years\\s+of\\s+|a\\s+lot\\s+of\\s+|some\\s+|lots\\s+of\\s+)?"
                    + "experience\\s+(?:in|with)\\s+", Target.ANY, "%1$s has experience with %2$s",
                    "%1$s tem experiência com %2$s"),
            rule("sei |programo", "\\b(?:eu\\s+)?sei\\s+(?:programar|codar)\\s+(?:em\\s+)?|\\b(?:eu\\s+)?programo\\s+(?:em\\s+)?",
                    Target.TECH, "%1$s programs in %2$s", "%1$s programa em %2$s"),
            rule("sei |falo", "\\b(?:eu\\s+)?sei\\s+falar\\s+(?:um\\s+pouco\\s+de\\s+)?|(?:^|\\beu\\s+|\\be\\s+|\\btambem\\s+)falo\\s+"
                    + "(?:um\\s+pouco\\s+de\\s+|bem\\s+|fluentemente\\s+)?", Target.LANGUAGE, "%1$s speaks %2$s",
                    "%1$s fala %2$s"),
            rule("sei |toco|jogo", "\\b(?:eu\\s+)?sei\\s+(?:tocar|jogar)\\s+(?:o\\s+|a\\s+)?|(?:^|\\beu\\s+|\\be\\s+|\\btambem\\s+)(?:toco|jogo)\\s+"
                    + "(?:o\\s+|a\\s+)?", Target.INSTRUMENT, "%1$s plays %2$s", "%1$s toca/joga %2$s"),
            rule("sei ", "\\b(?:eu\\s+)?sei\\s+(?=(?:cozinhar|nadar|dirigir|desenhar|pintar|dancar|cantar|costurar|tricotar"
                    + "|surfar|patinar|andar\\s+de\\s+bicicleta|andar\\s+de\\s+moto|velejar|mergulhar|consertar)\\b)",
                    Target.ANY, "%1$s can %2$s", "%1$s sabe %2$s"),
            rule("sou ", "\\b(?:eu\\s+)?sou\\s+(?:muito\\s+|bem\\s+)?(?:bom|boa|otim[oa]|expert|especialista|fera)\\s+(?:em|no|na|com)\\s+",
                    Target.ANY, "%1$s is good at %2$s", "%1$s é bom/boa em %2$s"),
            rule("experiencia", "\\b(?:eu\\s+)?tenho\\s+(?:\\d+\\s+anos\\s+de\\s+|anos\\s+de\\s+|muita\\s+|bastante\\s+|alguma\\s+)?"
                    + "experiencia\\s+(?:em|com|no|na)\\s+", Target.ANY, "%1$s has experience with %2$s",
                    "%1$s tem experiência com %2$s"),
            rule("conheco|domino|manjo", "\\b(?:eu\\s+)?(?:conheco|domino|manjo\\s+de|manjo)\\s+(?:bem\\s+)?(?:o\\s+|a\\s+)?", Target.TECH,
                    "%1$s knows %2$s", "%1$s conhece %2$s"));

    private static final Pattern NEGATED = Pattern.compile(
            "\\b(?:don't|dont|do\\s+not|can't|cant|cannot|not|never|nao|nunca)\\b");

    /**
     * The negative of a rule's English template: "speaks" → "does not speak", "is fluent in" → "is not
     * fluent in", "can" → "cannot", "has experience with" → "has no experience with" ("I can't speak
     * French" was "John cannot French").
     */
    static String negativeEnglish(String template) {
        String rest = template.substring("%1$s ".length());
        if (rest.startsWith("is ")) {
            return "%1$s is not " + rest.substring(3);
        }
        if (rest.startsWith("can ")) {
            return "%1$s cannot " + rest.substring(4);
        }
        if (rest.startsWith("has ")) {
            return "%1$s has no " + rest.substring(4);
        }
        int sp = rest.indexOf(' ');
        String verb = rest.substring(0, sp);
        return "%1$s does not " + (verb.endsWith("s") ? verb.substring(0, verb.length() - 1) : verb) + rest.substring(sp);
    }

    /** The negative of a rule's Portuguese template: "não" before its verb ("fala" → "não fala"). */
    static String negativePortuguese(String template) {
        return "%1$s não " + template.substring("%1$s ".length());
    }

    private SkillRules() {
    }

    /** A rule tried only when the folded body contains one of the {@code |}-separated needles. */
    private static Rule rule(String needles, String regex, Target object, String english, String portuguese) {
        return new Rule(needles.split("\\|"), Pattern.compile(regex), object, english, portuguese);
    }

    static void apply(Sentence s, Facts out) {
        if (!s.hasAny("know", "speak", "fluent", "play", "program", "code", "develop", "can", "good", "great",
                "skilled", "experience", "proficient", "expert", "sei ", "programo", "falo", "toco", "jogo", "bom ",
                "boa ", "otim", "especialista", "fera", "experiencia", "conheco", "domino", "manjo")) {
            return;
        }
        for (Rule r : RULES) {
            if (!s.hasAny(r.needles)) {
                continue;
            }
            Matcher m = s.match(r.pattern);
            while (m.find()) {
                boolean negated = NEGATED.matcher(s.folded.substring(Math.max(s.body, m.start() - 5), m.end())).find();
                Polarity p = negated ? Polarity.NEGATIVE : Polarity.POSITIVE;
                if (r.object == Target.ANY) {
                    String v = Values.phrase(s, m.end(), s.folded.length(), " for ", " since ", " ha ", " desde ",
                            " and i ", " now", " agora");
                    if (v != null && !oneOff(s, m.end())) {
                        out.typed(MemoryKind.SKILL, "user.skill", v, Cardinality.MULTI, p, Facts.NORMAL,
                                p == Polarity.POSITIVE ? r.english : negativeEnglish(r.english),
                                p == Polarity.POSITIVE ? r.portuguese : negativePortuguese(r.portuguese));
                    }
                    continue;
                }
                Set<String> lexicon = r.object == Target.TECH ? Lexicon.TECH
                        : r.object == Target.LANGUAGE ? Lexicon.LANGUAGES : Lexicon.INSTRUMENTS;
                if (r.english.startsWith("%1$s knows ") && complementClause(s, m.end())) {
                    continue; // "I know Python is hard": something said of Python, not the skill
                }
                for (String item : Values.list(s, m.end(), s.folded.length(), " for ", " since ", " at ", " in ",
                        " with ", " ha ", " desde ", " com ", " no ", " na ")) {
                    String known = lexiconPrefix(item, lexicon);
                    if (known != null) {
                        out.typed(MemoryKind.SKILL, "user.skill", known, Cardinality.MULTI, p, Facts.NORMAL,
                                p == Polarity.POSITIVE ? r.english : negativeEnglish(r.english),
                                p == Polarity.POSITIVE ? r.portuguese : negativePortuguese(r.portuguese));
                    }
                }
            }
        }
    }

    /** Words of a one-off ("I can't drive today") or an offer ("I can drive you home"), not an ability. */
    private static final Set<String> ONE_OFF = Set.of("today", "tonight", "tomorrow", "hoje", "amanha");
    private static final Set<String> OBJECT_PRONOUNS = Set.of("you", "him", "her", "them", "us", "it", "voce", "te",
            "ele", "ela", "eles", "elas", "vc");

    /** Whether what follows the verb at {@code from}, in its clause, is a one-off or an offer. */
    private static boolean oneOff(Sentence s, int from) {
        List<String> words = Terms.wordTokens(s.folded.substring(from, s.clauseEnd(from)));
        for (int k = 0; k < words.size(); k++) {
            if (ONE_OFF.contains(words.get(k)) || k == 1 && OBJECT_PRONOUNS.contains(words.get(k))
                    || k + 1 < words.size() && words.get(k).equals("this") && Set.of("week", "weekend", "time", "year",
                    "month", "morning", "evening").contains(words.get(k + 1))) {
                return true;
            }
        }
        return false;
    }

    /** Whether the object after "I know" at {@code from} is the subject of a clause ("I know Python is hard"). */
    private static boolean complementClause(Sentence s, int from) {
        List<String> words = Terms.wordTokens(s.folded.substring(from, s.clauseEnd(from)));
        for (int k = 1; k < Math.min(4, words.size()); k++) {
            if (Lexicon.FINITE_VERBS.contains(words.get(k))) {
                return true;
            }
        }
        return false;
    }

    /** How much of a language or a tool, before its name: "a bit of Italian", "some Rust", "basic French". */
    private static final Pattern HOW_MUCH = Pattern.compile(
            "^(?:(?:(?:a\\s+)?(?:little|bit)(?:\\s+of)?|(?:a\\s+)?little\\s+bit\\s+of|some|basic|conversational|fluent|decent|broken"
                    + "|limited|passable|rusty|native|good|very\\s+good|(?:um\\s+)?pouco\\s+(?:de|do|da)|(?:um\\s+)?pouquinho\\s+(?:de|do|da)"
                    + "|bastante)\\s+)+");

    /** The longest leading run of up to three words of {@code item} that is in {@code lexicon}. */
    private static String lexiconPrefix(String item, Set<String> lexicon) {
        Matcher much = HOW_MUCH.matcher(Terms.foldKeepingLength(item).toLowerCase(java.util.Locale.ROOT));
        if (much.lookingAt()) {
            item = item.substring(much.end()); // "a bit of Italian" → "Italian"
        }
        String folded = Terms.foldKeepingLength(item);
        List<int[]> spans = Terms.tokenSpans(folded, 0, folded.length());
        String best = null;
        for (int k = 0; k < Math.min(3, spans.size()); k++) {
            String phrase = folded.substring(spans.get(0)[0], spans.get(k)[1]).replaceAll("\\s+", " ");
            if (lexicon.contains(phrase)) {
                best = item.substring(spans.get(0)[0], spans.get(k)[1]);
            }
        }
        return best;
    }
}
