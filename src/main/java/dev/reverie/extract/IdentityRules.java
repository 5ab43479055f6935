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
 * Who the speaker is: {@code user.name}, {@code user.address_as}, {@code user.native_language},
 * {@code user.location}, {@code user.origin}, {@code user.job}, {@code user.employer},
 * {@code user.age}, {@code user.birthday} — all single-valued facts. Stateless and thread-safe.
 */
final class IdentityRules {

    /** Up to a few adverbs between the subject and the verb of a rule: {@code words/adverbs.txt} as a regex group. */
    static final String ADV = "(?:(?:" + String.join("|", Lexicon.list("adverbs")) + ")\\s+)";

    private static final Set<String> TITLES = Lexicon.words("titles");
    private static final Set<String> NAME_STOP = Lexicon.words("name-stop");
    private static final Set<String> NOT_A_NAME = Lexicon.words("not-a-name");

    /** Who lives or moves: "I", "we", or "me and my wife" (the speaker among them: "Me and my wife live in Porto"). */
    private static final String SUBJ_EN = "\\b(?:i|i'm|im|i\\s+am|i've|ive|i\\s+have|we|we're|we've|we\\s+have"
            + "|me\\s+and\\s+(?:my|our)\\s+[a-z]{2,15}(?:\\s+[a-z]{2,15})?)\\s+";
    private static final String NEG_EN = "(?:(don't|dont|do\\s+not|no\\s+longer|not|never|didn't|don't\\s+really)\\s+)?";

    // ---- names
    private static final Pattern MY_NAME = Pattern.compile(
            "\\bmy\\s+(?:full\\s+|real\\s+|first\\s+|legal\\s+|new\\s+)?name(?:'s|\\s+is)\\s+(?:now\\s+|officially\\s+)?|\\bmeu\\s+(?:nome\\s+(?:completo\\s+)?|primeiro\\s+nome\\s+)e\\s+"
                    + "|\\b(?:eu\\s+)?me\\s+chamo\\s+|\\bchamo-me\\s+|\\bi'm\\s+called\\s+|\\bi\\s+am\\s+called\\s+");
    /**
     * A name said as who is writing: "Kate here.", "Hey, Kate here!", "This is Jamal btw." (a capitalised
     * name; "Kate here" from a lower-case writer too). Not a word of a role or a relation ("Nurse here",
     * "Mom here"), not "This is Jamal, my brother".
     */
    private static final Pattern NAME_HERE = Pattern.compile(
            "^(?<here>[a-z][a-z'\\-]{1,20})\\s+here\\s*(?:[,.!;:]|$)"
                    + "|^this\\s+is\\s+(?<this>[a-z][a-z'\\-]{1,20})\\s*(?:btw|by\\s+the\\s+way|here|speaking|again)\\s*(?:[,.!;]|$)");
    private static final Pattern I_AM_NAME = Pattern.compile("^(?:i'm|i\\s+am|im|eu\\s+sou\\s+[oa]|sou\\s+[oa])\\s+");
    private static final Pattern CALL_ME = Pattern.compile(
            "\\b(?:(don't|do\\s+not|never|stop|please\\s+don't)\\s+)?(?:please\\s+)?call\\s+me\\s+");
    private static final Pattern CALL_ME_EXPLICIT = Pattern.compile(
            "\\bi\\s+(?:prefer|'d\\s+prefer|would\\s+prefer|like|'d\\s+like|would\\s+like|want)\\s+(?:to\\s+be|being)\\s+(?:called|addressed\\s+as)\\s+"
                    + "|\\bi\\s+go\\s+by\\s+|\\bmy\\s+nickname\\s+is\\s+|\\bprefiro\\s+ser\\s+chamad[oa]\\s+(?:de|como)\\s+"
                    + "|\\bmeu\\s+apelido\\s+e\\s+|\\beveryone\\s+calls\\s+me\\s+|\\btodo\\s+mundo\\s+me\\s+chama\\s+de\\s+"
                    + "|\\baddress\\s+me\\s+as\\s+|\\btrate-me\\s+por\\s+|\\bchamem-me\\s+");
    /** How one travels or a word that is no name: "I go by bus", "the name I go by online". */
    private static final Pattern GO_BY_MEANS = Pattern.compile(
            "(?:bus|car|train|bike|bicycle|foot|plane|subway|metro|tube|taxi|cab|boat|ferry|uber|tram|online|now|here"
                    + "|there|too|that|this|it)\\b");
    private static final Pattern ME_CHAME = Pattern.compile(
            "\\b(?:(nao)\\s+)?(?:(?:pode|podem|podes|prefiro\\s+que|quero\\s+que|gostaria\\s+que)\\s+)?me\\s+"
                    + "(?:chame|chama|chamem|chamar|chamarem|chamasse)\\s+(?:apenas\\s+|so\\s+)?de\\s+");

    // ---- language
    private static final Pattern NATIVE_LANGUAGE = Pattern.compile(
            "\\bmy\\s+(?:native|first|mother)\\s+(?:language|tongue)\\s+is\\s+([a-z]+)"
                    + "|\\b([a-z]+)\\s+is\\s+my\\s+(?:native|first|mother)\\s+(?:language|tongue)"
                    + "|\\b(?:i'm|im|i\\s+am)\\s+a\\s+native\\s+([a-z]+)\\s+speaker"
                    + "|\\b(?:i'm|im|i\\s+am)\\s+native\\s+in\\s+([a-z]+)"
                    + "|\\bminha\\s+(?:lingua\\s+(?:materna|nativa)|primeira\\s+lingua)\\s+e\\s+(?:o\\s+)?([a-z]+)"
                    + "|\\bmeu\\s+idioma\\s+(?:nativo|materno)\\s+e\\s+(?:o\\s+)?([a-z]+)"
                    + "|\\b(?:o\\s+)?([a-z]+)\\s+e\\s+(?:a\\s+)?minha\\s+lingua\\s+(?:materna|nativa)"
                    + "|\\bsou\\s+falante\\s+nativ[oa]\\s+de\\s+([a-z]+)"
                    // "As a native German speaker, …" (read as "I'm a native German speaker"), "I grew up speaking Hindi"
                    + "|^as\\s+a\\s+native\\s+([a-z]+)\\s+speaker\\b|\\bi\\s+grew\\s+up\\s+speaking\\s+(?:only\\s+)?([a-z]+)\\b"
                    + "|\\b(?:english|portuguese|spanish|french|german)\\s+(?:isn't|is\\s+not|wasn't)\\s+my\\s+(?:first|native)"
                    + "\\s+language\\s*[(,;\\u2014\\-]\\s*(?:it's|its|it\\s+is|mine\\s+is|i\\s+speak)?\\s*([a-z]+)");

    // ---- places
    private static final Pattern LIVE_EN = Pattern.compile(SUBJ_EN + ADV + "{0,2}" + NEG_EN + ADV + "{0,2}"
            + "(?:live|living|reside|residing|moved|relocated|lived|been\\s+living|based|just\\s+moved)\\s+"
            + "(?:back\\s+)?(?:in|to|at|on)\\s+");
    /** "Basically", "practically", "literally": a figure of speech, not a home. */
    private static final Pattern HYPERBOLE = Pattern.compile(
            "\\b(?:basically|practically|literally|pretty\\s+much|virtually|praticamente|basicamente|literalmente)\\b");
    /** A simple past "lived" (not "I've lived", which says they still do). */
    private static final Pattern PAST_RESIDENCE = Pattern.compile("^(?!.*\\b(?:i've|ive|have|we've)\\s).*\\blived\\s");
    private static final Pattern LIVE_PT = Pattern.compile(
            "\\b(?:(nao)\\s+)?" + ADV + "{0,2}(?:moro|vivo|resido|moramos|vivemos|me\\s+mudei|mudei-me|mudamo-nos|mudei|nos\\s+mudamos"
                    + "|mudamos|estou\\s+morando|to\\s+morando|tou\\s+morando)\\s+(mais\\s+)?(?:de\\s+volta\\s+)?"
                    + "(?:em|no|na|nos|nas|pra|para|pro)\\s+");
    private static final Pattern ORIGIN = Pattern.compile(
            "\\b(?:i'm|im|i\\s+am)\\s+(?:originally\\s+)?from\\s+|\\bi\\s+(?:originally\\s+)?come\\s+from\\s+"
                    + "|\\bi\\s+was\\s+born\\s+(?:and\\s+raised\\s+)?in\\s+|\\bi\\s+grew\\s+up\\s+in\\s+"
                    + "|\\b(?:eu\\s+)?sou\\s+(?:natural\\s+)?(?:de|do|da)\\s+|\\b(?:eu\\s+)?nasci\\s+(?:e\\s+cresci\\s+)?(?:em|no|na)\\s+"
                    + "|\\b(?:eu\\s+)?cresci\\s+(?:em|no|na)\\s+");
    private static final String[] PLACE_CUTS = Lexicon.phrases("place-cuts");

    // ---- work
    private static final Pattern I_AM_A = Pattern.compile("\\b(?:i'm|im|i\\s+am)\\s+"
            // an age first: "I'm 34 and a carpenter"
            + "(?:\\d{1,3}(?:\\s+years\\s+old)?,?\\s+and\\s+)?" + ADV + "{0,2}"
            + "(?:(not|no\\s+longer)\\s+)?" + ADV + "{0,2}(?:an?\\s+)");
    private static final Pattern USED_TO_BE = Pattern.compile("\\bi\\s+used\\s+to\\s+be\\s+an?\\s+"
            + "|\\bi\\s+(?:quit|left)\\s+my\\s+job\\s+as\\s+an?\\s+|\\b(?:eu\\s+)?nao\\s+sou\\s+mais\\s+(?:um\\s+|uma\\s+)?");
    private static final Pattern JOB_STATUS = Pattern.compile(
            "\\b(?:i'm|im|i\\s+am)\\s+(?:now\\s+|currently\\s+)?(retired|unemployed|self-employed|between\\s+jobs)\\b"
                    + "|\\b(?:eu\\s+)?(?:sou|estou|to|tou)\\s+(?:agora\\s+)?(aposentad[oa]|desempregad[oa]|autonom[oa])\\b");
    /**
     * Who works, for the work rules: "I", "we", or the "and" of a sentence that opens on the speaker ("I
     * live in Montreal and work as a designer", "I rent a flat in Croydon and work at Tesco"; not "My
     * sister lives in Leeds and works at Tesco"), then adverbs of time or manner.
     */
    private static final String WORK_SUBJECT = "(?:\\b(?:i|we)|^(?:i|we)\\s[^.;!?]{1,80}?\\band)\\s+"
            + "(?:(?:currently|now|still|also|actually|remotely|full[\\s\\-]time|part[\\s\\-]time|freelance|mostly)\\s+)?";
    private static final Pattern WORK_AS = Pattern.compile(
            WORK_SUBJECT + "(?:work|freelance)\\s+as\\s+(?:an?\\s+)?"
                    + "|\\b(?:i'm|im|i\\s+am|we're|we\\s+are)\\s+(?:currently\\s+|now\\s+|still\\s+|also\\s+)?(?:working|freelancing)\\s+as\\s+(?:an?\\s+)?"
                    + "|\\bmy\\s+(?:job|profession|occupation)\\s+is\\s+(?:being\\s+)?(?:an?\\s+)?"
                    + "|\\b(?:eu\\s+)?(?:trabalho|atuo|estou\\s+trabalhando|to\\s+trabalhando)\\s+como\\s+(?:um\\s+|uma\\s+)?"
                    + "|\\bminha\\s+profissao\\s+e\\s+(?:um\\s+|uma\\s+)?");
    private static final Pattern SOU_JOB = Pattern.compile("(?:^|\\beu\\s+|[,;]\\s*|\\b(?:e|mas|agora|hoje)\\s+)sou\\s+"
            + "(?:agora\\s+|atualmente\\s+|hoje\\s+)?(?:um\\s+|uma\\s+)?");
    private static final Pattern WORK_AT_EN = Pattern.compile(
            WORK_SUBJECT + NEG_EN
                    + "(?:work|'m\\s+working|am\\s+working)\\s+(?:(?:remotely|full[\\s\\-]time|part[\\s\\-]time|freelance|mostly|"
                    + "currently|now)\\s+)?(?:in\\s+(?!(?:the|a|an|my|our|his|her|their|this|that|morning|mornings|evening|evenings|afternoon|afternoons|"
                    + "summer|winter|spring|autumn|fall)\\b)[a-z]{3,20}(?:\\s+[a-z]{3,20})?\\s+)?(?:at|for)\\s+"
                    + "|\\b(?:i'm|im)\\s+(?:currently\\s+|now\\s+|still\\s+)?working\\s+(?:at|for)\\s+"
                    + "|\\bi\\s+(?:just\\s+)?(?:got|landed|started|accepted|took)\\s+(?:a\\s+|my\\s+|the\\s+)?(?:new\\s+)?"
                    + "(?:job|position|role|internship)\\s+(?:at|with)\\s+"
                    + "|\\b(?:i'm|im|i\\s+am)\\s+employed\\s+(?:at|by)\\s+"
                    + "|\\bi\\s+(?:quit|left)\\s+my\\s+job\\s+at\\s+()"
                    + "|\\bi(?:\\s+lost\\s+my\\s+job\\s+(?:at|with)|(?:\\s+got|\\s+was|'ve\\s+been|\\s+have\\s+been|'m|\\s+am|\\s+just\\s+got)\\s+"
                    + "(?:fired|laid\\s+off|let\\s+go)\\s+(?:from|by))\\s+()");
    private static final Pattern WORK_AT_PT = Pattern.compile(
            "(?<!\\b(?:o|um|meu|seu|esse|este|nosso|do|no|de|bom|novo|primeiro|ultimo|teu|sua|meu)\\s)"
                    + "\\b(?:eu\\s+)?(?:(nao)\\s+)?(?:trabalho|estou\\s+trabalhando|to\\s+trabalhando)\\s+(mais\\s+)?"
                    + "(?:na|no|nos|nas|para\\s+a|para\\s+o|pra|pro|pela|pelo|em|para)\\s+"
                    + "|\\b(?:comecei|consegui|arrumei)\\s+(?:um\\s+)?(?:novo\\s+)?(?:emprego|trabalho|estagio)\\s+(?:na|no|em)\\s+");
    static final Set<String> NOT_AN_EMPLOYER = Lexicon.words("not-an-employer");
    private static final String[] JOB_CUTS = Lexicon.phrases("job-cuts");

    // ---- age and birthday
    /**
     * What may not follow "tenho / fiz N anos" in a statement of age: "de casada / de empresa" (but "de
     * idade"), "a mais que", "nessa empresa".
     */
    private static final String AGE_END = "(?!\\s+(?:de\\s+(?!idade\\b)|a\\s+mais\\b|a\\s+menos\\b|nessa\\b|nesta\\b|neste\\b"
            + "|nesse\\b|naquela\\b|na\\s+empresa\\b|no\\s+emprego\\b|no\\s+cargo\\b))\\b";
    /** A comparison or a simile, not an age: "I feel like I'm 80 years old", "I'm 5 years older". */
    /** A past tense after "As a N year old": the age of a memory, not the speaker's now. */
    private static final Pattern PAST = Pattern.compile("\\b(?:was|were|had|did|used\\s+to|\\w{3,}ed)\\b");
    /** An age of the mind, not of the body: "I'm 5 years old emotionally", "80 at heart". */
    private static final Pattern NOT_THE_BODY = Pattern.compile(
            "\\s*(?:emotionally|mentally|spiritually|at\\s+heart|inside|in\\s+spirit|in\\s+my\\s+head|in\\s+dog\\s+years"
                    + "|de\\s+cabeca|mentalmente|emocionalmente)\\b");
    private static final Pattern AGE_SIMILE = Pattern.compile("\\b(?:feel|feels|felt|look|looks|act|acts|as\\s+if|como\\s+se|parece)\\b");
    private static final Pattern AGE = Pattern.compile(
            "\\b(?:i'm|im|i\\s+am)\\s+(\\d{1,3})\\s*(?:years?\\s+old\\b|yo\\b|y/o|y\\.o\\.)"
                    + "|\\bi\\s+(?:just\\s+)?turned\\s+(\\d{1,3})\\b(?!\\s*(?:degrees|%|percent|pages?|times|minutes|mins|seconds|km|miles"
                    + "|points|pounds|kg|lbs|feet|ft|inches|cm|left|right|around))"
                    + "|(?:\\b(?:i'm|im|i\\s+am)\\s+a|^as\\s+a)\\s+(\\d{1,3})[\\s-]+(?:years?|yrs?)[\\s-]+old\\b"
                    // a person of that age: not "a 2-year-old's mom", "a 10-year-old company"
                    + "(?=\\s*(?:[,.!?;]|$)|\\s+(?:woman|man|guy|girl|lady|dude|gal|person|mom|mum|dad|mother|father|male|female"
                    + "|student|runner|beginner|newbie|grandma|grandpa|grandmother|grandfather|here|myself|and|with|who|trying|just"
                    + "|looking|living|working)\\b)"
                    + "|\\b(?:eu\\s+)?tenho\\s+(\\d{1,3})\\s+anos" + AGE_END + "|\\b(?:eu\\s+)?fiz\\s+(\\d{1,3})\\s+anos" + AGE_END
                    // a bare number that ends its clause: "I'm 41.", "I'm 29 and single", "my age is 44", "Age: 44"
                    // (not "I'm 5 minutes away", "I'm 100% sure", "I'm 30 pages in")
                    + "|(?:\\b(?:i'm|im|i\\s+am)(?:\\s+(?:now|only|just|almost|nearly))?|\\bmy\\s+age\\s+is|^age\\s*:)"
                    + "\\s+([1-9]\\d{1,2})(?=\\s*(?:[.!;,]|$)|\\s+(?:and|but|now|e|this\\s+year)\\b)");
    private static final Pattern BIRTHDAY = Pattern.compile(
            "\\bmy\\s+(?:birthday|bday|b-day|b'day)(?:'s|\\s+is|\\s+falls\\s+on)\\s+(?:on\\s+)?(?:the\\s+)?"
                    + "|^(?:birthday|bday|b-day)(?:'s|\\s+is)\\s+(?:on\\s+)?(?:the\\s+)?"
                    + "|\\bmeu\\s+aniversario\\s+e\\s+(?:dia\\s+|em\\s+|no\\s+dia\\s+)?"
                    + "|\\bi\\s+was\\s+born\\s+on\\s+|\\bnasci\\s+(?:no\\s+)?dia\\s+"
                    // "I was born 7 July 1990" (a date right after), "Faço anos a 2 de setembro"
                    + "|\\bi\\s+was\\s+born\\s+(?=\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct"
                    + "|nov|dec)|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\s+\\d)|\\bfaco\\s+(?:anos|aniversario)\\s+(?:a|no\\s+dia|dia|em)\\s+");

    // ---- relationship status
    private static final Pattern STATUS_EN = Pattern.compile(
            "\\b(?:i'm|im|i\\s+am)\\s+" + ADV + "{0,2}(?:(not|no\\s+longer)\\s+)?" + ADV + "{0,2}"
                    + "(single|married|engaged|divorced|widowed|separated|in\\s+a\\s+relationship)(?![\\w-])"
                    // "We got married on Saturday": the speaker and their partner
                    + "|\\b(?:i|we)\\s+" + ADV + "{0,2}got\\s+(married|engaged|divorced)(?![\\w-])");
    private static final Pattern STATUS_PT = Pattern.compile(
            "\\b(?:eu\\s+)?(?:(nao)\\s+)?(?:sou|estou|to|tou)\\s+(?:mais\\s+)?(solteir[oa]|casad[oa]|noiv[oa]"
                    + "|divorciad[oa]|viuv[oa]|separad[oa]|namorando)\\b"
                    // "me divorciei", "divorciei-me" (Portugal); not "separei as roupas" (the verb's other sense)
                    + "|\\b(?:eu\\s+)?(?:(nao|nunca)\\s+)?(?:me\\s+(?=(?:casei|divorciei|separei)\\b)|(?=(?:casei|divorciei|separei)-me\\b))"
                    + "(casei|divorciei|separei)(?:-me)?\\b"
                    + "|\\b(?:(nao)\\s+)?fiquei\\s+(noiv[oa]|viuv[oa])\\b");
    /** What makes a status not yet true: "when I'm married", "once I'm divorced", "I hope I'm engaged". */
    private static final Pattern NOT_YET = Pattern.compile(
            "\\b(?:when|once|until|till|hope|wish|someday|one\\s+day|if|unless|almost|nearly|quando|espero|um\\s+dia"
                    + "|quase|caso)\\b");
    /** "Today would have been our 10th wedding anniversary": a marriage that ended. */
    private static final Pattern WOULD_HAVE = Pattern.compile("\\b(?:would|would've|could|should|might)\\b");
    /** A person after a status's preposition: a relative, or someone ("engaged to a wonderful man"). */
    private static final Pattern A_PERSON = Pattern.compile(
            "\\s*(?:(?:my|our|a|an|the|this)\\s+)?(?:[a-z'\\-]+\\s+){0,2}(?:"
                    + String.join("|", Lexicon.RELATIONS.keySet().stream().sorted().toList())
                    + "|man|woman|guy|girl|person|someone|sweetheart|soulmate|ex|love\\s+of\\s+my\\s+life|fiance|fiancee|partner|boyfriend"
                    + "|girlfriend|best\\s+friend)\\b");
    /**
     * A status said by what the speaker goes through or celebrates: "going through a divorce", "we just
     * celebrated 10 years married", "our 5th wedding anniversary".
     */
    private static final Pattern STATUS_SAID_OTHERWISE = Pattern.compile(
            "\\b(?:i'm|im|i\\s+am|we're|we\\s+are)\\s+(?:currently\\s+|now\\s+|still\\s+)?(?:going\\s+through|in\\s+the\\s+middle\\s+of"
                    + "|getting)\\s+(?:a\\s+)?(divorce|divorced)\\b(?!\\s+(?:lawyer|attorney|papers|party|rate|court|mediator|settlement|for))"
                    + "|^(?:currently\\s+)?going\\s+through\\s+(?:a\\s+)?(divorce)\\b(?!\\s+(?:lawyer|attorney|papers|party|for))"
                    + "|(?:\\b(?:we|i|husband\\s+and\\s+i|wife\\s+and\\s+i)|\\bme\\s+and\\s+my\\s+(?:husband|wife|hubby|spouse))"
                    + "\\s+(?:just\\s+)?(?:celebrated|are\\s+celebrating|celebrate)\\s+"
                    + "(?:our\\s+)?(?:\\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty)"
                    + "\\s+years?\\s+(?:of\\s+(?:being\\s+)?)?(married|marriage)\\b"
                    + "|\\b(?:our|my)\\s+(?:\\d{1,2}(?:st|nd|rd|th)|first|second|third|fifth|tenth|twentieth)\\s+(wedding)\\s+anniversary\\b");
    private IdentityRules() {
    }

    static void apply(Sentence s, Facts out) {
        if (s.hasAny("name", "nome", "chamo", "call", "cham", "go by", "nickname", "apelido", "i'm ", "im ",
                "i am ", "sou ", " here", "this is ", "address me", "trate-me")) {
            names(s, out);
        }
        if (s.hasAny("language", "tongue", "native", "lingua", "idioma", "nativ", "grew up speaking")) {
            nativeLanguage(s, out);
        }
        if (s.hasAny("liv", "moved", "been ", "reside", " yrs", " years", "since 1", "since 2", "relocated", "based", "moro", "vivo", "mudei", "mudamos", "morando",
                "moramos", "vivemos", "resido")) {
            location(s, out);
        }
        if (s.hasAny("from", "born", "grew up", "sou d", "sou natural", "nasci", "cresci")) {
            origin(s, out);
        }
        if (s.hasAny("i'm", "im ", "i am", "work", "job", "profession", "occupation", "used to be", "sou", "trabalh",
                "atuo", "profissao", "estou", "emprego", "estagio", "employed", "fired", "laid off", "let go", "teach",
                "dou aula", "leciono", "for a living")) {
            job(s, out);
            employer(s, out);
        }
        if (s.hasAny("started", "began", "got ", "quit", "resigned", "retired", "no longer", "comecei", "consegui",
                "arrumei", "pedi ", "fui ", "aposentei")) {
            employerChange(s, out);
        }
        if (s.hasAny("old", "turned", "anos", " yo", "y/o", "age") || s.hasAny("i'm ", "im ", "i am ")
                && s.folded.chars().anyMatch(Character::isDigit)) {
            age(s, out);
        }
        if (s.hasAny("birthday", "bday", "b-day", "b'day", "aniversario", "born", "nasci", "faco anos")) {
            birthday(s, out);
        }
        if (s.hasAny("single", "married", "engaged", "divorce", "widowed", "separated", "relationship", "solteir",
                "casad", "noiv", "divorci", "viuv", "separ", "namorando", "casei", "wedding anniversary")) {
            relationship(s, out);
        }
    }

    /**
     * {@code user.relationship}, single-valued: "I'm single", "I got engaged", "I'm no longer married",
     * "sou casada", "me divorciei". "Married to my job" is no status.
     */
    private static void relationship(Sentence s, Facts out) {
        Matcher other = s.match(STATUS_SAID_OTHERWISE);
        if (!s.question && !s.conditional && !s.reported && other.find() && !s.negatedBefore(other.start())
                && !NOT_YET.matcher(s.folded).region(s.clauseStart(other.start()), other.start()).find()
                && !WOULD_HAVE.matcher(s.folded).region(s.clauseStart(other.start()), other.start()).find()) {
            String said = other.group(1) != null ? other.group(1) : other.group(2) != null ? other.group(2)
                    : other.group(3) != null ? other.group(3) : other.group(4);
            String status = said.startsWith("divorce") ? "going through a divorce" : "married";
            out.typed(MemoryKind.FACT, "user.relationship", status, Cardinality.SINGLE, Polarity.POSITIVE, Facts.NORMAL,
                    "%1$s is %2$s", "%1$s está %2$s");
            return;
        }
        Pattern first = s.pt() ? STATUS_PT : STATUS_EN;
        Matcher m = s.match(first);
        if (!m.find()) {
            m = s.match(s.pt() ? STATUS_EN : STATUS_PT); // a short turn's language is a guess
            if (!m.find()) {
                return;
            }
        }
        // every status of the sentence, in order: a later one of a turn replaces an earlier one ("I got
        // divorced last year but I'm engaged again")
        do {
            relationship(s, m, out);
        } while (m.find());
    }

    private static void relationship(Sentence s, Matcher m, Facts out) {
        // a status is read against its own clause only
        if (NOT_YET.matcher(s.folded).region(s.clauseStart(m.start()), m.start()).find()) {
            return; // "when I'm married I want three kids", "eu quase me casei": not a status (yet)
        }
        boolean pt = m.pattern() == STATUS_PT;
        String status;
        boolean negated;
        if (pt) {
            negated = m.group(1) != null || m.group(3) != null || m.group(5) != null;
            String said = m.group(2) != null ? m.group(2) : m.group(4) != null ? m.group(4) : m.group(6);
            status = switch (said) {
                case "casei" -> "casado(a)";
                case "divorciei" -> "divorciado(a)";
                case "separei" -> "separado(a)";
                default -> s.text.substring(m.start(m.group(2) != null ? 2 : 6), m.end(m.group(2) != null ? 2 : 6));
            };
            if (!personAfter(s, m.end(), "com", "de", "do", "da", "dos", "das", "a", "o")) {
                return; // "me separei do meu sócio", "sou casada com o meu trabalho" are no status
            }
        } else {
            negated = m.group(1) != null;
            int g = m.group(2) != null ? 2 : 3;
            if (!personAfter(s, m.end(g), "to", "from", "with", "in", "by", "on", "at", "into")) {
                return; // "married to my job", "engaged in a lawsuit", "divorced from reality"
            }
            status = s.text.substring(m.start(g), m.end(g)).toLowerCase(java.util.Locale.ROOT);
        }
        // the template of the words matched, whatever language the turn was guessed to be in
        String en = negated ? "%1$s is not %2$s" : "%1$s is %2$s";
        String ptText = negated ? "%1$s não está %2$s" : "%1$s está %2$s";
        out.typed(MemoryKind.FACT, "user.relationship", status, Cardinality.SINGLE,
                negated ? Polarity.NEGATIVE : Polarity.POSITIVE, Facts.NORMAL, pt ? ptText : en, pt ? ptText : en);
    }

    /**
     * Whether what follows {@code end} is no preposition of {@code prepositions}, or one followed by a
     * person: a capitalised name or a relative or someone within three words ({@link #A_PERSON}).
     */
    private static boolean personAfter(Sentence s, int end, String... prepositions) {
        String f = s.folded;
        for (String p : prepositions) {
            if (f.startsWith(" " + p + " ", end)) {
                int at = end + p.length() + 2;
                if (A_PERSON.matcher(f).region(at, f.length()).lookingAt()) {
                    return true;
                }
                // a name, after an article ("casada com o Paulo"): capitalised, or from one who writes
                // in lower case any word but a determiner
                Matcher article = NAME_ARTICLE.matcher(f).region(at, f.length());
                int name = article.lookingAt() ? article.end() : at;
                return name < s.text.length() && (Character.isUpperCase(s.text.charAt(name))
                        || lowerCaseWriter(s) && !DETERMINER.matcher(f).region(name, f.length()).lookingAt());
            }
        }
        return true;
    }

    // ------------------------------------------------------------------------------------------

    private static void names(Sentence s, Facts out) {
        Matcher m = s.match(MY_NAME);
        if (s.hasAny("name", "nome", "chamo", "called") && m.find()) {
            // "my name's been on my mind", "My name is hard to pronounce": "been", "hard" are no names
            // (not-a-name); a phone capitalises "My name is ana" for the writer, so no capital is asked for
            String name = name(s, m.end(), false);
            if (name != null) {
                out.typed(MemoryKind.FACT, "user.name", name, Cardinality.SINGLE, Polarity.POSITIVE, Facts.STRONG,
                        "%1$s's name is %2$s", "%1$s se chama %2$s");
            }
        }
        m = s.match(I_AM_NAME);
        if (m.lookingAt()) {
            String name = name(s, m.end(), true);
            if (name != null && endsAfterName(s, m.end() + name.length())) {
                out.typed(MemoryKind.FACT, "user.name", name, Cardinality.SINGLE, Polarity.POSITIVE, Facts.WEAK,
                        "%1$s's name is %2$s", "%1$s se chama %2$s");
            }
        }
        m = s.match(NAME_HERE);
        if (s.hasAny(" here", "this is ") && m.lookingAt() && !s.question) {
            boolean here = m.group("here") != null;
            int at = m.start(here ? "here" : "this");
            String word = m.group(here ? "here" : "this");
            String name = name(s, at, !(here && lowerCaseWriter(s)));
            if (name != null && name.length() == word.length() && !Lexicon.RELATIONS.containsKey(word)
                    && !Dates.CALENDAR_WORDS.contains(word)
                    && !Lexicon.JOBS.contains(word) && !NOT_A_NAME_HERE.contains(word)) {
                out.typed(MemoryKind.FACT, "user.name", name, Cardinality.SINGLE, Polarity.POSITIVE, Facts.WEAK,
                        "%1$s's name is %2$s", "%1$s se chama %2$s");
            }
        }
        m = s.match(CALL_ME);
        while (s.has("call") && m.find()) {
            String name = name(s, m.end(), !s.pt() && !lowerCaseWriter(s));
            // a lower-case name ends its phrase: "call me liz, …", not "call me dramatic but …"
            boolean ends = name == null || Character.isUpperCase(name.charAt(0)) || CALLED_ENDS.matcher(s.folded)
                    .region(Math.min(s.folded.length(), m.end() + name.length()), s.folded.length()).lookingAt();
            if (name != null && !othersCall(s, m.start()) && ends
                    && !NOT_CALLED.contains(Terms.foldKeepingLength(name).toLowerCase(java.util.Locale.ROOT))) {
                Polarity p = m.group(1) != null ? Polarity.NEGATIVE : Polarity.POSITIVE;
                addressAs(out, name, p);
            }
        }
        m = s.match(CALL_ME_EXPLICIT);
        if (s.hasAny("called", "addressed", "go by", "nickname", "chamad", "apelido", "calls me", "me chama",
                "address me", "trate-me", "chamem-me")
                && m.find()) {
            // "go by" takes a capitalised name, unless the speaker writes in lower case: "the name I go by
            // online" names no address; "my nickname is bia" does
            boolean goBy = s.folded.startsWith("i go by", m.start());
            if (!goBy || !GO_BY_MEANS.matcher(s.folded).region(m.end(), s.folded.length()).lookingAt()) {
                // what everyone calls them is a name only with a capital: "Everyone calls me crazy" is not
                boolean others = s.folded.startsWith("everyone", m.start()) || s.folded.startsWith("todo", m.start());
                // "Don't address me as sir": what the speaker does not want to be called
                addressAs(out, name(s, m.end(), (goBy || others) && !lowerCaseWriter(s)),
                        s.negatedBefore(m.start()) ? Polarity.NEGATIVE : Polarity.POSITIVE);
            }
        }
        m = s.match(ME_CHAME);
        if (s.has("cham") && m.find() && !othersCall(s, m.start())) {
            String name = name(s, m.end(), !lowerCaseWriter(s));
            addressAs(out, name, m.group(1) != null ? Polarity.NEGATIVE : Polarity.POSITIVE);
        }
    }

    private static final Pattern CALLED_ENDS = Pattern.compile(
            "\\s*(?:[,.!;]|$|(?:please|pls|plz|thanks|thx|instead|from\\s+now\\s+on|ok|okay|only|just)\\b)");

    /** What follows "call me" without being what to call the speaker: "call me later", "call me crazy". */
    private static final Set<String> NOT_CALLED = Set.of("later", "back", "tomorrow", "tonight", "anytime", "asap",
            "soon", "sometime", "crazy", "old-fashioned", "paranoid", "weird", "whatever", "when", "if", "at", "on",
            "now", "maybe", "please", "pls", "again", "first", "after", "before", "once", "today", "whenever",
            "sometimes", "naive", "stupid", "silly", "lazy", "picky", "biased", "skeptical", "cynical", "old",
            "sentimental", "selfish", "dumb", "nuts", "mad", "insane", "obsessed", "lucky", "impatient", "hun",
            "babe", "back later", "anything", "something", "names");

    /** Who "is here" without being a name: "Same here", "Nobody here", "Newbie here". */
    private static final Set<String> NOT_A_NAME_HERE = Set.of("same", "nobody", "noone", "everyone", "anyone",
            "someone", "newbie", "noob", "beginner", "expert", "veteran", "fellow", "lurker", "guest", "admin",
            "mod", "user", "me", "it", "this", "that", "what", "who", "hello", "hi", "hey", "still", "also", "just",
            "only", "new", "back", "again", "everybody", "somebody", "people", "folks", "guys", "team", "support",
            // "Looky here, …", "Listen here!", "Over here!": a call for attention, not a name
            "look", "looky", "lookie", "lookee", "listen", "right", "over", "come", "in", "out", "up", "down", "sit",
            "wait", "stay", "stop", "click", "start", "go", "get", "put", "check", "welcome", "sign", "tap", "near",
            "there", "here", "all", "nothing", "something", "anything", "everything", "nowhere", "somewhere",
            "done", "ok", "okay", "yes", "no", "yep", "nope", "thanks", "cheers", "goodbye", "bye", "morning",
            "evening", "night", "afternoon", "sunny", "rainy", "cold", "hot", "quiet", "busy", "dead", "home",
            // "Summer here!", "Lunchtime here.", "Chaos here.": a time or a state of the place
            "summer", "winter", "spring", "autumn", "fall", "lunchtime", "midnight", "noon", "bedtime", "dinnertime",
            "teatime", "chaos", "madness", "mayhem", "rain", "snow", "sun", "sunshine", "heat", "freezing", "crazy",
            "lunch", "dinner", "breakfast", "weekend", "today", "tonight", "tomorrow", "yesterday");

    /** Words before "call me" that make it what someone else calls the speaker ("My teacher used to call me Speedy"). */
    private static final Set<String> OTHER_CALLERS = Set.of("everyone", "everybody", "people", "they", "he", "she",
            "his", "her", "their", "friends", "used", "todo", "todos", "ele", "ela", "eles", "elas", "pessoal",
            "galera", "costumava", "costumavam", "mom", "dad", "mother", "father", "teacher", "boss", "mae", "pai");

    /** Whether the "call me" at {@code at} reports what others call the speaker, not what they want to be called. */
    private static boolean othersCall(Sentence s, int at) {
        for (String w : Terms.wordTokens(s.folded.substring(s.clauseStart(at), at))) {
            if (OTHER_CALLERS.contains(w)) {
                return true;
            }
        }
        return false;
    }

    private static void addressAs(Facts out, String name, Polarity polarity) {
        if (name == null) {
            return;
        }
        out.typed(MemoryKind.FACT, "user.address_as", name, Cardinality.SINGLE, polarity, Facts.STRONG,
                polarity == Polarity.POSITIVE ? "%1$s prefers to be called %2$s" : "%1$s does not want to be called %2$s",
                polarity == Polarity.POSITIVE ? "%1$s prefere ser chamado(a) de %2$s" : "%1$s não quer ser chamado(a) de %2$s");
    }

    /**
     * A person's name starting at {@code start}: an optional title ("Dra.") and up to three words;
     * with {@code requireCapital}, the first word must be capitalised in the original.
     */
    /** "RH", "TI": an acronym after a particle is a department, not a surname ("Pedro do RH"). */
    private static boolean allCaps(String word) {
        return word.length() >= 2 && word.equals(word.toUpperCase(java.util.Locale.ROOT));
    }

    static String name(Sentence s, int start, boolean requireCapital) {
        List<int[]> spans = Terms.tokenSpans(s.folded, start, s.folded.length());
        if (spans.isEmpty() || spans.get(0)[0] - start > 2) {
            return null;
        }
        int i = 0;
        int from = spans.get(0)[0];
        String firstWord = s.folded.substring(spans.get(0)[0], spans.get(0)[1]);
        if (TITLES.contains(firstWord) && spans.size() > 1) {
            i = 1;
        } else if ((firstWord.equals("o") || firstWord.equals("a")) && spans.size() > 1
                && Character.isUpperCase(s.text.charAt(spans.get(1)[0]))) {
            i = 1; // "sou casada com o Paulo"
            from = spans.get(1)[0];
        }
        if (i >= spans.size()) {
            return null;
        }
        int[] head = spans.get(i);
        String headFolded = s.folded.substring(head[0], head[1]);
        boolean capital = Character.isUpperCase(s.text.charAt(head[0]));
        if (NOT_A_NAME.contains(headFolded) || NAME_STOP.contains(headFolded) || Character.isDigit(headFolded.charAt(0))
                || (requireCapital && !capital) || headFolded.length() < 2 && !capital) {
            return null;
        }
        if (i == 1 && from == spans.get(0)[0] && !between(s, spans.get(0)[1], head[0], ". ")) {
            return null;
        }
        int end = head[1];
        int words = 1;
        int named = end; // the end of the last name word (not of a particle after it)
        for (int j = i + 1; j < spans.size() && words < 4; j++) {
            int[] w = spans.get(j);
            if (!between(s, end, w[0], " ")) {
                break;
            }
            String f = s.folded.substring(w[0], w[1]);
            boolean connector = f.equals("da") || f.equals("de") || f.equals("do") || f.equals("dos")
                    || f.equals("das") || f.equals("van") || f.equals("von");
            if (connector && j + 1 < spans.size() && Character.isUpperCase(s.text.charAt(spans.get(j + 1)[0]))
                    && !allCaps(s.text.substring(spans.get(j + 1)[0], spans.get(j + 1)[1]))) {
                end = w[1]; // "José da Silva", "Ludwig van Beethoven": the particle joins the next name
                continue;
            }
            if (!capital || !Character.isUpperCase(s.text.charAt(w[0])) || NAME_STOP.contains(f)
                    || NOT_A_NAME.contains(f)) {
                break;
            }
            end = w[1];
            named = end;
            words++;
        }
        return s.text.substring(from, named);
    }

    private static boolean between(Sentence s, int from, int to, String allowed) {
        for (int i = from; i < to; i++) {
            if (allowed.indexOf(s.folded.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /** "I'm Marina", "I'm Marina, nice to meet you", "I'm Marina from Recife" — not "I'm Marina's mom". */
    private static boolean endsAfterName(Sentence s, int end) {
        String rest = s.folded.substring(Math.min(end, s.folded.length())).strip();
        return rest.isEmpty() || ",.!;:(".indexOf(rest.charAt(0)) >= 0 || rest.startsWith("and ")
                || rest.startsWith("from ") || rest.startsWith("e ") || rest.startsWith("here")
                || rest.startsWith("btw") || rest.startsWith("by the way") || rest.startsWith("aqui")
                || rest.startsWith("da ") && s.pt() || rest.startsWith("do ") && s.pt();
    }

    private static void nativeLanguage(Sentence s, Facts out) {
        Matcher m = s.match(NATIVE_LANGUAGE);
        if (!m.find()) {
            return;
        }
        for (int g = 1; g <= m.groupCount(); g++) {
            if (m.group(g) != null && Lexicon.LANGUAGES.contains(m.group(g))) {
                String value = s.text.substring(m.start(g), m.end(g));
                out.typed(MemoryKind.FACT, "user.native_language", value, Cardinality.SINGLE, Polarity.POSITIVE,
                        Facts.STRONG, "%1$s's native language is %2$s", "A língua materna de %1$s é %2$s");
                return;
            }
        }
    }

    /** A move stated with where from ("I moved from Paris to Lisbon") or without its "I" ("Just moved to Lisbon!"). */
    private static final Pattern MOVED_FROM_TO = Pattern.compile(
            "\\b(?:i|we)\\s+(?:just\\s+|recently\\s+|finally\\s+)?(?:moved|relocated)\\s+(?:here\\s+)?from\\s+[^,;.!?]{1,40}?\\s+to\\s+"
                    + "|^(?:just\\s+|finally\\s+)?(?:moved|relocated)\\s+(?:back\\s+)?to\\s+");

    /** Whether {@code value} names a tool ("Kubernetes", "Python 3", "Java background"), not a place. */
    private static boolean tool(String value) {
        String[] words = Terms.foldKeepingLength(value).split(" ");
        return Lexicon.TECH.contains(String.join(" ", words)) || Lexicon.TECH.contains(words[0]) && words.length > 1
                && (Character.isDigit(words[1].charAt(0)) || TOOL_NOUNS.contains(words[1]));
    }

    private static final Set<String> TOOL_NOUNS = Set.of("background", "stack", "ecosystem", "world", "community");

    /** Whether the "from" side of "moved from X to Y" names a tool ("from Windows to Mac", "from Slack to Teams"). */
    private static boolean fromTool(Sentence s, Matcher m) {
        int from = s.folded.indexOf(" from ", m.start());
        if (from < 0 || from > m.end()) {
            return false;
        }
        int to = s.folded.lastIndexOf(" to ", m.end());
        return to > from && tool(s.text.substring(from + 6, to).strip());
    }

    /**
     * Where the speaker lives without an "I": a sentence that opens with it ("Been living in Ottawa since
     * 2019", "Based in Lisbon, working remotely", "Live in Denver now"), or a part after a comma, "and" or
     * "but" of a sentence that opens on the speaker ("I'm Nadia by the way, 31, based in Glasgow", "I'm
     * from Brazil but live in Toronto"). A sentence
     * without a subject after one about somebody else is theirs (the caller's rule).
     */
    private static final Pattern LIVE_NO_SUBJECT = Pattern.compile(
            "(?:^|^(?:i|i'm|im|i\\s+am)\\s[^.;!?]{0,60}?(?:,|\\s(?:and|but)))\\s*(?:(?:now|currently|still|just|been)\\s+){0,2}"
                    + "(?:been\\s+living|living|live|based|residing|settled)\\s+(?:in|at)\\s+");

    private static final Pattern FIRST_PERSON_OPENING = Pattern.compile("(?:i|i'm|im|i\\s+am)\\s");

    /** A noun phrase before the comma: the part after it may describe that person ("I have a sister, living in Paris"). */
    private static final Pattern NOUN_PHRASE = Pattern.compile("\\b(?:a|an|the|my|his|her|our|their|this|that|some)\\s");

    /** What takes the residence back after it: "…, well, not anymore", "no longer", "used to". */
    private static final Pattern NOT_ANY_MORE = Pattern.compile("\\b(?:not\\s+anymore|no\\s+longer|anymore|used\\s+to)\\b");

    /** A verb right after the place: the "living in X" phrase is a subject ("living in Tokyo is …"). */
    private static final Pattern GERUND_SUBJECT = Pattern.compile("\\s+(?:is|was|are|were|has|had|can|could|will|would|must|seems?)\\b");

    /**
     * Whether the phrase matched after a comma, "and" or "but" is the speaker's: the part before it
     * names nobody else ("I'm Nadia, 31, based in Glasgow"; not "I have a sister, living in Paris",
     * "I married a guy, born in Texas"). An opening phrase is the caller's to judge.
     */
    private static boolean ownClause(Sentence s, Matcher m) {
        int cut = m.end();
        String before = s.folded.substring(m.start(), cut).replace("by the way", "          ");
        int comma = Math.max(before.lastIndexOf(','), Math.max(before.lastIndexOf(" and "), before.lastIndexOf(" but ")));
        return comma < 0 || !NOUN_PHRASE.matcher(before.substring(0, comma)).find();
    }

    /** Where the speaker is from without an "I": "Originally from Winnipeg", "…, born and raised in Ohio". */
    private static final Pattern ORIGIN_NO_SUBJECT = Pattern.compile(
            "(?:^|,\\s+)(?:originally\\s+from|born\\s+and\\s+raised\\s+in|born\\s+in|raised\\s+in)\\s+");

    private static void location(Sentence s, Facts out) {
        Matcher m = s.match(s.pt() ? LIVE_PT : LIVE_EN);
        if (!m.find()) {
            m = s.match(s.pt() ? LIVE_EN : LIVE_PT);
            if (!m.find()) {
                m = s.match(LIVE_NO_SUBJECT);
                if (m.find() && !HYPERBOLE.matcher(s.folded).region(m.start(), m.end()).find()
                        && ownClause(s, m) && !NOT_ANY_MORE.matcher(s.folded).region(m.end(), s.folded.length()).find()) {
                    String place = place(s, m.end());
                    // a named place that ends the phrase ("living in Tokyo is a different story" is no home,
                    // "living in denial" no place)
                    if (place != null && !tool(place) && Character.isUpperCase(place.charAt(0))
                            && !GERUND_SUBJECT.matcher(Terms.foldKeepingLength(place)).find()
                            && !GERUND_SUBJECT.matcher(s.folded).region(Math.min(s.folded.length(),
                                    m.end() + place.length()), s.folded.length()).lookingAt()) {
                        out.typed(MemoryKind.FACT, "user.location", place, Cardinality.SINGLE, Polarity.POSITIVE,
                                Facts.NORMAL, "%1$s lives in %2$s", "%1$s mora em %2$s");
                    }
                    return;
                }
                m = s.match(MOVED_FROM_TO);
                if (!m.find()) {
                    beenInForYears(s, out);
                    return;
                }
                String place = place(s, m.end());
                if (place != null && !tool(place) && !fromTool(s, m)) {
                    out.typed(MemoryKind.FACT, "user.location", place, Cardinality.SINGLE, Polarity.POSITIVE,
                            Facts.STRONG, "%1$s lives in %2$s", "%1$s mora em %2$s");
                }
                return;
            }
        }
        if (m.pattern() == LIVE_EN && PAST_RESIDENCE.matcher(m.group()).find() && !s.anymoreIn(m.start(), m.end())) {
            return; // "I lived in Porto as a kid / until 2019": where they lived, not where they live
        }
        if (!m.group().contains("moved") && HYPERBOLE.matcher(s.folded).region(s.clauseStart(m.start()), m.end()).find()
                || m.pattern() == LIVE_PT && s.folded.startsWith("ao ", Math.max(0, m.start() - 3))) {
            return; // "I basically live in Excel", "praticamente moro na academia", "ao vivo no Maracanã"
        }
        String place = place(s, m.end());
        if (place == null || tool(place)) {
            return; // "We moved to Kubernetes / Python 3": a tool, not a home
        }
        boolean negated = m.pattern() == LIVE_EN ? m.group(1) != null || s.anymoreIn(m.start(), m.end())
                : m.group(1) != null;
        Polarity p = negated ? Polarity.NEGATIVE : Polarity.POSITIVE;
        boolean ended = HealthRules.ended(s, m.start(), m.end());
        out.typed(MemoryKind.FACT, "user.location", place, Cardinality.SINGLE, p, Facts.STRONG,
                negated ? ended ? "%1$s no longer lives in %2$s" : "%1$s does not live in %2$s" : "%1$s lives in %2$s",
                negated ? ended ? "%1$s não mora mais em %2$s" : "%1$s não mora em %2$s" : "%1$s mora em %2$s");
    }

    /** "been in Denver 3 yrs now", "I've been in Houston since 2015": a stay of years is a home. */
    private static final Pattern BEEN_IN = Pattern.compile(
            "(?:^|\\b(?:i've|ive|i\\s+have|we've|we\\s+have)\\s+)(?:now\\s+|also\\s+)?been\\s+(?:living\\s+|based\\s+)?in\\s+"
                    // the folded text reads "I've been" as "I'm" (Sentence.presentForPerfect)
                    + "|\\b(?:i'm|we're)\\s+(?:now\\s+|also\\s+)?(?:living\\s+|based\\s+)?in\\s+");
    /** The years of a stay, right after its place: "for 3 years", "3 yrs", "since 2015". */
    private static final Pattern FOR_YEARS = Pattern.compile(
            "\\s*,?\\s*(?:(?:for|about|over|almost|nearly|like|around)\\s+){0,2}(?:\\d{1,2}|a\\s+few|a\\s+couple\\s+(?:of\\s+)?|several"
                    + "|many|two|three|four|five|six|seven|eight|nine|ten|fifteen|twenty)\\+?\\s*(?:years?|yrs?)\\b"
                    + "|\\s*,?\\s*since\\s+((?:19|20)\\d{2})\\b");
    /** What one is "in" for years that is no place: a trade, an institution, a state. */
    private static final Set<String> NOT_A_HOME = Set.of("pain", "denial", "limbo", "accounting", "engineering",
            "congress", "parliament", "the office", "office", "power", "hiding", "trouble", "shock", "ops", "pr",
            "a relationship", "relationships", "hell", "heaven", "the zone", "shape", "touch", "contact", "a band",
            "sales and marketing", "government", "the government", "the senate", "senate", "court", "the hospital",
            "a coma", "labor", "labour", "mourning", "grief", "a rut", "survival mode", "crisis", "hospice", "marketing", "sales", "tech", "finance", "retail", "healthcare",
            "education", "management", "business", "law", "medicine", "nursing", "teaching", "it", "hr", "software",
            "construction", "hospitality", "banking", "insurance", "real estate", "consulting", "design", "journalism",
            "prison", "jail", "hospital", "rehab", "therapy", "school", "college", "uni", "university", "love",
            "charge", "debt", "recovery", "remission", "treatment", "lockdown", "quarantine", "isolation", "bed",
            "town", "the industry", "this industry", "industry", "the field", "this field", "the game", "service",
            "the army", "the navy", "the military", "the business", "ministry", "politics", "academia", "research");

    private static void beenInForYears(Sentence s, Facts out) {
        Matcher m = s.match(BEEN_IN);
        if (!m.find() || s.negatedBefore(m.start()) || !(m.start() == s.body || s.firstPerson)) {
            return;
        }
        Matcher years = FOR_YEARS.matcher(s.folded).region(m.end(), Math.min(s.folded.length(), m.end() + 60));
        int end = -1;
        while (years.find()) {
            end = years.start();
            break;
        }
        if (end <= m.end()) {
            return;
        }
        if (years.group(1) != null && Integer.parseInt(years.group(1)) >= s.today().getYear()) {
            return; // "since 2024" said in 2024: months, not years
        }
        String place = s.text.substring(m.end(), end).strip();
        String folded = Terms.foldKeepingLength(place).toLowerCase(java.util.Locale.ROOT);
        if (place.isEmpty() || Terms.wordTokens(folded).size() > 4 || NOT_A_HOME.contains(folded)
                || place.matches("[A-Z]{2,4}") // "AA", "IT", "HR": a group or a trade
                || DETERMINER.matcher(folded).lookingAt() || !folded.matches("[\\p{L}'\\- .]+")
                || !Character.isUpperCase(place.charAt(0)) && !lowerCaseWriter(s) || tool(place)) {
            return;
        }
        out.typed(MemoryKind.FACT, "user.location", Character.isUpperCase(place.charAt(0)) ? place
                        : Answers.capitalised(place), Cardinality.SINGLE, Polarity.POSITIVE, Facts.NORMAL,
                "%1$s lives in %2$s", "%1$s mora em %2$s");
    }

    private static final Pattern GREW_UP = Pattern.compile("\\b(?:grew\\s+up|cresci)\\b");

    private static void origin(Sentence s, Facts out) {
        Matcher m = s.match(ORIGIN);
        boolean found = m.find();
        if (!found && (s.subjectless || s.firstPerson)) {
            // "Originally from Winnipeg.", "Been living in Ottawa since 2019, originally from Winnipeg.", "I'm
            // Ana, born in Recife": a sentence without a subject, or one that opens on the speaker
            m = s.match(ORIGIN_NO_SUBJECT);
            found = m.find() && (s.subjectless || FIRST_PERSON_OPENING.matcher(s.folded).lookingAt()
                    && !NOUN_PHRASE.matcher(s.folded).region(0, m.start()).find());
        }
        if (found && !s.negatedBefore(m.start()) && !s.negatedBefore(m.end() - 1)
                // "I'm originally from Lagos but I grew up in London": where they grew up does not replace it
                && !(GREW_UP.matcher(m.group()).find() && out.has("user.origin"))) {
            String place = place(s, m.end());
            if (place != null && !tool(place)) {
                // "I come from Python (background)": a tool, not a place
                out.typed(MemoryKind.FACT, "user.origin", place, Cardinality.SINGLE, Polarity.POSITIVE, Facts.NORMAL,
                        "%1$s is from %2$s", "%1$s é de %2$s");
            }
        }
    }

    /** Words of a time that name no place: "1990 or 1991", "the 21st century", "Christmas 1990". */
    private static final Set<String> CALENDAR_FILLERS = Set.of("of", "de", "s", "or", "and", "to", "ou", "e", "a",
            "in", "em", "century", "centuries", "decade", "decades", "seculo", "decada", "christmas", "easter",
            "natal", "pascoa", "early", "late", "mid", "ish", "or so", "so");

    /**
     * Whether the folded value is a time: every word a number, a month, a weekday or a word of a time
     * ("may 1990", "2001", "the 90s", "1990 or 1991", "christmas 1990"), with at least one that is not
     * only a word of a time ("Natal" is a city as well as Christmas), or its first word a year ("1990 in").
     */
    private static boolean calendar(String folded) {
        boolean anchored = false;
        for (String w : Terms.wordTokens(folded)) {
            boolean filler = CALENDAR_FILLERS.contains(w);
            if (!w.chars().allMatch(Character::isDigit) && !Dates.CALENDAR_WORDS.contains(w)
                    && !filler && !w.matches("\\d+(?:'?s|ish|st|nd|rd|th)")) {
                // a year first is a time too ("1990 or so"), a house number is not ("221B Baker Street")
                return Terms.wordTokens(folded).stream().findFirst().orElse("").matches("(?:19|20)\\d\\d");
            }
            anchored |= !filler;
        }
        return anchored;
    }

    /**
     * A place name: capitalised (unless the user writes everything in lower case), not "a small flat";
     * after a common noun with an article, the named place it is in ("a small town in Ohio" → Ohio,
     * "de uma cidade pequena em Minas" → Minas).
     */
    private static String place(Sentence s, int start) {
        return place(s, start, true);
    }

    private static String place(Sentence s, int start, boolean orWithin) {
        String v = Values.phrase(s, start, s.folded.length(), PLACE_CUTS);
        if (v == null) {
            return null;
        }
        String f = Terms.foldKeepingLength(v);
        if (f.startsWith("my ") || f.startsWith("meu ") || f.startsWith("minha ") || f.equals("here")
                || f.equals("aqui") || f.equals("there") || f.equals("la") || f.startsWith("this ")
                || f.startsWith("that ") || f.equals("home") || f.equals("casa")) {
            return null;
        }
        if (calendar(f)) {
            // "I was born in May 1990": a time, not a place; "born in 1990 in Lisbon": the place after it
            int at = s.text.indexOf(v, start);
            return orWithin && at >= 0 ? within(s, at + v.length()) : null;
        }
        int at = s.text.indexOf(v, start);
        char first = v.charAt(0);
        boolean capital = Character.isUpperCase(first) || Character.isDigit(first);
        boolean articleLed = at >= 0 && ARTICLE_LED.matcher(s.folded).region(start, at).lookingAt();
        if (!capital && (!lowerCaseWriter(s) || articleLed)) {
            // a common noun: the named place it is in, only after an article ("a small town in Ohio",
            // not "from work in Boston"); from a lower-case writer, "a van down by the river" is none
            return orWithin && articleLed ? within(s, at + v.length()) : null;
        }
        return at >= 0 ? v : null;
    }

    /** The article Portuguese puts before a name ("com o Paulo", "da Ana"). */
    private static final Pattern NAME_ARTICLE = Pattern.compile("(?:o|a)\\s+");
    private static final Pattern DETERMINER = Pattern.compile(
            "(?:my|our|the|this|that|a|an|meu|minha|nosso|nossa|o|a|um|uma)\\b");
    private static final Pattern ARTICLE_LED = Pattern.compile("\\s*(?:a|an|the|um|uma|num|numa)\\s+");

    /** The capitalised place right after {@code end} as "in X" / "em X" ("a small town| in Ohio"). */
    private static String within(Sentence s, int end) {
        for (String in : new String[] {" in ", " em ", " no ", " na "}) {
            if (s.folded.startsWith(in, end)) {
                String v = place(s, end + in.length(), false);
                return v != null && (Character.isUpperCase(v.charAt(0)) || lowerCaseWriter(s)) ? v : null;
            }
        }
        return null;
    }

    /** Whether the speaker writes without capitals (then names cannot be recognised by case). */
    static boolean lowerCaseWriter(Sentence s) {
        for (int i = 0; i < s.text.length(); i++) {
            if (Character.isUpperCase(s.text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** "I teach high school chemistry", "dou aula de matemática": what the speaker teaches is their job. */
    private static final Pattern TEACH = Pattern.compile(
            "\\bi\\s+(?:(?:currently|now|still|also|actually)\\s+)?teach\\s+(?!(?:my|our|his|her|their|them|him|me|you|"
                    + "people|kids|children|myself|it|this|that|the|a|an|how|what|at|in|on|part|for|online|remotely|from|full|"
                    + "sometimes|occasionally|privately|there|here)\\b)"
                    + "|\\b(?:eu\\s+)?(?:dou\\s+aulas?\\s+de|leciono)\\s+");

    /** Where what is taught ends: a clause, a place or a time ("chemistry, so …", "maths at a school in Leeds"). */
    private static final Pattern TAUGHT_END = Pattern.compile(
            "[,.;!?(]|\\s(?:at|in|to|for|so|and|but|because|since|on|every|numa?|em|para|porque|mas|e|desde|ha)\\s");

    private static void taught(Sentence s, Facts out) {
        Matcher m = s.match(TEACH);
        if (!m.find() || s.negatedBefore(m.start()) || s.conditional) {
            return;
        }
        Matcher end = TAUGHT_END.matcher(s.folded).region(m.end(), s.folded.length());
        int stop = end.find() ? end.start() : s.folded.length();
        String subject = s.text.substring(m.end(), stop).strip();
        int words = subject.isEmpty() ? 0 : subject.split("\\s+").length;
        if (words >= 1 && words <= 4 && Values.accept(subject, s.folded.substring(m.end(), stop).strip()) != null) {
            out.typed(MemoryKind.FACT, "user.job", subject, Cardinality.SINGLE, Polarity.POSITIVE, Facts.NORMAL,
                    "%1$s teaches %2$s", "%1$s dá aula de %2$s");
        }
    }

    /** "I do accounting for a living", "I fix cars for a living": what the speaker lives on is their job. */
    private static final Pattern FOR_A_LIVING = Pattern.compile(
            "\\b(?:i|we)\\s+(?:(do)|(?:make|write|teach|sell|fix|build|design|drive|paint|translate|cook|clean|repair))"
                    + "\\s+(?!(?:not|never|nothing|this|that|it)\\b)([a-z][a-z' \\-]{2,40}?)\\s+for\\s+a\\s+living\\b");

    private static void job(Sentence s, Facts out) {
        if (s.has("for a living")) {
            Matcher living = s.match(FOR_A_LIVING);
            if (living.find() && !s.negatedBefore(living.start()) && !s.conditional) {
                int from = living.group(1) != null ? living.start(2) : s.folded.indexOf(' ', living.start()) + 1;
                out.typed(MemoryKind.FACT, "user.job", s.text.substring(from, living.end(2)), Cardinality.SINGLE,
                        Polarity.POSITIVE, Facts.NORMAL, "%1$s does %2$s for a living", "%1$s trabalha com %2$s");
                return;
            }
        }
        if (s.hasAny("teach", "dou aula", "leciono")) {
            int before = out.mark();
            taught(s, out);
            if (out.mark() > before) {
                return;
            }
        }
        Matcher m = s.match(JOB_STATUS);
        if (s.hasAny("retired", "employed", "between jobs", "aposentad", "desempregad", "autonom") && m.find()) {
            int g = m.group(1) != null ? 1 : 2;
            if (s.negatedBefore(m.start(g)) || s.negatedBefore(m.start())) {
                return; // "Não estou desempregado", "I'm not retired": no status said
            }
            out.typed(MemoryKind.FACT, "user.job", s.text.substring(m.start(g), m.end(g)), Cardinality.SINGLE,
                    Polarity.POSITIVE, Facts.NORMAL, "%1$s is %2$s", "%1$s está %2$s");
            return;
        }
        m = s.match(WORK_AS);
        if (s.hasAny("work", "job", "profession", "occupation", "trabalh", "atuo", "profissao", "freelanc") && m.find()) {
            int[] span = Values.span(s, m.end(), s.folded.length(), JOB_CUTS);
            if (span != null) {
                String v = Values.accept(s.text.substring(span[0], span[1]), s.folded.substring(span[0], span[1]));
                if (v != null && (jobRun(s, span[0]) != null || occupation(Terms.foldKeepingLength(v)))) {
                    out.typed(MemoryKind.FACT, "user.job", v, Cardinality.SINGLE, Polarity.POSITIVE, Facts.STRONG,
                            "%1$s works as %2$s", "%1$s trabalha como %2$s");
                    employerAfter(s, span[1], out);
                    return;
                }
            }
        }
        m = s.match(USED_TO_BE);
        if (s.hasAny("used to", "quit", "left", "nao sou mais") && m.find()) {
            int[] job = jobWords(s, m.end());
            if (job != null) {
                out.typed(MemoryKind.FACT, "user.job", s.text.substring(job[0], job[1]), Cardinality.SINGLE,
                        Polarity.NEGATIVE, Facts.NORMAL, "%1$s no longer works as %2$s", "%1$s não trabalha mais como %2$s");
                return;
            }
        }
        m = s.match(s.pt() ? SOU_JOB : I_AM_A);
        while ((s.pt() ? s.has("sou") : s.hasAny(" a ", " an ")) && m.find()) {
            int[] job = jobWords(s, m.end());
            if (job == null && !s.pt() && m.group(1) == null) {
                job = roleAtNamedPlace(s, m.end());
            }
            if (job != null) {
                boolean negated = !s.pt() && m.group(1) != null;
                String v = s.text.substring(job[0], job[1]);
                out.typed(MemoryKind.FACT, "user.job", v, Cardinality.SINGLE,
                        negated ? Polarity.NEGATIVE : Polarity.POSITIVE, Facts.NORMAL,
                        negated ? "%1$s is not a %2$s" : "%1$s works as %2$s",
                        negated ? "%1$s não é %2$s" : "%1$s trabalha como %2$s");
                employerAfter(s, job[1], out);
                return;
            }
        }
    }

    /** What one is at a named place without working there: "a guest at Marriott", "a regular at Starbucks". */
    private static final Set<String> NOT_A_ROLE = Set.of("guest", "regular", "customer", "member", "patient", "visitor",
            "fan", "client", "subscriber", "tourist", "passenger", "big", "huge", "lifelong", "loyal", "frequent",
            "newbie", "beginner", "noob", "student", "resident", "tenant", "shareholder", "investor", "user", "donor",
            "little", "bit", "tad", "lot", "kind", "sort");
    private static final Pattern AT_A_NAME = Pattern.compile("\\s+(?:at|for)\\s+(?=\\p{Lu})");

    /**
     * A role the job list does not know, said with the named organisation it is held at: "I'm a
     * biostatistician at Harvard", "I'm a dental hygienist at Smile Co" (one to three lower-case words,
     * then "at" or "for" and a capitalised name); not what one is at a place without working there.
     */
    private static int[] roleAtNamedPlace(Sentence s, int start) {
        List<int[]> spans = Terms.tokenSpans(s.folded, start, s.folded.length());
        for (int k = 0; k < Math.min(3, spans.size()); k++) {
            int[] w = spans.get(k);
            String word = s.text.substring(w[0], w[1]);
            if (!word.chars().allMatch(c -> Character.isLowerCase(c) || c == '-') || k == 0
                    && (NOT_A_ROLE.contains(word) || NOT_A_JOB.contains(word) || SELF_ASSESSMENT.contains(word))
                    || Lexicon.STOP.contains(word)) {
                return null;
            }
            if (AT_A_NAME.matcher(s.text).region(w[1], s.text.length()).lookingAt()
                    && !NOT_A_ROLE.contains(word) && !word.endsWith("ed") && !word.endsWith("ly") && !word.endsWith("ing")) {
                return new int[] {spans.get(0)[0], w[1]};
            }
        }
        return null;
    }

    /** Words a job never starts with: a manner, a judgement, a group or a place ("My job is killing me", "We work as a team"). */
    private static final Set<String> NOT_A_JOB = Set.of("hard", "fine", "ok", "okay", "great", "good", "bad", "stressful",
            "boring", "fun", "tough", "difficult", "easy", "killing", "exhausting", "demanding", "awesome", "amazing",
            "terrible", "horrible", "cool", "nice", "interesting", "hell", "team", "group", "unit", "family", "one",
            "in", "at", "on", "for", "with", "like", "as", "from", "em", "no", "na", "de", "com", "dificil", "facil",
            "chato", "chata", "otimo", "otima", "bom", "boa", "ruim", "cansativo", "cansativa", "estressante", "louco",
            "louca", "camelo", "condenado", "condenada", "equipe", "time", "legal", "incrivel", "horrivel", "pesado",
            "pesada", "tranquilo", "tranquila", "so", "very", "really", "too", "pretty", "muito", "bem", "mal",
            // similes: "Eu trabalho como um cão", "I work like a dog"
            "cao", "cachorro", "burro", "mula", "escravo", "escrava", "doido", "doida", "maquina", "cavalo", "formiga",
            "dog", "horse", "slave", "machine", "mule", "maniac", "robot", "robo", "animal");

    /** Whether the folded value after "I work as" / "my job is" can be an occupation: no manner, judgement or first person. */
    private static boolean occupation(String folded) {
        List<String> words = Terms.wordTokens(folded);
        if (words.isEmpty() || NOT_A_JOB.contains(words.get(0))) {
            return false;
        }
        for (String w : words) {
            if (Lexicon.FIRST_PERSON.contains(w) || w.equals("mim")) {
                return false; // "killing me", "fine I guess", "as hard as I can"
            }
        }
        return true;
    }

    /** Words before a job that say it is not the speaker's job now: "a retired nurse", "a former teacher", "an aspiring actor". */
    private static final Set<String> NOT_NOW = Set.of("retired", "former", "ex", "aspiring", "future", "wannabe",
            "would-be", "upcoming", "prospective", "trainee-to-be", "aposentado", "aposentada", "ex-", "futuro", "futura",
            "aspirante");
    /** Judgements before a role noun, which then says how well the speaker does it: "I'm a terrible cook myself". */
    private static final Set<String> SELF_ASSESSMENT = Set.of("great", "terrible", "bad", "good", "decent", "awful",
            "amazing", "horrible", "lousy", "poor", "excellent", "fantastic", "wonderful", "natural", "born", "better",
            "worse", "best", "worst", "mediocre", "hopeless", "pretty", "crap", "crappy", "shit", "shitty", "okay",
            "ok", "competent", "incompetent", "pessimo", "pessima", "otimo", "otima", "bom", "boa", "mau", "ma");
    /** Words after a job word that make it something the speaker likes: "a Doctor Who fan". */
    private static final Set<String> FAN_WORDS = Set.of("fan", "fans", "lover", "enthusiast", "fanatic", "buff", "nerd",
            "geek", "addict", "fa", "fanatico", "fanatica");
    private static final Pattern AGE_PREFIX = Pattern.compile("\\d{1,3}[\\s-]+years?[\\s-]+old\\s+|\\d{1,3}[\\s-]+y/?o\\s+");

    /** The shortest run of up to four words from {@code start} that ends in a job word ("software engineer"). */
    private static int[] jobWords(Sentence s, int start) {
        Matcher age = AGE_PREFIX.matcher(s.folded).region(start, s.folded.length());
        if (age.lookingAt()) {
            start = age.end(); // "a 34 year old nurse": the nurse
        }
        int[] job = jobRun(s, start);
        if (job == null) {
            return null;
        }
        List<String> before = Terms.wordTokens(s.folded.substring(job[0], job[1]));
        if (!before.isEmpty() && (NOT_NOW.contains(before.get(0)) || SELF_ASSESSMENT.contains(before.get(0)))) {
            return null; // "a retired nurse"; "a terrible cook", "a great driver": how well, not a job
        }
        List<int[]> after = Terms.tokenSpans(s.folded, job[1], s.clauseEnd(job[1]));
        for (int k = 0; k < Math.min(3, after.size()); k++) {
            if (FAN_WORDS.contains(s.folded.substring(after.get(k)[0], after.get(k)[1]))) {
                return null; // "a Doctor Who fan", "a big Chef Ramsay fan"
            }
        }
        return job;
    }

    private static int[] jobRun(Sentence s, int start) {
        List<int[]> spans = Terms.tokenSpans(s.folded, start, s.folded.length());
        int limit = Math.min(4, spans.size());
        for (int k = 0; k < limit; k++) {
            if (k > 0 && !s.folded.substring(spans.get(k - 1)[1], spans.get(k)[0]).isBlank()) {
                return null;
            }
            String w = s.folded.substring(spans.get(k)[0], spans.get(k)[1]);
            if (k > 0) {
                String bigram = s.folded.substring(spans.get(k - 1)[0], spans.get(k)[1]).replaceAll("\\s+", " ");
                if (Lexicon.JOBS.contains(bigram)) {
                    return new int[] {spans.get(0)[0], spans.get(k)[1]};
                }
            }
            if (Lexicon.JOBS.contains(w)) {
                int end = spans.get(k)[1];
                // "engenheiro de software", "professor de matemática", "analista de sistemas"
                if (s.pt() && k + 2 < spans.size()) {
                    String of = s.folded.substring(spans.get(k + 1)[0], spans.get(k + 1)[1]);
                    if ((of.equals("de") || of.equals("da") || of.equals("do"))
                            && s.folded.substring(end, spans.get(k + 2)[0]).equals(" " + of + " ")) {
                        end = spans.get(k + 2)[1];
                    }
                }
                return new int[] {spans.get(0)[0], end};
            }
            if (w.equals("of") || w.equals("de") || w.equals("and") || w.equals("e") || w.equals("at")) {
                return null;
            }
        }
        return null;
    }

    private static final Pattern EMPLOYER_AFTER = Pattern.compile(
            "\\s+(?:at|for|na|no|para\\s+a|para\\s+o|pela|pelo)\\s+");

    private static void employerAfter(Sentence s, int from, Facts out) {
        Matcher m = EMPLOYER_AFTER.matcher(s.folded).region(from, s.folded.length());
        if (m.lookingAt()) {
            employerValue(s, m.end(), Polarity.POSITIVE, out);
        }
    }

    /** A named employer the speaker starts at: "I just started at Acme", "Got a job at Google!", "Comecei a trabalhar na Ambev". */
    private static final Pattern JOIN = Pattern.compile(
            "\\bi\\s+(?:just\\s+|recently\\s+)?(?:started|began)\\s+(?:working\\s+|work\\s+|a\\s+new\\s+job\\s+|my\\s+new\\s+job\\s+)?"
                    + "(?:at|for)\\s+|^(?:just\\s+|recently\\s+)?(?:started|began)\\s+(?:working|a\\s+new\\s+job|my\\s+new\\s+job)\\s+"
                    + "(?:at|for)\\s+|^(?:just\\s+)?got\\s+(?:a|an|my|the)\\s+(?:new\\s+)?(?:job|position|role|internship|offer)"
                    + "\\s+(?:at|with)\\s+|\\b(?:eu\\s+)?comecei\\s+a\\s+trabalhar\\s+(?:na|no|em|pra|para)\\s+"
                    + "|\\b(?:eu\\s+)?(?:consegui|arrumei)\\s+(?:um\\s+)?(?:emprego|trampo|estagio)\\s+(?:na|no|em)\\s+");
    /** The words of {@link #JOIN} that say the name after them is where the speaker works. */
    private static final Pattern JOB_NOUN = Pattern.compile(
            "\\b(?:working|work|job|position|role|internship|offer|trabalhar|emprego|trampo|estagio)\\b");
    /** A named employer the speaker leaves: "I quit Google", "I'm no longer at Google", "Pedi demissão da Vale". */
    private static final Pattern LEAVE = Pattern.compile(
            "\\bi\\s+(?:just\\s+)?(?:quit|resigned\\s+from|retired\\s+from)\\s+"
                    + "|\\b(?:i'm|im|i\\s+am)\\s+no\\s+longer\\s+(?:at|working\\s+(?:at|for))\\s+"
                    + "|\\b(?:eu\\s+)?pedi\\s+(?:demissao|as\\s+contas)\\s+(?:da|do|na|no)\\s+"
                    + "|\\b(?:eu\\s+)?fui\\s+(?:demitid[oa]|mandad[oa]\\s+embora)\\s+(?:da|do)\\s+"
                    + "|\\b(?:eu\\s+)?(?:me\\s+)?aposentei\\s+(?:da|do|na|no)\\s+");

    /** Starting at or leaving a named employer, when no other employer statement was read. */
    private static void employerChange(Sentence s, Facts out) {
        if (out.producedInSentence("user.employer")) {
            return;
        }
        Matcher m = s.match(JOIN);
        Polarity p = Polarity.POSITIVE;
        if (!m.find()) {
            m = s.match(LEAVE);
            p = Polarity.NEGATIVE;
            if (!m.find()) {
                return;
            }
        }
        String v = employerName(s, m.end(), true);
        // "I quit Friday", "I started at Python": after these verbs a day or a tool is no employer; after
        // a job ("Got a job at Netflix", "started working at Spotify") a known product's name is its maker
        boolean job = p == Polarity.POSITIVE && JOB_NOUN.matcher(m.group()).find();
        if (v != null && !Dates.CALENDAR_WORDS.contains(Terms.foldKeepingLength(v).split(" ")[0])
                && (job || !Lexicon.TECH.contains(Terms.foldKeepingLength(v)))) {
            employer(out, v, p);
        }
    }

    private static void employer(Sentence s, Facts out) {
        if (out.producedInSentence("user.employer") || !s.hasAny("work", "job", "position", "role", "internship",
                "employed", "fired", "laid off", "let go", "trabalh", "emprego", "estagio")) {
            return;
        }
        // every statement of the sentence, in order: the last one stands ("I was fired from Google but now
        // I work at Meta"), as a later single value of a turn replaces an earlier one; a later statement
        // names an employer only with a name ("I work at Google, where I work for the ads team")
        Matcher m = s.match(s.pt() ? WORK_AT_PT : WORK_AT_EN);
        List<int[]> found = new java.util.ArrayList<>(); // start, end, negated, lost
        while (m.find()) {
            boolean lost = !s.pt() && m.group(3) != null;
            boolean negated = s.pt() ? m.group(1) != null : m.group(1) != null || m.group(2) != null || lost;
            found.add(new int[] {m.start(), m.end(), negated ? 1 : 0, lost ? 1 : 0});
        }
        for (int i = 0; i < found.size(); i++) {
            int[] f = found.get(i);
            if (!s.pt() && relativeClause(s, f[0])) {
                continue;
            }
            // "anymore" negates its own statement only: "I don't work at Google anymore, I work at Meta"
            int until = i + 1 < found.size() ? found.get(i + 1)[0] : s.folded.length();
            String own = s.folded.substring(f[1], until);
            boolean negated = f[2] == 1 || !s.pt() && (own.contains("anymore") || own.contains("any more"));
            // after "lost my job at" or "fired from" only a name is an employer: "at 50", "with no
            // warning", "from work", "by the new manager" are not
            // nor does a statement that ends something name one without a name ("I never work for free")
            employerValue(s, f[1], negated ? Polarity.NEGATIVE : Polarity.POSITIVE, f[3] == 1 || i > 0 || negated, out);
        }
    }

    /**
     * Times and amounts, which no employer is: "I work at 9 / 7am / noon", "for 8 hours a day", "for 3
     * clients" (a number then a plural noun); "3M" and "7-Eleven" are not of this shape.
     */
    private static final Pattern NOT_AN_EMPLOYER_SHAPE = Pattern.compile(
            "\\d{1,2}(?:[:h.]\\d{2})?\\s?(?:am|pm|a\\.m\\.|p\\.m\\.|h|o'clock)?(?:\\s.*)?|noon|midnight|dawn|meio-dia|meia-noite"
                    + "|(?:\\d+|a\\s+few|several|many|two|three|four|five|six|seven|eight|nine|ten|dois|duas|tres|quatro|cinco)"
                    + "\\s+\\p{L}+s(?:\\s.*)?");

    /** A noun phrase that opens the sentence right before "I work at": "the shop (that) I work at". */
    private static final Pattern RELATIVE_HEAD = Pattern.compile(
            "(?:the|this|that|these|those|my|our|his|her|their)\\s+((?:[a-z'\\-]+\\s+){1,3}?)(?:(?:that|which|who)\\s+)?");

    /**
     * Whether the "I work at" found at {@code at} is a relative clause of the noun phrase that opens the
     * sentence ("The shop I work at closes early", "The company that I work for got acquired"): what
     * follows its preposition is the sentence's own predicate, not an employer, and a single-valued
     * employer must never be superseded by it. "The thing is I work for Google" has a verb before it.
     */
    private static boolean relativeClause(Sentence s, int at) {
        Matcher head = RELATIVE_HEAD.matcher(s.folded).region(s.body, at);
        if (!head.matches()) {
            return false;
        }
        for (String w : head.group(1).strip().split("\\s+")) {
            if (Lexicon.FINITE_VERBS.contains(w) || w.equals("and") || HEAD_NOT_A_THING.contains(w)) {
                return false; // "The thing is I work…", "My wife and I work…", "These days I work…"
            }
        }
        return true;
    }

    /** Nouns of a sentence-opening time phrase, which is no relative clause's head ("this year I work at"). */
    private static final Set<String> HEAD_NOT_A_THING = Set.of("day", "days", "week", "weeks", "month", "months",
            "year", "years", "morning", "mornings", "evening", "evenings", "night", "nights", "weekend", "weekends",
            "summer", "winter", "spring", "fall", "autumn", "time", "semester", "season", "moment");

    private static void employerValue(Sentence s, int start, Polarity p, Facts out) {
        employerValue(s, start, p, false, out);
    }

    private static void employerValue(Sentence s, int start, Polarity p, boolean named, Facts out) {
        String v = employerName(s, start, named);
        if (v != null) {
            employer(out, v, p);
        }
    }

    /** The employer named from {@code start} on, or null; with {@code named} only a capitalised name. */
    private static String employerName(Sentence s, int start, boolean named) {
        String v = Values.phrase(s, start, s.folded.length(), " as ", " como ", " since ", " desde ", " for ",
                " in ", " em ", " and ", " e ", " with ", " com ", " ha ", " right now", " now", " agora", " anymore", " mais",
                " on ", " during ", " durante ", " last ", " next ", " yesterday", " ontem");
        if (v == null || NOT_AN_EMPLOYER.contains(Terms.foldKeepingLength(v))
                || TIME_FIRST.matcher(Terms.foldKeepingLength(v)).lookingAt() // "I quit in 2021 to open a bakery"
                || v.matches("\\d{1,4}(?:\\s+\\p{Ll}.*)?") // "2021 to open a bakery"; not "7-Eleven", "24 Hour Fitness"
                || v.equals(v.toLowerCase(java.util.Locale.ROOT))
                && NOT_AN_EMPLOYER_SHAPE.matcher(Terms.foldKeepingLength(v)).matches()) {
            return null;
        }
        String f = Terms.foldKeepingLength(v);
        if (f.startsWith("my ") || f.startsWith("meu ") || f.startsWith("minha ") || f.startsWith("home")
                || f.equals("my") || named && !Character.isUpperCase(v.charAt(0)) && !lowerCaseWriter(s)) {
            return null;
        }
        return v;
    }

    /** A time or a preposition first: no employer's name ("in 2021 to open my own bakery", "last week"). */
    private static final Pattern TIME_FIRST = Pattern.compile(
            "(?:in|on|at|for|since|last|this|next|after|before|to|when|because|yesterday|today|tomorrow|recently|again"
                    + "|about|around|almost|nearly|over|roughly|like|some|a\\s+few|a\\s+couple"
                    + "|em|no|na|ontem|hoje)\\b");

    private static void employer(Facts out, String v, Polarity p) {
        out.typed(MemoryKind.FACT, "user.employer", v, Cardinality.SINGLE, p, Facts.NORMAL,
                p == Polarity.POSITIVE ? "%1$s works at %2$s" : "%1$s no longer works at %2$s",
                p == Polarity.POSITIVE ? "%1$s trabalha em %2$s" : "%1$s não trabalha mais em %2$s");
    }

    private static void age(Sentence s, Facts out) {
        Matcher m = s.match(AGE);
        if (m.find() && !AGE_SIMILE.matcher(s.folded).region(s.clauseStart(m.start()), m.start()).find()
                && !NOT_THE_BODY.matcher(s.folded).region(m.end(), s.folded.length()).lookingAt()
                // "As a 5 year old, I loved trains": a past age; "As a 52 year old woman, is lifting safe?" is now
                && !(s.folded.startsWith("as a", m.start())
                && PAST.matcher(s.folded).region(m.end(), s.folded.length()).find())) {
            for (int g = 1; g <= m.groupCount(); g++) {
                if (m.group(g) != null) {
                    int years = Integer.parseInt(m.group(g));
                    if (years >= 1 && years <= 120) {
                        out.typed(MemoryKind.FACT, "user.age", Integer.toString(years), Cardinality.SINGLE,
                                Polarity.POSITIVE, Facts.NORMAL, "%1$s is %2$s years old", "%1$s tem %2$s anos");
                    }
                    return;
                }
            }
        }
    }

    /** A date counted from today, which is no birthday: "in 3 weeks", "daqui a 3 dias". */
    private static final Pattern RELATIVE_DAY = Pattern.compile("(?:in|em|daqui\\s+a|dentro\\s+de)\\s+\\d");

    private static void birthday(Sentence s, Facts out) {
        Matcher m = s.match(BIRTHDAY);
        if (m.find()) {
            String v = Values.phrase(s, m.end(), s.folded.length(), " and ", " e ", " so ", " but ");
            if (v != null && v.chars().anyMatch(Character::isDigit) && !RELATIVE_DAY.matcher(Terms.foldKeepingLength(v)).lookingAt()) {
                out.typed(MemoryKind.FACT, "user.birthday", v, Cardinality.SINGLE, Polarity.POSITIVE, Facts.NORMAL,
                        "%1$s's birthday is %2$s", "O aniversário de %1$s é %2$s");
            }
        }
    }
}
