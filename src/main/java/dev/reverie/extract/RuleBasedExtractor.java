package dev.reverie.extract;

import dev.reverie.Role;
import dev.reverie.internal.PastedContent;
import dev.reverie.internal.Terms;
import dev.reverie.spi.ExtractedFact;
import dev.reverie.spi.Extractor;
import dev.reverie.spi.Subjects;
import dev.reverie.spi.TurnInput;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The default {@link Extractor}: deterministic rules for English and Portuguese, no model, a few
 * tens of microseconds per turn. It splits a turn into sentences, skips greetings, thanks, filler and
 * questions, and for each statement applies typed rules, then plans and dated events, then the
 * episodic fallback. Reported speech ("she told me she lives in Paris", quotes with a first person
 * inside) yields no typed fact, and rules only fire on a first-person subject, so "my sister likes
 * jazz" is family information, never {@code user.likes}.
 *
 * <p>Subjects are normalised keys {@code <owner>.<attribute>} (see {@link Subjects}). The rules below
 * are written for {@code user.}; a user turn with a {@link TurnInput#speaker()} (a household, a group
 * chat, a multi-party transcript) puts its facts under the speaker's key instead
 * ({@code ana.location}, and the text carries the name), so two people in one scope never share
 * a subject:
 * <ul>
 *   <li>single-valued FACTs: {@code user.name}, {@code user.address_as} ("call me X", "me chame de X"),
 *       {@code user.native_language}, {@code user.location} ("I live in Recife", "moro em Lisboa"),
 *       {@code user.origin} ("I'm from", "sou de"), {@code user.job}, {@code user.employer},
 *       {@code user.age}, {@code user.birthday}, {@code user.relationship} ("I'm single", "I got
 *       engaged", "sou casada");</li>
 *   <li>multi-valued FACTs: {@code user.allergy} (value = allergen), {@code user.health},
 *       {@code user.family.<relation>} (relation in English: mother, daughter, children, ...; value =
 *       name, count, or what is said about them), {@code user.pet} (name, else species);</li>
 *   <li>PREFERENCEs: {@code user.likes}, {@code user.dislikes}, {@code user.diet} (multi),
 *       {@code user.preference} (multi), {@code user.favorite.<thing>} (single);</li>
 *   <li>SKILL: {@code user.skill} (multi);</li>
 *   <li>EVENTs (value = the statement, text = "Speaker: sentence"): {@code user.plan},
 *       {@code user.event} (first person with a resolved date), and the fallback
 *       {@code user.episode.<10 hex digits of a stable hash of the folded sentence>};</li>
 *   <li>STYLE (single, one per signal and turn): {@code user.style.length}, {@code user.style.language},
 *       {@code user.style.emoji}, {@code user.style.formality}.</li>
 * </ul>
 * Negations ("I no longer eat meat", "não sou mais alérgica a X") give {@code NEGATIVE} polarity;
 * corrections ("Actually, it's Anna", "na verdade é X", "I meant X") replace the value of the last
 * single-valued fact of the same turn. Relative dates resolve against {@link TurnInput#at()} in UTC
 * (see {@code Dates}). ASSISTANT turns, named or not, never yield a fact about the user: only the
 * assistant's own positive plans ("I'll send you the summary tomorrow"), as EVENTs with subject
 * {@code assistant.commitment}. TOOL turns yield only low-confidence episodes with subject
 * {@code tool.episode.<hash>}.
 *
 * <p>Immutable and thread-safe; {@link #extract} never throws (any internal failure yields an empty
 * list) and bounds its work: at most {@value #MAX_TEXT_CHARS} characters (of a longer user text, a
 * document taken for pasted, only the user's words above it) and {@value #MAX_SENTENCES} sentences of a
 * turn are read.
 */
public final class RuleBasedExtractor implements Extractor {

    /** Words that add to what was said rather than correct it: "Actually I'm also allergic to cashews". */
    private static final java.util.regex.Pattern ADDING = java.util.regex.Pattern.compile(
            "\\b(?:also|too|as\\s+well|another|additionally|plus|tambem|mais\\s+um)\\b");

    /**
     * What introduces a text the assistant writes for the user to send, in the user's voice: what
     * follows it in the turn is the draft, not the assistant's own word ("Here's a draft:", "You could
     * reply something like:", "Aqui vai uma sugestão de mensagem:").
     */
    private static final java.util.regex.Pattern DRAFT_INTRO = java.util.regex.Pattern.compile(
            "\\b(?:draft|reply|response|message|text|e-?mail|note|version|template|wording|caption|post|letter|dm"
                    + "|something\\s+(?:like|along\\s+these\\s+lines)|you\\s+(?:could|can|might)\\s+(?:say|send|write|reply|use)"
                    + "|rascunho|resposta|mensagem|sugestao|texto|algo\\s+como|voce\\s+pode\\s+(?:dizer|mandar|escrever|responder))"
                    + "\\b[^:\\n]{0,60}:");

    /**
     * Characters of a turn the extractor reads: of a tool's output or an assistant's answer the first
     * ones (the rest stays in the session archive); a user's text longer than this is a document, taken
     * for pasted: only the user's words above it are read ({@code PastedContent.saidWords}).
     */
    public static final int MAX_TEXT_CHARS = PastedContent.MAX_READ_CHARS;
    /** Sentences of a turn the extractor reads. */
    public static final int MAX_SENTENCES = 64;

    private static final Pattern CORRECTION_BODY = Pattern.compile(
            "^(?:it's|it\\s+is|its|that's|that\\s+is|it\\s+was|i\\s+meant|i\\s+mean|quis\\s+dizer|quer\\s+dizer|eh|e"
                    + "|era|o\\s+certo\\s+e)\\s+");
    private static final Pattern MEANT = Pattern.compile("^(?:i\\s+meant|quis\\s+dizer)\\s+");

    private final boolean styleFacts;
    private final boolean episodes;
    private final int episodeMinContentWords;

    /** An extractor with the defaults: style facts and episodes on, episodes from four content words. */
    public RuleBasedExtractor() {
        this(new Builder());
    }

    private RuleBasedExtractor(Builder b) {
        this.styleFacts = b.styleFacts;
        this.episodes = b.episodes;
        this.episodeMinContentWords = b.episodeMinContentWords;
    }

    /** A builder to switch style facts or episodes off, or to change how substantive an episode must be. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public List<ExtractedFact> extract(TurnInput turn) {
        try {
            return run(turn);
        } catch (RuntimeException | StackOverflowError e) {
            return List.of(); // the contract: never throw, whatever the text
        }
    }

    private List<ExtractedFact> run(TurnInput turn) {
        if (turn == null || turn.text() == null || turn.text().isBlank()) {
            return List.of();
        }
        boolean named = turn.speaker() != null && !turn.speaker().isBlank();
        String text = turn.text();
        if (turn.role() == Role.USER) {
            // an email, article or code block the user pastes is somebody else's words (DESIGN §6); a
            // text longer than MAX_TEXT_CHARS is a document, taken for a paste as the rendering and the
            // session summary take it: only the user's words above it are theirs, not its first characters
            text = PastedContent.saidWords(text);
        } else {
            if (text.length() > MAX_TEXT_CHARS) {
                text = text.substring(0, MAX_TEXT_CHARS);
            }
            if (turn.role() == Role.ASSISTANT) {
                text = PastedContent.ownWords(text);
            }
        }
        if (text.isBlank()) {
            return List.of();
        }
        java.time.LocalDate today = turn.at().atOffset(java.time.ZoneOffset.UTC).toLocalDate();
        List<Sentence> sentences = Sentence.split(text, MAX_SENTENCES, today);
        int en = 0;
        int pt = 0;
        for (Sentence s : sentences) {
            en += s.enScore;
            pt += s.ptScore;
        }
        Sentence.Lang turnLang = pt > en ? Sentence.Lang.PT : Sentence.Lang.EN;
        for (Sentence s : sentences) {
            s.lang = s.ptScore > s.enScore ? Sentence.Lang.PT : s.enScore > s.ptScore ? Sentence.Lang.EN : turnLang;
        }
        // a person named "Assistant" is described as "User (Assistant)": a fact never reads as the assistant's
        // a tool is named as a tool whatever its name ("Tool (system)", never "User (system)")
        String who = turn.role() == Role.TOOL
                ? (named ? "Tool (" + dev.reverie.internal.RoleNames.shown(turn.speaker()) + ")" : "Tool")
                : named ? dev.reverie.internal.RoleNames.person(turn.speaker().strip())
                : turn.role() == Role.ASSISTANT ? "Assistant"
                : turnLang == Sentence.Lang.PT ? "Usuário" : "User";
        Facts facts = new Facts(who, turn.at(), Subjects.owner(turn.role(), turn.speaker()));

        if (turn.role() == Role.TOOL) {
            for (Sentence s : sentences) {
                if (!s.filler && !s.question && s.contentWords >= episodeMinContentWords) {
                    facts.begin(s);
                    EventRules.episode(s, facts, "user.episode.", Facts.THIRD_PARTY);
                }
            }
            return facts.list();
        }
        if (turn.role() == Role.ASSISTANT) {
            // what the assistant says is never a fact about the user: only its own commitments count; a
            // draft it writes for the user ("Here's a reply you could send: …") holds none of them
            boolean drafting = false;
            for (Sentence s : sentences) {
                drafting |= DRAFT_INTRO.matcher(s.folded).find();
                if (!drafting && !s.filler && !s.question && !s.reported && !s.conditional) {
                    facts.begin(s);
                    EventRules.plansAndEvents(s, facts);
                }
            }
            return facts.commitments();
        }

        // "Are you vegetarian?" → "Yep, for about six years now.": a yes to a question about the speaker
        // says what the question asked, in the speaker's words
        Sentence asked = confirmed(turn.before(), sentences, today);
        if (asked != null) {
            int mark = facts.mark();
            facts.begin(asked);
            typedRules(asked, facts);
            facts.annotateFrom(mark, (asked.pt() ? " (respondendo a \"" : " (answering \"")
                    + clip(Answers.lastQuestion(turn.before()), 120) + "\": \""
                    + clip(sentences.get(0).whole(), 120) + "\")");
        }
        // "Where are you based these days?" → "manchester! moved up from london last spring": a short answer
        // to a question about the speaker says what the question asked
        Answers.Answered answered = asked == null ? Answers.of(turn.before(), turn.speaker(), sentences, today) : null;
        if (answered != null) {
            int mark = facts.mark();
            for (Sentence statement : answered.statements()) {
                facts.begin(statement);
                typedRules(statement, facts);
            }
            facts.keepFrom(mark, answered.attribute()); // what the question asked, nothing the statement adds
            List<String> unsaid = new ArrayList<>();
            for (Sentence statement : answered.statements()) {
                unsaid.add(statement.whole());
            }
            facts.annotateFrom(mark, (answered.statements().get(0).pt() ? " (respondendo a \"" : " (answering \"")
                    + clip(answered.question(), 120) + "\": \"" + clip(sentences.get(0).whole(), 120) + "\")", unsaid);
        }
        List<Sentence> statements = new ArrayList<>();
        int previous = facts.mark(); // where the last statement's facts start, for a "Just kidding" after it
        // whether the sentence before named somebody else as whom it is about; the turn before counts when
        // somebody else asked about a person ("How is your sister doing?" → "Allergic to shellfish now.")
        boolean aboutSomeoneElse = Sentence.asksAboutSomeoneElse(turn.before());
        for (Sentence sentence : sentences) {
            Sentence s = sentence;
            if (s.opensFiction()) {
                break; // "Let's role-play: … I live in Madrid": the rest of the turn is in character
            }
            if (s.takesBack()) {
                facts.dropFrom(previous); // "I work at Google. Just kidding, I'm unemployed."
            }
            // "Oh she's great. Moved to Manchester last month.", "My sister? Allergic to shellfish now.": a
            // sentence without a subject right after one about somebody else goes on about them; any other
            // sentence ends that ("My brother is visiting. Work is crazy. Started at Amazon …" is the speaker's)
            boolean afterSomeoneElse = aboutSomeoneElse;
            boolean theirs = aboutSomeoneElse && s.subjectless && !s.aboutSomeoneElse;
            // a short answer of how they are ("Good! Moved to Phoenix in April.") keeps them the topic
            aboutSomeoneElse = s.aboutSomeoneElse || theirs || aboutSomeoneElse && s.answerOnly;
            // "Did you see Carol? Moved to Lyon last month, apparently.": hearsay is somebody else's news
            theirs |= s.subjectless && s.hearsay;
            if (s.question) {
                // "I'm vegan, what should I cook tonight?": the statement before the question is read
                s = s.leadingStatement();
                if (s == null) {
                    continue;
                }
            }
            if (s.filler) {
                continue;
            }
            previous = facts.mark();
            statements.add(s);
            if (theirs) {
                // no fact of the speaker's, typed or dated; the episode keeps the sentence as it was said
                if (episodes && s.contentWords >= episodeMinContentWords && (named || s.firstPerson)) {
                    facts.begin(s);
                    EventRules.episode(s, facts, "user.episode.", Facts.EPISODE);
                }
                continue;
            }
            List<Sentence> clauses = s.clauses();
            boolean typed = false;
            for (Sentence clause : clauses) {
                facts.begin(clause);
                if (!reported(clause, turn.speaker()) && !clause.conditional) {
                    typedRules(clause, facts);
                    if (!facts.producedInSentence()) {
                        correction(clause, facts);
                    } else if ((clause.correction || s.correction) && !ADDING.matcher(clause.folded).find()) {
                        facts.correctEarlier(); // "I'm allergic to almonds. Scratch that, I'm allergic to cashews."
                    }
                }
                typed |= facts.producedInSentence();
            }
            if (!typed && !afterSomeoneElse && !reported(s, turn.speaker()) && !s.conditional && !s.aboutSomeoneElse) {
                // "quit drinking in march", "newly single and thriving": the "I" left out, read as said with it
                Sentence restored = withTheI(s);
                if (restored != null) {
                    int mark = facts.mark();
                    facts.begin(restored);
                    typedRules(restored, facts);
                    typed = facts.producedInSentence();
                    facts.requoteFrom(mark, restored.whole(), s.whole());
                    facts.begin(s);
                }
            }
            if (clauses.size() > 1) {
                facts.begin(s); // events and episodes read the whole sentence
            }
            boolean dated = !typed && !reported(s, turn.speaker()) && !s.conditional && EventRules.plansAndEvents(s, facts);
            if (!typed && !dated && episodes && s.contentWords >= episodeMinContentWords && (named || s.firstPerson)) {
                EventRules.episode(s, facts, "user.episode.", Facts.EPISODE);
            }
        }
        if (styleFacts && !statements.isEmpty()) {
            facts.begin(null);
            StyleRules.apply(text, statements, turnLang, facts);
        }
        return facts.list();
    }

    /**
     * Whether {@code s} is someone else's words: reported speech, or a colon label that names another
     * person; a label that is the speaker's own name ("Rita: I live in Lisbon" said by Rita, a
     * transcript pasted with names) is theirs.
     */
    private static boolean reported(Sentence s, String speaker) {
        if (!s.reported) {
            return false;
        }
        if (s.speech || s.label == null || speaker == null || speaker.isBlank()) {
            return true;
        }
        String name = Terms.foldKeepingLength(speaker.strip()).replaceAll("\\s+", " ");
        String first = name.split(" ")[0];
        return !(s.label.equals(name) || s.label.equals(first));
    }

    /** A yes, first in an answer: "Yes", "Yep, …", "That's right", "Sim, …", "Claro". */
    private static final Pattern YES = Pattern.compile(
            "^(?:yes|yeah|yep|yup|yea|correct|exactly|that's\\s+right|thats\\s+right|right|indeed|of\\s+course|sure|"
                    + "definitely|absolutely|sim|isso|exato|exatamente|claro|com\\s+certeza|si)"
                    // the yes alone, before punctuation or "I am / I do": "Right now I eat everything", "Isso
                    // depende do dia", "Yeah right" are no yes
                    + "(?:\\s*(?:[,.!;:\\u2014\\u2013\\-]|$)|\\s+(?:i\\s+(?:am|do|have)|i'm|sou|moro|tenho|trabalho)\\b)");

    /** What takes a yes back or narrows it: "Yes, but not anymore", "Yeah, except on Fridays", "Sim, mas…". */
    private static final Pattern NOT_QUITE = Pattern.compile(
            "\\b(?:not|no|never|n't|no\\s+longer|anymore|but|except|used\\s+to|kind\\s+of|sort\\s+of|sometimes|mostly|"
                    + "mainly|partly|almost|somewhat|ish|former|formerly|retired|ex|technically|depends|trying|try|"
                    + "weekdays|weekends|on\\s+and\\s+off|well|nao|mas|nem|exceto|as\\s+vezes|mais\\s+ou\\s+menos|"
                    + "quase|depende|tentando|aposentad[oa])\\b|n't\\b");

    /** A question that asks under a condition or between choices: a yes to it states neither. */
    private static final Pattern NOT_PLAIN_QUESTION = Pattern.compile(
            "\\b(?:if|whether|unless|or|ou|caso)\\b|^se\\s");

    /**
     * A question about the listener that a yes makes a statement of: "are you X?" → "I'm X", "do you
     * live/work/have X?" → "I live/work/have X", "you're X, right?" → "I'm X", "você é/mora/trabalha/tem
     * X?" → "Eu sou/moro/trabalho/tenho X". Groups: the verb's first-person form is chosen by the caller.
     */
    private static final Pattern ASKED_ABOUT_YOU = Pattern.compile(
            "\\b(?<are>are\\s+you|you(?:'re|\\s+are))\\s+(?:still\\s+|currently\\s+|now\\s+)?(?<what>[^?.!]{2,80}?)"
                    + "(?:,?\\s+(?:right|correct|is\\s+that\\s+right|aren't\\s+you))?\\s*\\?"
                    + "|\\b(?:do\\s+you|you)\\s+(?:still\\s+|currently\\s+)?(?<verb>live|work|have|speak|own)\\s+(?<rest>[^?.!]{2,80}?)"
                    + "(?:,?\\s+(?:right|correct|is\\s+that\\s+right|don't\\s+you))?\\s*\\?"
                    + "|\\bvoce\\s+(?:ainda\\s+)?(?<pverb>e|mora|trabalha|tem|fala)\\s+(?<prest>[^?.!]{2,80}?)"
                    + "(?:,?\\s+(?:ne|certo|nao\\s+e))?\\s*\\?");

    /**
     * The statement a yes makes of the question before it, or null: the turn before (somebody else's)
     * asks the speaker about themself, and the answer's first sentence opens with a yes and nothing in
     * the answer takes it back or narrows it.
     */
    private static Sentence confirmed(String before, List<Sentence> answer, java.time.LocalDate today) {
        if (before == null || answer.isEmpty() || before.indexOf('?') < 0) {
            return null;
        }
        Sentence first = answer.get(0);
        if (first.question || first.conditional || !YES.matcher(first.folded).lookingAt()) {
            return null;
        }
        for (Sentence s : answer) {
            if (NOT_QUITE.matcher(s.folded).find() || s.takesBack() || s.conditional) {
                return null; // "Yes, mostly", "Yes! Just kidding.", "Yeah right"
            }
        }
        String question = Answers.lastQuestion(before);
        String folded = Terms.foldKeepingLength(question);
        Matcher m = ASKED_ABOUT_YOU.matcher(folded);
        if (!m.find() || NOT_PLAIN_QUESTION.matcher(folded).find()) {
            return null; // "If you're vegetarian, should I skip the bacon?", "Denver or Boulder?"
        }
        if (m.group("pverb") != null && m.group("pverb").equals("e") && question.charAt(m.start("pverb")) == 'e') {
            return null; // "você e o João": "and", not "é"
        }
        String said;
        if (m.group("are") != null) {
            said = "I'm " + question.substring(m.start("what"), m.end("what"));
        } else if (m.group("verb") != null) {
            said = "I " + m.group("verb") + " " + question.substring(m.start("rest"), m.end("rest"));
        } else {
            String verb = switch (m.group("pverb")) {
                case "e" -> "sou";
                case "mora" -> "moro";
                case "trabalha" -> "trabalho";
                case "fala" -> "falo";
                default -> "tenho";
            };
            said = "Eu " + verb + " " + question.substring(m.start("prest"), m.end("prest"));
        }
        if (said.matches("(?i).*\\b(?:your|you|seu|sua)\\b.*")) {
            return null; // "are you and your wife…", "do you have your passport": not a plain fact of the speaker
        }
        return Sentence.of(said + ".", m.group("pverb") != null ? Sentence.Lang.PT : Sentence.Lang.EN, today);
    }

    /**
     * The first words of a sentence whose "I" was left out, and which form of it they take: "been" and
     * "gone" take "I've", a state ("newly single", "allergic to …", "vegan since …") takes "I'm", a verb
     * ("quit drinking", "can't stand …", "turned 30", "got laid off from …") takes "I".
     */
    private static final Pattern ELIDED_I = Pattern.compile(
            "(?<have>been|gone)\\b"
                    // a state, not an adjective before a noun ("Single parents have it hard", "Pregnant women …")
                    + "|(?<am>(?:(?:newly|happily|recently|just|finally|officially)\\s+)?(?:single|married|engaged|divorced"
                    + "|widowed|allergic|pregnant|retired|obsessed)|(?:a\\s+)?(?:big|huge|massive)\\s+fan|not\\s+a\\s+(?:big\\s+)?fan"
                    + "|originally\\s+from)\\b(?=\\s*(?:[,.!;:?]|$)|\\s+(?:and|again|now|for|since|to|with|of|at|from|but|so|lol|haha"
                    + "|tbh|honestly|finally|officially|today|yesterday|last|this|af|rn|atm|as|\\p{L}+ly)\\b|\\s+\\p{Lu})"
                    // a past or a negated verb ("quit drinking", "can't stand …"): not an imperative ("Speak French please")
                    + "|(?<verb>quit|stopped|gave\\s+up|can't|cant|cannot|turned|retired|got|started|moved|grew\\s+up|went"
                    + "|just|finally|recently|still|studied)\\b");
    /** A first-person subject: the sentence has its "I". */
    private static final Pattern OWN_SUBJECT = Pattern.compile("\\b(?:i|i'm|im|i've|ive|i'd|i'll|we|we're|we've)\\b");
    /** A verb after the opening phrase: it was a subject ("Work at Google sounds fun", "Living in Lisbon is …"). */
    private static final Pattern PREDICATE_AFTER = Pattern.compile(
            "\\b(?:is|are|was|were|sounds|seems|looks|takes|costs|makes|means|helps|gets)\\b");

    /** {@code s} said with its "I" ("quit drinking" → "I quit drinking"), or {@code null} when it opens otherwise. */
    private static Sentence withTheI(Sentence s) {
        if (s.pt() || s.question || s.hedged) { // "Married, I think.": a guess, not a statement
            return null;
        }
        Matcher m = ELIDED_I.matcher(s.folded).region(s.body, s.folded.length());
        if (!m.lookingAt()) {
            return null;
        }
        int phraseEnd = s.clauseEnd(m.end());
        for (int i = m.end(); i < phraseEnd; i++) {
            if (s.folded.charAt(i) == ',' || s.folded.charAt(i) == ';') {
                phraseEnd = i; // "happily engaged to the love of my life, wedding is in october": the phrase ends here
                break;
            }
        }
        // a subject of its own in the phrase ("married, we moved …" is read by the rules as said)
        if (PREDICATE_AFTER.matcher(s.folded).region(m.end(), phraseEnd).find()
                || OWN_SUBJECT.matcher(s.folded).region(s.body, phraseEnd).find()) {
            return null;
        }
        String rest = s.text.substring(s.body).strip();
        String with = m.group("have") != null ? "I've " : m.group("am") != null ? "I'm " : "I ";
        return Sentence.of(with + rest, Sentence.Lang.EN, s.today());
    }

    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "…";
    }

    /** The rules of typed facts (identity, health, preferences, family, skills), in order. */
    private static void typedRules(Sentence s, Facts facts) {
        IdentityRules.apply(s, facts);
        HealthRules.apply(s, facts);
        PreferenceRules.apply(s, facts);
        FamilyRules.apply(s, facts);
        SkillRules.apply(s, facts);
    }

    /**
     * "Actually, it's Anna" / "Na verdade é Anna" / "I meant Lisbon" / "Sorry, it's Anna": a new value
     * for the turn's last single fact. Only a value its own rule would have read counts: the sentence
     * that said the old value, with the new one in its place, must yield the same subject with the new
     * value ("Sorry, long day" after "I'm 34 years old" is no age, "Actually, it's complicated" after
     * "I'm married" no relationship status, "Sorry for the typo" after "My name is Anna" no name), and a
     * capitalised value (a name, a place, an employer) is corrected only by a capitalised one.
     */
    private static void correction(Sentence s, Facts facts) {
        Matcher meant = s.match(MEANT);
        if (!s.correction && !meant.lookingAt()) {
            return;
        }
        Matcher m = s.match(CORRECTION_BODY);
        int start = m.lookingAt() ? m.end() : s.body;
        String value = Values.phrase(s, start, s.folded.length(), " not ", " nao ");
        if (value == null || Terms.wordTokens(Terms.foldKeepingLength(value)).size() > 4) {
            return;
        }
        Facts.Last last = facts.lastSingle();
        if (last != null && readAsItsOwn(last, value.strip(), facts)) {
            facts.correctLast(value);
        }
    }

    /** Whether {@code value} in the place of {@code last}'s value makes its sentence yield it for the same subject. */
    private static boolean readAsItsOwn(Facts.Last last, String value, Facts facts) {
        String old = last.fact().value();
        String said = last.sentence().text;
        int at = said.indexOf(old);
        if (at < 0 || value.isEmpty()) {
            return false;
        }
        for (String w : Terms.wordTokens(Terms.foldKeepingLength(value))) {
            if (Lexicon.FIRST_PERSON.contains(w)) {
                return false; // "Sorry, I'm rambling": a remark about the speaker, not a value
            }
        }
        boolean mixedCase = !said.equals(said.toLowerCase(java.util.Locale.ROOT));
        if (mixedCase && Character.isUpperCase(old.codePointAt(0)) && !Character.isUpperCase(value.codePointAt(0))) {
            return false;
        }
        Sentence probe = Sentence.of(said.substring(0, at) + value + said.substring(at + old.length()),
                last.sentence().lang, last.sentence().today());
        Facts scratch = facts.scratch();
        scratch.begin(probe);
        typedRules(probe, scratch);
        String subject = Subjects.attribute(last.fact().subject());
        for (ExtractedFact f : scratch.list()) {
            if (Subjects.attribute(f.subject()).equals(subject) && f.value().equalsIgnoreCase(value)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Options of a {@link RuleBasedExtractor}. Not thread-safe; build once and share the extractor.
     */
    public static final class Builder {
        private boolean styleFacts = true;
        private boolean episodes = true;
        private int episodeMinContentWords = 4;

        private Builder() {
        }

        /** Whether turns yield STYLE facts (default true). */
        public Builder styleFacts(boolean enabled) {
            this.styleFacts = enabled;
            return this;
        }

        /** Whether statements no rule captured become episodic EVENT facts (default true). */
        public Builder episodes(boolean enabled) {
            this.episodes = enabled;
            return this;
        }

        /** Content words (not function words or filler) a statement needs to become an episode (default 4). */
        public Builder episodeMinContentWords(int words) {
            if (words < 1) {
                throw new IllegalArgumentException("episodeMinContentWords must be at least 1, was " + words);
            }
            this.episodeMinContentWords = words;
            return this;
        }

        public RuleBasedExtractor build() {
            return new RuleBasedExtractor(this);
        }
    }
}
