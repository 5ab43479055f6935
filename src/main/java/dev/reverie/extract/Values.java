package dev.reverie.extract;

import dev.reverie.internal.Terms;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.Set;

/**
 * Turns the tail a pattern captured ("peanuts and shellfish, so I carry an EpiPen") into clean values
 * ("peanuts", "shellfish"): cut at the first clause boundary, drop trailing fillers and leading
 * articles, split lists, refuse pronouns, verbs and phrases cut off before a preposition's object.
 * Works on the folded copy to decide and returns the original text. Stateless and thread-safe.
 */
final class Values {

    static final int MAX_WORDS = 8;

    /** Boundaries that end a value (folded, with their spaces). */
    private static final String[] CUTS = Lexicon.phrases("value-cuts");

    /**
     * Trailing words that say nothing about the value ("I love jazz too"), longest first: "Bern right
     * now" loses "right now", not only "now".
     */
    private static final String[] TRAILING = java.util.stream.Stream.of(
            " too", " a lot", " so much", " very much", " anymore", " any more", " now", " these days",
            " lately", " as well", " also", " right now", " nowadays", " really", " honestly", " though",
            " of course", " for sure", " at all", " either", " already", " still", " again", " haha", " lol", " btw", " fyi",
            " muito", " demais", " tambem", " mais", " agora", " hoje em dia", " pra caramba", " bastante",
            " atualmente", " ultimamente", " ainda", " de jeito nenhum", " mesmo", " ne", " rs", " kkk",
            " actually", " na verdade", " then", " today", " hoje", " a little", " um pouco", " totally",
            " so much more", " more and more", " very", " enough", " sometimes", " as vezes", " always",
            " sempre", " forever", " myself", " mesmo", " para sempre", " pra sempre", " after all", " in the end",
            " anyway", " anyways", " afinal", " no fim das contas")
            .distinct().sorted(java.util.Comparator.comparingInt(String::length).reversed()).toArray(String[]::new);

    /** Leading words dropped from a value (articles, and "de" left over from "gosto de ler e de cozinhar"). */
    private static final Set<String> ARTICLES = Lexicon.words("articles");

    private static final String[] LIST_SEPARATORS = {", and ", ", or ", ", e ", ", ou ", ", ", " and ", " & ", " or ",
            " e ", " ou ", " nor ", " plus ", " as well as ", " assim como ", " and also ", " e tambem "};
    /** Words that open no list item: a negation or a verb of wanting ("…, no kidding", "…, não é brincadeira"). */
    private static final java.util.Set<String> NOT_AN_ITEM = java.util.Set.of("no", "not", "nao", "need", "needs",
            "hate", "go", "get", "take", "use", "want", "have", "tomo", "preciso", "quero", "moro", "uso");

    /** A list item: one to four words. */
    private static final String ITEM = "[\\p{L}\\p{N}'\\-]+(?:\\s+[\\p{L}\\p{N}'\\-]+){0,3}";
    /**
     * A list whose items are separated by commas and closed by a conjunction or "etc." ("peanuts, tree
     * nuts, and sesame", "amendoim, camarao e leite", "eggs, milk, etc."): where a comma does not end the value.
     */
    private static final Pattern COMMA_LIST = Pattern.compile("\\s*" + ITEM + "(?:,\\s+" + ITEM + ")+"
            + "(?:,?\\s+(?:and|or|e|ou|nor|&)\\s+" + ITEM + "|,\\s+etc\\b)");
    /**
     * After a colon a list may have no conjunction ("Allergies: peanuts, shellfish."; "allergic to:
     * peanuts, shellfish, latex"): it runs to the end of the sentence.
     */
    private static final Pattern COLON_LIST = Pattern.compile("\\s*" + ITEM + "(?:,\\s+" + ITEM + ")+"
            + "(?:,?\\s+(?:and|or|e|ou|nor|&)\\s+" + ITEM + "|,\\s+etc\\b|(?=\\s*[.!]*\\s*$))");

    private Values() {
    }

    /** The cleaned value of {@code s.text[start, end)}, or {@code null} when nothing usable is left. */
    static String phrase(Sentence s, int start, int end, String... extraCuts) {
        int[] span = span(s, start, end, extraCuts);
        if (span == null || span[2] == 1 && dangling(s.folded.substring(span[0], span[1]))) {
            return null;
        }
        return accept(s.text.substring(span[0], span[1]), s.folded.substring(span[0], span[1]));
    }

    /** Several values when the tail is a list ("jazz, samba and rock"). */
    static List<String> list(Sentence s, int start, int end, String... extraCuts) {
        return list(s, start, end, false, extraCuts);
    }

    /**
     * As {@link #list(Sentence, int, int, String...)}; with {@code afterTo} the tail follows the "to"
     * of an infinitive, so its first item is a verb phrase, kept whole and with its "to" ("I love to
     * help" → "to help"; "to do yoga", where "do" is no article; "to have friends over", where "have"
     * is no finite verb as it is after a relative clause, "the neighbours I like have moved"). The
     * later items are verbs too when the first is one bare verb ("to cook and bake" → "to cook", "to
     * bake"), else objects of its verb ("to eat sushi and ramen" → "to eat sushi", "ramen").
     */
    static List<String> list(Sentence s, int start, int end, boolean afterTo, String... extraCuts) {
        return list(s, start, end, afterTo, false, extraCuts);
    }

    /**
     * As {@link #list(Sentence, int, int, String...)}, for things that may be the speaker's own: an item
     * led by a possessive ("my new blood pressure medication", "our neighbour's cat") is kept whole
     * (a fact text quotes it, {@link #firstPerson}) where a like refuses "my" as a pronoun-led value.
     */
    static List<String> possessions(Sentence s, int start, int end, String... extraCuts) {
        return list(s, start, end, false, true, extraCuts);
    }

    private static List<String> list(Sentence s, int start, int end, boolean afterTo, boolean possessive,
                                     String... extraCuts) {
        int[] span = span(s, start, end, true, extraCuts);
        if (span == null) {
            return List.of();
        }
        String original = s.text.substring(span[0], span[1]);
        String folded = s.folded.substring(span[0], span[1]);
        List<String> out = new ArrayList<>();
        int from = 0;
        boolean bareVerbs = false; // the first item after "to" was one verb: the later ones are verbs too
        while (from < folded.length()) {
            int cut = folded.length();
            int sepLen = 0;
            for (String sep : LIST_SEPARATORS) {
                int i = folded.indexOf(sep, from);
                if (i >= 0 && i < cut) {
                    cut = i;
                    sepLen = sep.length();
                }
            }
            String item = original.substring(from, cut);
            String itemFolded = folded.substring(from, cut);
            List<String> words = Terms.wordTokens(itemFolded);
            if (words.equals(List.of("etc"))) {
                break; // "eggs, milk, etc.": the list ends
            }
            if (from > 0 && !words.isEmpty() && (Lexicon.FINITE_VERBS.contains(words.get(0))
                    || Lexicon.PT_FIRST_PERSON_VERBS.contains(words.get(0)) || NOT_AN_ITEM.contains(words.get(0)))) {
                break; // "allergic to cats, dust, and need an inhaler": a verb ends the list
            }
            boolean infinitive = afterTo && from == 0;
            boolean owned = possessive && from == 0 && words.size() > 1 && POSSESSIVES.contains(words.get(0));
            if (!words.isEmpty() && !owned && (Lexicon.CLAUSE_SUBJECT.contains(words.get(0))
                    || clauseLed(words.get(0), capitalized(item), infinitive))) {
                // "peanuts and I also love jazz": a new clause starts; "how you planned the route and the
                // budget", "was there to celebrate us": the rest of the list belongs to that clause
                break;
            }
            boolean last = cut >= folded.length();
            String v = last && span[2] == 1 && dangling(itemFolded) ? null
                    : accept(item, itemFolded, infinitive, possessive);
            if (v == null && infinitive && !words.isEmpty() && Lexicon.NOT_A_VALUE.contains(words.get(0))) {
                break; // no verb after "to": "I love to the moon and back" names no thing either
            }
            if (v != null && (infinitive || bareVerbs)) {
                bareVerbs |= infinitive && Terms.wordTokens(v).size() == 1;
                v = "to " + v;
            }
            if (v != null) {
                out.add(v);
            }
            if (cut >= folded.length()) {
                break;
            }
            from = cut + sepLen;
        }
        return out;
    }

    /**
     * The span left after cutting at clause boundaries and trimming fillers, or null: {start, end, 1
     * when a boundary cut it short, else 0}.
     */
    static int[] span(Sentence s, int start, int end, String... extraCuts) {
        return span(s, start, end, false, extraCuts);
    }

    /** Whether the last character before {@code start} that is not a space is a colon. */
    private static boolean afterColon(String f, int start) {
        int i = start - 1;
        while (i >= 0 && f.charAt(i) == ' ') {
            i--;
        }
        return i >= 0 && f.charAt(i) == ':';
    }

    /**
     * As {@link #span(Sentence, int, int, String...)}; with {@code listing}, a list of items separated
     * by commas ({@link #COMMA_LIST}) is not cut at its commas, so that {@link #list} sees every item.
     */
    private static int[] span(Sentence s, int start, int end, boolean listing, String... extraCuts) {
        String f = s.folded;
        end = Math.min(end, f.length());
        if (start >= end) {
            return null;
        }
        int cut = newClause(f, start, end);
        java.util.regex.Matcher list = !listing ? null
                : (afterColon(f, start) ? COLON_LIST : COMMA_LIST).matcher(f).region(start, Math.min(cut, end));
        int listEnd = list != null && list.lookingAt() ? list.end() : -1;
        for (String c : CUTS) {
            int i = f.indexOf(c, start);
            if (c.equals(",")) {
                while (i >= start && i < listEnd) {
                    i = f.indexOf(c, i + 1); // a comma inside the list does not end it
                }
            } else if (c.equals(". ")) {
                while (i >= start && Sentence.abbreviationBefore(s.text, i)) {
                    i = f.indexOf(c, i + 1); // "St. Louis", "Dr. Silva": an abbreviation's period
                }
            }
            if (i >= start && i < cut) {
                cut = i;
            }
        }
        for (String c : extraCuts) {
            int i = f.indexOf(c, start);
            if (i >= start && i < cut) {
                cut = i;
            }
        }
        int date = s.dateStart();
        if (date > start && date < cut) {
            cut = date;
        }
        int cutShort = cut < end ? 1 : 0;
        end = cut;
        boolean changed = true;
        while (changed) {
            changed = false;
            while (end > start && !Character.isLetterOrDigit(f.charAt(end - 1)) && "+#)".indexOf(f.charAt(end - 1)) < 0) {
                end--;
                changed = true;
            }
            for (String t : TRAILING) {
                if (end - start > t.length() && f.startsWith(t, end - t.length())
                        && !reflexiveObject(f, start, end - t.length(), t)) {
                    end -= t.length();
                    changed = true;
                }
            }
        }
        while (start < end && Character.isWhitespace(f.charAt(start))) {
            start++;
        }
        return end > start ? new int[] {start, end, cutShort} : null;
    }

    /**
     * Whether the trailing {@code t} of {@code f[start, wordEnd + t.length())} is a reflexive "myself"
     * that is the object of the verb before it, not an emphatic one: after the first word of the value
     * or of a list item when that is a gerund ("pushing myself") or an infinitive's verb ("to challenge
     * myself"); "jazz myself", "pudding myself", "do it myself" and "doing everything myself" drop it.
     */
    private static boolean reflexiveObject(String f, int start, int wordEnd, String t) {
        if (!t.equals(" myself")) {
            return false;
        }
        int first = start;
        while (first < wordEnd && Character.isWhitespace(f.charAt(first))) {
            first++;
        }
        int word = f.lastIndexOf(' ', wordEnd - 1) + 1;
        if (word < first) {
            word = first;
        }
        String lead = f.substring(first, word).stripTrailing();
        if (word != first && !lead.endsWith(",") && !lead.endsWith(" and") && !lead.endsWith(" or")
                && !lead.endsWith(" e") && !lead.endsWith(" ou")) {
            return false; // "doing everything myself", "playing jazz myself": the reflexive is emphatic
        }
        String w = f.substring(word, wordEnd);
        if (w.length() >= 5 && w.endsWith("ing") && !ING_NOUNS.contains(w)) {
            return true;
        }
        String before = f.substring(0, word).stripTrailing();
        return before.endsWith(" to") || before.equals("to");
    }

    /** Possessives that lead a thing of the speaker's ("my cat", "minha medicação"). */
    private static final Set<String> POSSESSIVES = Set.of("my", "our", "meu", "minha", "meus", "minhas", "nosso",
            "nossa", "nossos", "nossas");

    /** Words ending in "-ing" that are things, not gerunds ("I like pudding myself"). */
    private static final Set<String> ING_NOUNS = Set.of("thing", "things", "something", "anything", "nothing",
            "everything", "pudding", "spring", "string", "morning", "evening", "wedding", "building", "clothing",
            "ceiling", "ring", "king", "wing", "sibling", "darling", "icing", "stuffing", "dumpling", "herring");

    /** Reflexive objects of a verb, which say what the verb does ("to challenge myself"). */
    private static final Set<String> REFLEXIVES = Set.of("myself", "ourselves");

    /** First-person words, English and Portuguese, as written in lower case ("I" as written). */
    private static final Set<String> FIRST_PERSON = Set.of("I", "me", "my", "mine", "myself", "we", "us", "our",
            "ours", "ourselves", "eu", "mim", "comigo", "meu", "minha", "meus", "minhas", "nosso", "nossa", "nossos",
            "nossas", "conosco");

    /**
     * Whether {@code value} speaks in the speaker's first person ("time with my kids", "pushing
     * myself"): then a third-person fact text quotes it, so that "my" reads as the speaker's. A word
     * written with a capital other than "I" is a title's ("My Antonia"), not the speaker.
     */
    static boolean firstPerson(String value) {
        int i = 0;
        int n = value.length();
        while (i < n) {
            while (i < n && !Character.isLetter(value.charAt(i))) {
                i++;
            }
            int s = i;
            while (i < n && Character.isLetter(value.charAt(i))) {
                i++;
            }
            if (i > s && FIRST_PERSON.contains(value.substring(s, i))) {
                return true;
            }
        }
        return false;
    }

    /** Conjunctions after which a clause subject starts a new clause ("walnuts and they are in everything"). */
    private static final String[] CONJUNCTIONS = {" and ", " e "};

    /**
     * Where a new clause starts in {@code f[start, end)}: the first "and" / "e" followed by a clause
     * subject ({@link Lexicon#CLAUSE_SUBJECT}: "retired in March and it's been quiet", "jazz and I also
     * love rock"), else {@code end}.
     */
    private static int newClause(String f, int start, int end) {
        int cut = end;
        for (String c : CONJUNCTIONS) {
            for (int i = f.indexOf(c, start); i >= 0 && i < cut; i = f.indexOf(c, i + 1)) {
                int w = i + c.length();
                int e = w;
                while (e < end && (Character.isLetter(f.charAt(e)) || f.charAt(e) == '\'')) {
                    e++;
                }
                if (e > w && Lexicon.CLAUSE_SUBJECT.contains(f.substring(w, e))) {
                    cut = i;
                    break;
                }
            }
        }
        return cut;
    }

    /** Whether the folded value ends in a preposition whose object a boundary cut off ("escaping into"). */
    private static boolean dangling(String folded) {
        String t = folded.strip();
        int sp = t.lastIndexOf(' ');
        return sp > 0 && Lexicon.DANGLING.contains(t.substring(sp + 1));
    }

    /** Drops leading articles; refuses empty, pronoun-, wh-word- or verb-led and overlong values. */
    static String accept(String original, String folded) {
        return accept(original, folded, false, false);
    }

    /**
     * As {@link #accept(String, String)}; with {@code verbLed} the value is a verb phrase: it may open
     * with a verb that is elsewhere a finite one ("have friends over") or an article ("do yoga"); with
     * {@code possessive} it may open with "my" or "our" before what is owned ("my cat").
     */
    private static String accept(String original, String folded, boolean verbLed, boolean possessive) {
        int a = 0;
        int b = folded.length();
        while (true) {
            while (a < b && !Character.isLetterOrDigit(folded.charAt(a))) {
                a++;
            }
            while (b > a && !Character.isLetterOrDigit(folded.charAt(b - 1)) && "+#".indexOf(folded.charAt(b - 1)) < 0) {
                b--;
            }
            int sp = folded.indexOf(' ', a);
            if (!verbLed && sp > a && sp < b && ARTICLES.contains(folded.substring(a, sp))) {
                a = sp + 1;
            } else {
                break;
            }
        }
        if (b <= a) {
            return null;
        }
        List<String> words = Terms.wordTokens(folded.substring(a, b));
        if (words.isEmpty() || words.size() > MAX_WORDS) {
            return null;
        }
        if (verbLed) {
            for (int i = 1; i < words.size(); i++) {
                if (Lexicon.FINITE_VERBS.contains(words.get(i))) {
                    return null; // the sentence's own verb: "the thing I love to do is travel"
                }
            }
            int object = 1;
            while (object < words.size() && ARTICLES.contains(words.get(object))) {
                object++;
            }
            if (object == words.size() - 1 && Lexicon.NOT_A_VALUE.contains(words.get(object))
                    && !REFLEXIVES.contains(words.get(object))) {
                // a verb whose only object is a pronoun says nothing: "to do it", "to see it"; a
                // reflexive one does: "to challenge myself"
                return null;
            }
        }
        boolean owned = possessive && words.size() > 1 && POSSESSIVES.contains(words.get(0));
        if (Lexicon.NOT_A_VALUE.contains(words.get(0)) && !(words.size() > 1 && words.get(0).equals("one")) && !owned
                || clauseLed(words.get(0), Character.isUpperCase(original.charAt(a)), verbLed)) {
            return null; // a pronoun is no thing
        }
        return original.substring(a, b).strip();
    }

    /**
     * Whether a value led by the folded {@code word} is a clause, not a thing: a wh-word written in
     * lower case ("how you planned the route"; "The Who" is a name), or a finite verb, the sentence's
     * own verb after a relative clause ("the song I love was playing"), unless {@code verbLed} allows it.
     */
    private static boolean clauseLed(String word, boolean capitalized, boolean verbLed) {
        return Lexicon.CLAUSE_OPENERS.contains(word) && !capitalized || Lexicon.FINITE_VERBS.contains(word) && !verbLed;
    }

    /** Whether the first letter or digit of {@code text} is upper case. */
    private static boolean capitalized(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isLetterOrDigit(text.charAt(i))) {
                return Character.isUpperCase(text.charAt(i));
            }
        }
        return false;
    }
}
