package dev.reverie.extract;

import dev.reverie.internal.Terms;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One sentence (or clause) of a turn, with its folded twin and the facts about it every rule needs:
 * where the statement starts after discourse markers ("Actually, ...", "Na verdade, ..."), whether
 * it is a question, small talk, reported speech or a correction, its language and whether it is
 * in the first person. Patterns run on {@link #folded} from {@link #body}; because folding keeps
 * length, their offsets index {@link #text} too. Immutable once built by {@link #split}; confined to
 * the thread that extracts the turn.
 */
final class Sentence {

    enum Lang { EN, PT }

    static final int MAX_CHARS = 600;

    private static final Pattern DISCOURSE = Pattern.compile(
            "(?:(?:actually|well|so|anyway|anyways|honestly|btw|by\\s+the\\s+way|um|uh|hmm|na\\s+verdade|bem"
                    + "|entao|olha|enfim|alias|correction|correcao|i\\s+mean|quer\\s+dizer|and|but|also|plus|e|mas"
                    + "|tambem|then|and\\s+then|oops|ops|sorry|desculpa|desculpe|right|ok\\s+so|oh|ah|ahn|ei"
                    + "|scratch\\s+that|strike\\s+that|no\\s+wait|wait|errata"
                    + "|por\\s+sinal|afinal)\\b[\\s,!.:;\u2013\u2014]*"
                    + "|(?:yes|yeah|yep|no|nope|ok|okay|hey|hi|hello|wow|haha|hahaha|lol|sim|nao|oi|ola|nossa|poxa"
                    + "|cara|gente|opa|thanks|thank\\s+you|obrigad[oa]|great|cool|nice|awesome|omg|aw+|yay)\\s*[,!.:;-]+\\s*"
                    // chat writes these without a comma: "yeah allergic to sesame lol", "nope got a job at SAP" (not
                    // the sarcasm of "yeah right", "yeah sure", which the retraction rules read)
                    + "|(?:yeah|yea|yep|yup|nope|nah|lol|lmao|haha+|omg|ok|okay)\\s+(?!right\\b|sure\\b)(?=\\p{L}))+");
    private static final Pattern CORRECTION_MARK = Pattern.compile(
            "\\b(?:actually|na\\s+verdade|correction|correcao|i\\s+mean|quer\\s+dizer|sorry|desculpa|desculpe|oops|ops"
                    + "|scratch\\s+that|strike\\s+that|no\\s+wait|errata)\\b");
    private static final Pattern HEDGE = Pattern.compile(
            "\\b(?:i\\s+think|i\\s+guess|i\\s+believe|i\\s+suppose|maybe|probably|perhaps|not\\s+sure|might\\s+be"
                    + "|i\\s+(?:don't|dont|do\\s+not)\\s+(?:think|believe)|i\\s+doubt|nao\\s+acho|duvido"
                    + "|i\\s+(?:(?:don't|dont|do\\s+not)\\s+know|wonder)\\s+(?:if|whether)\\s+(?:i|i'm|im|i've|my)\\b"
                    + "|acho\\s+que|talvez|provavelmente|nao\\s+sei\\s+se|pode\\s+ser\\s+que|parece\\s+que)\\b");
    private static final Pattern CONDITIONAL = Pattern.compile(
            "(?:if|unless|what\\s+if|imagine|suppose|supposing|i\\s+wish|even\\s+if"
                    // not "In case you were wondering, I'm vegan", "Whether I like it or not, I live in Leeds now"
                    + "|(?:just\\s+)?in\\s+case(?!\\s+(?:you|u|ya|anyone|anybody|someone|somebody|people)\\b)|in\\s+the\\s+event"
                    + "|whether\\s+or\\s+not|provided|providing|assuming|on\\s+condition|se|caso|quem\\s+dera|imagina|e\\s+se|mesmo\\s+se"
                    + "|a\\s+menos\\s+que|na\\s+hipotese|supondo)\\b");
    private static final Pattern QUESTION_START = Pattern.compile(
            "(?:do|does|did|are|is|was|were|can|could|would|will|have|has|should|shall|wanna)\\s+"
                    + "(?:you|u|ya|we|they|he|she|it|i|there)\\b"
                    + "|(?:where|why|how|what|which|who|whom|when)\\s+(?:do|does|did|should|can|could|would|will"
                    + "|shall|am|is|are|was|were|must|might)\\s"
                    + "|sera\\s+que\\b|(?:onde|como|quando|qual|quem|por\\s*que)\\s+(?:que\\s+)?(?:eu\\s+)?"
                    + "(?:devo|posso|consigo|faco|deveria|poderia|vou)\\b");
    /**
     * A condition, wish or pretence that governs a first-person statement ("It would be nice if I lived
     * in Lisbon", "I really wish I lived in Tokyo", "Pretend I'm a doctor", "Finge que eu moro em
     * Paris"); an "if" whose clause says nothing of the speaker ("I'm allergic to peanuts, so check if
     * the dish has them") governs nothing of theirs. Counted only in the main clause ({@link #irrealis}).
     */
    private static final Pattern IRREALIS = Pattern.compile(
            "\\b(?:if|wish|wished|wishing|pretend|pretending|suppose|supposing|assume|assuming|imagine|imagining"
                    + "|hypothetically)\\b[^,;:.!?]*?\\b(?:i|i'm|im|i'd|i've|i'll|we|we're|we'd)\\b"
                    + "|\\b(?:se|quem\\s+dera|finge|finja|fingir|imagina|imagine|suponha|supondo|suponhamos)\\s+"
                    + "(?:que\\s+|se\\s+)?(?:eu|nos)\\b");
    /** Words that take a statement back, in it ("i got a job at amazon lol jk") or opening the next sentence. */
    static final Pattern RETRACTION = Pattern.compile(
            "(?<!\\bno\\s)(?<!\\bnot\\s)(?<!\\bsem\\s)(?<!\\bnao\\se\\s)(?<!\\bnao\\sfoi\\s)"
                    + "\\b(?:jk|j/k|just\\s+kidding|kidding|only\\s+joking|just\\s+joking|yeah\\s+right"
                    + "|so\\s+que\\s+nao|brincadeira|zoeira|zoando|to\\s+brincando|tou\\s+brincando|estou\\s+brincando)\\b"
                    + "(?!\\s+aside)");
    /** A sentence that only takes the one before back: "Not.", "Just kidding, …", "Brincadeira". */
    private static final Pattern TAKES_BACK = Pattern.compile(
            "(?:not|nope|nah)[.!]*$|(?:jk|j/k|just\\s+kidding|kidding|only\\s+joking|just\\s+joking|brincadeira|zoeira"
                    + "|mentira|so\\s+que\\s+nao)\\b(?!\\s+aside)");

    /** Whether the sentence takes itself back from {@code from} on ("lol jk"); "JK" in capitals is a name ("JK Rowling"). */
    private static boolean retracted(String text, String folded, int from) {
        Matcher m = RETRACTION.matcher(folded).region(from, folded.length());
        while (m.find()) {
            if (!folded.startsWith("jk", m.start()) || text.startsWith("jk", m.start())) {
                return true;
            }
        }
        return false;
    }

    /** Where what follows an opening "Just kidding," starts (the rest is said in earnest), or {@code body}. */
    private static int takenBackUntil(String folded, int body) {
        Matcher t = TAKES_BACK.matcher(folded).region(body, folded.length());
        return t.lookingAt() ? t.end() : body;
    }

    /**
     * Whether a condition, wish or pretence governs the sentence's main statement: it opens in the
     * first clause ("It would be nice if I lived in Lisbon", "I really wish I lived in Tokyo"); one in a
     * later clause governs only that clause ("I'm allergic to penicillin so let me know if I need a
     * substitute", "Tenho asma e se eu corro fico sem ar"), and "I assume / suppose / imagine" is the
     * speaker's own hedge.
     */
    private static boolean irrealis(String folded, int body) {
        Matcher m = IRREALIS.matcher(folded).region(body, folded.length());
        if (!m.find()) {
            return false;
        }
        Matcher brk = CLAUSE_BREAK.matcher(folded).region(body, m.start());
        if (brk.find()) {
            return false;
        }
        return !OWN_ASSUMPTION.matcher(folded).region(Math.max(body, m.start() - 3), m.end()).find();
    }

    private static final Pattern OWN_ASSUMPTION = Pattern.compile("\\bi\\s+(?:assume|suppose|imagine)\\b");

    /** Whether this sentence takes the one before it back ("I live in Paris. Not.", "Just kidding, I'm unemployed"). */
    boolean takesBack() {
        return TAKES_BACK.matcher(folded).region(body, folded.length()).lookingAt()
                || body > 0 && TAKES_BACK.matcher(folded).lookingAt();
    }

    /**
     * Whether this sentence opens a game of make-believe ("Let's role-play: you're the innkeeper and I'm
     * Zorg", "Pretend you're my landlord", "Vamos fingir que…"): what the speaker says after it in the
     * turn is in character, not their life.
     */
    boolean opensFiction() {
        return FICTION.matcher(folded).find();
    }

    private static final Pattern FICTION = Pattern.compile(
            "\\b(?:let'?s|let\u2019s|lets|let\\s+us)\\s+(?:do\\s+(?:a|some)\\s+)?(?:role-?\\s?play|roleplay|rp|pretend|"
                    + "play\\s+(?:a\\s+)?(?:game|pretend|make-believe|make\\s+believe|roles?)|make\\s+believe)\\b"
                    + "|^\\s*[(\\[*]?\\s*(?:role-?\\s?play|roleplay|rp)\\b|\\bpretend\\s+(?:you(?:'re|\u2019re|\\s+are)|to\\s+be|we(?:'re|\\s+are))\\b"
                    + "|\\bstay\\s+in\\s+character\\b|\\bin\\s+character\\s+as\\b"
                    // "Let's do a murder mystery.", "Let's do a scene where I'm a pilot", "Murder mystery time!",
                    // "*in character*", "(in character)"
                    + "|\\b(?:let'?s|let\u2019s|lets|let\\s+us)\\s+(?:do|play|run|start|try|have|write|imagine|act\\s+out)\\s+(?:a|an|some|the|our)?\\s*"
                    + "(?:[\\w'-]+\\s+){0,3}?(?:role-?\\s?play|scene|skit|story|mystery|adventure|campaign|improv|scenario|simulation"
                    + "|quest|roleplay|larp|dnd|d&d)\\b(?!\\s+(?:about|of|from)\\s+(?:my|me|our|what\\s+i))"
                    + "|^\\s*(?:[\\w'-]+\\s+){0,2}(?:mystery|role-?\\s?play|story|improv|adventure)\\s+time\\b"
                    + "|^\\s*[*(\\[]\\s*in\\s+character\\s*[*)\\]]"
                    + "|\\b(?:vamos|bora)\\s+(?:fingir|brincar\\s+de|fazer\\s+(?:um\\s+)?(?:roleplay|rpg)|jogar\\s+um\\s+jogo)\\b"
                    + "|\\bfaz\\s+de\\s+conta\\b|\\bfinge\\s+que\\s+(?:voce|tu)\\b"
                    // a character's sheet, the speaker's own story or poem: "Character bio (first person) — I'm Kael",
                    // "Help me continue my story. Chapter 1: I was born in Faro."
                    + "|\\bcharacter\\s+(?:bio|sheet|description|backstory|intro)\\b|\\bbackstory\\b"
                    + "|\\b(?:continue|write|finish|start|edit)\\s+(?:my|the|a|this|our)\\s+(?:short\\s+)?(?:story|novel|poem|"
                    + "fanfic|fan\\s+fiction|screenplay|script|chapter)\\b|^\\s*chapter\\s+(?:\\d+|one|two|three|[ivx]+)\\b"
                    + "|\\b(?:continua|escreve|escreva|termina)\\s+(?:a\\s+)?(?:minha|a|esta)\\s+(?:historia|conto|poema)\\b");

    /** Openings that frame what follows as an example, a game or a dream, not as the speaker's life. */
    private static final Pattern NOT_REAL_START = Pattern.compile(
            "(?:translate|traduz|traduza|traduzir|rewrite|reescreva|paraphrase|how\\s+do\\s+(?:you|i)\\s+say"
                    + "|como\\s+(?:se\\s+)?(?:diz|digo|fala|falo)|write\\s+(?:me\\s+)?(?:a|an)\\s+\\w+"
                    + "|escreva\\s+(?:um|uma)\\s+\\w+|correct\\s+this|corrija|for\\s+example|for\\s+instance|e\\.g\\.|example|hypothetically|theoretically|in\\s+(?:my|a|the)\\s+(?:dream|dreams|game|story|novel)"
                    + "|por\\s+exemplo|hipoteticamente|(?:no|num)\\s+(?:meu\\s+)?(?:sonho|jogo)|na\\s+historia)\\b");
    private static final Pattern REPORTING = Pattern.compile(
            "\\b(?:said|says|told|tells|asked|asks|wrote|writes|mentioned|mentions|claimed|claims|replied|thinks"
                    + "|think|believe|assume|assumes|assumed|pensa|pensam|acham|dizem|acreditam"
                    + "|thought|believes|texted|disse|diz|falou|contou|perguntou|escreveu|mencionou|acha|achou"
                    + "|respondeu|comentou|according\\s+to|segundo\\s+(?:ele|ela)"
                    + "|say|saying|tell|telling|claim|claiming|insist|insists|insisted|insisting|swear|swears|swore"
                    + "|posted|posts|texts|texting|rumou?red|dizendo|falando|contando|insiste|insistem|jura|juram|jurou)\\b");
    private static final Set<String> REPORTING_WORDS = Lexicon.words("reporting-words");
    /** Verbs that open a statement whose "I" was dropped ("Went to the beach yesterday", "Gonna try yoga"). */
    private static final Set<String> ELIDED_FIRST_PERSON = Lexicon.words("elided-first-person");
    private static final Set<String> HEDGE_WORDS = Lexicon.words("hedge-words");
    private static final Pattern SINGLE_QUOTED = Pattern.compile("(?:^|[\\s:,])'(.{2,200}?)'(?=[\\s.,!?;]|$)");
    private static final Set<String> ABBREVIATIONS = Lexicon.words("abbreviations");

    private static final int EN_MARKER = 1;
    private static final int PT_MARKER = 1 << 1;
    private static final int PT_FIRST_PERSON_VERB = 1 << 2;
    private static final int FILLER = 1 << 3;
    private static final int STOP = 1 << 4;
    private static final int FIRST_PERSON = 1 << 5;
    private static final int REPORTING_WORD = 1 << 6;
    private static final int HEDGE_WORD = 1 << 7;
    private static final int ELIDED = 1 << 8;
    private static final int IRREALIS_WORD = 1 << 9;
    private static final int RETRACTION_WORD = 1 << 10;
    /** Words without which {@link #IRREALIS} cannot match (the regex runs only when one is there). */
    private static final Set<String> IRREALIS_WORDS = Set.of("if", "wish", "wished", "wishing", "pretend", "pretending",
            "suppose", "supposing", "assume", "assuming", "imagine", "imagining", "hypothetically", "se", "dera",
            "finge", "finja", "fingir", "imagina", "suponha", "supondo", "suponhamos");
    /** Words without which {@link #RETRACTION} cannot match. */
    private static final Set<String> RETRACTION_WORDS = Set.of("jk", "j", "kidding", "joking", "right", "que",
            "brincadeira", "zoeira", "zoando", "brincando");
    /**
     * Which of the word lists above each listed word is in: the constructor looks a token up once
     * instead of once per list.
     */
    private static final Map<String, Integer> WORD_LISTS = wordLists(Map.ofEntries(
            Map.entry(EN_MARKER, Lexicon.EN_MARKERS),
            Map.entry(PT_MARKER, Lexicon.PT_MARKERS),
            Map.entry(PT_FIRST_PERSON_VERB, Lexicon.PT_FIRST_PERSON_VERBS),
            Map.entry(FILLER, Lexicon.FILLER),
            Map.entry(STOP, Lexicon.STOP),
            Map.entry(FIRST_PERSON, Lexicon.FIRST_PERSON),
            Map.entry(REPORTING_WORD, REPORTING_WORDS),
            Map.entry(HEDGE_WORD, HEDGE_WORDS),
            Map.entry(ELIDED, ELIDED_FIRST_PERSON),
            Map.entry(IRREALIS_WORD, IRREALIS_WORDS),
            Map.entry(RETRACTION_WORD, RETRACTION_WORDS)));

    final String text;
    final String folded;
    final int body;
    final List<String> tokens;
    final boolean question;
    final boolean filler;
    final boolean reported;
    /** Whether reported speech or a quote makes the sentence someone else's words (one reason for {@link #reported}). */
    final boolean speech;
    /** The folded colon label that names someone else as the one speaking ("my sister", "rita"), or null. */
    final String label;
    final boolean correction;
    final boolean hedged;
    final boolean conditional;
    final boolean firstPerson;
    /**
     * Whether a word of the first person is written out ("I", "my", "we", "eu"; a Portuguese verb's own
     * "I" counts): unlike {@link #firstPerson}, not the dropped "I" of "Moved to Lyon last month".
     */
    final boolean writtenFirstPerson;
    /**
     * Whether the sentence opens on somebody else as its subject and has no "I" or "we" of its own ("Oh
     * she's great.", "My brother is fine.", "Mom's doing better.", "Carol?", "Carol says hi."): a sentence
     * after it with no word of the first person ("Moved to Lyon last month.") goes on about them.
     */
    final boolean aboutSomeoneElse;
    /**
     * Whether the sentence has no subject of its own: no written first person, and it opens on a verb
     * whose "I" was dropped ("Moved to Lyon", "Got a job at Google") or on a predicate ("Allergic to
     * shellfish now", "Pregnant again"); and it asks nothing of the listener ("…, so please skip the
     * satay" is the speaker's own concern) and does not turn back to the speaker ("Anyway, …", "Btw, …").
     */
    final boolean subjectless;
    /**
     * Whether a sentence {@link #subjectless without a subject} says it is hearsay ("Moved to Lyon last
     * month, apparently."): nobody says that of their own move.
     */
    final boolean hearsay;
    /** Whether the sentence is only a short answer of how somebody is ("Good!", "Better.", "Bem!"). */
    final boolean answerOnly;
    final int contentWords;
    final int enScore;
    final int ptScore;
    Lang lang = Lang.EN;
    private final java.time.LocalDate today;
    private boolean dateDone;
    private Dates.Found date;
    private Boolean future;

    private Sentence(String text, java.time.LocalDate today) {
        this.text = text;
        this.today = today;
        this.folded = asTheSpeaker(presentForPerfect(Terms.foldKeepingLength(text)));
        Matcher d = DISCOURSE.matcher(folded);
        int b = d.lookingAt() ? d.end() : 0;
        this.correction = b > 0 && CORRECTION_MARK.matcher(folded).region(0, b).find();
        Matcher own = OWN_LABEL_OPENING.matcher(folded).region(b, folded.length());
        if (own.lookingAt() && (ANNOUNCEMENTS.contains(own.group(1).strip().replaceAll("\\s+", " "))
                || ANNOUNCEMENTS.contains(own.group(2)) && LABEL_QUALIFIERS.containsAll(
                        List.of(own.group(1).strip().split("\\s+")).subList(0, own.group(1).strip().split("\\s+").length - 1)))) {
            b = own.end(); // "Update: moved to Denver!", "Big news: got a job at Google": the speaker's own label
        }
        this.body = b;
        List<int[]> spans = Terms.wordSpans(folded);
        List<String> all = new ArrayList<>(spans.size());
        int[] lists = new int[spans.size()];
        int firstBodyToken = spans.size();
        int en = 0;
        int pt = 0;
        int content = 0;
        int any = 0;
        boolean allFiller = true;
        for (int k = 0; k < spans.size(); k++) {
            int[] span = spans.get(k);
            String t = folded.substring(span[0], span[1]);
            all.add(t);
            if (span[0] >= b && firstBodyToken == spans.size()) {
                firstBodyToken = k;
            }
            Integer listed = WORD_LISTS.get(t);
            int in = listed == null ? 0 : listed;
            lists[k] = in;
            any |= in;
            if ((in & EN_MARKER) != 0) {
                en++;
            }
            if ((in & PT_MARKER) != 0 || (in & PT_FIRST_PERSON_VERB) != 0 && !t.equals("to")) {
                pt++;
            }
            if ((in & FILLER) == 0) {
                allFiller = false;
            }
            if ((in & STOP) == 0 && (t.length() > 1 || Character.isDigit(t.charAt(0)))) {
                content++;
            }
        }
        this.tokens = all;
        boolean first = (any & FIRST_PERSON) != 0;
        this.enScore = en;
        this.ptScore = pt;
        this.contentWords = content;
        this.filler = allFiller;
        boolean written = first;
        boolean subject = false;
        for (int k = firstBodyToken; k < all.size() && !subject; k++) {
            // "He's fine I guess", "…, from what I hear": a hedge's "I" is no subject of the sentence
            subject = SUBJECT_FIRST_PERSON.contains(all.get(k))
                    && !(k + 1 < all.size() && HEDGING_VERBS.contains(all.get(k + 1)));
        }
        // a word of the first person in the opening clause only ("Allergic to cats now, which is a problem
        // since we have two" opens without one)
        int clauseEnd = firstClauseEnd(folded, b);
        boolean writtenInFirstClause = false;
        for (int k = firstBodyToken; k < all.size() && spans.get(k)[0] < clauseEnd; k++) {
            writtenInFirstClause |= (lists[k] & FIRST_PERSON) != 0 && !(k + 1 < all.size()
                    && HEDGING_VERBS.contains(all.get(k + 1)));
        }
        if (!first && firstBodyToken < lists.length && (lists[firstBodyToken] & ELIDED) != 0) {
            first = true; // "Just got back from a road trip yesterday": the casual dropped "I"
        }
        if (!first && pt > en) {
            for (int k = firstBodyToken; k < lists.length; k++) {
                String t = all.get(k);
                if ((lists[k] & PT_FIRST_PERSON_VERB) != 0 || (t.length() >= 5 && t.endsWith("ei"))) {
                    first = true;
                    break;
                }
            }
        }
        if (!written && pt > en && first) {
            written = true; // "moro em Lyon": the verb says "I"
            subject = true;
        }
        this.firstPerson = first;
        this.writtenFirstPerson = written;
        this.aboutSomeoneElse = !subject && opensOnSomeoneElse(text, all, spans, firstBodyToken)
                && !THANKS.matcher(folded).find();
        boolean answer = (all.size() - firstBodyToken <= 3 && all.size() > firstBodyToken || b > 0 && firstBodyToken == all.size())
                && !TURNS_BACK.matcher(folded).find(); // "Anyway!!" turns back to the speaker
        for (int k = firstBodyToken; k < all.size() && answer; k++) {
            answer = WELLBEING.contains(all.get(k)) || SHORT_ANSWER_WORDS.contains(all.get(k));
        }
        this.answerOnly = answer;
        int opener = firstBodyToken;
        while (opener < all.size() && DEGREE_WORDS.contains(all.get(opener))) {
            opener++; // "Severely allergic to milk", "Now pregnant"
        }
        boolean ownVerb = pt > en && PT_FIRST_PERSON_OPENER.matcher(folded).region(b, folded.length()).lookingAt();
        this.subjectless = !writtenInFirstClause && !ownVerb && opener < all.size()
                && ((lists[opener] & ELIDED) != 0 || PREDICATE_OPENERS.contains(all.get(opener)))
                && !TURNS_BACK.matcher(folded).region(0, clauseEnd).find()
                && !ASKS_LISTENER.matcher(folded).find();
        this.hearsay = subjectless && HEARSAY.matcher(folded).find(); // read only where it can matter
        this.question = isQuestion(text, folded, b);
        this.speech = isReported(folded, b, (any & REPORTING_WORD) != 0);
        this.label = text.indexOf(':') >= 0 ? quotedLabel(text, folded, b) : null;
        this.reported = speech || label != null;
        this.hedged = (any & HEDGE_WORD) != 0 && HEDGE.matcher(folded).find();
        this.conditional = CONDITIONAL.matcher(folded).region(b, folded.length()).lookingAt()
                || NOT_REAL_START.matcher(folded).region(b, folded.length()).lookingAt()
                // "I don't know if I'm ...": a hedge, not a condition
                || !hedged && (any & IRREALIS_WORD) != 0 && irrealis(folded, b)
                || pt > en && trailingNegation()
                || (any & RETRACTION_WORD) != 0 && retracted(text, folded, takenBackUntil(folded, b));
    }

    /** The day the sentence was said on (relative dates resolve against it). */
    java.time.LocalDate today() {
        return today;
    }

    /** A matcher of {@code p} over the folded body. */
    Matcher match(Pattern p) {
        return p.matcher(folded).region(body, folded.length());
    }

    /** Whether the folded body contains {@code needle}. */
    boolean has(String needle) {
        return folded.indexOf(needle, body) >= 0;
    }

    /** Whether the folded body contains any of {@code needles}. */
    boolean hasAny(String... needles) {
        for (String n : needles) {
            if (folded.indexOf(n, body) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** Whether the sentence speaks about the future (computed once). */
    boolean future() {
        if (future == null) {
            future = Dates.future(this);
        }
        return future;
    }

    /** The first date expression of the body resolved against the turn's day, or null (computed once). */
    Dates.Found date() {
        if (!dateDone) {
            date = Dates.find(this, today, future());
            dateDone = true;
        }
        return date;
    }

    /** Where the first date expression of the body starts, or -1 (values are cut there: "Porto ano passado"). */
    int dateStart() {
        Dates.Found f = date();
        return f == null ? -1 : f.start();
    }

    boolean hasDigit() {
        for (String t : tokens) {
            if (Character.isDigit(t.charAt(0)) || Character.isDigit(t.charAt(t.length() - 1))) {
                return true;
            }
        }
        return false;
    }

    boolean pt() {
        return lang == Lang.PT;
    }

    /** The statement without leading discourse markers and trailing punctuation, original case. */
    String bodyText() {
        int end = text.length();
        while (end > body && !Character.isLetterOrDigit(text.charAt(end - 1))) {
            end--;
        }
        return end > body ? text.substring(body, end) : "";
    }

    /** The sentence as said, trimmed. */
    String whole() {
        return text.strip();
    }

    /**
     * Where what the sentence says ends: before a tag that asks the listener to keep it ("I'm vegan,
     * remember?" says "I'm vegan"), else its end.
     */
    int statementEnd() {
        Matcher m = KEEP_TAG.matcher(folded).region(body, folded.length());
        return m.find() ? m.start() : folded.length();
    }

    /**
     * A question whose first clause states something ("I'm vegan, what should I cook tonight?", "I live in
     * Denver - any good gyms?", "Sou alérgica a amendoim, o que posso comer?"): where the statement ends, a
     * comma, semicolon or spaced dash right before a question word.
     */
    private static final Pattern QUESTION_AFTER_STATEMENT = Pattern.compile(
            // an emoji ends a statement as a full stop would: "gone vegan since january 🌱 any protein ideas?"
            "(?:,|;|\\s[-\u2013\u2014]|\\s?[\\x{1F300}-\\x{1FAFF}\\x{2600}-\\x{27BF}][\\x{1F300}-\\x{1FAFF}\\x{2600}-\\x{27BF}"
                    + "\\x{FE0F}\\x{200D}\\x{1F3FB}-\\x{1F3FF}]{0,8})\\s{1,3}(?=(?:what|where|when|which|who|why|how|can|could|would|will"
                    + "|should|shall|do|does|did|is|are|was|were|any|anything|anyone|some|got|o\\s+que|qual|quais|onde|como"
                    + "|quando|quem|pode|poderia|posso|devo|tem|alguma|algum|algo|vale|vc|voce|alguem)\\b)");

    /**
     * The statement that opens this question, as a sentence of its own ("I'm vegan" of "I'm vegan, what
     * should I cook tonight?"), or null: the question holds none, or its first part is a question, a
     * condition ("If I move to Berlin, will I need a visa?") or shorter than two words.
     */
    Sentence leadingStatement() {
        if (!question) {
            return null;
        }
        Matcher m = QUESTION_AFTER_STATEMENT.matcher(folded);
        if (!m.find(body) || m.start() <= body) {
            return null;
        }
        String lead = text.substring(0, m.start()).strip();
        if (Terms.wordSpans(Terms.foldKeepingLength(lead)).size() < 2) {
            return null;
        }
        Sentence s = new Sentence(lead, today);
        s.lang = lang; // the question's language, as the turn set it ("Usuário", not "User", and its templates)
        return s.question || s.conditional || s.filler ? null : s;
    }

    /**
     * A tag that asks the listener to keep a statement, not a question about it: "I'm vegan, remember?",
     * "I'm gluten-free, you remember that, right?", "…, ok?", "…, you know?".
     */
    private static final Pattern KEEP_TAG = Pattern.compile(
            ",\\s*(?:(?:you\\s+)?remember(?:\\s+that)?|you\\s+know|ok|okay|got\\s+it|lembra|ta\\s+bom|ok\\s+so)"
                    + "(?:\\s*,\\s*right)?\\s*\\?+\\s*$");

    private static boolean isQuestion(String text, String folded, int body) {
        for (int i = text.length() - 1; i >= 0; i--) {
            char c = text.charAt(i);
            if (c == '?') {
                return !(KEEP_TAG.matcher(folded).region(body, folded.length()).find()
                        && !QUESTION_START.matcher(folded).region(body, folded.length()).lookingAt());
            }
            if (c == '.' || c == '!' || Character.isLetterOrDigit(c)) {
                if (Character.isLetterOrDigit(c)) {
                    break;
                }
                return false;
            }
        }
        // casual questions without a question mark: "do you like jazz"
        return QUESTION_START.matcher(folded).region(body, folded.length()).lookingAt();
    }

    private static Map<String, Integer> wordLists(Map<Integer, Set<String>> lists) {
        Map<String, Integer> out = new HashMap<>();
        lists.forEach((bit, words) -> words.forEach(w -> out.merge(w, bit, (x, y) -> x | y)));
        return java.util.Collections.unmodifiableMap(out);
    }

    /** What a "say" or "tell" said to the listener follows: a clause's start ("…, tell the dentist", "…; please say hi"). */
    private static final Pattern IMPERATIVE_BEFORE = Pattern.compile(
            "[,;:\\-–—]\\s*(?:(?:please|pls|and|so|just|also|e|por\\s+favor)\\s+){0,2}$");

    /** {@code reportingWord}: whether a token is one of the reporting words. */
    private static boolean isReported(String folded, int body, boolean reportingWord) {
        boolean openingQuote = false;
        for (int i = body; i < folded.length() && !openingQuote; i++) {
            // a quote that opens a span, not the apostrophe of "I'm"
            openingQuote = folded.charAt(i) == '"' || folded.charAt(i) == '\'' && (i == 0 || " :,(".indexOf(folded.charAt(i - 1)) >= 0);
        }
        if (!openingQuote && !reportingWord) {
            return false;
        }
        Matcher m = REPORTING.matcher(folded).region(body, folded.length());
        while (m.find()) {
            List<String> before = Terms.wordTokens(folded.substring(Math.max(body, m.start() - 24), m.start()));
            if ((m.group().equals("say") || m.group().equals("tell"))
                    && (before.isEmpty() || IMPERATIVE_BEFORE.matcher(folded).region(body, m.start()).find())) {
                continue; // "Tell me about Rome, I live in Porto", "I'm allergic to latex, tell the dentist": a request
            }
            int from = Math.max(0, before.size() - 3);
            boolean self = false;
            boolean denied = false;
            for (int i = from; i < before.size(); i++) {
                String t = before.get(i);
                if (t.equals("i") || t.equals("eu") || t.equals("we")) {
                    self = true;
                }
                denied |= DENIALS.contains(t);
            }
            if (!self || denied) {
                return true; // someone else's words, or the speaker's own denied or false ones ("I never said", "I lied and said")
            }
        }
        int q = folded.indexOf('"', body);
        if (q >= 0) {
            int close = folded.indexOf('"', q + 1);
            String inside = folded.substring(q + 1, close > q ? close : folded.length());
            if (mentionsFirstPerson(inside)) {
                return true;
            }
        }
        if (folded.indexOf('\'', body) >= 0) {
            Matcher s = SINGLE_QUOTED.matcher(folded).region(body, folded.length());
            while (s.find()) {
                if (mentionsFirstPerson(s.group(1))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean mentionsFirstPerson(String folded) {
        for (String t : Terms.wordTokens(folded)) {
            if (Lexicon.FIRST_PERSON.contains(t) || Lexicon.PT_FIRST_PERSON_VERBS.contains(t) && !t.equals("to")) {
                return true; // "sou alérgica a gato", "moro em Paris": Portuguese says "I" in the verb
            }
        }
        return false;
    }

    /** Words of the first person that are a subject: "I", "we" and their contractions, "eu", "nós". */
    private static final Set<String> SUBJECT_FIRST_PERSON = Set.of("i", "i'm", "im", "i've", "ive", "i'd", "i'll",
            "we", "we're", "we've", "we'll", "we'd", "eu", "nos");
    /**
     * Pronouns of one other person as a subject, and their contractions ("they" is often nobody in
     * particular: "They're closed on Mondays").
     */
    private static final Set<String> THIRD_PERSON_SUBJECTS = Set.of("he", "she", "he's", "she's", "hes", "shes",
            "he'd", "she'd", "he'll", "she'll", "ele", "ela");
    /** Predicates a sentence without a subject may open on ("Allergic to shellfish now", "Pregnant again!"). */
    /** Words after a present perfect that say the state was had and ended: "twice", "before", "three times". */
    private static final Pattern ENDED = Pattern.compile(
            "\\b(?:once|twice|before|previously|times|in\\s+the\\s+past|back\\s+then|at\\s+one\\s+point)\\b");

    /** "I've been", "I have been", "we've been", "I've got": a present perfect that says what still holds. */
    private static final Pattern PERFECT = Pattern.compile("\\b(?:(i've|ive|i\\s+have)|(we've|we\\s+have))\\s+(been|got)\\b");

    /**
     * An opening that says what the speaker is by the way they ask or tell: "As someone who's allergic
     * to cats, …", "As someone with asthma, …", "As a vegetarian, what can I eat?".
     * The opening is read as "I'm" / "I have" (padded to its length, as {@link #presentForPerfect});
     * "As a doctor, what would you recommend?" is left alone (the listener's role: "as a …" is the
     * speaker's only before a diet or a condition, or when "I" follows the comma in the same sentence).
     */
    private static final Pattern AS_SOMEONE = Pattern.compile(
            "^(?:(as\\s+someone\\s+who(?:'s|\\s+is)|as\\s+a\\s+person\\s+who(?:'s|\\s+is))"
                    + "|(as\\s+someone\\s+(?:who\\s+has|with)|as\\s+a\\s+person\\s+with)"
                    + "|(as\\s+an?)(?=\\s(?:vegetarian|vegan|pescatarian|diabetic|type\\s+[12]\\s+diabetic|celiac|coeliac|"
                    + "asthmatic|epileptic|pregnant\\s+woman)(?:\\s*[,.;!?]|\\s*$)"
                    + "|\\s[a-z][a-z\\-]{2,30}(?:\\s[a-z][a-z\\-]{2,30})?,\\s*(?:i\\s|i'm\\s|im\\s)"
                    // "as a high school chem teacher i can confirm …": up to four words and "I", the comma left out
                    + "|\\s[a-z][a-z\\-]{1,30}(?:\\s[a-z][a-z\\-]{1,30}){0,3}\\s(?:i\\s|i'm\\s|im\\s)))\\s");

    static String asTheSpeaker(String folded) {
        if (!folded.startsWith("as ")) {
            return folded;
        }
        Matcher m = AS_SOMEONE.matcher(folded);
        if (!m.lookingAt()) {
            return folded;
        }
        int g = m.group(1) != null ? 1 : m.group(2) != null ? 2 : 3;
        // "as a" becomes "im a" (the same length: "im" is read as "I'm" by every rule)
        String present = g == 1 ? "i'm" : g == 2 ? "i have" : "im" + m.group(3).substring(2);
        return padded(new StringBuilder(folded.length()), present, m.end(g)).append(folded, m.end(g), folded.length())
                .toString();
    }

    /** Appends {@code words} and spaces up to {@code length}: a rewriting that keeps every offset of the text. */
    private static StringBuilder padded(StringBuilder out, String words, int length) {
        out.append(words);
        for (int i = words.length(); i < length; i++) {
            out.append(' ');
        }
        return out;
    }

    /**
     * The folded text with a present perfect of being or having read as the present, padded with spaces
     * to its length so every offset still points into the original text: "I've been vegan since 2015"
     * is read as "I'm vegan …", "I've been a nurse for ten years" as "I'm a nurse …", "I've got a
     * beagle" as "I have a beagle". The rules then read what they read in the present ("I've been to
     * Lisbon" is no more a fact than "I'm to Lisbon"); a state said to have ended ("I've been married
     * twice", "… three times", "… before") is left as it was said.
     */
    static String presentForPerfect(String folded) {
        if (folded.indexOf(" been") < 0 && folded.indexOf(" got") < 0) {
            return folded;
        }
        Matcher m = PERFECT.matcher(folded);
        if (!m.find()) {
            return folded;
        }
        StringBuilder out = new StringBuilder(folded.length());
        int last = 0;
        do {
            int reach = Math.min(folded.length(), m.end() + 60);
            if (ENDED.matcher(folded).region(m.end(), reach).find()) {
                continue; // "I've been married twice", "I've been pregnant three times": it ended
            }
            String present = m.group(3).equals("been") ? (m.group(1) != null ? "i'm" : "we're")
                    : (m.group(1) != null ? "i have" : "we have");
            padded(out.append(folded, last, m.start()), present, m.end() - m.start());
            last = m.end();
        } while (m.find());
        return out.append(folded, last, folded.length()).toString();
    }

    private static final Set<String> PREDICATE_OPENERS = Set.of("allergic", "intolerant", "pregnant", "engaged",
            "married", "divorced", "single", "vegan", "vegetarian", "diabetic", "retired", "unemployed", "alergica",
            "alergico", "gravida", "noiva", "noivo", "casada", "casado", "aposentada", "aposentado", "relocated",
            "relocating", "moved", "moving", "mudou", "mudaram", "alergicos", "originally", "born", "raised", "based",
            "living", "been");
    /** Words that mark what is said as heard from others. */
    private static final Pattern HEARSAY = Pattern.compile(
            "\\b(?:apparently|reportedly|supposedly|allegedly|rumou?r\\s+has\\s+it|from\\s+what\\s+i\\s+(?:hear|heard|gather)"
                    + "|or\\s+so\\s+i(?:'m|\\s+am|\\s+was|\\s+was\\s+)\\s*told|i\\s+(?:hear|heard)|word\\s+is|aparentemente"
                    + "|pelos?\\s+vistos?|pelo\\s+que\\s+(?:sei|ouvi|soube)|dizem\\s+que|ouvi\\s+dizer)\\b");
    /** Words of a short answer about how somebody is, besides {@link #WELLBEING}: "Not bad!", "Great, thanks." */
    private static final Set<String> SHORT_ANSWER_WORDS = Set.of("great", "not", "bad", "so", "so-so", "pretty",
            "really", "very", "thanks", "thank", "you", "yes", "yeah", "yep", "oh", "ah", "otima", "otimo", "tudo",
            "obrigado", "obrigada", "sim", "ta", "esta");
    /** Verbs after "I" that hedge what the sentence says rather than make the speaker its subject. */
    private static final Set<String> HEDGING_VERBS = Set.of("guess", "think", "suppose", "hope", "believe", "mean",
            "hear", "heard", "gather", "reckon", "acho", "creio");
    /** Words of degree or time that may come before a sentence's predicate: "Severely allergic", "Now pregnant". */
    private static final Set<String> DEGREE_WORDS = Set.of("severely", "mildly", "very", "really", "super", "so",
            "also", "now", "still", "apparently", "officially", "finally", "recently", "newly", "muito", "agora",
            "tambem", "ainda");
    /** A Portuguese opening whose verb says "I" ("Mudei pra Coimbra", "Sou alérgica a …"): not without a subject. */
    private static final Pattern PT_FIRST_PERSON_OPENER = Pattern.compile("(?:mudei|moro|sou|estou|tenho|trabalho|comecei|"
            + "fui|fiz|vou|entrei|sai|saí)\\b");
    /** Discourse words that turn back to the speaker: "Anyway, …", "Btw, …", "As for me, …". */
    private static final Pattern TURNS_BACK = Pattern.compile(
            "\\b(?:anyway|anyways|anyhow|btw|by\\s+the\\s+way|as\\s+for\\s+me|about\\s+me|back\\s+to\\s+me|meanwhile|also"
                    + "|enfim|alias|por\\s+sinal|quanto\\s+a\\s+mim)\\b");
    /**
     * Words that make a sentence without a subject the speaker's after all: it asks something of the
     * listener ("…, so please skip it") or names the other person as an object ("Going to pick him up
     * later", "Allergic to her cat"). ("Mom's fine. Allergic to shellfish now though." stays hers: a
     * contrast says nothing of whose allergy it is, and a wrong first-party allergy is the worse error.)
     */
    private static final Pattern ASKS_LISTENER = Pattern.compile(
            "\\b(?:please|pls|plz|por\\s+favor|can\\s+you|could\\s+you|would\\s+you|pode|poderia|"
                    + "him|her|them|his|hers|their|dele|dela|eles|elas)\\b");
    /**
     * What only a person is said to be when asked about ("Carol's doing well", "Mom is fine", "Dad's sick"):
     * not "great" or "amazing", which a place or a day is too ("Lisbon is great", "Christmas was lovely").
     */
    private static final Set<String> WELLBEING = Set.of("fine", "ok", "okay", "good", "well", "better", "worse", "doing",
            "thriving", "hanging", "struggling", "adorable", "cute",
            "alright", "sick", "ill", "busy", "happy", "sad", "tired", "stressed", "pregnant", "recovering", "bem",
            "mal", "melhor", "pior", "doente", "cansada", "cansado", "gravida");
    /** Possessives before a person: "my sister", "her husband", "a minha mãe". */
    private static final Set<String> PERSON_POSSESSIVES = Set.of("my", "his", "her", "their", "our", "your", "minha",
            "meu", "sua", "seu", "nossa", "nosso", "teu", "tua", "a", "o");
    /** Thanks close an answer about somebody else: "He's doing well, thanks! Starting at Meta on Monday." */
    private static final Pattern THANKS = Pattern.compile("\\b(?:thanks|thank\\s+you|thx|obrigad[oa]|valeu)\\b");

    /**
     * Whether the body opens on somebody else as its subject: a third-person pronoun, a relative or a
     * person after a possessive ("my brother", "minha mãe"), or a relative or name asked about ("Dad?",
     * "Carol?") or said to be well or not ("Mom's fine", "Carol is doing well", {@link #WELLBEING}).
     * A name or relative followed by a comma or "!" is spoken to, not spoken of ("Mom, guess what!").
     */
    private static boolean opensOnSomeoneElse(String text, List<String> tokens, List<int[]> spans, int at) {
        if (at >= tokens.size()) {
            return false;
        }
        String t = tokens.get(at);
        if (THIRD_PERSON_SUBJECTS.contains(t)) {
            return true;
        }
        if ((t.equals("her") || t.equals("him") || t.equals("ela") || t.equals("ele")) && at + 1 == tokens.size()
                && text.strip().endsWith("?")) {
            return true; // "Her? Moved to Chicago."
        }
        if (PERSON_POSSESSIVES.contains(t) || t.equals("the")) {
            for (int k = at + 1; k <= at + 2 && k < tokens.size(); k++) {
                if (person(stripPossessive(tokens.get(k)))) {
                    return true;
                }
            }
            return false;
        }
        int end = spans.get(at)[1];
        char next = ' ';
        for (int i = end; i < text.length(); i++) {
            if (!Character.isWhitespace(text.charAt(i))) {
                next = text.charAt(i);
                break;
            }
        }
        if (next == ',' || next == '!') {
            return false; // spoken to
        }
        String bare = stripPossessive(t);
        boolean possessive = !bare.equals(t);
        if (!relativeOrName(text, spans, at, bare)) {
            return false;
        }
        // a relative or a name asked about ("Carol?") or said to be well or not ("Carol's doing well", "Mom
        // is fine", "Dad's sick"); a place, a brand or a day is said to be other things ("Chicago is
        // freezing", "Zoom is lagging", "Tuesday was rough")
        if (next == '?' && at + 1 == tokens.size()) {
            return true;
        }
        int k = at + 1;
        if (possessive && k < tokens.size() && person(stripPossessive(tokens.get(k)))) {
            return true; // "Tom's kid is adorable."
        }
        if (!possessive && k < tokens.size() && (tokens.get(k).equals("is") || tokens.get(k).equals("was")
                || tokens.get(k).equals("esta") || tokens.get(k).equals("ta"))) {
            k++;
        } else if (!possessive) {
            return false;
        }
        while (k < tokens.size() && (tokens.get(k).equals("so") || tokens.get(k).equals("really")
                || tokens.get(k).equals("very") || tokens.get(k).equals("just") || tokens.get(k).equals("muito"))) {
            k++;
        }
        return k < tokens.size() && WELLBEING.contains(tokens.get(k));
    }

    /** Words before a name that ask about its person: "How's Carol?", "Where is Carol these days?". */
    private static final Set<String> ASKING_ABOUT = Set.of("how's", "hows", "how", "where's", "wheres", "where",
            "about", "and", "see", "from", "is", "was", "como", "cade");

    /**
     * Whether {@code before} (the turn before, somebody else's) ends on a question about another person: a question that names a relative or a person after a possessive ("How is your sister
     * doing?", "And your husband?"), "he" or "she" ("Is she still in Paris?"), or a name right after a word
     * that asks about them ("Where's Carol these days?", "Did you see Carol?", "What about Priya?"). A reply
     * without a subject then goes on about them ("Allergic to shellfish now, poor thing.").
     */
    static boolean asksAboutSomeoneElse(String before) {
        if (before == null) {
            return false;
        }
        // only a turn that ends on a question mark asks; its last sentence alone is read (the turn was
        // read whole when it was recorded)
        String asked = before.strip();
        int end = asked.length() - 1;
        if (end < 1 || asked.charAt(end) != '?') {
            return false;
        }
        int from = 0;
        for (int i = end - 1; i >= 0; i--) {
            char c = asked.charAt(i);
            if (c == '.' || c == '!' || c == '?' || c == '\n') {
                from = i + 1;
                break;
            }
        }
        if (end - from > 400) {
            return false;
        }
        List<Sentence> sentences = split(asked.substring(from), 4, java.time.LocalDate.of(2000, 1, 1));
        if (sentences.isEmpty()) {
            return false;
        }
        Sentence last = sentences.get(sentences.size() - 1);
        if (!last.question) {
            return false;
        }
        List<int[]> spans = Terms.wordSpans(last.folded);
        List<String> tokens = last.tokens;
        for (int k = 0; k < tokens.size(); k++) {
            String t = tokens.get(k);
            if (THIRD_PERSON_SUBJECTS.contains(t) || t.equals("him")) {
                return true;
            }
            if (PERSON_POSSESSIVES.contains(t) && !t.equals("a") && !t.equals("o") || t.equals("the")) {
                for (int j = k + 1; j <= k + 2 && j < tokens.size(); j++) {
                    if (person(stripPossessive(tokens.get(j)))) {
                        return true;
                    }
                }
            }
            if (k > 0 && ASKING_ABOUT.contains(tokens.get(k - 1)) && k < spans.size()
                    && relativeOrName(last.text, spans, k, stripPossessive(t))) {
                return true;
            }
        }
        return false;
    }

    /** Where the opening clause of the body ends: its first comma, semicolon, colon or dash, else the end. */
    private static int firstClauseEnd(String folded, int body) {
        for (int i = body; i < folded.length(); i++) {
            char c = folded.charAt(i);
            if (c == ',' || c == ';' || c == ':' || c == '\u2014' || c == '\u2013'
                    || c == '-' && i > body && folded.charAt(i - 1) == ' ') {
                return i;
            }
        }
        return folded.length();
    }

    private static boolean person(String word) {
        return Lexicon.RELATIONS.containsKey(word) || PERSON_NOUNS.contains(word);
    }

    private static String stripPossessive(String token) {
        return token.endsWith("'s") && token.length() > 2 ? token.substring(0, token.length() - 2) : token;
    }

    /** Words that make the speaker's own report a denial or a lie. */
    private static final Set<String> DENIALS = Set.of("never", "didn't", "didnt", "not", "lied", "nunca", "nao", "menti");

    /**
     * A label before a colon that names who said what follows, someone other than the speaker
     * ("My sister: I live in Berlin now", "Quoting my wife: …", "Rita: I live in Lisbon", "Minha
     * irmã mandou: …"), in the original text (a name is capitalised).
     */
    private static final Pattern QUOTED_LABEL = Pattern.compile(
            "(?:(?i:quoting|citando)\\s[^:\\n]{1,40}|(?i:my|minha|meu|his|her|their|our|nossa|nosso|a|o)\\s+\\p{L}{2,20}"
                    + "(?:\\s+\\p{L}{2,20})?|\\p{Lu}\\p{L}{1,20}(?:\\s+\\p{Lu}\\p{L}{1,20})?|\\p{Ll}\\p{L}{1,19}"
                    + "|\\p{L}{2,20}\\s+(?i:said|says|wrote|texted|disse|falou|escreveu|mandou|respondeu))\\s*:\\s");
    /**
     * The speaker's own labels that announce a statement ("Update:", "Big news:", "Health note:"): after
     * them the body starts. Not the fields of a profile ("Allergies: peanuts, shellfish" reads the label).
     */
    private static final Set<String> ANNOUNCEMENTS = Set.of("update", "news", "note", "edit", "ps", "fyi", "btw",
            "psa", "reminder", "confession", "status", "tldr", "tl dr", "heads up", "plot twist", "novidade",
            "novidades", "atualizacao", "nota", "aviso");
    /** Words that may come before the speaker's own label word: "Big news:", "Health note:", "My update:" (not "Her update:"). */
    private static final Set<String> LABEL_QUALIFIERS = Set.of("my", "big", "good", "bad", "great", "quick", "small",
            "little", "health", "life", "work", "career", "personal", "fun", "random", "exciting", "sad", "happy",
            "important", "major", "minor", "latest", "new", "short", "medical", "boa", "grande", "minha",
            "meu", "pequena", "rapida", "ultima", "nova");
    /** A short label and its colon opening the body; group 2 is its last word ("big news" → "news"). */
    private static final Pattern OWN_LABEL_OPENING = Pattern.compile("((?:[\\p{L}]{1,12}\\s){0,2}([\\p{L}]{2,12}))\\s?:\\s+");

    /** Labels before a colon that are the speaker's own ("Update: I moved", "Me: …", "PS: …"). */
    private static final Set<String> OWN_LABELS = Set.of("me", "eu", "update", "edit", "note", "ps", "fyi", "btw",
            "context", "info", "obs", "nota", "summary", "resumo", "answer", "resposta", "reply", "fact", "fato",
            "reminder", "lembrete", "important", "importante", "correction", "correcao", "also", "tambem", "ok",
            "yes", "no", "sim", "nao", "background", "detail", "details", "detalhe", "detalhes", "atualizacao",
            "news", "novidade", "novidades", "fun fact", "about me", "sobre mim", "my answer", "my update",
            "minha resposta", "my reply", "my info", "my details", "my name", "my story", "my situation", "hi", "hello",
            "oi", "ola", "hey", "dear", "so", "well", "anyway", "but", "and", "honestly", "actually", "tldr", "tl dr",
            "tip", "bonus", "spoiler", "status", "today", "yesterday", "plot twist", "good news",
            "bad news", "question", "problem", "issue", "goal", "plan", "idea", "mood", "result", "conclusion",
            "dica", "aviso", "hoje", "ontem", "pergunta", "problema", "objetivo", "plano", "ideia", "resultado",
            "confession", "confissao", "truth", "verdade", "quick update", "small update", "heads up",
            "attention", "atencao", "urgent", "urgente", "medical", "psa", "alert", "alerta", "warning",
            "reminder to self", "note to self",
            // fields of a profile the speaker fills in about themselves ("Allergies: peanuts, shellfish")
            "allergies", "allergy", "name", "age", "job", "occupation", "location", "address", "diet", "notes",
            "profile", "bio", "hobbies", "likes", "dislikes", "languages", "skills", "goals", "work", "family",
            "pets", "health", "medications", "conditions", "alergias", "alergia", "nome", "idade", "profissao",
            "cidade", "endereco", "dieta", "gostos", "idiomas", "habilidades", "objetivos", "trabalho", "familia",
            "saude", "medicamentos", "condicoes");

    /** The colon label that opens the body and names someone else as the one speaking, or null. */
    private static String quotedLabel(String text, String folded, int body) {
        Matcher m = QUOTED_LABEL.matcher(text).region(body, text.length());
        if (!m.lookingAt()) {
            return describedLabel(text, folded, body);
        }
        String label = folded.substring(body, folded.indexOf(':', body)).strip().replaceAll("\\s+", " ");
        if (OWN_LABELS.contains(label)) {
            return null;
        }
        List<String> words = Terms.wordTokens(label);
        if (words.size() == 1 && Character.isLowerCase(text.codePointAt(body))) {
            // a lower-case writer's "jake: I moved to Lima" names Jake; "lunch: …", "lol: …" are the speaker's
            String w = words.get(0);
            return Lexicon.RELATIONS.containsKey(w) || PERSON_NOUNS.contains(w)
                    || !Terms.ordinaryWord(w) && !OWN_LABELS.contains(w) ? label : null;
        }
        if (words.size() >= 2 && POSSESSIVE_OR_ARTICLE.contains(words.get(0))) {
            // "My sister:", "Minha mãe mandou:" name a person; "O problema:", "My plan:" do not
            for (String w : words) {
                if (Lexicon.RELATIONS.containsKey(w) || PERSON_NOUNS.contains(w) || REPORTING_WORDS.contains(w)
                        || LABEL_VERBS.contains(w)) {
                    return label;
                }
            }
            return null;
        }
        return label;
    }

    private static final Set<String> LABEL_VERBS = Set.of("mandou", "texted", "respondeu", "wrote", "escreveu");

    /** Titles before a name ("Dr. Patel", "Dona Rita"). */
    private static final Set<String> LABEL_TITLES = Lexicon.words("titles");
    /** The longest label {@link #describedLabel} reads, in characters. */
    private static final int MAX_DESCRIBED_LABEL = 60;
    /** Words that open where, when or through what a person said it: "on the phone", "in the family chat". */
    private static final Set<String> LABEL_PREPOSITIONS = Set.of("on", "in", "via", "over", "through", "at", "from",
            "by", "after", "before", "during", "no", "na", "pelo", "pela", "por", "em", "do", "da", "de", "ao", "à");
    /** Words a label may hold around a person without naming the speaker's own words. */
    private static final Set<String> LABEL_WORDS = Set.of("just", "now", "earlier", "today", "yesterday", "tonight",
            "again", "also", "then", "this", "morning", "last", "night", "ago", "minutes", "hours", "and", "me", "us",
            "back", "finally", "emailed", "e-mailed", "messaged", "texted", "dmed", "dm'd", "called", "posted", "replied",
            "wrote", "said", "says", "tweeted", "commented", "whatsapped", "announced", "shared", "sent", "forwarded",
            "mailed", "asked", "answered", "told", "explained", "added", "typed", "voice", "noted", "agora", "hoje",
            "ontem", "mandou", "escreveu", "disse", "respondeu", "postou", "mim", "pra", "para");

    /**
     * A label that names somebody else with words about when or how they said it: "Mom on the phone just
     * now:", "My sister on WhatsApp:", "Sam (my coworker):", "Dad, in the family chat:", "My boss just
     * emailed:", "Dr. Patel:", "The family chat, from Dad:", "Saw this on reddit:". Its head is a person (a
     * relative or a person after a possessive, a relative alone, a title and a name, or a capitalised name
     * that is no common word); the rest only says when, through what (a preposition whose words name a
     * {@link #CHANNELS channel}), who they are (brackets naming a person or a channel) or by what verb of
     * sending, with no "I" or "we" of the speaker; a bare name needs the brackets or the verb ("Tokyo (day
     * 3):", "Stripe via LinkedIn:", "Mom in the hospital:" are headings of the speaker's own). A label that
     * only ends in "from" a person names them too. Else null.
     */
    private static String describedLabel(String text, String folded, int body) {
        int colon = text.indexOf(':', body);
        if (colon < 0 || colon - body > MAX_DESCRIBED_LABEL || colon + 1 < text.length()
                && !Character.isWhitespace(text.charAt(colon + 1))) {
            return null;
        }
        String raw = text.substring(body, colon);
        if (raw.indexOf('\n') >= 0 || raw.indexOf('"') >= 0 || raw.indexOf('?') >= 0 || raw.indexOf('!') >= 0) {
            return null;
        }
        // brackets that say who they are ("Sam (my coworker):") name a person; other brackets ("Tokyo (day
        // 3):", "Portugal (since 2019):") make the label a heading of the speaker's own
        Matcher brackets = BRACKETS.matcher(raw);
        boolean who = false;
        while (brackets.find()) {
            for (String w : Terms.wordTokens(Terms.fold(brackets.group(1)))) {
                who |= person(w) || CHANNELS.contains(w); // "Sam (my coworker):", "Mom (on the phone):"
            }
            if (!who) {
                return null;
            }
        }
        String outside = raw.replaceAll("\\([^()]{0,40}\\)", " ");
        if (outside.indexOf('(') >= 0 || outside.indexOf(')') >= 0) {
            return null;
        }
        List<int[]> spans = Terms.wordSpans(Terms.foldKeepingLength(outside));
        List<String> words = new ArrayList<>(spans.size());
        String foldedOutside = Terms.foldKeepingLength(outside);
        for (int[] span : spans) {
            words.add(foldedOutside.substring(span[0], span[1]));
        }
        if (words.isEmpty()) {
            return null;
        }
        String label = Terms.fold(raw).strip().replaceAll("\\s+", " ");
        if (FOUND_TEXT.matcher(label).lookingAt()) {
            return label; // "Saw this on reddit:", "This is from a forum:": a text found somewhere
        }
        for (String w : words) {
            if (SUBJECT_FIRST_PERSON.contains(w)) {
                return null; // "I on the phone:", "My sister and I:": the speaker speaks too
            }
        }
        int head = personHead(outside, words, spans);
        if (head < 0) {
            // "The family chat, from Dad:": a label that ends in "from" a person
            for (int k = words.size() - 2; k >= 0; k--) {
                if ((words.get(k).equals("from") || words.get(k).equals("de")) && k + 1 < words.size()) {
                    List<String> tail = words.subList(k + 1, words.size());
                    // a relative or a person, not a bare capitalised word ("Greetings from Lisbon:")
                    int tailHead = person(tail.get(0)) || PERSON_POSSESSIVES.contains(tail.get(0))
                            || tail.get(0).equals("the") || LABEL_TITLES.contains(tail.get(0))
                            ? personHead(outside.substring(spans.get(k + 1)[0]), tail,
                                    shifted(spans.subList(k + 1, spans.size()), spans.get(k + 1)[0])) : -1;
                    return tailHead == tail.size() ? label : null;
                }
            }
            return null;
        }
        // after the person: where they said it (a preposition whose words name a channel: "on the phone",
        // "in the family chat"), when ("just now", "earlier"), or a verb of sending ("just emailed"); a
        // preposition that names no channel makes a heading of the speaker's own ("Mom in the hospital:")
        boolean afterPreposition = false;
        boolean channel = false;
        boolean sends = false;
        boolean place = false;
        for (int k = head; k < words.size(); k++) {
            String w = words.get(k);
            if (LABEL_PREPOSITIONS.contains(w)) {
                if (afterPreposition && !channel) {
                    place = true;
                }
                afterPreposition = true;
                channel = false;
            } else if (afterPreposition) {
                channel |= CHANNELS.contains(w);
            } else if (!LABEL_WORDS.contains(w)) {
                return null; // "My sister moved to Lyon:" is a statement, not a label
            } else {
                sends |= SENDING.contains(w);
            }
        }
        if (afterPreposition && !channel || place) {
            return null;
        }
        if (head == words.size() && raw.indexOf('.') < 0 && raw.indexOf('(') < 0 && raw.indexOf(',') < 0) {
            return null; // a bare name or person: QUOTED_LABEL's to read
        }
        // a capitalised word may be a place or a thing ("Lisbon in June:", "Stripe via LinkedIn:"): a name
        // must come with who they are (in brackets) or how they sent it
        boolean named = !person(words.get(0)) && !PERSON_POSSESSIVES.contains(words.get(0))
                && !words.get(0).equals("the") && !LABEL_TITLES.contains(words.get(0));
        if (named && !sends && !who) {
            return null;
        }
        return label;
    }

    /** Brackets inside a label and what they hold. */
    private static final Pattern BRACKETS = Pattern.compile("\\(([^()]{0,40})\\)");
    /** What a person sends a text through: "on the phone", "in the family chat", "via WhatsApp". */
    private static final Set<String> CHANNELS = Set.of("phone", "call", "text", "texts", "sms", "message", "messages",
            "chat", "group", "email", "e-mail", "mail", "voicemail", "voice", "whatsapp", "telegram", "signal",
            "messenger", "facebook", "instagram", "insta", "twitter", "slack", "teams", "discord", "linkedin",
            "snapchat", "dm", "dms", "zap", "wpp", "telefone", "mensagem", "grupo", "conversa", "ligacao", "audio",
            "reddit", "forum", "comments", "comment", "post", "thread", "letter", "note", "card");

    /** A label that hands over a text found somewhere: "Saw this on reddit", "This is from a forum", "I got this from Sam". */
    private static final Pattern FOUND_TEXT = Pattern.compile("(?:i\\s+)?(?:(?:just\\s+)?(?:saw|found|got|read|heard|spotted|"
            + "received|came\\s+across|vi|li|achei|recebi)\\s+(?:this|these|that|isto|isso|esse|essa|este|esta)\\s+"
            + "(?:on|in|at|from|online|no|na|em|de|do|da)\\b"
            + "|(?:this|these|that|isto|isso)\\s+(?:is|are|was|came|e|veio|foi)\\s+(?:from|posted\\s+(?:on|in)|shared\\s+(?:on|in)|de|do|da)"
            + "\\s+(?!(?:my|our|meu|minha|last|this|next|yesterday|today)\\b)(?:a|an|the|some|um|uma|o|a)?\\s*[\\p{L}@#])");

    /** Verbs of sending a label may hold: "My boss just emailed:", "Sam texted me:". */
    private static final Set<String> SENDING = Set.of("emailed", "e-mailed", "messaged", "texted", "dmed", "dm'd",
            "called", "posted", "replied", "wrote", "said", "says", "tweeted", "commented", "whatsapped", "announced",
            "shared", "sent", "forwarded", "mailed", "told", "mandou", "escreveu", "disse", "respondeu", "postou");

    private static List<int[]> shifted(List<int[]> spans, int by) {
        List<int[]> out = new ArrayList<>(spans.size());
        for (int[] s : spans) {
            out.add(new int[] {s[0] - by, s[1] - by});
        }
        return out;
    }

    /**
     * How many of {@code words} (of {@code raw}) name a person at the start: a possessive or article and a
     * relative or person within two words ("my older sister", "the landlord"), a title and a capitalised
     * name ("Dr. Patel"), a relative alone ("Mom"), or one or two capitalised words that are no common
     * words ("Sam", "Sam Lee"); -1 when they do not.
     */
    private static int personHead(String raw, List<String> words, List<int[]> spans) {
        String w0 = words.get(0);
        if (PERSON_POSSESSIVES.contains(w0) || w0.equals("the")) {
            for (int k = 1; k <= 2 && k < words.size(); k++) {
                if (person(stripPossessive(words.get(k)))) {
                    return k + 1;
                }
            }
            return -1;
        }
        if (person(w0)) {
            return 1;
        }
        if (LABEL_TITLES.contains(w0) && words.size() >= 2 && capitalisedName(raw, words, spans, 1)) {
            return 2;
        }
        if (!capitalisedName(raw, words, spans, 0)) {
            return -1;
        }
        return words.size() >= 2 && capitalisedName(raw, words, spans, 1) ? 2 : 1;
    }

    private static boolean capitalisedName(String raw, List<String> words, List<int[]> spans, int k) {
        String w = words.get(k);
        return name(raw, spans, k, w) && !LABEL_WORDS.contains(w) && !LABEL_PREPOSITIONS.contains(w);
    }

    /**
     * Whether token {@code k} ({@code bare}, folded, a possessive's "'s" dropped) reads as a person's name:
     * capitalised in {@code text}, two letters or more, no common word and none of the speaker's own labels.
     */
    private static boolean name(String text, List<int[]> spans, int k, String bare) {
        return Character.isUpperCase(text.codePointAt(spans.get(k)[0])) && bare.length() >= 2
                && !Terms.ordinaryWord(bare) && !OWN_LABELS.contains(bare);
    }

    /** A relative ("Mom", "Dad") or a {@link #name}. */
    private static boolean relativeOrName(String text, List<int[]> spans, int k, String bare) {
        return Lexicon.RELATIONS.containsKey(bare) || name(text, spans, k, bare);
    }
    private static final Set<String> POSSESSIVE_OR_ARTICLE = Set.of("my", "minha", "meu", "his", "her", "their", "our",
            "nossa", "nosso", "a", "o");
    private static final Set<String> PERSON_NOUNS = Set.of("friend", "friends", "boss", "teacher", "doctor", "colleague",
            "coworker", "neighbor", "neighbour", "roommate", "amigo", "amiga", "chefe", "professor", "professora",
            "medico", "medica", "colega", "vizinho", "vizinha", "manager", "intern", "ex", "partner", "coach",
            "landlord", "landlady", "tenant", "cousin", "nephew", "niece", "aunt", "uncle", "kid", "kids", "baby",
            "girlfriend", "boyfriend", "fiance", "fiancee", "roomie", "classmate", "mentor", "client", "patient",
            "gerente", "estagiario", "estagiaria", "primo", "prima", "tio", "tia", "sobrinho", "sobrinha",
            "namorado", "namorada", "noivo", "noiva");

    /** Where a clause breaks: a comma or semicolon, or a conjunction between spaces. */
    private static final Pattern CLAUSE_BREAK = Pattern.compile(
            "[,;]|\\s(?:and|but|so|after|before|where|while|because|when|since|until|e|mas|depois|quando|porque"
                    + "|onde)\\s");

    /**
     * Where the clause holding {@code folded[at]} starts: at the last break before it, so a conjunction
     * stays in the clause it opens ("happy when I'm married"), else at the body's start (or {@code at}).
     */
    int clauseStart(int at) {
        int from = Math.min(body, at);
        Matcher m = CLAUSE_BREAK.matcher(folded).region(from, at);
        while (m.find()) {
            from = m.start();
        }
        return from;
    }

    /**
     * Whether "anymore" (or "any more") is said in the clause of {@code folded[from, to)}: "I'm not
     * allergic anymore" ends the allergy, "I'm allergic to peanuts so I don't eat them anymore" does not.
     */
    boolean anymoreIn(int from, int to) {
        int start = clauseStart(from);
        int end = clauseEnd(to);
        Matcher m = ANYMORE.matcher(folded).region(start, end);
        // "I live in Berlin, well, not anymore": a clause that is only "not anymore" is the statement's own
        return m.find() || NOT_ANYMORE_TAIL.matcher(folded).region(end, folded.length()).lookingAt();
    }

    private static final Pattern NOT_ANYMORE_TAIL = Pattern.compile(
            "[,;\\s]*(?:(?:well|but|or|and|ok|okay|at\\s+least)[,\\s]+)*(?:not|no)\\s+any\\s?more\\b");

    private static final Pattern ANYMORE = Pattern.compile("\\bany\\s?more\\b");

    /**
     * Whether a negation stands right before {@code folded[at]} in its clause ("não sou de São Paulo",
     * "eu não nasci em", "don't answer in", "please never reply in"): one of the two words before it.
     */
    boolean negatedBefore(int at) {
        int from = clauseStart(at);
        List<int[]> spans = Terms.wordSpans(folded.substring(from, at));
        for (int k = Math.max(0, spans.size() - 2); k < spans.size(); k++) {
            String w = folded.substring(from + spans.get(k)[0], from + spans.get(k)[1]);
            if (NEGATIONS.contains(w)) {
                return true;
            }
        }
        return false;
    }

    private static final Set<String> NEGATIONS = Set.of("not", "never", "don't", "dont", "didn't", "didnt", "won't",
            "nao", "nunca", "jamais", "nem");

    /**
     * Whether a Portuguese sentence ends in a lone "não" that negates it ("Me chama de Zé não", "Moro em
     * Lisboa não"): colloquial negation after the verb phrase, with no negation before it.
     */
    boolean trailingNegation() {
        Matcher m = TRAILING_NAO.matcher(folded);
        // "Sou celíaca, glúten não": the "não" of a later clause negates that clause only
        return m.find() && folded.lastIndexOf("nao", m.start() - 1) < body
                && !CLAUSE_BREAK.matcher(folded).region(body, m.start()).find();
    }

    private static final Pattern TRAILING_NAO = Pattern.compile("\\bnao[\\s.!,;]*$");

    /** Where the clause holding {@code folded[at]} ends: the first break from {@code at} on, else the end. */
    int clauseEnd(int at) {
        Matcher m = CLAUSE_BREAK.matcher(folded).region(at, folded.length());
        return m.find() ? m.start() : folded.length();
    }

    /**
     * A comma or semicolon that opens another first-person statement: ", I moved to Lisbon", ", and
     * I'm a nurse", ", now I work at Meta", ", eu moro em Lisboa".
     */
    private static final Pattern SPLICE = Pattern.compile(
            "[,;]\\s*(?=(?:(?:and|but|so|now|also|then|actually|e|mas|agora|entao|tambem|hoje)\\s+)?"
                    + "(?:i|i'm|i've|i'd|i'll|im|ive|eu)\\s)"
                    + "|\\s(?=(?:and|but|so|e|mas|entao)\\s+(?:(?:actually|now|also|then|agora|na\\s+verdade)\\s+)?"
                    // "My son and I are allergic": a compound subject, not a second statement
                    + "(?:i(?!\\s+(?:are|were|both)\\b)|i'm|i've|i'd|i'll|im|ive|eu(?!\\s+(?:somos|estamos|temos|fomos)\\b))\\s)");
    /** The subject pronouns that make a part of a splice a statement of its own. */
    private static final Set<String> SUBJECT_PRONOUNS = Set.of("i", "i'm", "im", "i've", "ive", "i'd", "i'll", "we",
            "we're", "we've", "eu");
    /** A sentence that opens with a subordinate clause: its first part frames the rest ("When I lived in Porto, I ..."). */
    private static final Pattern SUBORDINATE = Pattern.compile(
            "(?:when|whenever|while|since|before|after|although|though|because|as|once|until|till|whether"
                    + "|quando|enquanto|desde|antes|depois|embora|porque|como|assim\\s+que|ate|apesar)\\b");

    /**
     * The independent first-person statements of a comma splice ("I don't live in Porto anymore, I
     * moved to Lisbon"), each a sentence of its own for the fact rules, which read one value of a
     * subject per sentence; or this sentence alone. A part is cut off only when it holds a
     * first-person subject of its own, so a framing phrase ("Last summer, I lived in Porto") stays with
     * its statement. Questions, reported speech, conditions, hedges and sentences that open with a
     * subordinate clause are never split: their first part qualifies the rest.
     */
    List<Sentence> clauses() {
        // a report is split too: each part says whether it is reported ("My friends think it's funny but
        // I'm allergic to cats")
        // a line after someone's label ("Rita: …") stays whole: every part of it is that person's
        if (question || conditional || hedged || label != null
                || SUBORDINATE.matcher(folded).region(body, folded.length()).lookingAt()) {
            return List.of(this);
        }
        Matcher m = SPLICE.matcher(folded).region(body, folded.length());
        List<Sentence> out = null;
        int from = 0;
        while (m.find()) {
            // after a comma the part before must be a statement of its own ("Last summer, I lived …" is
            // one); a conjunction opens one whatever came before ("My friends think it's funny but I'm …")
            boolean comma = folded.charAt(m.start()) == ',' || folded.charAt(m.start()) == ';';
            if (comma && !hasSubject(from == 0 ? body : from, m.start())) {
                continue;
            }
            out = out == null ? new ArrayList<>() : out;
            add(out, text, from, m.start(), today);
            from = m.end();
        }
        if (out == null) {
            return List.of(this);
        }
        add(out, text, from, text.length(), today);
        for (Sentence part : out) {
            part.lang = lang;
        }
        return out;
    }

    /** Whether {@code folded[from, to)} holds a first-person subject pronoun. */
    private boolean hasSubject(int from, int to) {
        for (int[] span : Terms.wordSpans(folded.substring(from, to))) {
            if (SUBJECT_PRONOUNS.contains(folded.substring(from + span[0], from + span[1]))) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------------------------------

    /**
     * Splits {@code text} into sentences at {@code . ! ? ;} followed by a space, at line breaks and at
     * a spaced dash; abbreviations ("Dra.", "e.g.") and initials do not end a sentence.
     */
    static List<Sentence> split(String text, int maxSentences, java.time.LocalDate today) {
        List<Sentence> out = new ArrayList<>();
        int n = text.length();
        int start = 0;
        for (int i = 0; i < n && out.size() < maxSentences; i++) {
            char c = text.charAt(i);
            int cut = -1;
            int next = i + 1;
            if (c == '\n' || c == '\r') {
                cut = i;
            } else if (c == '.' || c == '!' || c == '?' || c == ';' || c == '\u2026') {
                int j = i;
                while (j + 1 < n && ".!?\u2026".indexOf(text.charAt(j + 1)) >= 0) {
                    j++;
                }
                while (j + 1 < n && "\"')]\u201D\u2019".indexOf(text.charAt(j + 1)) >= 0) {
                    j++;
                }
                boolean spaceAfter = j + 1 >= n || Character.isWhitespace(text.charAt(j + 1));
                if (spaceAfter && !(c == '.' && j == i && abbreviationBefore(text, i))) {
                    cut = j + 1;
                    next = j + 1;
                    i = j;
                }
            } else if ((c == '-' || c == '\u2013' || c == '\u2014') && i > 0 && i + 1 < n
                    && text.charAt(i - 1) == ' ' && text.charAt(i + 1) == ' ') {
                cut = i;
            } else if (i - start >= MAX_CHARS && Character.isWhitespace(c)) {
                cut = i;
            }
            if (cut >= 0) {
                add(out, text, start, cut, today);
                start = next;
            }
        }
        if (start < n && out.size() < maxSentences) {
            add(out, text, start, n, today);
        }
        return out;
    }

    /** {@code text} as one sentence, in {@code lang}, said on {@code today}. */
    static Sentence of(String text, Lang lang, java.time.LocalDate today) {
        Sentence s = new Sentence(text, today);
        s.lang = lang;
        return s;
    }

    private static void add(List<Sentence> out, String text, int start, int end, java.time.LocalDate today) {
        while (start < end && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        if (end > start) {
            out.add(new Sentence(text.substring(start, Math.min(end, start + MAX_CHARS * 2)), today));
        }
    }

    /** Whether the period at {@code dot} ends an abbreviation or an initial ("Dra.", "e.g.", "J."), not a sentence. */
    static boolean abbreviationBefore(String text, int dot) {
        int s = dot;
        while (s > 0 && Character.isLetter(text.charAt(s - 1))) {
            s--;
        }
        int len = dot - s;
        if (len == 0) {
            return false;
        }
        if (len == 1) {
            return true; // an initial: "J. K. Rowling", "e.g."
        }
        return len <= 5 && ABBREVIATIONS.contains(Terms.foldKeepingLength(text.substring(s, dot)));
    }
}
