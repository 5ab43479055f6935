package dev.reverie.extract;

import dev.reverie.Cardinality;
import dev.reverie.MemoryKind;
import dev.reverie.Polarity;
import dev.reverie.internal.Terms;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Family and pets. {@code user.family.<relation>} (multi; relation in English: mother, daughter,
 * children, ...): the value is the relative's name ("my daughter Ana" → Ana), a count ("tenho dois
 * filhos" → {@code user.family.children} = 2) or, when the relative is the subject of the sentence,
 * what is said about them ("my sister likes jazz" → {@code user.family.sister} = "likes jazz" —
 * never {@code user.likes}). {@code user.pet} (multi): the pet's name when given, else its species.
 * Stateless and thread-safe.
 */
final class FamilyRules {

    private static final String ADJ = "(?:(?:little|big|older|younger|oldest|youngest|eldest|baby|twin|late|dear"
            + "|beloved|lovely|two|three|four|adorable|sweet|amazing|wonderful|awesome|new|step|ex|own|sweet"
            + "|cute|old|best|furry|rescue|first|second)\\s+)";
    private static final String REL = Lexicon.RELATION_ALTERNATION;
    private static final String PET = Lexicon.PET_ALTERNATION;
    private static final String NUM = "(a|an|one|two|three|four|five|six|seven|eight|nine|ten|\\d{1,2}|um|uma|dois"
            + "|duas|tres|quatro|cinco|seis|sete|oito|nove|dez)";

    private static final Pattern MY_RELATIVE = Pattern.compile(
            "\\b(?:my|minha|meu|minhas|meus)\\s+" + ADJ + "{0,2}(" + REL + ")(?=\\b)");
    private static final Pattern NAME_AFTER = Pattern.compile(
            "(?:'s\\s+name\\s+is|\\s+is\\s+(?:named|called)|\\s+(?:named|called)|\\s+se\\s+chama|\\s+chamad[oa]s?"
                    + "|,)?\\s+");
    private static final Pattern IS_MY = Pattern.compile(
            "\\b([a-z][a-z'\\-]+)\\s+(?:is|e)\\s+(?:a\\s+|o\\s+)?(?:my|minha|meu)\\s+" + ADJ + "{0,2}(" + REL + ")\\b");
    private static final Pattern HAVE_RELATIVES = Pattern.compile(
            "\\b(?:i|we)\\s+(?:have|'ve\\s+got|have\\s+got|got)\\s+" + NUM + "\\s+" + ADJ + "{0,2}(" + REL + ")\\b"
                    + "|\\b(?:eu\\s+)?(?:tenho|temos)\\s+" + NUM + "\\s+(" + REL + ")\\b"
                    + "|\\b(?:i'm|im|i\\s+am)\\s+(?:a\\s+)?(?:single\\s+|proud\\s+|working\\s+)?(?:mom|mother|dad|father|mum"
                    + "|parent)\\s+of\\s+" + NUM + "()\\b"
                    + "|\\b(?:eu\\s+)?sou\\s+(?:mae|pai)\\s+de\\s+" + NUM + "()\\b");
    private static final Pattern MARRIED = Pattern.compile(
            "\\b(?:i'm|im|i\\s+am|i've\\s+been|i\\s+got|i\\s+just\\s+got)\\s+(?:happily\\s+)?(?:married|engaged)\\s+to\\s+"
                    + "|\\b(?:eu\\s+)?(?:sou|estou|to)\\s+(?:casad[oa]|noiv[oa])\\s+com\\s+|\\b(?:eu\\s+)?(?:me\\s+)?casei\\s+com\\s+");
    private static final Pattern MY_PET = Pattern.compile(
            "\\b(?:my|our|minha|meu|minhas|meus|nossa|nosso)\\s+" + ADJ + "{0,2}(" + PET + ")\\b");
    /** A pet's death said after it, in its clause ("My cat Luna passed away"). */
    private static final Pattern PET_DEATH = Pattern.compile(
            "\\b(?:died|passed\\s+away|passed\\s+on|(?:was|were|got|been|be)\\s+put\\s+(?:down|to\\s+sleep)|morreu"
                    + "|faleceu)\\b");
    /** Words that make a death not one: negations, "almost", modals, conditions ("if my dog died"). */
    private static final Pattern NOT_A_DEATH = Pattern.compile(
            "\\b(?:not|never|no|almost|nearly|would|could|might|may|will|won't|wouldn't|couldn't|need|needs|if"
                    + "|afraid|scared|worried|nao|nunca|quase|se)\\b|n't\\b");
    /** A pet's loss said before it: "we lost our old dog", "perdi minha gata". */
    private static final Pattern LOST_BEFORE = Pattern.compile(
            "\\b(?:lost|perdi|perdemos)\\s+(?:my|our|meu|minha|nosso|nossa)\\s+(?:[a-z'\\-]+\\s+){0,2}$");

    /**
     * "had to / decided to put my / our (old) <pet>", before the pet: the euthanasia idiom, not "I put
     * my puppy down for a nap".
     */
    private static final Pattern PUT_BEFORE = Pattern.compile(
            "\\b(?:had|have|has|got|needed|decided)\\s+to\\s+put\\s+(?:my|our|the)\\s+(?:[a-z'\\-]+\\s+){0,2}$");
    /** "down" or "to sleep" right after a pet that was put (not "put my dog in the car"). */
    private static final Pattern PUT_AFTER = Pattern.compile("\\s+(?:[A-Z]?[a-z]+\\s+)?(?:down|to\\s+sleep)\\b");

    /**
     * Whether the pet at {@code [start, end)} died or was lost: a death verb in its own clause, or "lost
     * my" right before it, with no negation, "almost", modal or condition in the clause before the verb
     * ("my dog hasn't died", "I almost lost my dog", "if my dog died"), and not something of the pet's
     * ("my dog's owner died"). "I lost my keys walking my dog" and "we got a puppy after our old dog
     * died" leave the dog and the puppy alive.
     */
    private static boolean lost(Sentence s, int start, int end) {
        String f = s.folded;
        if (f.startsWith("'s", end)) {
            return false; // "my dog's owner died", "I lost my dog's leash": something of the pet's
        }
        // the pet's clause: a death in another one is not the pet's
        int from = s.clauseStart(start);
        int stop = s.clauseEnd(end);
        // before the pet only a condition or "almost" holds a death back ("if my dog died", "I almost lost
        // my dog"); "I can't believe my dog died" and "I'm afraid my dog Max passed away" are deaths
        Matcher lostBefore = LOST_BEFORE.matcher(f).region(from, start);
        if (lostBefore.find()) {
            return !NOT_YET_BEFORE.matcher(f).region(from, lostBefore.start()).find();
        }
        // "I had to put my dog down", "we put our cat to sleep": only with "down" / "to sleep" after it
        Matcher putBefore = PUT_BEFORE.matcher(f).region(from, start);
        if (putBefore.find() && PUT_AFTER.matcher(f).region(end, f.length()).lookingAt()) {
            return !NOT_YET_BEFORE.matcher(f).region(from, putBefore.start()).find()
                    && !NOT_A_DEATH.matcher(f).region(from, putBefore.start()).find(); // "I never had to put …"
        }
        Matcher death = PET_DEATH.matcher(f).region(end, stop);
        if (!death.find() || NOT_YET_BEFORE.matcher(f).region(from, start).find()) {
            return false;
        }
        // in the pet's own predicate any negation or modal does ("my dog hasn't died", "would have
        // died"); a capitalised word right after the pet is its name, not a modal ("My dog Will died")
        int predicate = end;
        while (predicate < death.start() && Character.isWhitespace(s.text.charAt(predicate))) {
            predicate++;
        }
        if (predicate < death.start() && Character.isUpperCase(s.text.charAt(predicate))) {
            while (predicate < death.start() && !Character.isWhitespace(s.text.charAt(predicate))) {
                predicate++;
            }
        }
        return !NOT_A_DEATH.matcher(f).region(predicate, death.start()).find();
    }

    /** What holds back a death said after it: a condition or "almost" ("if my dog died"). */
    private static final Pattern NOT_YET_BEFORE = Pattern.compile(
            "\\b(?:if|unless|almost|nearly|would|could|might|se|caso|quase)\\b");

    private static final Pattern HAVE_PET = Pattern.compile(
            "\\b(?:i|we)\\s+(?:just\\s+)?(?:have|'ve\\s+got|have\\s+got|got|adopted|own|rescued)\\s+" + NUM + "\\s+"
                    + ADJ + "{0,2}(" + PET + ")\\b"
                    + "|\\b(?:eu\\s+)?(?:tenho|adotei|ganhei|comprei|temos|adotamos)\\s+" + NUM + "\\s+(" + PET + ")\\b"
                    + "|\\b(?:and|e)\\s+" + NUM + "\\s+" + ADJ + "{0,2}(" + PET + ")\\b");

    private static final Set<String> NOT_A_PREDICATE = Lexicon.words("not-a-predicate");

    private static final Map<String, Integer> NUMBERS = Map.ofEntries(
            Map.entry("a", 1), Map.entry("an", 1), Map.entry("one", 1), Map.entry("two", 2), Map.entry("three", 3),
            Map.entry("four", 4), Map.entry("five", 5), Map.entry("six", 6), Map.entry("seven", 7),
            Map.entry("eight", 8), Map.entry("nine", 9), Map.entry("ten", 10), Map.entry("um", 1), Map.entry("uma", 1),
            Map.entry("dois", 2), Map.entry("duas", 2), Map.entry("tres", 3), Map.entry("quatro", 4),
            Map.entry("cinco", 5), Map.entry("seis", 6), Map.entry("sete", 7), Map.entry("oito", 8),
            Map.entry("nove", 9), Map.entry("dez", 10));

    private FamilyRules() {
    }

    static void apply(Sentence s, Facts out) {
        if (s.hasAny("my ", "minha ", "meu ", "minhas ", "meus ", " is my ", " e minha ", " e meu ", " e a minha ",
                " e o meu ", "have ", "got ", "tenho ", "temos ", " of ", "sou ", "married", "engaged", "casad", "casei", "noiv")) {
            relatives(s, out);
        }
        if (s.hasAny("my ", "our ", "minha ", "meu ", "minhas ", "meus ", "nossa ", "nosso ", "have", "got",
                "adopt", "own", "rescued", "tenho", "ganhei", "comprei", "temos")) {
            pets(s, out);
        }
    }

    private static void relatives(Sentence s, Facts out) {
        Matcher m = s.match(HAVE_RELATIVES);
        if (s.hasAny("have", "got", "tenho", "temos", " of ", "sou mae", "sou pai") && m.find()) {
            int numGroup = m.group(1) != null ? 1 : m.group(3) != null ? 3 : m.group(5) != null ? 5 : 7;
            int relGroup = numGroup + 1;
            Integer n = number(m.group(numGroup));
            String relWord = m.group(relGroup) == null || m.group(relGroup).isEmpty() ? null
                    : s.text.substring(m.start(relGroup), m.end(relGroup));
            String key = relWord == null ? "children" : relation(s, m.start(relGroup), m.end(relGroup));
            if (n != null && key != null) {
                String said = relWord == null ? (s.pt() ? "filhos" : "children") : relWord;
                out.typed(MemoryKind.FACT, "user.family." + key, Integer.toString(n), Cardinality.MULTI,
                        Polarity.POSITIVE, Facts.NORMAL, "%1$s has %2$s " + said, "%1$s tem %2$s " + said);
            }
        }
        m = s.match(MARRIED);
        if (s.hasAny("married", "engaged", "casad", "casei", "noiv") && m.find()) {
            String name = IdentityRules.name(s, m.end(), !IdentityRules.lowerCaseWriter(s));
            if (name != null) {
                out.typed(MemoryKind.FACT, "user.family.spouse", name, Cardinality.MULTI, Polarity.POSITIVE,
                        Facts.NORMAL, "%1$s is married to %2$s", "%1$s é casado(a) com %2$s");
            }
        }
        m = s.match(IS_MY);
        while (s.hasAny(" is my ", " e minha ", " e meu ", " e a minha ", " e o meu ", " is a my ") && m.find()) {
            String candidate = m.group(1);
            if (!Character.isUpperCase(s.text.charAt(m.start(1))) || Lexicon.STOP.contains(candidate)
                    || Lexicon.FIRST_PERSON.contains(candidate) || Lexicon.FILLER.contains(candidate)) {
                continue;
            }
            String key = relation(s, m.start(2), m.end(2));
            if (key != null) {
                named(s, out, key, s.text.substring(m.start(2), m.end(2)), s.text.substring(m.start(1), m.end(1)));
            }
        }
        m = s.match(MY_RELATIVE);
        while (s.hasAny("my ", "minha", "meu") && m.find()) {
            String key = relation(s, m.start(1), m.end(1));
            if (key == null) {
                continue;
            }
            String relWord = s.text.substring(m.start(1), m.end(1));
            String name = nameAfter(s, m.end());
            if (name != null) {
                named(s, out, key, relWord, name);
            } else if (isClauseSubject(s, m.start())) {
                predicate(s, out, key, m.end());
            }
        }
    }

    private static void named(Sentence s, Facts out, String key, String relWord, String name) {
        out.typed(MemoryKind.FACT, "user.family." + key, name, Cardinality.MULTI, Polarity.POSITIVE, Facts.NORMAL,
                "%1$s's " + relWord + " is named %2$s", "%2$s é " + relWord + " de %1$s");
    }

    /** "my daughter Ana", "my daughter's name is Ana", "minha filha se chama Ana", "my son, Leo," */
    private static String nameAfter(Sentence s, int from) {
        Matcher n = NAME_AFTER.matcher(s.folded).region(from, s.folded.length());
        if (!n.lookingAt()) {
            return null;
        }
        boolean explicit = n.end() - from > 1 && !s.folded.substring(from, n.end()).strip().equals(",");
        String name = IdentityRules.name(s, n.end(), !explicit);
        if (name == null) {
            return null;
        }
        if (name.length() > 3 && Terms.foldKeepingLength(name).endsWith("'s")) {
            name = name.substring(0, name.length() - 2); // "my daughter Sara's birthday" (folding makes ’ a ')
        }
        if (!explicit) {
            // "my mom Sarah" but not "my mom Is ..." or "my kids Love ..." at a capitalised line start
            String f = Terms.foldKeepingLength(name);
            if (Lexicon.STOP.contains(f) || Lexicon.FILLER.contains(f)) {
                return null;
            }
        }
        return name;
    }

    /** Whether "my sister" starts a clause, so what follows is said about her. */
    private static boolean isClauseSubject(Sentence s, int at) {
        if (at == s.body) {
            return true;
        }
        String before = s.folded.substring(s.body, at).stripTrailing();
        if (before.endsWith(",") || before.endsWith(";") || before.endsWith(":")) {
            return true;
        }
        List<String> tokens = Terms.wordTokens(before);
        if (tokens.isEmpty()) {
            return true;
        }
        String last = tokens.get(tokens.size() - 1);
        return Set.of("and", "but", "so", "because", "since", "e", "mas", "porque", "entao", "pois", "a", "o",
                "when", "quando", "while", "enquanto", "also").contains(last);
    }

    private static void predicate(Sentence s, Facts out, String key, int from) {
        List<String> next = Terms.wordTokens(s.folded.substring(from, Math.min(s.folded.length(), from + 40)));
        if (next.isEmpty() || NOT_A_PREDICATE.contains(next.get(0)) || s.folded.startsWith("'s", from)) {
            return;
        }
        int[] span = Values.span(s, from, s.folded.length());
        if (span == null) {
            return;
        }
        String value = s.text.substring(span[0], span[1]).strip();
        List<String> words = Terms.wordTokens(Terms.foldKeepingLength(value));
        if (words.size() > 12 || words.stream().allMatch(Lexicon.STOP::contains)) {
            return; // "my kids are so sleepy": cut to "are", which says nothing
        }
        out.sentenceFact(MemoryKind.FACT, "user.family." + key, value, Cardinality.MULTI, Polarity.POSITIVE,
                Facts.RELATIVE, null);
    }

    /** The canonical relation of the word at {@code [start, end)}, or null ("meu país" is not "meus pais"). */
    private static String relation(Sentence s, int start, int end) {
        String word = s.folded.substring(start, end).replaceAll("\\s+", " ");
        String original = s.text.substring(start, end);
        if (word.equals("pais") && original.indexOf('í') >= 0) {
            return null;
        }
        if (word.equals("avo") || word.equals("vovo")) {
            return original.indexOf('ó') >= 0 ? "grandmother" : original.indexOf('ô') >= 0 ? "grandfather"
                    : "grandparent";
        }
        return Lexicon.RELATIONS.get(word);
    }

    private static Integer number(String word) {
        if (word == null) {
            return null;
        }
        Integer n = NUMBERS.get(word);
        if (n != null) {
            return n;
        }
        try {
            return Integer.parseInt(word);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static void pets(Sentence s, Facts out) {
        Matcher m = s.match(HAVE_PET);
        boolean found = false;
        boolean owning = s.hasAny("have", "got", "adopt", "own", "rescued", "tenho", "temos", "ganhei", "comprei");
        while ((owning || s.hasAny("adotei", "adotamos")) && m.find()) {
            int g = m.group(2) != null ? 2 : m.group(4) != null ? 4 : 6;
            if (g == 6 && !owning) {
                continue; // "... and a dog" continues a list of things the speaker has
            }
            found |= pet(s, out, m.start(g), m.end(g));
        }
        if (found) {
            return;
        }
        m = s.match(MY_PET);
        while (s.hasAny("my ", "our ", "minha", "meu", "nossa", "nosso") && m.find()) {
            pet(s, out, m.start(1), m.end(1));
        }
    }

    /**
     * A pet fact; NEGATIVE when the sentence tells of its death or loss ({@link #lost}: "My cat Luna passed away"):
     * the pet ended, so the dream cycle retires it instead of keeping "has a cat named Luna".
     */
    private static boolean pet(Sentence s, Facts out, int start, int end) {
        String species = s.text.substring(start, end);
        String name = nameAfter(s, end);
        int after = name == null ? end : Math.max(end, s.folded.indexOf(Terms.foldKeepingLength(name), end)
                + name.length());
        Polarity polarity = lost(s, start, after) ? Polarity.NEGATIVE : Polarity.POSITIVE;
        boolean has = polarity == Polarity.POSITIVE;
        if (name != null) {
            out.typed(MemoryKind.FACT, "user.pet", name, Cardinality.MULTI, polarity, Facts.NORMAL,
                    "%1$s " + (has ? "has" : "no longer has") + " a " + species + " named %2$s",
                    "%1$s " + (has ? "tem" : "não tem mais") + " um(a) " + species + " chamado(a) %2$s");
        } else {
            out.typed(MemoryKind.FACT, "user.pet", species, Cardinality.MULTI, polarity, Facts.NORMAL,
                    has ? "%1$s has a %2$s" : "%1$s no longer has a %2$s",
                    has ? "%1$s tem um(a) %2$s" : "%1$s não tem mais um(a) %2$s");
        }
        return true;
    }
}
