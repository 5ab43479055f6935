package dev.reverie.extract;

import dev.reverie.Cardinality;
import dev.reverie.MemoryKind;
import dev.reverie.Polarity;
import dev.reverie.internal.Terms;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Health and diet: {@code user.allergy} (value = the allergen), {@code user.health} (a condition
 * from a lexicon, or anything after "diagnosed with"), {@code user.diet} ("vegetarian", or a food
 * the speaker no longer eats, negated). All multi-valued facts; "not allergic anymore", "não sou
 * mais alérgica" and "I no longer eat meat" are negative. Stateless and thread-safe.
 */
final class HealthRules {

    private static final String ADV = IdentityRules.ADV;

    private static final Pattern ALLERGIC_EN = Pattern.compile(
            "\\b(?:i'm|im|i\\s+am)\\s+" + ADV + "{0,2}(?:(not|no\\s+longer|never\\s+been)\\s+)?" + ADV + "{0,3}"
                    + "allergic\\s+to\\s+"
                    + "|\\bi\\s+" + ADV + "{0,2}(?:(don't|dont|do\\s+not|no\\s+longer)\\s+)?(?:have|'ve\\s+got|have\\s+got|got)\\s+"
                    + "(?:an?\\s+|some\\s+|severe\\s+|a\\s+severe\\s+|a\\s+serious\\s+|serious\\s+|mild\\s+|a\\s+mild\\s+|bad\\s+|a\\s+bad\\s+)?"
                    + "(?:food\\s+)?allerg(?:y|ies)\\s+(?:to|for)\\s+"
                    + "|\\bmy\\s+(?:only\\s+)?allerg(?:y|ies)\\s+(?:is|are|include|includes)\\s+()(?:to\\s+)?"
                    // "We're allergic to", "My son and I are allergic to", "I've become allergic to", "i'm alergic to"
                    + "|\\b(?:we're|we\\s+are|and\\s+i\\s+are|i've\\s+become|i\\s+(?:have\\s+)?become|i\\s+became"
                    + "|i'm\\s+now|im|i'm|i\\s+am)\\s+" + ADV + "{0,2}al{1,2}erg(?:ic|ik)\\s+to\\s*:?\\s*"
                    // "allergic to: peanuts, shellfish"; "Allergic to shellfish btw" (the "I" left out)
                    + "|\\bi'm\\s+allergic\\s+to\\s*:\\s*|^(?:also\\s+|and\\s+)?(?:severely\\s+|very\\s+)?allergic\\s+to\\s+"
                    // "Allergies: peanuts, shellfish."; "I developed an allergy to shellfish"
                    + "|^(?:my\\s+)?allerg(?:y|ies)\\s*:\\s*|\\bi\\s+(?:just\\s+|recently\\s+)?(?:developed|got)\\s+(?:an?\\s+)?"
                    + "(?:severe\\s+|mild\\s+)?allerg(?:y|ies)\\s+(?:to|for)\\s+");
    /** The verb after "what I'm allergic to": the allergen follows it. */
    private static final Pattern CLEFT_COPULA = Pattern.compile("(?:is|are|was|were)\\s+");
    /** What opens a cleft right before "I'm allergic to" ("the only thing", "what", "all"). */
    private static final Pattern CLEFT_HEAD = Pattern.compile(
            "\\b(?:what|thing|things|one|all|everything)\\s+(?:that\\s+)?$");
    /** "I have a penicillin allergy": the allergen comes before the word. */
    /** "my peanut allergy" said in passing ("I carry an EpiPen for my peanut allergy"). */
    private static final Pattern MY_ALLERGY = Pattern.compile(
            "\\bmy\\s+(?:severe\\s+|serious\\s+|mild\\s+|bad\\s+)?([a-z][a-z\\-]{2,30}(?:\\s+[a-z][a-z\\-]{2,30})?)\\s+allerg(?:y|ies)\\b");
    private static final Pattern ALLERGY_BEFORE = Pattern.compile(
            "\\bi\\s+" + ADV + "{0,2}(?:(don't|dont|do\\s+not|no\\s+longer)\\s+)?(?:have|'ve\\s+got|have\\s+got|got)\\s+"
                    + "(?:an?\\s+|some\\s+)?(?:severe\\s+|serious\\s+|mild\\s+|bad\\s+)?([a-z][a-z\\-]{2,30}(?:\\s+[a-z][a-z\\-]{2,30})?)"
                    + "\\s+allerg(?:y|ies)\\b");
    private static final Pattern ALLERGIC_PT = Pattern.compile(
            "\\b(?:eu\\s+)?(?:(nao)\\s+)?sou\\s+(mais\\s+)?" + ADV + "{0,2}alergic[oa]s?\\s+(?:a|ao|aos|as|de|com)\\s+"
                    + "|\\b(?:eu\\s+)?(?:(nao)\\s+)?tenho\\s+(mais\\s+)?(?:uma\\s+)?(?:forte\\s+|grave\\s+|leve\\s+)?"
                    + "alergia\\s+(?:forte\\s+|grave\\s+|leve\\s+)?(?:a|ao|aos|as|de|do|da|dos|das|com)\\s+"
                    + "|\\bminhas?\\s+alergias?\\s+(?:e|sao)\\s+(?:a\\s+|ao\\s+|aos\\s+|as\\s+)?()"
                    // "Tenho alergia a: amendoim", "Minhas alergias: …", "Alérgico a dipirona" (the "eu" left out),
                    // "Desenvolvi alergia a camarão"
                    + "|\\btenho\\s+alergia\\s+(?:a|ao|aos|as|de)\\s*:\\s*|\\bminhas?\\s+alergias?\\s*:\\s*"
                    + "|^(?:tambem\\s+)?alergic[oa]s?\\s+(?:a|ao|aos|as|de)\\s+|^alergias?\\s*:\\s*"
                    + "|\\b(?:desenvolvi|peguei|adquiri)\\s+(?:uma\\s+)?alergia\\s+(?:a|ao|aos|as|de)\\s+");

    private static final Pattern CONDITION_EN = Pattern.compile(
            "\\bi\\s+" + ADV + "{0,2}(?:(don't|dont|do\\s+not|no\\s+longer)\\s+)?(?:have|'ve\\s+got|have\\s+got|suffer\\s+from"
                    + "|live\\s+with|struggle\\s+with|deal\\s+with|'m\\s+dealing\\s+with|'m\\s+struggling\\s+with"
                    + "|'m\\s+recovering\\s+from|am\\s+recovering\\s+from)\\s+(?:from\\s+)?");
    private static final Pattern DIAGNOSED = Pattern.compile(
            "\\bi(?:\\s+was|\\s+got|'ve\\s+been|\\s+have\\s+been|'m|\\s+am|\\s+just\\s+got|\\s+recently\\s+got)\\s+(?:recently\\s+)?diagnosed\\s+with\\s+"
                    + "|\\b(?:eu\\s+)?fui\\s+diagnosticad[oa]\\s+com\\s+|\\brecebi\\s+o\\s+diagnostico\\s+de\\s+");
    private static final Pattern CONDITION_PT = Pattern.compile(
            "\\b(?:eu\\s+)?(?:(nao)\\s+)?(?:tenho|sofro\\s+de|convivo\\s+com|trato)\\s+(mais\\s+)?");
    private static final Pattern CONDITION_ADJ = Pattern.compile(
            "\\b(?:i'm|im|i\\s+am)\\s+" + ADV + "{0,2}(?:(not|no\\s+longer)\\s+)?"
                    // "a diabetic", "an epileptic" only as the whole predicate ("a blind date" is no condition)
                    + "(?:an?\\s+(?=(?:type\\s+\\S+\\s+)?[a-z]+\\s*(?:[,.;!?]|$|\\s+(?:and|but|so|since|who)\\b)))?"
                    + "(?:type\\s+(?:1|2|one|two|i|ii)\\s+)?(?:(?:\\d{1,2}|a\\s+few|several)\\s+(?:weeks?|months?)\\s+(?=pregnant))?"
                    + "(diabetic|asthmatic|epileptic|celiac"
                    + "|coeliac|lactose\\s+intolerant|gluten\\s+intolerant|pregnant|anemic|hypertensive|autistic|deaf"
                    + "|blind|colorblind|color\\s+blind|bipolar|dyslexic|immunocompromised|hard\\s+of\\s+hearing)\\b"
                    + "|\\b(?:eu\\s+)?(?:(nao)\\s+)?(?:sou|estou|to|tou)\\s+(mais\\s+)?(diabetic[oa]|asmatic[oa]|celiac[oa]"
                    + "|epileptic[oa]|hipertens[oa]|intolerante\\s+a\\s+lactose|intolerante\\s+ao\\s+gluten|autista"
                    + "|surd[oa]|ceg[oa]|daltonic[oa]|anemic[oa]|bipolar|gravida|disle?xic[oa])\\b");

    private static final Pattern DIET_ADJ = Pattern.compile(
            "\\b(?:i'm|im|i\\s+am)\\s+" + ADV + "{0,2}(?:(not|no\\s+longer)\\s+)?(?:a\\s+)?(vegetarian|vegan|pescatarian"
                    + "|pescetarian|keto|gluten-free|gluten\\s+free|teetotal|teetotaler|sober)\\b"
                    + "|\\b(?:eu\\s+)?(?:(nao)\\s+)?sou\\s+(mais\\s+)?(vegetarian[oa]|vegan[oa]|pescetarian[oa]|ovolactovegetarian[oa])\\b");
    private static final Pattern DIET_NEG_EN = Pattern.compile(
            "\\bi\\s+" + ADV + "{0,2}(don't|dont|do\\s+not|no\\s+longer|never|can't|cant|cannot|stopped|quit|gave\\s+up)\\s+"
                    + ADV + "{0,2}(eat|eating|drink|drinking)\\b\\s*");
    private static final Pattern DIET_NEG_PT = Pattern.compile(
            "\\b(?:eu\\s+)?(?:(?:nao|nunca|jamais)\\s+(como|bebo)\\s+(?:mais\\s+)?|(?:parei|deixei)\\s+de\\s+(comer|beber)\\b\\s*)");

    /**
     * A condition said as the speaker's own in passing: "my asthma's been so bad", "dealing with depression
     * for years" (the "I" left out); the condition must be one of the lexicon's ({@link #condition(Sentence, int)}).
     */
    private static final Pattern CONDITION_IN_PASSING = Pattern.compile(
            "\\b(?:my|minha|meu)\\s+(?:chronic\\s+|severe\\s+|mild\\s+|cronica\\s+)?"
                    + "|^(?:(?:i've|i\\s+have|i)\\s+)?(?:been\\s+|still\\s+)?(?:dealing|living|struggling|battling|coping)\\s+with\\s+"
                    + "|\\bi(?:'ve|\\s+have)\\s+been\\s+(?:dealing|living|struggling|battling|coping)\\s+with\\s+"
                    + "|\\bi'm\\s+(?:still\\s+)?(?:dealing|living|struggling|battling|coping)\\s+with\\s+");
    /** "I used to have really bad eczema", "I was vegan for 3 years": a condition or a diet that ended. */
    private static final Pattern USED_TO_HAVE = Pattern.compile(
            "\\bi\\s+(?:used\\s+to\\s+(?:have|suffer\\s+from)|had)\\s+(?:really\\s+|very\\s+|pretty\\s+)?(?:bad\\s+|severe\\s+|mild\\s+)?");
    private static final Pattern WAS_DIET = Pattern.compile(
            "\\bi\\s+(?:used\\s+to\\s+be|was)\\s+(?:a\\s+)?(vegetarian|vegan|pescatarian|pescetarian|keto)\\b"
                    + "(?=\\s+(?:for|until|till|but|in|during|back|when|years|as|all)\\b|\\s*[,.;!]|\\s*$)");

    private static final Pattern GERUND_FIRST = Pattern.compile("(?:dealing|living|struggling|battling|coping)\\b");
    /** A verb after a gerund phrase: the phrase was a subject ("Living with asthma is hard"). */
    private static final Pattern SUBJECT_VERB = Pattern.compile(
            "\\b(?:is|are|was|were|can|could|affects|makes|takes|sucks|means|helps)\\b");

    /** What ends a condition said in passing: "my eczema cleared up", "my asthma is gone now". */
    /** After "I had <condition>": words that say it is over ("as a kid", "but it cleared up", "years ago"). */
    private static final Pattern ENDED_AFTER = Pattern.compile(
            "\\b(?:as\\s+a\\s+(?:kid|child|baby|teen|teenager)|when\\s+i\\s+was|years\\s+ago|cleared|gone|went\\s+away|cured"
                    + "|outgrew|grew\\s+out|recovered|until)\\b");
    private static final Pattern CONDITION_ENDED = Pattern.compile(
            "\\b(?:gone|over|cured|cleared|went\\s+away|disappeared|used\\s+to|passou|sumiu|curou|curad[oa])\\b");
    /** "Type 1 diabetic here", "fellow asthmatic here", "vegan here": who the speaker is, said as a greeting. */
    private static final Pattern HERE = Pattern.compile(
            "^(?:(?:a|another|fellow|also\\s+a)\\s+)?(?:type\\s+(?:1|2|one|two)\\s+)?(diabetic|asthmatic|epileptic|celiac|coeliac"
                    + "|autistic|bipolar|dyslexic|deaf|vegan|vegetarian|pescatarian|pescetarian)\\s+here\\b");
    /**
     * A diet said with its time or as a change: "vegetarian for 8 years now", "gone fully vegan since
     * January", "I went vegetarian last year", "I've become pescatarian".
     */
    private static final Pattern DIET_SINCE = Pattern.compile(
            "^(?:(?:now|proudly|strictly|fully)\\s+)?(vegetarian|vegan|pescatarian|pescetarian|keto|teetotal)\\s+"
                    // years or several months, not a trial ("Vegan for a week was hard")
                    + "(?:for\\s+(?:over\\s+|almost\\s+|about\\s+|nearly\\s+)?(?:\\d+|a\\s+few|a\\s+couple\\s+of|several|many|two|three|four"
                    + "|five|six|seven|eight|nine|ten|a|one)\\s+(?:years?|yrs?)|for\\s+(?:\\d+|several|many|a\\s+few|three|four|five|six"
                    + "|seven|eight|nine|ten)\\s+months|since|now|these\\s+days|all\\s+my|my\\s+whole|ever\\s+since)\\b"
                    + "|(?:^|\\bi\\s+|\\bi've\\s+|\\bi\\s+have\\s+|\\bwe\\s+|\\bwe've\\s+)(?:just\\s+|recently\\s+|finally\\s+|officially\\s+)?"
                    + "(?:gone|went|turned|become|became|switched\\s+to\\s+being|switched\\s+to\\s+a)\\s+"
                    + "(?:fully\\s+|completely\\s+|full\\s+|100%\\s+)?(vegetarian|vegan|pescatarian|pescetarian|keto)\\b");
    /** A time or a place first after "quit drinking": no drink is named ("I quit drinking in March"). */
    private static final Pattern NO_FOOD_NAMED = Pattern.compile(
            "(?:in|on|at|last|since|for|after|before|when|a|ago|recently|yesterday|today|this|em|ha|desde|no|na|faz|"
                    + "\\d+)\\b");

    private static final String[] CONDITION_STEMS = {"diabet", "asthmat", "asmat", "epilep", "celiac", "coeliac",
        "intoleran", "pregnant", "gravida", "anemic", "hipertens", "hypertens", "autis", "deaf", "surd", "blind",
        "ceg", "daltonic", "bipolar", "dyslex", "dislex", "disle", "immunocomp", "hard of hearing"};

    /** Quantifiers and adjectives that name no allergen ("any known allergies", "several allergies"). */
    private static final java.util.Set<String> NO_ALLERGEN = java.util.Set.of("any", "anything", "nothing", "none",
            "some", "something", "everything", "all", "many", "lots", "known", "several", "multiple", "few", "a",
            "bad", "other", "severe", "serious", "mild", "nada", "nenhuma", "nenhum", "tudo", "algo", "alguma",
            "algumas", "varias");
    /** Whole values that name no allergen: "a food allergy", "seasonal allergies". */
    private static final java.util.Set<String> NO_ALLERGEN_ALONE = java.util.Set.of("food", "seasonal", "skin");
    /**
     * What people are "allergic to" only as a figure of speech ("allergic to Mondays", "allergic to small
     * talk", "alérgica a segunda-feira"): no allergy is stored (the sentence stays an episode).
     */
    private static final java.util.Set<String> FIGURATIVE = java.util.Set.of("monday", "mondays", "tuesdays",
            "weekdays", "mornings", "early mornings", "small talk", "people", "humans", "drama", "stupidity",
            "adulting", "responsibility", "responsibilities", "commitment", "math", "maths", "homework", "meetings",
            "work", "hard work", "effort", "nonsense", "bs", "bullshit", "chores", "mornings before coffee",
            "segunda", "segundas", "segunda-feira", "segundas-feiras", "gente", "pessoas", "trabalho", "reuniao",
            "reunioes", "matematica", "compromisso", "burrice", "lunes", "los lunes");

    /**
     * The allergen named by {@code value} without its leading quantifiers and adjectives ("any nut" →
     * "nut"), or {@code null} when nothing is left ("any known", "several").
     */
    private static String allergen(String value) {
        String folded = Terms.foldKeepingLength(value);
        int at = 0;
        while (true) {
            while (at < folded.length() && Character.isWhitespace(folded.charAt(at))) {
                at++;
            }
            int sp = folded.indexOf(' ', at);
            String word = sp < 0 ? folded.substring(at) : folded.substring(at, sp);
            if (word.isEmpty() || !NO_ALLERGEN.contains(word)) {
                break;
            }
            at = sp < 0 ? folded.length() : sp + 1;
        }
        String rest = value.substring(at).strip();
        String restFolded = Terms.foldKeepingLength(rest);
        return rest.isEmpty() || NO_ALLERGEN.contains(restFolded) || NO_ALLERGEN_ALONE.contains(restFolded)
                || FIGURATIVE.contains(restFolded) ? null : rest;
    }

    private HealthRules() {
    }

    static void apply(Sentence s, Facts out) {
        if (s.hasAny("allerg", "alerg")) {
            allergy(s, out);
        }
        if (s.hasAny("have", "'ve got", "suffer", "live with", "struggl", "deal", "recover", "diagnos", "tenho",
                "sofro", "convivo", "trato", "i'm", "im ", "i am", "sou", "estou", "to ", "tou")) {
            condition(s, out);
        }
        if (s.hasAny("vegan", "vegetarian", "pescatarian", "pescetarian", "keto", "gluten", "teetotal", "sober", "gone ",
                "eat", "drink", "como", "bebo", "comer", "beber")) {
            diet(s, out);
        }
        if (s.hasAny("my ", "minha ", "meu ", "dealing", "living", "struggling", "battling", "coping", " here",
                "used to", "i had ")) {
            inPassing(s, out);
        }
    }

    /**
     * A condition or diet said in passing or as a greeting ("my asthma's been bad", "type 1 diabetic
     * here"), when no other rule read one from the sentence; not in a question, not when the clause says it ended ("my eczema cleared up"), not of somebody else.
     */
    private static void inPassing(Sentence s, Facts out) {
        if (s.conditional || s.reported || out.has("user.health") || out.has("user.diet")) {
            return;
        }
        Matcher here = s.match(HERE);
        if (here.lookingAt()) {
            String v = s.text.substring(here.start(1), here.end(1));
            boolean diet = v.toLowerCase(java.util.Locale.ROOT).matches("vegan|vegetarian|pescatarian|pescetarian");
            out.typed(diet ? MemoryKind.PREFERENCE : MemoryKind.FACT, diet ? "user.diet" : "user.health", v,
                    Cardinality.MULTI, Polarity.POSITIVE, Facts.STRONG, "%1$s is %2$s", "%1$s é %2$s");
            return;
        }
        Matcher used = s.match(USED_TO_HAVE);
        if (used.find() && !s.negatedBefore(used.start())) {
            int[] c = condition(s, used.end());
            // "I had asthma as a kid", "I used to have eczema": it ended ("I had a cold" names no lexicon condition)
            if (c != null && (s.folded.startsWith("used", used.start() + 2) || ENDED_AFTER.matcher(s.folded)
                    .region(c[1], s.folded.length()).find())) {
                out.typed(MemoryKind.FACT, "user.health", s.text.substring(c[0], c[1]), Cardinality.MULTI,
                        Polarity.NEGATIVE, Facts.STRONG, "%1$s no longer has %2$s", "%1$s não tem mais %2$s");
                return;
            }
        }
        Matcher m = s.match(CONDITION_IN_PASSING);
        while (m.find()) {
            if (s.question || s.negatedBefore(m.start())) {
                continue;
            }
            int[] c = condition(s, m.end());
            if (c == null) {
                // "my asthma's been bad": the condition with its "'s"
                int e = m.end();
                while (e < s.folded.length() && (Character.isLetter(s.folded.charAt(e)) || s.folded.charAt(e) == '\'')) {
                    e++;
                }
                String word = s.folded.substring(m.end(), e);
                if (word.endsWith("'s") && Lexicon.CONDITIONS.contains(word.substring(0, word.length() - 2))
                        && (e == s.folded.length() || s.folded.charAt(e) == ' ')) {
                    c = new int[] {m.end(), e - 2};
                }
            }
            if (c == null || s.folded.startsWith("'s ", c[1]) && !s.folded.startsWith("'s been", c[1])
                    && !s.folded.startsWith("'s so", c[1]) && !s.folded.startsWith("'s really", c[1])) {
                continue; // "my asthma's inhaler"; "my asthma's been bad" is the condition
            }
            if (CONDITION_ENDED.matcher(s.folded).region(s.clauseStart(m.start()), s.clauseEnd(c[1])).find()
                    || s.folded.startsWith("allerg", c[0])) {
                continue; // "for my allergies": the allergy rules name allergens, a bare "allergies" names none
            }
            // "Living with depression is something my sister knows well", "Dealing with depression at work: a
            // guide": the phrase is a subject or a title, not the speaker's own
            if (GERUND_FIRST.matcher(s.folded).region(m.start(), s.folded.length()).lookingAt()
                    && (s.text.indexOf(':') >= 0 || SUBJECT_VERB.matcher(s.folded).region(c[1], s.folded.length()).find())) {
                continue;
            }
            out.typed(MemoryKind.FACT, "user.health", s.text.substring(c[0], c[1]), Cardinality.MULTI,
                    Polarity.POSITIVE, Facts.STRONG, "%1$s has %2$s", "%1$s tem %2$s");
            return;
        }
    }

    private static void allergy(Sentence s, Facts out) {
        Matcher before = s.match(ALLERGY_BEFORE);
        String named = before.find() ? allergen(s.text.substring(before.start(2), before.end(2))) : null;
        if (named == null) {
            Matcher mine = s.match(MY_ALLERGY);
            String passing = mine.find() ? allergen(s.text.substring(mine.start(1), mine.end(1))) : null;
            if (passing != null && !s.match(s.pt() ? ALLERGIC_PT : ALLERGIC_EN).find()) {
                out.typed(MemoryKind.FACT, "user.allergy", passing, Cardinality.MULTI, Polarity.POSITIVE, Facts.STRONG,
                        "%1$s is allergic to %2$s", "%1$s tem alergia a %2$s");
                return;
            }
        }
        if (named != null) {
            boolean negated = before.group(1) != null || s.anymoreIn(before.start(), before.end());
            boolean ended = ended(s, before.start(), before.end());
            out.typed(MemoryKind.FACT, "user.allergy", named, Cardinality.MULTI,
                    negated ? Polarity.NEGATIVE : Polarity.POSITIVE, Facts.STRONG,
                    negated ? ended ? "%1$s is no longer allergic to %2$s" : "%1$s is not allergic to %2$s"
                            : "%1$s is allergic to %2$s",
                    negated ? ended ? "%1$s não tem mais alergia a %2$s" : "%1$s não tem alergia a %2$s"
                            : "%1$s tem alergia a %2$s");
            return;
        }
        Matcher m = s.match(s.pt() ? ALLERGIC_PT : ALLERGIC_EN);
        if (!m.find()) {
            m = s.match(s.pt() ? ALLERGIC_EN : ALLERGIC_PT);
            if (!m.find()) {
                return;
            }
        }
        boolean negated = m.group(1) != null || m.group(2) != null
                || (m.pattern() == ALLERGIC_PT && (m.group(3) != null || m.group(4) != null))
                || s.anymoreIn(m.start(), m.end());
        Polarity p = negated ? Polarity.NEGATIVE : Polarity.POSITIVE;
        boolean ended = ended(s, m.start(), m.end());
        // "the only thing I'm allergic to is penicillin": the allergen follows the cleft's verb
        Matcher copula = CLEFT_COPULA.matcher(s.folded).region(m.end(), s.folded.length());
        boolean cleft = CLEFT_HEAD.matcher(s.folded).region(s.body, m.start()).find() && copula.lookingAt();
        int start = cleft ? copula.end() : m.end();
        for (String allergen : Values.possessions(s, start, s.folded.length(), " so ", " since ", " para ", " for ")) {
            allergen = allergen(allergen);
            if (allergen == null) {
                continue; // "I don't have any allergies", "not allergic to anything": no allergen named
            }
            out.typed(MemoryKind.FACT, "user.allergy", allergen, Cardinality.MULTI, p, Facts.STRONG,
                    negated ? ended ? "%1$s is no longer allergic to %2$s" : "%1$s is not allergic to %2$s"
                            : "%1$s is allergic to %2$s",
                    negated ? ended ? "%1$s não tem mais alergia a %2$s" : "%1$s não tem alergia a %2$s"
                            : "%1$s tem alergia a %2$s");
        }
    }

    /**
     * Whether a negated statement at {@code [from, to)} says something ended ("not allergic anymore",
     * "no longer", "não ... mais", "outgrew") rather than that it never was ("I don't have a peanut
     * allergy"): the fact's text then says "no longer" only when it did end.
     */
    static boolean ended(Sentence s, int from, int to) {
        if (s.anymoreIn(from, to)) {
            return true;
        }
        String clause = s.folded.substring(s.clauseStart(from), s.clauseEnd(to));
        return clause.contains("no longer") || clause.contains("nao") && MAIS.matcher(clause).find();
    }

    private static final Pattern MAIS = Pattern.compile("\\bmais\\b");

    private static void condition(Sentence s, Facts out) {
        Matcher m = s.match(DIAGNOSED);
        if (s.has("diagnos") && m.find()) {
            if (s.negatedBefore(m.start()) || s.negatedBefore(m.end() - 1)) {
                return; // "I wasn't diagnosed with", "Não fui diagnosticado com": no diagnosis
            }
            String v = Values.phrase(s, m.end(), s.folded.length(), " last ", " in ", " em ", " ha ", " a few ",
                    " when ", " yesterday", " ontem", " recently", " recentemente");
            if (v != null) {
                out.typed(MemoryKind.FACT, "user.health", v, Cardinality.MULTI, Polarity.POSITIVE, Facts.STRONG,
                        "%1$s was diagnosed with %2$s", "%1$s foi diagnosticado(a) com %2$s");
            }
            return;
        }
        m = s.match(CONDITION_ADJ);
        if (s.hasAny(CONDITION_STEMS) && m.find()) {
            boolean english = m.group(2) != null;
            int g = english ? 2 : 5;
            boolean negated = english ? m.group(1) != null : m.group(3) != null || m.group(4) != null;
            String v = s.text.substring(m.start(g), m.end(g));
            Polarity p = negated ? Polarity.NEGATIVE : Polarity.POSITIVE;
            String ser = s.folded.substring(m.start(), m.start(g)).matches(".*\\b(?:estou|to|tou)\\s+.*") ? "está" : "é";
            out.typed(MemoryKind.FACT, "user.health", v, Cardinality.MULTI, p, Facts.STRONG,
                    negated ? "%1$s is not %2$s" : "%1$s is %2$s", negated ? "%1$s não " + ser + " %2$s" : "%1$s " + ser + " %2$s");
            return;
        }
        m = s.match(s.pt() ? CONDITION_PT : CONDITION_EN);
        while (s.hasAny("have", "'ve got", "suffer", "live with", "struggl", "deal", "recover", "tenho", "sofro",
                "convivo", "trato") && m.find()) {
            int[] c = condition(s, m.end());
            if (c != null) {
                boolean negated = m.group(1) != null || (s.pt() && m.group(2) != null) || s.anymoreIn(m.start(), c[1]);
                Polarity p = negated ? Polarity.NEGATIVE : Polarity.POSITIVE;
                boolean ended = ended(s, m.start(), c[1]);
                out.typed(MemoryKind.FACT, "user.health", s.text.substring(c[0], c[1]), Cardinality.MULTI, p,
                        Facts.STRONG, negated ? ended ? "%1$s no longer has %2$s" : "%1$s does not have %2$s"
                                : "%1$s has %2$s",
                        negated ? ended ? "%1$s não tem mais %2$s" : "%1$s não tem %2$s" : "%1$s tem %2$s");
                return;
            }
        }
    }

    /** The longest condition from the lexicon that starts at {@code start} (after an optional article). */
    private static int[] condition(Sentence s, int start) {
        List<int[]> spans = Terms.tokenSpans(s.folded, start, Math.min(s.folded.length(), start + 60));
        if (spans.isEmpty()) {
            return null;
        }
        int first = 0;
        String w0 = s.folded.substring(spans.get(0)[0], spans.get(0)[1]);
        if ((w0.equals("a") || w0.equals("an") || w0.equals("uma") || w0.equals("um") || w0.equals("chronic")
                || w0.equals("severe") || w0.equals("mild")) && spans.size() > 1) {
            first = 1;
        }
        int[] best = null;
        for (int k = first; k < Math.min(spans.size(), first + 4); k++) {
            String phrase = s.folded.substring(spans.get(first)[0], spans.get(k)[1]).replaceAll("\\s+", " ");
            if (Lexicon.CONDITIONS.contains(phrase)) {
                best = new int[] {spans.get(first)[0], spans.get(k)[1]};
            }
        }
        return best;
    }

    /** What makes a diet said with its time a trial that ended: "… but quit", "… was hard", "for a week". */
    private static final Pattern TRIAL = Pattern.compile(
            "\\b(?:but\\s+(?:i\\s+)?(?:quit|stopped|gave\\s+up|failed)|and\\s+(?:i\\s+)?(?:quit|stopped|gave\\s+up)|was\\s+(?:hard|tough"
                    + "|rough|difficult|impossible)|didn't\\s+last|for\\s+(?:a|one|two|\\d+)\\s+(?:days?|weeks?|month))\\b");

    private static void diet(Sentence s, Facts out) {
        Matcher was = s.match(WAS_DIET);
        if (!s.question && !s.conditional && was.find() && !s.negatedBefore(was.start())) {
            out.typed(MemoryKind.PREFERENCE, "user.diet", s.text.substring(was.start(1), was.end(1)), Cardinality.MULTI,
                    Polarity.NEGATIVE, Facts.STRONG, "%1$s is no longer %2$s", "%1$s não é mais %2$s");
            return;
        }
        Matcher since = s.match(DIET_SINCE);
        if (!s.question && !s.conditional && since.find() && !s.negatedBefore(since.start())
                && !TRIAL.matcher(s.folded).region(since.start(), s.folded.length()).find()) {
            int g = since.group(1) != null ? 1 : 2;
            out.typed(MemoryKind.PREFERENCE, "user.diet", s.text.substring(since.start(g), since.end(g)),
                    Cardinality.MULTI, Polarity.POSITIVE, Facts.STRONG, "%1$s is %2$s", "%1$s é %2$s");
            return;
        }
        Matcher m = s.match(DIET_ADJ);
        if (m.find()) {
            boolean english = m.group(2) != null;
            int g = english ? 2 : 5;
            boolean negated = english ? m.group(1) != null : m.group(3) != null || m.group(4) != null;
            Polarity p = negated ? Polarity.NEGATIVE : Polarity.POSITIVE;
            boolean ended = ended(s, m.start(), m.end());
            out.typed(MemoryKind.PREFERENCE, "user.diet", s.text.substring(m.start(g), m.end(g)), Cardinality.MULTI, p,
                    Facts.STRONG, negated ? ended ? "%1$s is no longer %2$s" : "%1$s is not %2$s" : "%1$s is %2$s",
                    negated ? ended ? "%1$s não é mais %2$s" : "%1$s não é %2$s" : "%1$s é %2$s");
            return;
        }
        m = s.match(DIET_NEG_EN);
        boolean drink;
        if (m.find()) {
            drink = m.group(2).startsWith("drink");
        } else {
            m = s.match(DIET_NEG_PT);
            if (!m.find()) {
                return;
            }
            String verb = m.group(1) != null ? m.group(1) : m.group(2);
            drink = verb.startsWith("beb");
        }
        List<String> foods = NO_FOOD_NAMED.matcher(s.folded).region(m.end(), s.folded.length()).lookingAt()
                ? List.of() // "I quit drinking in March": no drink named ("in March" is no drink)
                : Values.list(s, m.end(), s.folded.length(), " because ", " for ", " since ", " ha ",
                " desde ", " por ", " at ", " in ");
        if (foods.isEmpty() && drink && tailIsEmpty(s, m.end())) {
            foods = List.of(s.pt() ? "álcool" : "alcohol");
        }
        for (String food : foods) {
            out.typed(MemoryKind.PREFERENCE, "user.diet", food, Cardinality.MULTI, Polarity.NEGATIVE, Facts.STRONG,
                    drink ? "%1$s does not drink %2$s" : "%1$s does not eat %2$s",
                    drink ? "%1$s não bebe %2$s" : "%1$s não come %2$s");
        }
    }

    private static boolean tailIsEmpty(Sentence s, int from) {
        List<String> rest = Terms.wordTokens(s.folded.substring(from));
        return rest.isEmpty() || rest.get(0).equals("anymore") || rest.get(0).equals("alcohol")
                || rest.get(0).equals("mais") || rest.get(0).equals("at")
                || NO_FOOD_NAMED.matcher(s.folded).region(from, s.folded.length()).lookingAt();
    }
}
