package dev.reverie.extract;

import dev.reverie.internal.Terms;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Short answers to a question about the speaker: the turn before (somebody else's) asks "Where are you
 * based these days?" and the speaker answers "manchester! moved up from london last spring". The
 * question says what the answer's first words are (a place, an employer, an age, a name …), so the
 * answer is read as the statement it stands for ("I live in Manchester."), and the typed rules read
 * that statement as they read any other: a value they would refuse in a sentence ("I live in hope")
 * is refused here too.
 *
 * <p>Only the answer's first words count, up to the first break (a comma, a full stop, an emoji, "but",
 * "since" …), and only when they are a bare phrase: a sentence of the speaker's own ("I live in Leeds")
 * is read by the statement rules, and words of the first person, a question back, a refusal ("idk",
 * "not telling", "rather not say") or a taken-back answer ("jk") give nothing. A question with a
 * choice or a condition ("Leeds or York?", "if you moved, where …") and one addressed by name to
 * somebody else ("Where do you live, Tom?" answered by Ann) give nothing either. A place, an employer or
 * a name written in lower case is written with capitals in the statement, as the question makes it a
 * name ("manchester" → "Manchester"). Stateless and thread-safe.
 */
final class Answers {

    /** What a question asks of the speaker; the template of the statement an answer stands for. */
    private enum Kind {
        LOCATION("I live in %s.", "Moro em %s.", true, "location"),
        ORIGIN("I'm from %s.", "Sou de %s.", true, "origin"),
        JOB("I work as a %s.", "Sou %s.", false, "job"),
        EMPLOYER("I work at %s.", "Trabalho em %s.", true, "employer"),
        AGE("I'm %s years old.", "Tenho %s anos.", false, "age"),
        BIRTHDAY("My birthday is %s.", "Meu aniversário é %s.", false, "birthday"),
        NAME("My name is %s.", "Meu nome é %s.", true, "name"),
        ADDRESS("Please call me %s.", "Me chame de %s.", true, "address_as"),
        NATIVE_LANGUAGE("My native language is %s.", "Minha língua materna é %s.", true, "native_language"),
        ALLERGY("I'm allergic to %s.", "Tenho alergia a %s.", false, "allergy"),
        DIET("I'm %s.", "Sou %s.", false, "diet"),
        PET("I have %s.", "Tenho %s.", false, "pet"),
        FAVORITE("My favorite %s is %s.", "Meu %s favorito é %s.", false, "favorite."),
        LANGUAGES("I speak %s.", "Falo %s.", true, "skill"),
        FUN("I love %s.", "Adoro %s.", false, "likes"),
        RELATIONSHIP("I'm %s.", "Sou %s.", false, "relationship");

        final String en;
        final String pt;
        /** Whether a lower-case answer is a name and gets capitals ("manchester" → "Manchester"). */
        final boolean named;
        /** The attribute (or its start) of the facts the answer may give: the question asked for no other. */
        final String attribute;

        Kind(String en, String pt, boolean named, String attribute) {
            this.en = en;
            this.pt = pt;
            this.named = named;
            this.attribute = attribute;
        }

        /** Whether an answer may list several values ("penicillin, and cats"), each read on its own. */
        boolean listed() {
            return this == ALLERGY || this == LANGUAGES || this == FUN || this == PET;
        }
    }

    private record Question(Kind kind, Pattern pattern, boolean pt) {
    }

    private static final String YOU = "(?:you|u|ya)";
    private static final String VOCE = "(?:voce|vc|tu|o\\s+senhor|a\\s+senhora)";

    /** The questions, on folded text (lower case, no accents), first match wins. */
    private static final List<Question> QUESTIONS = List.of(
            q(Kind.ORIGIN, false, "\\bwhere\\s+(?:are|r|were)\\s+" + YOU + "\\s+(?:originally\\s+)?from\\b"
                    + "|\\bwhere\\s+(?:did|do)\\s+" + YOU + "\\s+(?:grow\\s+up|originally\\s+come\\s+from|come\\s+from)\\b"
                    + "|\\bwhere\\s+were\\s+" + YOU + "\\s+(?:born|raised|brought\\s+up)\\b"
                    + "|\\bwhere(?:'s|\\s+is)\\s+your\\s+home\\s*town\\b|\\bwhat(?:'s|\\s+is)\\s+your\\s+home\\s*town\\b(?!\\s+like)"),
            q(Kind.ORIGIN, true, "\\bde\\s+onde\\s+(?:(?:e\\s+que\\s+)?" + VOCE + "\\s+)?(?:e|es|vem|vens|veio)\\b"
                    + "|\\b" + VOCE + "\\s+(?:e|es)\\s+de\\s+onde\\b"
                    + "|\\bonde\\s+(?:(?:e\\s+que\\s+)?" + VOCE + "\\s+)?(?:nasceu|nasceste|cresceu|cresceste)\\b"),
            q(Kind.LOCATION, false, "\\bwhere\\s+(?:do|d'|are|r)\\s*" + YOU + "\\s+(?:currently\\s+|now\\s+)?"
                    + "(?:live|living|based|located|settled)\\b"
                    + "|\\bwhere(?:'s|\\s+is)\\s+home\\s+(?:for\\s+" + YOU + "|these\\s+days|now)\\b"
                    + "|\\bwhat\\s+(?:city|town|country|part\\s+of\\s+\\w+)\\s+(?:do|are)\\s+" + YOU
                    + "\\s+(?:live|living|based|in)\\b"),
            q(Kind.LOCATION, true, "\\b(?:onde|aonde|em\\s+que\\s+cidade)\\s+(?:(?:e\\s+que\\s+)?" + VOCE + "\\s+)?"
                    + "(?:mora|moras|vive|vives)\\b|\\b" + VOCE + "\\s+(?:mora|moras|vive|vives)\\s+onde\\b"),
            q(Kind.EMPLOYER, false, "\\bwhere\\s+(?:do|are)\\s+" + YOU + "\\s+(?:currently\\s+|now\\s+)?(?:work|working)\\b"
                    + "(?!\\s+(?:out|from|on)\\b)"
                    + "|\\bwho\\s+(?:do|are)\\s+" + YOU + "\\s+(?:currently\\s+)?(?:work|working)\\s+for\\b"
                    + "|\\b(?:which|what)\\s+(?:company|firm|organi[sz]ation|employer)\\s+(?:do|are)\\s+" + YOU
                    + "\\s+(?:work|working|with|at)\\b"),
            q(Kind.EMPLOYER, true, "\\bonde\\s+(?:(?:e\\s+que\\s+)?" + VOCE + "\\s+)?(?:trabalha|trabalhas)\\b"
                    + "|\\b" + VOCE + "\\s+(?:trabalha|trabalhas)\\s+onde\\b|\\bem\\s+que\\s+empresa\\b"),
            q(Kind.JOB, false, "\\bwhat\\s+do\\s+" + YOU + "\\s+do(?:\\s+for\\s+(?:work|a\\s+living|money)"
                    + "|\\s+professionally)?\\s*\\?"
                    + "|\\bwhat(?:'s|\\s+is)\\s+your\\s+(?:job|day\\s+job|occupation|profession|line\\s+of\\s+work)\\b"
                    + "|\\bwhat\\s+(?:kind\\s+of\\s+|sort\\s+of\\s+)?(?:work|job)\\s+do\\s+" + YOU + "\\s+do\\b"
                    + "|\\bwhat\\s+do\\s+" + YOU + "\\s+do\\s+for\\s+(?:work|a\\s+living)\\b"),
            q(Kind.JOB, true, "\\bo\\s+que\\s+(?:(?:e\\s+que\\s+)?" + VOCE + "\\s+)?(?:faz|fazes)\\s+"
                    + "(?:da\\s+vida|profissionalmente|de\\s+trabalho)\\b"
                    + "|\\bqual\\s+(?:e\\s+)?(?:a\\s+)?(?:sua|tua)\\s+profissao\\b"
                    + "|\\b(?:com\\s+o\\s+que|com\\s+que)\\s+(?:(?:e\\s+que\\s+)?" + VOCE + "\\s+)?(?:trabalha|trabalhas)\\b"
                    + "|\\b" + VOCE + "\\s+(?:trabalha|trabalhas)\\s+com\\s+o\\s+que\\b"),
            q(Kind.AGE, false, "\\bhow\\s+old\\s+(?:are|r)\\s+" + YOU + "\\b|\\bwhat(?:'s|\\s+is)\\s+your\\s+age\\b"),
            q(Kind.AGE, true, "\\bquantos\\s+anos\\s+(?:(?:" + VOCE + ")\\s+)?(?:tem|tens)\\b"
                    + "|\\bqual\\s+(?:e\\s+)?a\\s+(?:sua|tua)\\s+idade\\b"),
            q(Kind.BIRTHDAY, false, "\\bwhen(?:'s|\\s+is)\\s+your\\s+(?:birthday|bday|b-day)\\b"),
            q(Kind.BIRTHDAY, true, "\\bquando\\s+(?:e\\s+)?(?:o\\s+)?(?:seu|teu)\\s+aniversario\\b"
                    + "|\\bquando\\s+(?:" + VOCE + "\\s+)?(?:faz|fazes)\\s+anos\\b"),
            q(Kind.ADDRESS, false, "\\bhow\\s+(?:would|do|should)\\s+" + YOU + "\\s+like\\s+(?:me\\s+|us\\s+)?to\\s+"
                    + "(?:address|call)\\s+" + YOU + "\\b|\\bhow\\s+(?:should|shall|do)\\s+(?:i|we)\\s+address\\s+" + YOU + "\\b"
                    + "|\\bwhat\\s+would\\s+" + YOU + "\\s+like\\s+(?:me\\s+|us\\s+)?to\\s+call\\s+" + YOU + "\\b"
                    + "|\\bwhat\\s+(?:should|shall|do|can)\\s+(?:i|we)\\s+call\\s+" + YOU + "\\b"),
            q(Kind.ADDRESS, true, "\\bcomo\\s+(?:prefere|preferes|gostaria|gostarias|quer|queres)\\s+(?:de\\s+)?"
                    + "ser\\s+chamad[oa]\\b|\\bcomo\\s+(?:posso|devo)\\s+(?:te\\s+|lhe\\s+)?(?:chamar|tratar)\\b"),
            q(Kind.NAME, false, "\\bwhat(?:'s|\\s+is)\\s+your\\s+(?:first\\s+|full\\s+)?name\\b"
                    + "|^(?:and\\s+)?your\\s+name\\s*\\?"
                    + "|\\bwho\\s+am\\s+i\\s+(?:talking|speaking|chatting)\\s+(?:to|with)\\b|\\bmay\\s+i\\s+(?:have|ask)\\s+your\\s+name\\b"),
            q(Kind.NAME, true, "\\bqual\\s+(?:e\\s+)?(?:o\\s+)?(?:seu|teu)\\s+nome\\b"
                    + "|\\bcomo\\s+(?:e\\s+que\\s+)?(?:" + VOCE + "\\s+)?(?:se\\s+chama|te\\s+chamas)\\b"),
            q(Kind.NATIVE_LANGUAGE, false, "\\bwhat(?:'s|\\s+is)\\s+your\\s+(?:first|native|mother)\\s+(?:language|tongue)\\b"
                    + "|\\bwhat\\s+(?:language\\s+)?did\\s+" + YOU + "\\s+grow\\s+up\\s+speaking\\b"),
            q(Kind.NATIVE_LANGUAGE, true, "\\bqual\\s+(?:e\\s+)?(?:a\\s+)?(?:sua|tua)\\s+(?:lingua|idioma)\\s+"
                    + "(?:materna|nativa)\\b"),
            q(Kind.ALLERGY, false, "\\b(?:do\\s+" + YOU + "\\s+have\\s+)?any\\s+(?:food\\s+|known\\s+|drug\\s+)?allergies\\b"
                    + "|\\b(?:are|r)\\s+" + YOU + "\\s+allergic\\s+to\\s+anything\\b|\\bwhat\\s+are\\s+" + YOU + "\\s+allergic\\s+to\\b"),
            q(Kind.ALLERGY, true, "\\b(?:" + VOCE + "\\s+)?(?:tem|tens)\\s+(?:alguma\\s+)?alergia\\b|\\balguma\\s+alergia\\b"
                    + "|\\b(?:e|es)\\s+alergic[oa]\\s+a\\s+(?:algo|alguma\\s+coisa)\\b"),
            q(Kind.DIET, false, "\\bany\\s+dietary\\s+(?:restrictions?|requirements?|needs|preferences)\\b"
                    + "|\\bdo\\s+" + YOU + "\\s+(?:follow|have)\\s+(?:a\\s+|any\\s+)?(?:special\\s+|particular\\s+)?diet\\b"),
            q(Kind.DIET, true, "\\b(?:alguma\\s+)?restricao\\s+alimentar\\b|\\bsegue\\s+(?:alguma\\s+)?dieta\\b"),
            q(Kind.PET, false, "\\bdo\\s+" + YOU + "\\s+have\\s+(?:any\\s+)?(?:pets?|animals)\\b|^any\\s+pets\\s*\\?"
                    + "|\\bwhat\\s+(?:kind\\s+of\\s+)?pets?\\s+do\\s+" + YOU + "\\s+have\\b"),
            q(Kind.PET, true, "\\b(?:" + VOCE + "\\s+)?(?:tem|tens)\\s+(?:algum\\s+|alguns\\s+)?(?:animal|animais|bicho|bichos|pet|pets)\\b"),
            q(Kind.FAVORITE, false, "\\bwhat(?:'s|\\s+is)\\s+your\\s+(?:all[\\s-]+time\\s+)?(?:favou?rite|fav|fave)\\s+"
                    + "(?<thing>[a-z]+(?:\\s+[a-z]+)?)\\s*\\?"),
            q(Kind.FAVORITE, true, "\\bqual\\s+(?:e\\s+)?(?:o\\s+|a\\s+)?(?:seu|sua|teu|tua)\\s+(?<thing>[a-z]+)\\s+"
                    + "(?:favorit[oa]|preferid[oa])\\s*\\?"),
            q(Kind.LANGUAGES, false, "\\bwhat\\s+languages?\\s+do\\s+" + YOU + "\\s+speak\\b"
                    + "|\\bwhich\\s+languages?\\s+do\\s+" + YOU + "\\s+speak\\b"),
            q(Kind.LANGUAGES, true, "\\b(?:que|quais)\\s+(?:linguas|idiomas)\\s+(?:" + VOCE + "\\s+)?(?:fala|falas)\\b"),
            q(Kind.FUN, false, "\\bwhat\\s+do\\s+" + YOU + "\\s+(?:like\\s+to\\s+|love\\s+to\\s+)?do\\s+(?:for\\s+fun|in\\s+your\\s+"
                    + "(?:free|spare)\\s+time)\\b|\\bwhat\\s+are\\s+your\\s+hobbies\\b|^any\\s+hobbies\\s*\\?"),
            q(Kind.FUN, true, "\\bo\\s+que\\s+(?:" + VOCE + "\\s+)?(?:gosta|gostas)\\s+de\\s+fazer\\b"
                    + "|\\bquais\\s+(?:sao\\s+)?(?:os\\s+)?(?:seus|teus)\\s+hobbies\\b"),
            q(Kind.RELATIONSHIP, false, "\\b(?:are|r)\\s+" + YOU + "\\s+(?:married|single|seeing\\s+anyone|in\\s+a\\s+relationship)\\b"
                    + "|\\bdo\\s+" + YOU + "\\s+have\\s+a\\s+(?:partner|boyfriend|girlfriend|husband|wife|spouse)\\b"
                    + "|\\bwhat(?:'s|\\s+is)\\s+your\\s+relationship\\s+status\\b"),
            q(Kind.RELATIONSHIP, true, "\\b(?:" + VOCE + "\\s+)?(?:e|es)\\s+(?:casad[oa]|solteir[oa])\\b"
                    + "|\\b(?:" + VOCE + "\\s+)?(?:tem|tens)\\s+(?:namorad[oa]|companheir[oa]|marido|esposa|mulher)\\b"));

    /** Every question above in one pattern: most turns before an answer ask none of them, and one scan says so. */
    private static final Pattern ANY_QUESTION = Pattern.compile(String.join("|", QUESTIONS.stream()
            .map(q -> "(?:" + q.pattern().pattern().replace("(?<thing>", "(?:") + ")").toList()));

    /** The words before the first punctuation of a folded text (a cheap bound: no regex). */
    private static int wordsBeforeBreak(String folded) {
        int words = 0;
        boolean in = false;
        for (int i = 0; i < folded.length(); i++) {
            char c = folded.charAt(i);
            if (c == ',' || c == '.' || c == '!' || c == '?' || c == ';' || c == ':') {
                break;
            }
            boolean letter = Character.isLetterOrDigit(c) || c == '\'';
            if (letter && !in) {
                words++;
            }
            in = letter;
        }
        return words;
    }

    /** "Is English your first language?": answered "no, Polish" or "yes". */
    private static final Pattern NATIVE_YES_NO = Pattern.compile(
            "\\bis\\s+(?<language>[a-z]+)\\s+your\\s+(?:first|native|mother)\\s+(?:language|tongue)\\b"
                    + "|\\b(?:o\\s+|a\\s+)?(?<plang>[a-z]+)\\s+e\\s+a\\s+(?:sua|tua)\\s+(?:lingua|idioma)\\s+(?:materna|nativa)\\b");

    /** A question with a choice or a condition: its answer states neither ("Leeds or York?", "If you moved, where …"). */
    private static final Pattern NOT_PLAIN = Pattern.compile("\\b(?:or|ou|if|whether|imagine|suppose|caso)\\b|^se\\s");

    /** Words before the answer that carry nothing ("oh", "well", "haha", "honestly", "it's"). */
    private static final Pattern OPENING = Pattern.compile(
            "^(?:(?:oh+|ah+|umm+|um(?=[,.!])|uh+|hm+|well|so|haha\\w*|hehe\\w*|lol|yeah|yes|yep|yup|sure|ok|okay|honestly|"
                    + "currently|right\\s+now|these\\s+days|at\\s+the\\s+moment|atualmente|hoje\\s+em\\s+dia|bom|entao|"
                    + "olha|pois|sim|ha|kk+|rs+|it's|its|it\\s+is|that's|thats|e|eh|just|only|still|actually|"
                    + "thanks|thank\\s+you|obrigad[oa]|good\\s+question)(?:[\\s,.!:;\\-\\u2014\\u2013]+|$))+");

    /** A "no" first in an answer ("nope, single", "não, polaco"): read only where the question allows it. */
    private static final Pattern NO_FIRST = Pattern.compile("^(?:no|nope|nah|nao)(?:[\\s,.!:;\\-\\u2014\\u2013]+)");

    /** What a name answer may open with: "i'm dani", "this is Jamal", "sou a Fê", "me chamo Leonor". */
    private static final Pattern NAME_OPENING = Pattern.compile(
            "^(?:i'm|im|i\\s+am|this\\s+is|call\\s+me|my\\s+name's|my\\s+name\\s+is|sou\\s+(?:o|a)|sou|me\\s+chamo|"
                    + "chamo-me|pode\\s+me\\s+chamar\\s+de|me\\s+chama\\s+de)\\s+");

    /** Prepositions before a place or an employer ("in Leeds", "at Google", "em Niterói", "na Sonae"). */
    private static final Pattern PLACE_PREPOSITION = Pattern.compile("^(?:in|em|no|na|nos|nas)\\s+");
    private static final Pattern ORIGIN_PREPOSITION = Pattern.compile("^(?:from|de|do|da|dos|das)\\s+");
    private static final Pattern EMPLOYER_PREPOSITION = Pattern.compile("^(?:at|for|with|in|na|no|em|pra|para|com\\s+a|com\\s+o)\\s+");
    private static final Pattern ARTICLE = Pattern.compile("^(?:a|an|the|um|uma|o|a)\\s+");

    /** Where the answer's first words end (folded text): punctuation, an emoji, or a word that goes on. */
    private static final Pattern BREAK = Pattern.compile(
            "[,;:!?()\\[\\]\"\u201c\u201d\u2014\u2013]|(?<!\\b(?:dr|mr|mrs|ms|mx|prof|st|sr|jr|rev|fr))\\.|\\s-\\s"
                    + "|[^\\p{L}\\p{N}\\s'&/.\\-]"
                    + "|\\s(?:but|since|for|now|tho|though|lol|lmao|haha\\w*|mas|desde|ha|faz|pra|porque|because|cause|"
                    + "cuz|coz|and|e|so|which|where|who|when|with|com|mostly|mainly|originally|atm|nowadays|actually|"
                    + "these|this|last|right|recently|ago|kk+|rs+|tbh|btw|fyi|lately|anyway|is|works|please|pls|plz|"
                    + "por\\s+favor|ta|esta|mesmo)\\b");
    /** A break inside a listed answer: only what ends the list ("penicillin, and cats but …"). */
    private static final Pattern LIST_BREAK = Pattern.compile(
            "[;:!?.()\\[\\]\"\u201c\u201d\u2014\u2013]|\\s-\\s|[^\\p{L}\\p{N}\\s'&/.,\\-]"
                    + "|\\s(?:but|since|for|now|tho|though|lol|lmao|haha\\w*|mas|desde|porque|because|cause|cuz|coz|"
                    + "so|which|mostly|mainly|atm|nowadays|actually|these|this|recently|kk+|rs+|tbh|btw|fyi|lately|"
                    + "anyway|as\\s+well|too|also|tambem|really|very|super|badly|bad)\\b");
    private static final Pattern LIST_SEPARATOR = Pattern.compile("\\s*,\\s*(?:and\\s+|e\\s+|&\\s+)?|\\s+(?:and|e|&|plus)\\s+");

    /** Answers that give no value: refusals, "idk", places that are no place, a question back. */
    private static final Set<String> NO_VALUE = Set.of(
            "idk", "dunno", "i dunno", "not sure", "no idea", "nowhere", "everywhere", "here", "there", "home",
            "same", "same here", "you", "it", "this", "that", "depends", "it depends", "secret", "a secret", "why",
            "what", "huh", "guess", "various", "lots", "many", "none", "nothing", "no", "nope", "nah",
            "n/a", "na", "pass", "not telling", "rather not say", "nenhum", "nenhuma", "nada", "sei la", "nao sei",
            "segredo", "varios", "depende", "aqui", "ali", "la", "casa", "em casa", "everything", "anything",
            "tudo", "qualquer", "qualquer coisa", "whatever", "who knows", "not much", "nothing much", "all",
            "all of them", "many things", "stuff", "things", "a lot", "lots of things", "the usual", "ok",
            "okay", "fine", "good", "bem", "tudo bem", "lol", "haha", "hmm", "um", "well", "yes", "yeah", "sim");

    /** A taken-back or joking answer: "Mars lol jk", "not telling haha", "mind your business". */
    private static final Pattern JOKING = Pattern.compile(
            "\\b(?:jk|j/k|just\\s+kidding|kidding|not\\s+telling|rather\\s+not|none\\s+of\\s+your|mind\\s+your|"
                    + "wouldn't\\s+you\\s+like|brincadeira|zoeira|zuera|so\\s+que\\s+nao|mentira)\\b");

    /** Words that take the answer back or deny it ("idk anymore", "not really", "nunca"). */
    private static final Pattern DENIED = Pattern.compile(
            "\\b(?:idk|dunno|not|no|never|anymore|nowhere|nobody|none|nao|nunca|mais|nenhum|nenhuma|ninguem)\\b|n't\\b");

    /** The most words before the first break of an answer that may be a short one. */
    private static final int MAX_HEAD_WORDS = 8;

    /** The longest question read: a question is a sentence, not a pasted document. */
    private static final int MAX_QUESTION = 300;

    /**
     * A question about somebody else or something else ("Does your son have any allergies?", "Onde mora a
     * sua irmã?", "De onde é esse vinho?"), or about "you" in general ("How old are you supposed to be to
     * drink?"): its answer says nothing of the speaker.
     */
    private static final Pattern SOMEBODY_ELSE = Pattern.compile(
            "\\b(?:your|his|her|their|my|our|the|sua|seu|tua|teu|suas|seus|tuas|teus|minha|meu)\\s+(?:[a-z'\\-]+\\s+)?(?:"
                    + Lexicon.RELATION_ALTERNATION + "|friend|friends|boss|coworker|colleague|roommate|neighbou?r"
                    + "|amig[oa]s?|chefe|colega|vizinh[oa])\\b"
                    + "|\\b(?:does|did|do)\\s+(?:he|she|they|your|his|her|their|the)\\b|\\b(?:is|was|has)\\s+(?:he|she|they|his|her|their)\\b"
                    + "|\\b(?:esse|essa|esses|essas|aquele|aquela|aqueles|aquelas|este|esta|isso|isto|dele|dela|deles|delas)\\b"
                    + "|\\b(?:supposed|photo|picture|pic|video|movie|film|book|game|story|dream|usually|typically|normally"
                    + "|generally|people|someone|somebody|anyone|everyone)\\b");
    /** A question about a time not now: "Where are you living next year?", "Em que empresa você gostaria de trabalhar?" */
    private static final Pattern NOT_NOW = Pattern.compile(
            "\\b(?:next\\s+(?:year|month|week|summer)|after\\s+the|will|going\\s+to|gonna|plan|planning|wish|want\\s+to|used\\s+to"
                    + "|gostaria|gostarias|queria|quer|queres|vai|vais|ano\\s+que\\s+vem|proximo\\s+ano)\\b");
    /** Words after an answer that take it back or doubt it: "Paris, I wish", "Google, until last week". */
    private static final Pattern DOUBT = Pattern.compile(
            "\\b(?:i\\s+wish|in\\s+my\\s+dreams|until|used\\s+to|one\\s+day|someday|hopefully|eventually|soon"
                    + "|next\\s+(?:year|month|week)|probably|maybe|perhaps|i\\s+think|i\\s+guess|kinda|sort\\s+of|not\\s+anymore|anymore"
                    + "|formerly|previously|apparently|supposedly|quem\\s+me\\s+dera|talvez|acho\\s+que|provavelmente|um\\s+dia)\\b");
    /** What may not open an answer: a question word ("why do you ask?", "who's asking?"). */
    private static final Pattern QUESTION_WORD = Pattern.compile(
            "(?:why|who|who's|what|what's|how|where|when|which|huh|porque|por\\s+que|quem|o\\s+que|como|onde|quando)\\b");
    /** The answer as the subject of a sentence that goes on: "Leeds is where my parents live". */
    private static final Pattern SUBJECT_OF_MORE = Pattern.compile(
            "\\s+(?:is|are|was|were|sounds|seems|looks)\\s+(?!(?:fine|ok|okay|good|great|perfect|cool|enough|best)\\b)");
    private static final Pattern LAUGHTER = Pattern.compile(
            "\\b(?:lol|lmao|lmfao|rofl|haha\\w*|hehe\\w*|kk+|rs+|jk)\\b|[\\x{1F602}\\x{1F923}\\x{1F61C}\\x{1F61D}\\x{1F92A}]");
    /** What may not open a place or an employer: a preposition, an article, "same". */
    private static final Pattern NOT_A_PLACE_START = Pattern.compile(
            "(?:with|on|under|near|outside|by|above|between|around|over|behind|inside|into|from|at|to|a|an|some|same"
                    + "|depends|everywhere|anywhere|nowhere|somewhere|home|unemployed|freelance|freelancing|student|retired)\\b");

    /** A polite condition that asks nothing ("if you don't mind me asking", "se não se importa"). */
    private static final Pattern POLITE = Pattern.compile(
            "\\b(?:if\\s+(?:you\\s+don't|u\\s+dont|you\\s+dont)\\s+mind(?:\\s+(?:me\\s+)?asking)?|if\\s+i\\s+may(?:\\s+ask)?"
                    + "|if\\s+that's\\s+(?:ok|okay|alright)|if\\s+you\\s+want\\s+to\\s+share|se\\s+nao\\s+se\\s+importa"
                    + "|se\\s+puder(?:\\s+dizer)?)\\b");

    /** Words of the speaker's own sentence: then the statement rules read it. */
    private static final Pattern FIRST_PERSON = Pattern.compile(
            "\\b(?:i|i'm|im|i've|ive|i'd|i'll|me|my|mine|we|we're|our|eu|meu|minha|meus|minhas|nos|nosso|nossa)\\b");

    private static final Pattern AGE_VALUE = Pattern.compile("(?:[1-9]|[1-9]\\d|1[01]\\d)(?:\\s*(?:yo|y/o|years?(?:\\s+old)?|anos))?");
    private static final Pattern MONTH = Pattern.compile(
            "\\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
                    + "oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|janeiro|fevereiro|marco|abril|maio|junho|julho|agosto|"
                    + "setembro|outubro|novembro|dezembro)\\b");
    private static final Pattern DAY_MONTH = Pattern.compile("\\b\\d{1,2}\\s*/\\s*\\d{1,2}\\b");

    private static final Set<String> STATUSES = Set.of("single", "married", "engaged", "divorced", "widowed",
            "separated", "solteiro", "solteira", "casado", "casada", "noivo", "noiva", "divorciado", "divorciada",
            "viuvo", "viuva", "separado", "separada");

    /** Small words that stay in lower case when an answer is written with capitals ("rio de janeiro"). */
    private static final Set<String> PARTICLES = Set.of("de", "da", "do", "das", "dos", "of", "the", "e", "y",
            "del", "la", "le", "van", "von", "upon", "on", "am", "sur", "di", "du");

    private Answers() {
    }

    /**
     * The statements a short answer stands for, the question it answers, and the attribute (or the start
     * of the attributes) of the facts it may give: "I have a dog and a husband" read for "Do you have any
     * pets?" gives the pet, not a husband.
     */
    record Answered(List<Sentence> statements, String question, String attribute) {
    }

    /**
     * The statements {@code answer} (the speaker's turn, split into sentences) makes of the last
     * question of {@code before} (somebody else's turn), or {@code null} when it answers none of the
     * questions above with a bare phrase.
     */
    static Answered of(String before, String speaker, List<Sentence> answer, LocalDate today) {
        if (before == null || answer.isEmpty() || before.indexOf('?') < 0) {
            return null;
        }
        // a short answer is short: a first clause of more than eight words is a sentence of its own (most
        // replies), read by the statement rules; the questions are not even tried (a turn costs less)
        if (wordsBeforeBreak(answer.get(0).folded) > MAX_HEAD_WORDS) {
            return null;
        }
        String question = lastQuestion(before);
        if (question.isEmpty() || question.length() > MAX_QUESTION) {
            return null;
        }
        String q = Terms.foldKeepingLength(question);
        if (!ANY_QUESTION.matcher(q).find() && !NATIVE_YES_NO.matcher(q).find() || addressedToSomebodyElse(question, speaker)
                || SOMEBODY_ELSE.matcher(q).find() || NOT_NOW.matcher(q).find()) {
            return null; // "Does your son have any allergies?", "Onde mora a sua irmã?", "How old are you in this photo?"
        }
        Sentence first = answer.get(0);
        if (first.takesBack() || first.reported || first.conditional) {
            return null;
        }
        String said = first.text.strip();
        String folded = Terms.foldKeepingLength(said);
        if (JOKING.matcher(Terms.foldKeepingLength(answerText(answer))).find() || DOUBT.matcher(folded).find()) {
            return null; // "Paris, I wish 😂", "Google, until last week", "Leeds probably"
        }
        Matcher yesNo = NATIVE_YES_NO.matcher(q);
        if (yesNo.find() && !NOT_PLAIN.matcher(q).find()) {
            String asked = yesNo.group("plang") != null ? yesNo.group("plang") : yesNo.group("language");
            if (Lexicon.LANGUAGES.contains(asked)) {
                return nativeYesNo(yesNo, question, said, folded, today);
            }
        }
        for (Question candidate : QUESTIONS) {
            Matcher m = candidate.pattern().matcher(q);
            if (!m.find() || NOT_PLAIN.matcher(POLITE.matcher(q).replaceAll(" ")).find()) {
                continue;
            }
            Kind kind = candidate.kind();
            String thing = kind == Kind.FAVORITE ? question.substring(m.start("thing"), m.end("thing")) : null;
            List<String> values = values(kind, said, folded);
            if (values.isEmpty()) {
                return null;
            }
            List<Sentence> out = new ArrayList<>(values.size());
            for (String value : values) {
                String template = candidate.pt() ? kind.pt : kind.en;
                String statement = thing != null ? String.format(Locale.ROOT, template, thing, value)
                        : String.format(Locale.ROOT, template, value);
                out.add(Sentence.of(statement, candidate.pt() ? Sentence.Lang.PT : Sentence.Lang.EN, today));
            }
            return new Answered(out, question, kind.attribute);
        }
        return null;
    }

    /** "Is English your first language?" → "no, Polish" (Polish) or "yes" (English). */
    private static Answered nativeYesNo(Matcher m, String question, String said, String folded, LocalDate today) {
        boolean pt = m.group("plang") != null;
        String asked = pt ? m.group("plang") : m.group("language");
        String value;
        Matcher no = NO_FIRST.matcher(folded);
        if (no.lookingAt()) {
            List<String> rest = values(Kind.NATIVE_LANGUAGE, said.substring(no.end()), folded.substring(no.end()));
            if (rest.size() != 1 || !Lexicon.LANGUAGES.contains(Terms.foldKeepingLength(rest.get(0)).toLowerCase(Locale.ROOT))) {
                return null;
            }
            value = rest.get(0);
        } else if (folded.matches("^(?:yes|yeah|yep|yup|sim|correct|it is|e sim)\\b.*")
                && Lexicon.LANGUAGES.contains(asked)) {
            value = capitalised(asked);
        } else {
            return null;
        }
        String template = pt ? Kind.NATIVE_LANGUAGE.pt : Kind.NATIVE_LANGUAGE.en;
        return new Answered(List.of(Sentence.of(String.format(Locale.ROOT, template, value),
                pt ? Sentence.Lang.PT : Sentence.Lang.EN, today)), question, Kind.NATIVE_LANGUAGE.attribute);
    }

    /** The answer's first words as the values of {@code kind}: one, several for a listed kind, or none. */
    private static List<String> values(Kind kind, String said, String folded) {
        int at = 0;
        if (kind == Kind.RELATIONSHIP) {
            Matcher no = NO_FIRST.matcher(folded);
            if (no.lookingAt()) {
                at = no.end();
            }
        }
        Matcher open = OPENING.matcher(folded).region(at, folded.length());
        if (open.lookingAt()) {
            at = open.end();
        }
        if (kind == Kind.NAME || kind == Kind.ADDRESS) {
            Matcher name = NAME_OPENING.matcher(folded).region(at, folded.length());
            if (name.lookingAt()) {
                at = name.end();
            }
        }
        Pattern preposition = switch (kind) {
            case LOCATION -> PLACE_PREPOSITION;
            case ORIGIN -> ORIGIN_PREPOSITION;
            case EMPLOYER -> EMPLOYER_PREPOSITION;
            default -> null;
        };
        if (preposition != null) {
            Matcher p = preposition.matcher(folded).region(at, folded.length());
            if (p.lookingAt()) {
                at = p.end();
            }
        }
        Matcher end = (kind.listed() ? LIST_BREAK : BREAK).matcher(folded).region(at, folded.length());
        int stop = end.find() ? end.start() : folded.length();
        String head = said.substring(at, stop).strip();
        String headFolded = folded.substring(at, stop).strip();
        if (head.isEmpty() || FIRST_PERSON.matcher(headFolded).find() || DENIED.matcher(headFolded).find()
                || QUESTION_WORD.matcher(headFolded).lookingAt()) {
            return List.of();
        }
        String after = folded.substring(stop);
        // a question back ("married? me?"), the answer as the subject of a sentence ("Leeds is where my parents
        // live"), a joke about an age, a name or a status ("12 lol"), "married to the job"
        if (after.startsWith("?") || SUBJECT_OF_MORE.matcher(after).lookingAt()
                || (kind == Kind.AGE || kind == Kind.NAME || kind == Kind.RELATIONSHIP || kind == Kind.ADDRESS)
                && LAUGHTER.matcher(folded).find()
                || kind == Kind.RELATIONSHIP && after.startsWith(" to ")) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        if (kind.listed()) {
            String[] items = LIST_SEPARATOR.split(head);
            if (items.length > 5) {
                return List.of();
            }
            for (String item : items) {
                String v = value(kind, item.strip());
                if (v == null) {
                    return List.of(); // one item that is no value makes the list doubtful
                }
                out.add(v);
            }
            return out;
        }
        String v = value(kind, head);
        return v == null ? List.of() : List.of(v);
    }

    /** One answer value checked for its kind, with capitals where the kind makes it a name; or null. */
    private static String value(Kind kind, String head) {
        String folded = Terms.foldKeepingLength(head).toLowerCase(Locale.ROOT).strip();
        if (folded.isEmpty() || NO_VALUE.contains(folded)) {
            return null;
        }
        List<String> words = Terms.wordTokens(folded);
        int max = switch (kind) {
            case NAME, ADDRESS, AGE -> 3;
            case JOB, FUN, PET -> 6;
            default -> 4;
        };
        if (words.isEmpty() || words.size() > max) {
            return null;
        }
        switch (kind) {
            case AGE -> {
                if (!AGE_VALUE.matcher(folded).matches()) {
                    return null;
                }
                return folded.replaceAll("\\D.*", "");
            }
            case BIRTHDAY -> {
                return MONTH.matcher(folded).find() && folded.matches(".*\\d.*") || DAY_MONTH.matcher(folded).find()
                        ? head : null;
            }
            case RELATIONSHIP -> {
                // "single", "single again", "single as a pringle"; not "married to the job"
                return STATUSES.contains(words.get(0)) && (words.size() == 1 || !words.get(1).equals("to")
                        && !words.get(1).equals("com")) ? words.get(0) : null;
            }
            case NAME, ADDRESS -> {
                // a name: words of letters only
                if (!folded.matches("[\\p{L}'\\-. ]+")) {
                    return null;
                }
            }
            case LOCATION, ORIGIN, NATIVE_LANGUAGE, LANGUAGES -> {
                if (!folded.matches("[\\p{L}'\\-. ]+") || NOT_A_PLACE_START.matcher(folded).lookingAt()) {
                    return null; // "with parents", "on a boat", "under a rock", "same as you"
                }
            }
            case EMPLOYER -> {
                if (NOT_A_PLACE_START.matcher(folded).lookingAt() || IdentityRules.NOT_AN_EMPLOYER.contains(folded)
                        || folded.startsWith("self")) {
                    return null; // "from home", "self employed", "unemployed"
                }
            }
            case JOB -> {
                if (!jobLike(words)) {
                    return null; // "as little as possible", "looking for work", "panic"
                }
            }
            default -> {
            }
        }
        if (kind == Kind.PET || kind == Kind.JOB || kind == Kind.FUN || kind == Kind.DIET || kind == Kind.ALLERGY
                || kind == Kind.FAVORITE) {
            Matcher article = ARTICLE.matcher(folded);
            if (kind == Kind.JOB && article.lookingAt()) {
                head = head.substring(article.end()); // "a nurse" → "I work as a nurse"
            }
            return kind == Kind.PET ? namedPet(head) : head;
        }
        return kind.named && head.equals(head.toLowerCase(Locale.ROOT)) ? capitalised(head) : head;
    }

    /** Whether some word of a job answer is a job ("nurse", "backend dev", "nursing", "accountant"). */
    private static boolean jobLike(List<String> words) {
        for (String w : words) {
            if (Lexicon.JOBS.contains(w) || w.length() > 4 && JOB_ENDING.matcher(w).find()) {
                return true;
            }
        }
        return false;
    }

    private static final Pattern JOB_ENDING = Pattern.compile("(?:er|or|ist|ian|eer|ant|ent|ing|dev|ora|eira|eiro|ista)$");

    /** "a bearded dragon called steve" → "a bearded dragon called Steve": a pet's name after "called/named". */
    private static String namedPet(String head) {
        Matcher m = Pattern.compile("(?i)\\b(?:called|named|chamad[oa])\\s+(\\p{Ll})").matcher(head);
        if (m.find()) {
            return head.substring(0, m.start(1)) + Character.toUpperCase(head.charAt(m.start(1)))
                    + head.substring(m.end(1));
        }
        return head;
    }

    /** Each word with a capital, small particles aside ("rio de janeiro" → "Rio de Janeiro"). */
    static String capitalised(String s) {
        StringBuilder out = new StringBuilder(s.length());
        boolean start = true;
        int word = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (start && Character.isLetter(c)) {
                int e = i;
                while (e < s.length() && Character.isLetter(s.charAt(e))) {
                    e++;
                }
                String w = s.substring(i, e);
                boolean particle = word > 0 && PARTICLES.contains(w.toLowerCase(Locale.ROOT));
                out.append(particle ? c : Character.toUpperCase(c));
                start = false;
                word++;
                continue;
            }
            out.append(c);
            start = !Character.isLetterOrDigit(c) && c != '\'';
        }
        return out.toString();
    }

    /** "Where do you live, Tom?" answered by somebody who is not Tom. */
    private static boolean addressedToSomebodyElse(String question, String speaker) {
        Matcher m = VOCATIVE.matcher(question);
        if (!m.find()) {
            return false;
        }
        String name = (m.group(1) != null ? m.group(1) : m.group(2)).toLowerCase(Locale.ROOT);
        if (speaker == null || speaker.isBlank()) {
            return false; // one end user: the assistant calls them by their name
        }
        String first = Terms.foldKeepingLength(speaker.strip().toLowerCase(Locale.ROOT)).split("\\s+")[0];
        return !Terms.foldKeepingLength(name).equals(first);
    }

    private static final Pattern VOCATIVE = Pattern.compile(",\\s*(\\p{Lu}\\p{Ll}+)\\s*\\?\\s*$|^(\\p{Lu}\\p{Ll}+)\\s*,\\s");

    /** The answer's sentences joined (for taken-back words anywhere in it). */
    private static String answerText(List<Sentence> answer) {
        StringBuilder b = new StringBuilder();
        for (Sentence s : answer) {
            b.append(s.text).append(' ');
        }
        return b.toString();
    }

    /** The last question of {@code before}, or "". */
    static String lastQuestion(String before) {
        int end = before.lastIndexOf('?');
        if (end < 0) {
            return "";
        }
        int start = end - 1;
        while (start >= 0 && ".!?\n:".indexOf(before.charAt(start)) < 0) {
            start--;
        }
        return before.substring(start + 1, end + 1).strip();
    }

    private static Question q(Kind kind, boolean pt, String regex) {
        return new Question(kind, Pattern.compile(regex), pt);
    }
}
