package dev.reverie.dream;

import dev.reverie.Memory;
import dev.reverie.MemoryKind;
import dev.reverie.ImportanceSignals;
import dev.reverie.MemoryPolicy;
import dev.reverie.Observation;
import dev.reverie.Outcome;
import dev.reverie.Provenance;
import dev.reverie.Source;
import dev.reverie.Trust;
import dev.reverie.internal.Resources;
import dev.reverie.internal.Terms;
import dev.reverie.spi.Subjects;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The importance (0–100) of a statement and of a memory: a base from the subject and kind, text
 * signals (small talk and resolved logistics are capped low; a substantive first-person episode
 * clears the cutoff), all weighed by {@link MemoryPolicy#importanceSignals()}, a bonus for each repetition, and factors for third-party content and failed
 * runs. A memory's current importance is its base decayed by {@code 0.5^(Δt / halfLife(kind))}
 * since it was last reinforced; identity and safety-critical facts are permanent and never decay.
 *
 * <p>The base is a pure function of the memory's own fields (kind, subject, text, reinforcement
 * count, provenance), never of its stored importance. That is what makes REM idempotent and
 * drift-free: running it twice at the same clock computes the same value, and running it daily or
 * monthly ends at the same number. Operator-written memories keep the importance the operator gave
 * them and only expire by TTL. Immutable and thread-safe.
 */
final class Importance {

    /** Attributes ({@link Subjects#attribute}) of identity facts, whoever they belong to. */
    private static final Set<String> IDENTITY_SUBJECTS = Set.of("name", "address_as", "native_language");
    private static final Set<String> WORK_AND_PLACE = Set.of("job", "employer", "location", "origin");
    private static final Set<String> TASTES = Set.of("likes", "dislikes", "preference");
    private static final Set<String> SECOND_PERSON = Set.of("you", "your", "yours", "yourself", "voce", "seu",
            "sua", "te", "ti");
    private static final Set<String> FIRST_PERSON = Set.of("i", "my", "me", "mine", "myself", "we", "our", "us",
            "ours", "eu", "meu", "minha", "meus", "minhas", "nos", "nosso", "nossa", "comigo");
    /** Greetings, thanks, acknowledgements and reactions (English and Portuguese). */
    private static final Set<String> FILLER = Set.copyOf(Resources.entries(Importance.class, "words/filler.txt"));
    /** Words too vague to make a statement substantive on their own. */
    private static final Set<String> LIGHT = Set.copyOf(Resources.entries(Importance.class, "words/light.txt"));
    private static final Pattern LOGISTICS = Pattern.compile(String.join("|",
            "\\b\\d+\\s*(min|mins|minute|minutes|minuto|minutos|sec|secs|seconds)\\b.*\\b(late|atrasad[oa])\\b",
            "\\brunning (a bit |a little )?(late|behind)\\b",
            "\\b(be|am|i'?m|im|gonna be|will be|are|we'?re) (a bit |a little |so |very )?late\\b",
            "\\bon my way( (home|there|back|now|over))?\\s*([.!,]|$)",
            "\\bomw\\b", "\\bbe there (in|soon|shortly)\\b", "\\bbrb\\b", "\\bbe right back\\b",
            "\\bstuck in traffic\\b", "\\bjust a (sec|second|minute|moment)\\b", "\\bone sec\\b",
            "\\bhold on\\s*([.!,]|$)", "\\bwait for me\\b", "\\batrasad[oa]\\b", "\\bchego em\\b",
            "\\b(to|estou|tou) chegando\\b", "\\b(see|meet) you (there|at|in)\\b"));
    /**
     * Every match of {@link #LOGISTICS} contains one of these (each alternative's own literal), so a
     * text without any of them is not searched: most texts are ruled out by a few substring scans.
     */
    private static final List<String> LOGISTICS_LITERALS = List.of("late", "atrasad", "running ", "behind",
            "on my way", "omw", "be there ", "brb", "be right back", "stuck in traffic", "just a ", "one sec",
            "hold on", "wait for me", "chego em", "chegando", "see you ", "meet you ");
    /**
     * Dates and times as whole words ({@code \b…\b} on the folded text): these words, a year
     * 1900–2099, and the pairs of {@link #TEMPORAL_PAIRS} ("last week", "semana passada").
     */
    static final Set<String> TEMPORAL_WORDS = Set.of("yesterday", "today", "tonight", "tomorrow", "ago",
            "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february",
            "march", "april", "june", "july", "august", "september", "october", "november", "december", "ontem",
            "hoje", "amanha", "segunda", "terca", "quarta", "quinta", "sexta", "sabado", "domingo");
    private static final Set<String> WEEKDAYS = Set.of("monday", "tuesday", "wednesday", "thursday", "friday",
            "saturday", "sunday");
    static final Map<String, Set<String>> TEMPORAL_PAIRS = Map.of(
            "last", union(WEEKDAYS, "week", "month", "year", "weekend", "night", "summer", "winter", "spring", "fall"),
            "next", union(WEEKDAYS, "week", "month", "year", "weekend"),
            "this", Set.of("morning", "week", "month", "year", "weekend", "summer"),
            "semana", Set.of("passada"), "mes", Set.of("passado"), "ano", Set.of("passado"),
            "proxima", Set.of("semana"));
    /** Past-tense verbs as whole words; any other all-letter word of five or more letters ending in "ed" also counts. */
    static final Set<String> PAST_WORDS = Set.of("went", "did", "made", "took", "got", "saw", "met", "ran",
            "bought", "began", "came", "gave", "found", "won", "lost", "wrote", "built", "drew", "drove", "flew",
            "left", "paid", "sold", "sent", "spent", "taught", "told", "brought", "caught", "chose", "became",
            "broke", "held", "kept", "led", "sat", "slept", "spoke", "swam", "threw", "woke", "wore", "grew", "rode",
            "sang", "ate", "drank", "fell", "forgot", "quit", "had", "fui", "fiz", "comprei", "comecei", "terminei",
            "viajei", "mudei", "conheci", "ganhei", "perdi");
    /** What opens a progressive ("I'm reading", "we are moving", "estou lendo"), as written after folding. */
    static final List<String> PROGRESSIVE_OPENERS = List.of("i'm", "im", "i am", "we're", "were", "we are",
            "estou");
    static final List<String> PROGRESSIVE_ENDINGS = List.of("ing", "ndo");
    /** Plans as whole phrases of the folded text (the optional apostrophes spelled both ways). */
    static final List<String> PLAN_PHRASES = List.of("i'm going to", "im going to", "i am going to", "gonna",
            "i'll", "ill", "i will", "i plan", "i'm planning", "im planning", "planning to", "i want to",
            "i'd love to", "id love to", "we're going to", "were going to", "we'll", "well", "vou", "pretendo",
            "quero");
    /** Greeting and farewell phrases (folded), removed before a statement is judged ("Hey Omar, been a while!"). */
    private static final Pattern PLEASANTRIES = Pattern.compile(String.join("|",
            "long time no (see|talk|chat)", "(it'?s been|been) (a while|ages|so long|forever)",
            "since we (last )?(talked|chatted|spoke|caught up)", "how'?s (it|everything|life|things)( been)?( going)?",
            "how are (you|things)( doing)?", "how have you been", "how'?ve you been", "what'?s up", "what'?s new",
            "(good|great|nice|awesome|so good) to (see|hear from|chat with|talk to|catch up with) you( again)?",
            "(good|great|nice) (chatting|talking)( with you)?", "great to chat( again)?",
            "see you (soon|later|tomorrow|next time|around)", "talk (to you )?(soon|later)", "take care",
            "have a (great|good|nice|wonderful) (day|night|weekend|time|one)", "catch you later", "good night",
            "tudo bem", "como vai", "ate (logo|mais|amanha)", "bom dia", "boa (tarde|noite)"));
    /** Every phrase above contains one of these words: without them the phrases are not looked for. */
    private static final Set<String> PLEASANTRY_WORDS = Set.of("long", "been", "since", "how", "what", "good",
            "great", "nice", "awesome", "chatting", "talking", "see", "talk", "take", "have", "catch", "tudo", "como",
            "ate", "bom", "boa");
    /** First words of an elliptical first-person sentence ("Been busy gardening", "Just started yoga"). */
    private static final Set<String> ELLIPTICAL = Set.of("been", "just", "still", "started", "finished", "went",
            "got", "had", "spent", "tried", "working", "trying", "planning", "thinking", "gonna", "heading",
            "looking");
    /** The "Speaker: " the write path puts before an event's sentence in multi-party transcripts. */
    private static final Pattern SPEAKER = Pattern.compile("^\\p{Lu}[\\p{L}.' -]{0,40}:\\s+");
    private static final Set<String> NOT_NAMES = Set.of("I", "I'm", "I've", "I'll", "I'd", "OK", "Ok", "Okay", "Mr",
            "Mrs", "Ms", "Dr", "Dra", "Sr", "Sra", "Yes", "No", "Oh", "Wow", "Hey", "Hi", "Thanks", "Lol", "Haha");

    private final MemoryPolicy policy;
    private final ImportanceSignals w;
    private final Map<String, Double> memo;

    /** Scoring without memory between calls; thread-safe. */
    Importance(MemoryPolicy policy) {
        this(policy, null);
    }

    private Importance(MemoryPolicy policy, Map<String, Double> memo) {
        this.policy = policy;
        this.w = policy.importanceSignals();
        this.memo = memo;
    }

    /**
     * Scoring for one end user's cycle, remembering each text's signal for the run (a statement is
     * scored as a candidate, again as the memory it creates, and again by REM). Not thread-safe.
     */
    Importance forRun() {
        return new Importance(policy, new HashMap<>());
    }

    /**
     * Whether a subject is a person's identity or safety-critical health (the user's or a named
     * speaker's; never the assistant's, a tool's or a synthesis): permanent when said first-hand.
     */
    static boolean permanentSubject(String subject) {
        if (!Subjects.aboutPerson(subject)) {
            return false;
        }
        String a = Subjects.attribute(subject);
        return IDENTITY_SUBJECTS.contains(a) || a.equals("allergy") || a.equals("health");
    }

    /**
     * Whether content with this subject and provenance becomes a permanent memory: only the person's
     * own words or the operator's, never the assistant's, third-party or failed-run content.
     */
    static boolean permanent(String subject, Provenance provenance) {
        return permanentSubject(subject) && authoritative(provenance) && provenance.outcome() != Outcome.FAILED;
    }

    /**
     * Whether a statement may correct what is remembered (supersede a memory, or make it permanent):
     * the user's own first-party words or the operator's. The assistant and tools never may.
     */
    static boolean authoritative(Provenance provenance) {
        return (provenance.source() == Source.USER || provenance.source() == Source.OPERATOR)
                && provenance.trust() == Trust.FIRST_PARTY;
    }

    /** The importance a statement earns before repetition and provenance: from subject, kind and wording. */
    double signal(MemoryKind kind, String subject, String text) {
        if (memo == null) {
            return computeSignal(kind, subject, text);
        }
        String key = kind.ordinal() + (Text.episodic(subject) ? Text.EPISODE_PREFIX : subject) + '\u0000' + text;
        Double known = memo.get(key);
        if (known == null) {
            known = computeSignal(kind, subject, text);
            memo.put(key, known);
        }
        return known;
    }

    private double computeSignal(MemoryKind kind, String subject, String text) {
        if (kind == MemoryKind.SYNTHESIS) {
            return w.synthesis();
        }
        String a = Subjects.aboutPerson(subject) ? Subjects.attribute(subject) : "";
        if (IDENTITY_SUBJECTS.contains(a)) {
            return w.identity();
        }
        if (a.equals("allergy")) {
            return w.allergy();
        }
        if (a.equals("health")) {
            return w.health();
        }
        Signals s = new Signals(text, w);
        if (Text.episodic(subject)) {
            return s.episode();
        }
        double base;
        if (a.startsWith("family.") || a.equals("family")) {
            base = w.family();
        } else if (WORK_AND_PLACE.contains(a)) {
            base = w.jobOrLocation();
        } else if (a.equals("pet") || a.equals("age") || a.equals("birthday")) {
            base = w.pet();
        } else if (a.equals("skill") || a.equals("diet")) {
            base = w.skill();
        } else if (TASTES.contains(a) || a.startsWith("favorite.")) {
            base = w.likes();
        } else if (a.equals("plan") || a.equals("event")) {
            base = w.planOrEvent() + (s.temporal() ? w.temporalBonus() : 0);
        } else {
            base = switch (kind) {
                case SKILL -> w.skill();
                case FACT, PREFERENCE -> w.planOrEvent();
                case EVENT -> w.planOrEvent() - w.temporalBonus() + (s.temporal() ? w.temporalBonus() : 0);
                case STYLE, SYNTHESIS -> w.style();
            };
        }
        return s.capped(base);
    }

    /** Extra importance for being said {@code count} times. */
    double reinforcementBonus(int count) {
        return Math.min(w.reinforcementCap(), w.reinforcementStep() * Math.max(0, count - 1));
    }

    /** The factor for where a statement came from: third-party and failed-run content weigh less. */
    double provenanceFactor(Provenance p) {
        double f = 1.0;
        if (p.trust() == Trust.THIRD_PARTY) {
            f *= policy.thirdPartyFactor();
        }
        if (p.outcome() == Outcome.FAILED) {
            f *= policy.failedFactor();
        }
        return f;
    }

    /** The importance of an L3 observation (a light-sleep survivor) as deep sleep judges it against the cutoff. */
    double of(Observation o) {
        return of(o, o.reinforcementCount());
    }

    /** The importance of an observation said {@code utterances} times in all. */
    double of(Observation o, int utterances) {
        return clamp((signal(o.kind(), o.subject(), o.text()) + reinforcementBonus(utterances))
                * provenanceFactor(o.provenance()));
    }

    /**
     * A memory's undecayed importance: a function of its own fields only. Operator-written memories
     * keep the importance they were given.
     */
    double base(Memory m) {
        if (m.provenance().source() == Source.OPERATOR) {
            return m.importance();
        }
        return clamp((signal(m.kind(), m.subject(), m.text()) + reinforcementBonus(m.reinforcementCount()))
                * provenanceFactor(m.provenance()));
    }

    /** Whether REM decays this memory (permanent and operator-written memories do not). */
    static boolean decays(Memory m) {
        return !m.permanent() && m.provenance().source() != Source.OPERATOR;
    }

    /** A memory's importance at {@code now}, rounded to hundredths so that reruns compare exactly. */
    double current(Memory m, Instant now) {
        double base = base(m);
        if (!decays(m)) {
            return round(base);
        }
        return round(decay(base, policy.halfLife(m.kind()), Duration.between(m.lastReinforcedAt(), now)));
    }

    /** {@code base · 0.5^(elapsed / halfLife)}; no decay for a negative elapsed time. */
    static double decay(double base, Duration halfLife, Duration elapsed) {
        if (elapsed.isNegative() || elapsed.isZero()) {
            return base;
        }
        double halves = (double) elapsed.toMillis() / halfLife.toMillis();
        return base * Math.pow(0.5, halves);
    }

    static double round(double v) {
        return Math.round(v * 100.0) / 100.0;
    }

    private static double clamp(double v) {
        return Math.max(0, Math.min(100, v));
    }

    private static Set<String> union(Set<String> base, String... more) {
        Set<String> all = new java.util.HashSet<>(base);
        all.addAll(List.of(more));
        return Set.copyOf(all);
    }

    /**
     * The text signals of one statement. The cheap ones (words, small talk) are computed at once, the
     * rest only when asked: a typed fact needs at most the caps, only an episode needs everything.
     */
    private static final class Signals {
        private final ImportanceSignals weights;
        private final String plain;
        private final String folded;
        private final List<String> words;
        private Boolean temporal;

        Signals(String text, ImportanceSignals weights) {
            this.weights = weights;
            String straight = text.replace('’', '\'');
            // a speaker prefix ends in a colon: without one there is nothing to remove
            plain = straight.indexOf(':') < 0 ? straight : SPEAKER.matcher(straight).replaceFirst("");
            String f = Terms.fold(plain);
            List<String> w = Terms.foldedWords(f);
            if (!Collections.disjoint(w, PLEASANTRY_WORDS)) {
                f = PLEASANTRIES.matcher(f).replaceAll(" ");
                w = Terms.foldedWords(f);
            }
            folded = f;
            words = w;
        }

        /** At most one word that is not a greeting or acknowledgement (usually the addressee's name). */
        boolean smallTalk() {
            int nonFiller = 0;
            for (String w : words) {
                if (!FILLER.contains(w) && ++nonFiller > 1) {
                    return false;
                }
            }
            return true;
        }

        boolean logistics() {
            return words.size() <= 14 && containsAny(folded, LOGISTICS_LITERALS) && LOGISTICS.matcher(folded).find();
        }

        /** A progressive ends its verb in "ing" or "ndo": without either, the expression is not run. */
        private boolean progressive() {
            return (folded.contains("ing") || folded.contains("ndo"))
                    && WordScan.openerThenWord(folded, PROGRESSIVE_OPENERS, PROGRESSIVE_ENDINGS);
        }

        boolean temporal() {
            if (temporal == null) {
                temporal = WordScan.anyDateWord(folded, TEMPORAL_WORDS, TEMPORAL_PAIRS);
            }
            return temporal;
        }

        private static boolean containsAny(String text, List<String> literals) {
            for (String literal : literals) {
                if (text.contains(literal)) {
                    return true;
                }
            }
            return false;
        }

        double capped(double base) {
            if (smallTalk()) {
                return Math.min(base, weights.smallTalkCap());
            }
            if (logistics()) {
                return Math.min(base, weights.logisticsCap());
            }
            if (!ownStatement(plain)) {
                return Math.min(base, weights.reactionCap());
            }
            return base;
        }

        double episode() {
            int content = 0;
            boolean firstPerson = false;
            boolean secondPerson = false;
            for (String w : words) {
                firstPerson |= FIRST_PERSON.contains(w);
                secondPerson |= SECOND_PERSON.contains(w);
                if (w.length() > 1 && !LIGHT.contains(w) && !FILLER.contains(w)) {
                    content++;
                }
            }
            firstPerson = firstPerson || elliptical(plain);
            double score = weights.episode();
            if (firstPerson) {
                score += weights.firstPersonBonus();
            }
            if (WordScan.anyRun(folded, PAST_WORDS, "ed", 5) || progressive()) {
                score += weights.pastOrOngoingBonus();
            } else if (WordScan.containsAnyWord(folded, PLAN_PHRASES)) {
                score += weights.planBonus();
            }
            if (temporal()) {
                score += weights.temporalBonus();
            }
            if (hasName(plain)) {
                score += weights.nameBonus();
            }
            if (content >= 4) {
                score += weights.detailBonus();
            }
            if (content >= 8) {
                score += weights.richDetailBonus();
            }
            if (!secondPerson && content >= 3) {
                score += weights.ownWorldBonus(); // about the speaker's own life or world ("Still working on opening a bike repair shop")
            } else if (secondPerson && !firstPerson) {
                score -= weights.aboutListenerPenalty(); // about the listener: compliments, advice, questions back
            }
            return capped(score);
        }

        /** Whether some sentence starts with a verb whose omitted subject is the speaker. */
        private static boolean elliptical(String text) {
            for (String sentence : WordScan.sentences(text, ".!?", ".!?")) {
                List<String> words = Terms.words(sentence);
                if (!words.isEmpty() && ELLIPTICAL.contains(words.get(0))) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Whether some sentence that is not a question says something of the user's own: a first-person
         * statement, or one with at least two substantive words besides names (a reaction such as
         * "Wow, that's cool, Ana!" has none).
         */
        private static boolean ownStatement(String text) {
            for (String s : WordScan.sentences(text, ".!?", ".!?")) {
                String sentence = s.strip();
                if (sentence.isEmpty() || sentence.endsWith("?")) {
                    continue;
                }
                int count = 0;
                boolean firstPerson = false;
                for (String w : Terms.words(withoutNames(sentence))) {
                    if (FIRST_PERSON.contains(w)) {
                        firstPerson = true;
                    }
                    if (w.length() > 1 && !LIGHT.contains(w) && !FILLER.contains(w)) {
                        count++;
                    }
                }
                if (count >= 2 || (firstPerson && count >= 1)) {
                    return true;
                }
            }
            return false;
        }

        private static String withoutNames(String sentence) {
            int[] caps = WordScan.capitalized(sentence, true, false);
            if (caps.length == 0) {
                return sentence;
            }
            StringBuilder out = new StringBuilder();
            int last = 0;
            for (int k = 0; k < caps.length; k += 2) {
                boolean sentenceStart = k == 0 && sentence.substring(0, caps[k]).isBlank();
                if (!sentenceStart && !NOT_NAMES.contains(sentence.substring(caps[k], caps[k + 1]))) {
                    out.append(sentence, last, caps[k]).append(' ');
                    last = caps[k + 1];
                }
            }
            return out.append(sentence.substring(last)).toString();
        }

        private static boolean hasName(String text) {
            for (String sentence : WordScan.sentences(text, ".!?", ".!?")) {
                int[] caps = WordScan.capitalized(sentence, true, false);
                for (int k = 0; k < caps.length; k += 2) {
                    boolean sentenceStart = k == 0 && sentence.substring(0, caps[k]).isBlank();
                    String word = sentence.substring(caps[k], caps[k + 1]);
                    if (!sentenceStart && !NOT_NAMES.contains(word) && word.length() > 1) {
                        return true;
                    }
                }
            }
            return false;
        }
    }
}
