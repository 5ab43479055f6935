package dev.reverie.extract;

import dev.reverie.internal.Resources;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The word lists the rule-based extractor uses, in folded form (lower case, no accents), English
 * and Portuguese. The lists live in {@code src/main/resources/dev/reverie/extract/words/}, one entry
 * a line ({@link #words}), and are read once, when this class (or the rule class that holds one) is
 * first used. Immutable and thread-safe.
 */
final class Lexicon {

    /** The folder of the word lists, relative to this package. */
    static final String FOLDER = "words/";

    private Lexicon() {
    }

    /** An immutable set of the {@code |}-separated words (duplicates allowed in the source list). */
    static Set<String> set(String words) {
        return Set.copyOf(java.util.Arrays.asList(words.trim().split("\\s*\\|\\s*")));
    }

    /**
     * The word list {@code words/<name>.txt} as an immutable set.
     *
     * @throws IllegalStateException naming the resource when it is missing or unreadable
     */
    static Set<String> words(String name) {
        return Set.copyOf(Resources.entries(Lexicon.class, FOLDER + name + ".txt"));
    }

    /**
     * The word list {@code words/<name>.txt} in file order (for a regex alternation).
     *
     * @throws IllegalStateException naming the resource when it is missing or unreadable
     */
    static List<String> list(String name) {
        return List.copyOf(Resources.entries(Lexicon.class, FOLDER + name + ".txt"));
    }

    /**
     * The phrase list {@code words/<name>.txt}, where {@code _} stands for a space, in file order.
     *
     * @throws IllegalStateException naming the resource when it is missing or unreadable
     */
    static String[] phrases(String name) {
        return list(name).stream().map(p -> p.replace('_', ' ')).toArray(String[]::new);
    }

    /**
     * The {@code word=value} table {@code words/<name>.txt} as an immutable map.
     *
     * @throws IllegalStateException naming the resource when it is missing, unreadable or malformed
     */
    static Map<String, String> pairs(String name) {
        return Map.copyOf(Resources.pairs(Lexicon.class, FOLDER + name + ".txt"));
    }

    /** Function words, pronouns, auxiliaries and fillers: they do not make a statement substantive. */
    static final Set<String> STOP = Lexicon.words("stop");

    /** Words that make a sentence pure small talk when every word of it is one of these. */
    static final Set<String> FILLER = Lexicon.words("filler");

    /**
     * Words that cannot open a value of any rule: pronouns, deictics, articles left alone and fillers
     * ("I love it", "adoro isso", "a lot").
     */
    static final Set<String> NOT_A_VALUE = Lexicon.words("not-a-value");

    /** Finite verbs that cannot open a value: the like was a relative clause ("the song I love was playing"). */
    static final Set<String> FINITE_VERBS = Lexicon.words("finite-verbs");

    /** Wh-words and relative pronouns: a value they lead is a clause ("how you planned the route"). */
    static final Set<String> CLAUSE_OPENERS = Lexicon.words("clause-openers");

    /** Object relative pronouns: before "I love" they make the like a relative clause ("what I like to hear"). */
    static final Set<String> RELATIVE_PRONOUNS = Lexicon.words("relative-pronouns");

    /** Prepositions that cannot end a value cut short at a boundary ("escaping into" of "escaping into that world"). */
    static final Set<String> DANGLING = Lexicon.words("dangling-prepositions");

    /** Pronouns that start a new clause inside a captured value ("peanuts and I love jazz"). */
    static final Set<String> CLAUSE_SUBJECT = Lexicon.words("clause-subject");

    static final Set<String> FIRST_PERSON = Lexicon.words("first-person");

    /** First-person singular verbs of Portuguese, whose pronoun is usually dropped ("Fui ao médico"). */
    static final Set<String> PT_FIRST_PERSON_VERBS = Lexicon.words("pt-first-person-verbs");

    static final Set<String> EN_MARKERS = Lexicon.words("en-markers");

    static final Set<String> PT_MARKERS = Lexicon.words("pt-markers");

    /** Canonical family relation for each folded word (English and Portuguese). */
    static final Map<String, String> RELATIONS = pairs("relations");

    /** Regex alternation of every relation word, longest first. */
    static final String RELATION_ALTERNATION = alternation(RELATIONS.keySet());

    static final Set<String> PETS = Lexicon.words("pets");

    static final String PET_ALTERNATION = alternation(PETS);

    static final Set<String> JOBS = Lexicon.words("jobs");

    static final Set<String> TECH = Lexicon.words("tech");

    static final Set<String> LANGUAGES = Lexicon.words("languages");

    static final Set<String> INSTRUMENTS = Lexicon.words("instruments");

    static final Set<String> CONDITIONS = Lexicon.words("conditions");

    /** Portuguese words naming the thing of "my favorite X", mapped to the English subject key. */
    static final Map<String, String> FAVORITE_KEYS = pairs("favorite-keys");

    static String alternation(Set<String> words) {
        return words.stream()
                .sorted((a, b) -> b.length() != a.length() ? b.length() - a.length() : a.compareTo(b))
                .map(w -> java.util.regex.Pattern.quote(w).replace(" ", "\\E\\s+\\Q"))
                .reduce((a, b) -> a + "|" + b)
                .map(s -> "(?:" + s + ")")
                .orElseThrow();
    }
}
