package dev.reverie.extract;

import dev.reverie.Cardinality;
import dev.reverie.MemoryKind;
import dev.reverie.Polarity;
import dev.reverie.internal.Terms;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Likes, dislikes, favourites and stated preferences. {@code user.likes} / {@code user.dislikes}
 * (multi, value = the thing); "I don't like X" is a positive {@code user.dislikes}, while "I no
 * longer like X" / "não gosto mais de X" is a negative {@code user.likes} (the like ended).
 * {@code user.favorite.<thing>} is single-valued ("my favorite color is blue" →
 * {@code user.favorite.color} = blue). {@code user.preference} holds "I prefer X", "I'd rather X"
 * and "answer in Portuguese". Stateless and thread-safe.
 */
final class PreferenceRules {

    private static final String ADV = IdentityRules.ADV;

    private static final Pattern LIKE_EN = Pattern.compile(
            "\\b(?:i|we)\\s+" + ADV + "{0,3}(?:(don't|dont|do\\s+not|didn't|no\\s+longer|never|can't|cant|cannot)\\s+)?"
                    + ADV + "{0,2}(love|like|enjoy|adore|dig|fancy|stand|'ve\\s+always\\s+loved|'ve\\s+always\\s+liked"
                    + "|have\\s+always\\s+loved|have\\s+always\\s+liked|'ve\\s+always\\s+enjoyed|'ve\\s+loved|'ve\\s+liked)\\s+"
                    + "(?:to\\s+)?");
    private static final Pattern DISLIKE_EN = Pattern.compile(
            "\\b(?:i|we)\\s+" + ADV + "{0,3}(hate|dislike|detest|loathe|despise|can't\\s+stand|cannot\\s+stand"
                    + "|can't\\s+stand|don't\\s+care\\s+for|can't\\s+bear)\\s+");
    private static final Pattern FAN_EN = Pattern.compile(
            // "I'm a big fan of …", and without the "I'm" at the start: "Big fan of Studio Ghibli", "currently
            // obsessed with …", "Not a fan of crowds"
            "(?:\\b(?:i'm|im|i\\s+am)\\s+" + ADV + "{0,2}|^(?:currently\\s+|honestly\\s+|lowkey\\s+|kinda\\s+|so\\s+|such\\s+a\\s+)?"
                    // without "I'm" only a fan or an obsession: "Into the fridge it goes" is no taste
                    + "(?=(?:not\\s+|no\\s+longer\\s+)?(?:(?:a|an)\\s+)?(?:(?:big|huge|great|massive|real|true|longtime|long-time"
                    + "|die-hard|diehard)\\s+)?(?:fan\\s+of|obsessed\\s+with|crazy\\s+about|passionate\\s+about)))"
                    + "(?:(not|no\\s+longer)\\s+)?(?:(?:a|an)\\s+)?(?:(?:big|huge|great"
                    + "|massive|real|true|longtime|long-time|die-hard|diehard)\\s+)?(fan\\s+of|into|keen\\s+on|crazy\\s+about"
                    + "|passionate\\s+about|obsessed\\s+with|fond\\s+of|addicted\\s+to)\\s+");
    /** A {@link #LIKE_EN} match that ends with the infinitive's "to". */
    private static final Pattern INFINITIVE = Pattern.compile("\\sto\\s+$");
    private static final Pattern LIKE_PT = Pattern.compile(
            "(?<!\\b(?:o|um|meu|seu|bom|mau|esse|este|nosso|teu|que|de|do|mal)\\s)"
                    + "\\b(?:eu\\s+)?(?:(nao|nunca)\\s+)?" + ADV + "{0,2}"
                    + "(adoro|amo|gosto|curto|sou\\s+(?:muito\\s+|super\\s+|mega\\s+|bem\\s+)?fa|sou\\s+(?:muito\\s+)?apaixonad[oa]"
                    + "|sou\\s+(?:muito\\s+)?(?:louc[oa]|doid[oa]|viciad[oa])|suporto|aguento|odeio"
                    + "|detesto|tenho\\s+horror|deixei\\s+de\\s+gostar|parei\\s+de\\s+gostar)\\s+"
                    + "(mais\\s+)?(?:muito\\s+|demais\\s+|bastante\\s+)?(?:de\\s+|do\\s+|da\\s+|dos\\s+|das\\s+|por\\s+|pelo\\s+"
                    + "|pela\\s+|pelos\\s+|pelas\\s+|a\\s+|ao\\s+|aos\\s+|as\\s+|em\\s+|no\\s+|na\\s+|nos\\s+|nas\\s+)?");
    private static final Pattern FAVORITE = Pattern.compile(
            "\\bmy\\s+(?:all-time\\s+|absolute\\s+|new\\s+)?(?:favorite|favourite|fave|fav)\\s+([a-z][a-z ]{1,30}?)\\s+(?:is|are)\\s+"
                    + "|\\b(?:meu|minha)\\s+([a-z][a-z ]{1,30}?)\\s+(?:favorit[oa]|preferid[oa])\\s+(?:e|sao)\\s+"
                    + "|\\b(?:meu|minha)\\s+(?:favorit[oa]|preferid[oa])\\s+([a-z]+)\\s+(?:e|sao)\\s+");
    private static final Pattern FAVORITE_REVERSED = Pattern.compile(
            "\\s+(?:is|are|will\\s+always\\s+be)\\s+(?:hands\\s+down\\s+|easily\\s+|definitely\\s+|still\\s+|probably\\s+)?my\\s+"
                    + "(?:all-time\\s+|absolute\\s+|new\\s+)?(?:favorite|favourite|fave|fav|number\\s+one|#1|go-to)\\s+([a-z]+)\\b"
                    + "|\\s+(?:e|sao)\\s+(?:o\\s+|a\\s+)?(?:meu|minha|meus|minhas)\\s+([a-z]+)\\s+(?:favorit[oa]s?|preferid[oa]s?)\\b");
    private static final Pattern PREFER = Pattern.compile(
            "\\b(?:i|we)\\s+" + ADV + "{0,2}(?:prefer|'d\\s+prefer|would\\s+prefer|'d\\s+rather|would\\s+rather)\\s+"
                    + "|\\b(?:eu\\s+)?" + ADV + "{0,2}prefiro\\s+");
    private static final Pattern ANSWER_IN = Pattern.compile(
            "\\b(?:please\\s+)?(?:always\\s+)?(?:answer|reply|respond|write|talk|speak)\\s+(?:to\\s+me\\s+|back\\s+)?"
                    + "(?:only\\s+)?in\\s+([a-z]+)\\b"
                    + "|\\b(?:por\\s+favor\\s+)?(?:me\\s+)?(?:responda|responde|fale|fala|escreva|escreve)\\s+(?:sempre\\s+)?"
                    + "(?:comigo\\s+)?(?:sempre\\s+)?(?:so\\s+|apenas\\s+)?em\\s+([a-z]+)\\b");

    private static final String[] PREFER_CUTS = Lexicon.phrases("prefer-cuts");

    /** "I used to love running": a like that ended. */
    private static final Pattern USED_TO_LIKE = Pattern.compile(
            "\\b(?:i|we)\\s+(?:really\\s+|just\\s+)?used\\s+to\\s+(?:really\\s+)?(?:love|like|enjoy|adore)\\s+");

    /** "Nothing beats a long hike on Sunday": the speaker loves what follows. */
    private static final Pattern NOTHING_BEATS = Pattern.compile(
            "^(?:honestly\\s+|tbh\\s+|for\\s+me\\s+)?(?:nothing|nada)\\s+(?:beats|compares\\s+to|tops|supera|bate)\\s+");
    /** "Mushrooms are the worst", "Rainy Sundays are the best": a thing the speaker judges, first in the sentence. */
    private static final Pattern THE_WORST = Pattern.compile(
            "^(?<thing>[a-z][a-z'\\- ]{1,40}?)\\s+(?:(?:truly|really|honestly|just|literally|seriously|simply|definitely"
                    + "|still|always)\\s+)?(?:is|are|'s|'re)\\s+(?:literally\\s+|honestly\\s+|just\\s+|seriously\\s+"
                    + "|simply\\s+|truly\\s+)?the\\s+(?<how>worst|best)\\s*(?:[.!,;]|$|\\s+(?:ever|lol|tbh|honestly|imo))");
    /** "I find podcasts so boring", "I find gardening relaxing": a judgement of the speaker's own. */
    private static final Pattern FIND = Pattern.compile(
            "\\bi\\s+(?:honestly\\s+|really\\s+|just\\s+)?find\\s+(?<thing>[a-z][a-z'\\- ]{1,40}?)\\s+(?:so\\s+|really\\s+|super\\s+"
                    + "|very\\s+|pretty\\s+|kinda\\s+|incredibly\\s+|extremely\\s+|deeply\\s+|quite\\s+)?(?<how>boring|annoying"
                    + "|overrated|disgusting|gross|tedious|unbearable|dull|relaxing|fascinating|delicious|soothing"
                    + "|therapeutic)\\b");
    private static final java.util.Set<String> BAD = java.util.Set.of("worst", "boring", "annoying", "overrated",
            "disgusting", "gross", "tedious", "unbearable", "dull");
    /** Words of a choice among options, not a taste: "Plan A", "the second one", "option 2". */
    private static final Pattern CHOICE = Pattern.compile(
            "\\b(?:one|ones|option|options|plan|choice|version|idea|answer|pick|part|way|thing|first|second|third|last)\\b");
    /** What a judged "thing" may not be: a person, a pronoun, a time that passes. */
    private static final Pattern NOT_A_THING = Pattern.compile(
            "^(?:you|u|he|she|they|it|him|her|them|us|me|this|that|these|those|we|i|everything|everyone|everybody|nobody|life|today"
                    + "|tonight|yesterday|this\\s+week|the\\s+\\w+\\s+part|part|what|which|who|there|here|mine|yours|his|hers|theirs"
                    + "|my\\b|our\\b|your\\b|his\\b|her\\b|their\\b|the\\s+(?:people|guy|girl|man|woman|kids?|boss))\\b");

    private PreferenceRules() {
    }

    static void apply(Sentence s, Facts out) {
        if (s.hasAny("love", "like", "enjoy", "ador", "dig", "fancy", "stand", "hate", "dislike", "detest",
                "loathe", "despise", "care for", "bear")) {
            english(s, out);
        }
        if (s.hasAny("fan", "into", "keen", "crazy about", "passionate", "obsessed", "fond", "addicted")) {
            fan(s, out);
        }
        if (s.hasAny("adoro", "amo", "gosto", "curto", "sou fa", "apaixonad", "sou louc", "suporto", "aguento",
                "odeio", "detesto", "horror", "sou doid", "sou muito", "sou super", "sou mega", "sou bem", "viciad")) {
            portuguese(s, out);
        }
        if (s.hasAny("favorite", "favourite", "fave", "fav", "favorit", "preferid")) {
            favorite(s, out);
        }
        if (s.hasAny("nothing ", "nada ", "the worst", "the best", " find ", "used to")) {
            judged(s, out);
        }
        if (s.hasAny("prefer", "rather", "prefiro")) {
            prefer(s, out);
        }
        if (s.hasAny(" in ", " em ")) {
            answerIn(s, out);
        }
        if (s.hasAny("short", "brief", "concise", "simple", "breve", "diret", "objetiv", "concis", "curtas")) {
            brevity(s, out);
        }
    }

    private static void english(Sentence s, Facts out) {
        Matcher m = s.match(LIKE_EN);
        while (m.find()) {
            if (relative(s, m.start())) {
                continue;
            }
            String neg = m.group(1);
            String verb = m.group(2).replaceAll("\\s+", " ");
            if (verb.equals("stand") && neg == null) {
                continue;
            }
            boolean noLonger = neg != null && (neg.startsWith("no longer") || s.anymoreIn(m.start(), m.end()));
            boolean dislike = neg != null && !noLonger;
            boolean infinitive = INFINITIVE.matcher(m.group()).find(); // "I love to help": "loves to help"
            emitAll(s, out, m.end(), noLonger ? Mode.NO_LONGER : dislike ? Mode.DISLIKE : Mode.LIKE, lemma(verb),
                    infinitive);
        }
        m = s.match(DISLIKE_EN);
        while (m.find()) {
            if (relative(s, m.start())) {
                continue;
            }
            emitAll(s, out, m.end(), Mode.DISLIKE, "dislikes", false);
        }
    }

    /** "Nothing beats …", "X is the worst", "I find X boring": what the speaker likes or dislikes, said otherwise. */
    private static void judged(Sentence s, Facts out) {
        if (s.question || s.conditional || s.reported) {
            return;
        }
        Matcher used = s.match(USED_TO_LIKE);
        if (used.find() && !s.negatedBefore(used.start())) {
            emitAll(s, out, used.end(), Mode.NO_LONGER, "likes", false);
            return;
        }
        Matcher beats = s.match(NOTHING_BEATS);
        if (beats.lookingAt()) {
            String thing = Values.phrase(s, beats.end(), s.folded.length(), " on ", " in ", " at ", " when ", " after ",
                    " with ", " tbh", " honestly", " lol", " ever");
            if (thing != null) {
                thing = thing.replaceFirst("^(?i)(?:a|an|the|um|uma|o|a)\\s+", "");
                out.typed(MemoryKind.PREFERENCE, "user.likes", thing, Cardinality.MULTI, Polarity.POSITIVE, Facts.NORMAL,
                        "%1$s loves %2$s", "%1$s adora %2$s");
            }
            return;
        }
        for (Pattern p : new Pattern[] {THE_WORST, FIND}) {
            Matcher m = s.match(p);
            if (!(p == THE_WORST ? m.lookingAt() : m.find()) || s.negatedBefore(m.start("how"))) {
                continue;
            }
            String folded = s.folded.substring(m.start("thing"), m.end("thing"));
            String thing = s.text.substring(m.start("thing"), m.end("thing")).strip();
            // a capitalised single word is a thing only in the plural ("Mondays are the worst"; "Sarah is the
            // best" is a person); a choice among options is no taste ("Plan A is the best", "The second one …")
            boolean plural = s.folded.substring(m.end("thing")).matches("\\s+(?:\\w+ly\\s+|still\\s+|just\\s+|always\\s+)?(?:are|'re)\\b.*");
            if (NOT_A_THING.matcher(folded).lookingAt() || Lexicon.RELATIONS.containsKey(folded)
                    || p == THE_WORST && Character.isUpperCase(thing.charAt(0)) && !thing.contains(" ") && !plural
                    || CHOICE.matcher(folded).find()) {
                continue;
            }
            boolean bad = BAD.contains(m.group("how"));
            out.typed(MemoryKind.PREFERENCE, bad ? "user.dislikes" : "user.likes", thing, Cardinality.MULTI,
                    Polarity.POSITIVE, Facts.NORMAL, bad ? "%1$s dislikes %2$s" : "%1$s likes %2$s",
                    bad ? "%1$s não gosta de %2$s" : "%1$s gosta de %2$s");
            return;
        }
    }

    private static void fan(Sentence s, Facts out) {
        Matcher m = s.match(FAN_EN);
        while (m.find()) {
            if (relative(s, m.start())) {
                continue;
            }
            boolean negated = m.group(1) != null;
            boolean noLonger = negated && (m.group(1).startsWith("no longer") || s.anymoreIn(m.start(), m.end()));
            emitAll(s, out, m.end(), noLonger ? Mode.NO_LONGER : negated ? Mode.DISLIKE : Mode.LIKE, "likes", false);
        }
    }

    private static void portuguese(Sentence s, Facts out) {
        Matcher m = s.match(LIKE_PT);
        while (m.find()) {
            if (relative(s, m.start())) {
                continue;
            }
            boolean negated = m.group(1) != null;
            String verb = m.group(2).replaceAll("\\s+", " ");
            boolean mais = m.group(3) != null;
            Mode mode;
            if (verb.startsWith("deixei") || verb.startsWith("parei")) {
                mode = Mode.NO_LONGER;
            } else if (verb.equals("odeio") || verb.equals("detesto") || verb.equals("tenho horror")) {
                mode = Mode.DISLIKE;
            } else if (verb.equals("suporto") || verb.equals("aguento")) {
                if (!negated) {
                    continue;
                }
                mode = Mode.DISLIKE;
            } else if (negated) {
                mode = mais ? Mode.NO_LONGER : Mode.DISLIKE;
            } else {
                mode = Mode.LIKE;
            }
            emitAll(s, out, m.end(), mode, verb.equals("adoro") || verb.equals("amo") ? "loves" : "likes", false);
        }
    }

    /**
     * Whether the like at {@code at} is a relative clause about something named before it ("that's
     * what I like to hear"): the word before it is an object relative pronoun
     * ({@link Lexicon#RELATIVE_PRONOUNS}; "that's why I love jazz" is a like).
     */
    private static boolean relative(Sentence s, int at) {
        int[] w = wordBefore(s, at);
        return w != null && Lexicon.RELATIVE_PRONOUNS.contains(s.folded.substring(w[0], w[1]));
    }

    /** The folded word that ends before {@code at} (spaces between), or null at the sentence's start. */
    private static int[] wordBefore(Sentence s, int at) {
        int end = at;
        while (end > s.body && s.folded.charAt(end - 1) == ' ') {
            end--;
        }
        int start = end;
        while (start > s.body && Character.isLetter(s.folded.charAt(start - 1))) {
            start--;
        }
        return start < end ? new int[] {start, end} : null;
    }

    private enum Mode { LIKE, DISLIKE, NO_LONGER }

    /**
     * Emits each value of the list that starts at {@code start}; with {@code infinitive} the like
     * verb took "to" and the values that are verb phrases keep it ("I love to help" → "loves to help",
     * not the noun "help"; see {@link Values#list(Sentence, int, int, boolean, String...)}).
     */
    private static void emitAll(Sentence s, Facts out, int start, Mode mode, String verb, boolean infinitive) {
        for (String thing : Values.list(s, start, s.folded.length(), infinitive, " with you", " com voce", " about ")) {
            String f = Terms.foldKeepingLength(thing);
            f = f.startsWith("to ") ? f.substring(3) : f;
            if (f.startsWith("my ") || f.startsWith("meu ") || f.startsWith("minha ") || f.startsWith("meus ")
                    || f.startsWith("minhas ") || f.startsWith("our ")) {
                continue; // "I love my kids": about the family, kept by the episode or family rules
            }
            boolean toVerb = thing.startsWith("to ");
            switch (mode) {
                case LIKE -> out.typed(MemoryKind.PREFERENCE, "user.likes", thing, Cardinality.MULTI, Polarity.POSITIVE,
                        Facts.NORMAL, "%1$s " + verb + " %2$s", verb.equals("loves") ? "%1$s adora %2$s" : "%1$s gosta de %2$s");
                case DISLIKE -> out.typed(MemoryKind.PREFERENCE, "user.dislikes", thing, Cardinality.MULTI,
                        Polarity.POSITIVE, Facts.NORMAL, toVerb ? "%1$s doesn't like %2$s" : "%1$s dislikes %2$s",
                        "%1$s não gosta de %2$s");
                default -> out.typed(MemoryKind.PREFERENCE, "user.likes", thing, Cardinality.MULTI, Polarity.NEGATIVE,
                        Facts.NORMAL, "%1$s no longer likes %2$s", "%1$s não gosta mais de %2$s");
            }
        }
    }

    private static String lemma(String verb) {
        if (verb.contains("love") || verb.equals("adore")) {
            return "loves";
        }
        if (verb.contains("enjoy")) {
            return "enjoys";
        }
        return "likes";
    }

    private static void favorite(Sentence s, Facts out) {
        Matcher m = s.match(FAVORITE);
        if (m.find()) {
            int g = m.group(1) != null ? 1 : m.group(2) != null ? 2 : 3;
            String thing = m.group(g).strip();
            String value = Values.phrase(s, m.end(), s.folded.length());
            emitFavorite(s, out, thing, value);
            return;
        }
        m = s.match(FAVORITE_REVERSED);
        if (m.find()) {
            int g = m.group(1) != null ? 1 : 2;
            int start = lastClauseStart(s, m.start());
            String value = Values.accept(s.text.substring(start, m.start()), s.folded.substring(start, m.start()));
            emitFavorite(s, out, m.group(g), value);
        }
    }

    /** Where the clause that ends at {@code end} begins ("..., but jazz is my favorite genre"). */
    private static int lastClauseStart(Sentence s, int end) {
        int start = s.body;
        for (String sep : new String[] {",", " but ", " and ", " mas ", " e ", " so ", " because "}) {
            int i = s.folded.lastIndexOf(sep, end - 1);
            if (i >= start && i < end) {
                start = i + sep.length();
            }
        }
        return start;
    }

    /** Emphasis after a favourite's thing that names no other thing: "of all time", "ever", "de todos os tempos". */
    private static final Pattern EMPHASIS = Pattern.compile(
            "(?:^|\\s+)(?:of\\s+all\\s+time|ever|in\\s+the\\s+(?:whole\\s+)?world|de\\s+todos\\s+os\\s+tempos|da\\s+vida)$");

    private static void emitFavorite(Sentence s, Facts out, String thing, String value) {
        if (value == null) {
            return;
        }
        String folded = Terms.foldKeepingLength(value);
        Matcher hedge = FAVORITE_HEDGE.matcher(folded);
        if (hedge.lookingAt()) {
            value = value.substring(hedge.end()); // "probably Inception": the sentence's quote keeps the doubt
            folded = folded.substring(hedge.end());
        }
        List<String> words = Terms.wordTokens(folded);
        // a capitalised title is a name whatever its first word ("Dead Kennedys", "Hard Times")
        boolean title = !value.isEmpty() && Character.isUpperCase(value.codePointAt(0));
        if (words.isEmpty() || !title && NOT_A_FAVORITE.contains(words.get(0)) || words.get(0).equals("not")
                || words.get(0).equals("nao")) {
            return; // "is closed now", "is hard to pick", "is not Coldplay": a state of it, or what it is not
        }
        // "my favorite movie of all time" is the favorite movie: the key is the thing, not its emphasis
        String keyed = EMPHASIS.matcher(thing).replaceAll("").strip();
        if (keyed.isEmpty()) {
            return; // "my favorite ever is pizza" names no thing
        }
        String key = keyed.replaceAll("\\s+", "_");
        if (s.pt()) {
            key = Lexicon.FAVORITE_KEYS.getOrDefault(thing.replaceAll("\\s+", " "), key);
        } else if (key.equals("colour")) {
            key = "color";
        }
        if (!key.matches("[a-z_]{2,30}")) {
            return;
        }
        out.typed(MemoryKind.PREFERENCE, "user.favorite." + key, value, Cardinality.SINGLE, Polarity.POSITIVE,
                Facts.NORMAL, "%1$s's favorite " + thing + " is %2$s", "%1$s: " + thing + " favorito(a) é %2$s");
    }

    private static final Pattern FAVORITE_HEDGE = Pattern.compile("(?:probably|maybe|perhaps|definitely|talvez|provavelmente)\\s+");
    /** What a favourite's predicate may say of it that names no favourite: its state, or that it is hard to name. */
    private static final java.util.Set<String> NOT_A_FAVORITE = java.util.Set.of("closed", "closing", "broken", "on",
            "off", "over", "gone", "dead", "out", "sold", "stuck", "losing", "winning", "playing", "hard", "difficult",
            "impossible", "tough", "tricky", "changing", "different", "the", "a", "an", "fechado", "fechada", "quebrado",
            "quebrada", "dificil", "impossivel", "perdendo", "ganhando", "mudando");

    private static void prefer(Sentence s, Facts out) {
        Matcher m = s.match(PREFER);
        if (m.find()) {
            String v = Values.phrase(s, m.end(), s.folded.length(), PREFER_CUTS);
            if (v != null) {
                out.typed(MemoryKind.PREFERENCE, "user.preference", v, Cardinality.MULTI, Polarity.POSITIVE,
                        Facts.NORMAL, "%1$s prefers %2$s", "%1$s prefere %2$s");
            }
        }
    }

    private static final Pattern BRIEF = Pattern.compile(
            "\\b(?:keep|make)\\s+(?:your\\s+|the\\s+)?(?:answers|responses|replies|messages|it)\\s+(?:short|brief|concise|simple)\\b"
                    + "|\\bbe\\s+(?:brief|concise)\\b|\\b(?:seja|sejam)\\s+(?:mais\\s+)?(?:breve|diret[oa]|objetiv[oa]|concis[oa])\\b"
                    + "|\\b(?:quero|prefiro|gosto\\s+de)\\s+respostas\\s+(?:curtas|diretas|objetivas|breves)\\b");

    private static void brevity(Sentence s, Facts out) {
        if (!out.producedInSentence("user.preference") && s.match(BRIEF).find()) {
            out.typed(MemoryKind.PREFERENCE, "user.preference", s.pt() ? "respostas curtas" : "short answers",
                    Cardinality.MULTI, Polarity.POSITIVE, Facts.NORMAL, "%1$s prefers %2$s", "%1$s prefere %2$s");
        }
    }

    /** Subjects before "speak / write in" that describe what someone does, not ask for it. */
    private static final java.util.Set<String> SPEAKERS = java.util.Set.of("i", "we", "they", "he", "she", "eu", "nos",
            "ele", "ela", "eles", "elas", "you");

    private static void answerIn(Sentence s, Facts out) {
        Matcher m = s.match(ANSWER_IN);
        if (m.find()) {
            int g = m.group(1) != null ? 1 : 2;
            List<String> before = Terms.wordTokens(s.folded.substring(s.clauseStart(m.start()), m.start()));
            boolean described = !before.isEmpty() && SPEAKERS.contains(before.get(before.size() - 1));
            if (Lexicon.LANGUAGES.contains(m.group(g)) && !described) { // "I speak in English at work": what they do
                String lang = s.text.substring(m.start(g), m.end(g));
                // "Don't answer in Portuguese", "Não responda em inglês": what the user does not want
                boolean negated = s.negatedBefore(m.start()) || s.negatedBefore(m.start(g));
                out.typed(MemoryKind.PREFERENCE, "user.preference", s.pt() ? "respostas em " + lang : "answers in " + lang,
                        Cardinality.MULTI, negated ? Polarity.NEGATIVE : Polarity.POSITIVE, Facts.STRONG,
                        negated ? "%1$s does not want %2$s" : "%1$s prefers %2$s",
                        negated ? "%1$s não quer %2$s" : "%1$s prefere %2$s");
            }
        }
    }
}
