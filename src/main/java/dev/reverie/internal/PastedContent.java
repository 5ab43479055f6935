package dev.reverie.internal;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Finds what a user turn pastes rather than says: a code block, quoted lines ({@code > …}), copied chat
 * and log lines, markup, an email with its headers or below a reply or forward line, a text handed over
 * with a request ("Summarize this article: …", "Can you reply to this email?" followed by the email,
 * "translate to english pls:", "Segue o texto: …") or by a source that speaks ("my landlord wrote:"),
 * and a quoted passage in which somebody else says "I". Those words are somebody else's — an email's
 * "I'm allergic to peanuts" is its writer's — so no fact about the speaker is read from them; they stay
 * verbatim in the turn (and in episodic recall). A text the speaker calls their own ("check my cover
 * letter: …", "help me write my bio: …", "this post I made") is theirs, and so are their words around
 * a paste. Used by the rule-based extractor (no fact from a paste), the extractive summarizer (no
 * sentence of a paste in the session summary) and the context assembler (a recalled turn that pastes
 * a text is shown as third-party text). Not API. Stateless and thread-safe; each line costs a bounded
 * number of bounded matches.
 */
public final class PastedContent {

    private PastedContent() {
    }

    /** Lines longer than this are not tested as an introduction (a pasted line is long, a request short). */
    private static final int MAX_INTRO_CHARS = 400;

    /**
     * Word boundaries as Java read {@code \b} up to JDK 18, between a letter, digit or underscore and
     * anything else. From JDK 19 {@code \b} is ASCII-only unless a pattern is compiled with
     * UNICODE_CHARACTER_CLASS, so "text" would match inside "textão" and "sent" inside "sentença"; the
     * patterns here read the same on every JDK. A {@code \b} before a word (its next element starts
     * with a letter) is "no word character before"; one after a word (its previous element ends with a
     * letter or closes a group of words) is "no word character after": what {@code \b} means there. A
     * combining mark counts as part of a word (as {@code \b} read it: "revisão" written with a separate
     * tilde is one word), and the classes hold one supplementary character (U+10FFFF) so that Java reads
     * them by code point (else a lookbehind sees half of "𝐀" and takes it for no letter).
     */
    private static final String WORD_START = "(?<![\\p{L}\\p{M}\\p{Nd}_\uDBFF\uDFFF])";
    private static final String WORD_END = "(?![\\p{L}\\p{M}\\p{Nd}_\uDBFF\uDFFF])";

    /**
     * {@code regex} compiled with each {@code \b} read as {@link #WORD_START} or {@link #WORD_END}
     * (see there); a {@code \b} that is neither before nor after a word is refused.
     */
    private static Pattern words(String regex) {
        StringBuilder out = new StringBuilder(regex.length() + 64);
        int from = 0;
        for (int at = regex.indexOf("\\b"); at >= 0; at = regex.indexOf("\\b", at + 2)) {
            out.append(regex, from, at);
            int next = at + 2;
            while (regex.startsWith("(?:", next)) {
                next += 3;
            }
            char before = at == 0 ? ' ' : regex.charAt(at - 1);
            if (next < regex.length() && Character.isLetter(regex.charAt(next))) {
                out.append(WORD_START);
            } else if (Character.isLetter(before) || before == ')' || before == '?') {
                out.append(WORD_END);
            } else {
                throw new IllegalStateException("a \\b neither before nor after a word at " + at + " in " + regex);
            }
            from = at + 2;
        }
        return Pattern.compile(out.append(regex, from, regex.length()).toString());
    }

    /** "From: …", "Subject: …", "Assunto: …": a line of an email's header. */
    private static final Pattern HEADER = words(
            "(?iu)^(?:from|to|cc|bcc|subject|sent|date|reply-to|de|para|assunto|enviad[oa]|data|enviado\\s+em|"
                    + "cc/cco)\\s?:\\s*\\S.*");

    /** "-----Original Message-----", "---------- Forwarded message ---------", "On …, Ana wrote:". */
    private static final Pattern REPLY_LINE = words(
            "(?iu)^(?:-{2,}\\s*(?:original\\s+message|forwarded\\s+message|mensagem\\s+original|"
                    + "mensagem\\s+encaminhada)\\s*-{2,}|(?:on|em)\\s.{4,200}\\s(?:wrote|escreveu):)\\s*$");

    /** A demonstrative that points at a text handed over ("this email", "the following text", "esse texto"). */
    private static final String DEMONSTRATIVE = "(?:this|that|these|those|following|attached|forwarded|below|"
            + "este|esta|esse|essa|estes|estas|esses|essas|seguinte|anexo|abaixo)";

    /** A kind of text somebody writes (an email, an article), in English and Portuguese. */
    private static final String DOCUMENT = "(?:e-?mails?|mails?|messages?|texts?|articles?|posts?|letters?|documents?|"
            + "docs?|paragraphs?|essays?|reviews?|comments?|tweets?|transcripts?|stor(?:y|ies)|passages?|excerpts?|"
            + "threads?|announcements?|newsletters?|press\\s+releases?|abstracts?|poems?|lyrics|quotes?|bio|"
            + "statements?|reports?|memos?|notices?|chats?|conversations?|(?:web\\s?)?pages?|websites?|sites?|"
            + "pdfs?|files?|screenshots?|captions?|descriptions?|listings?|ads?|repl(?:y|ies)|responses?|"
            + "mensage(?:m|ns)|textos?|artigos?|cartas?|documentos?|par[áa]grafos?|reda[çc](?:[ãa]o|[õo]es)|"
            + "coment[áa]rios?|resenhas?|conversas?|hist[óo]rias?|relat[óo]rios?|trechos?|cita[çc](?:[ãa]o|[õo]es)|"
            + "not[íi]cias?|comunicados?|an[úu]ncios?|poemas?|p[áa]ginas?|sites?|arquivos?|descri[çc][ãa]o|respostas?)";

    /** A request about a text somebody else wrote, or a verb that presents one. */
    private static final String REQUEST = "(?:summari[sz]e|translate|reply|respond|answer|rewrite|rephrase|reword|"
            + "paraphrase|proofread|review|check|edit|fix|improve|correct|polish|read|analy[sz]e|explain|shorten|"
            + "simplify|format|critique|evaluate|grade|look\\s+at|got|received|forwarded|sent|found|"
            + "think\\s+(?:of|about)|help\\s+(?:me\\s+)?with|acha\\s+d[aoe]|ajud[ae]\\s+(?:com|n[oa])|"
            + "resum[aioe]\\w*|traduz\\w*|respond\\w*|reescrev\\w*|revis\\w*|corrij\\w*|corrig\\w*|"
            + "melhor\\w*|leia|ler|analis\\w*|expliqu\\w*|explic\\w*|recebi|chegou|mandou|mandaram|enviou|enviaram)";

    /** Words that present the text that follows: "here's the email", "segue o texto". */
    private static final String PRESENTING = "(?:here\\s+is|here's|heres|here\\s+are|below\\s+is|segue|seguem|"
            + "aqui\\s+est[áa]|aqui\\s+v[ãa]o|abaixo\\s+est[áa])";

    /**
     * A line that hands a text over: a request and a demonstrative, or a presentation and any
     * determiner, before a kind of text, then a colon followed by a blank or the line's end (the text
     * follows), or the line's end a few words later (the text is on the lines below).
     */
    private static final Pattern INTRO = words(
            "(?iu)(?:\\b" + REQUEST + "\\b[^.!?:\\n]{0,80}?\\b" + DEMONSTRATIVE
                    + "|\\b" + PRESENTING + "\\s+(?:the|a|an|o|os|as|um|uma|" + DEMONSTRATIVE.substring(3)
                    + "|\\b(?:the|o|a|os|as)(?=\\s+(?:[\\p{L}\\-]+\\s+){0,2}?" + DOCUMENT
                    + "\\s+(?:below|abaixo|a\\s+seguir|that\\s+follows)\\b))"
                    + "\\s+(?:[\\p{L}\\-]+\\s+){0,2}?" + DOCUMENT
                    + "\\b[,;]?(?:[^.!?:\\n]{0,60}?:(?=\\s|$)|(?:\\s+[^\\s.!?:]+){0,5}[.!?:]?\\s*$)");

    /**
     * "Summarize this:", "Translate to Portuguese:", "Can you translate this for me?", "My friend sent
     * me this:": a request whose object is the text after it.
     */
    private static final Pattern THIS_COLON = words(
            "(?iu)\\b(?:summari[sz]e|translate|rewrite|rephrase|proofread|reply\\s+to|respond\\s+to|answer|fix|edit|"
                    + "improve|correct|check|review|explain|read|sent\\s+(?:me|us)|forwarded\\s+(?:me|us)|"
                    + "resum[ae]|traduz[ae]?|reescrev[ae]|revis[ae]|corrij[ae]|respond[ae]|expliqu[ae]|leia|"
                    + "mandou|enviou)\\s+(?:this|that|these|isto|isso|esse|este|essa|esta|(?:the|o|a)\\s+" + DOCUMENT + "|"
                    + "(?:it\\s+)?(?:to|into|para|pro|pra)\\s+[\\p{L}\\-]{2,20})(?:\\s+(?:for\\s+me|pra\\s+mim|"
                    + "para\\s+mim|please|por\\s+favor))?\\s*(?::(?=\\s|$)|[?.]?\\s*$)");

    /** A text of the speaker's own: "this paragraph from my essay", "the text for my LinkedIn bio". */
    private static final Pattern OWN = words(
            "(?iu)\\b" + DOCUMENT + "\\s+(?:of|from|for|in|d[aoe]|para)\\s+(?:my|our|meu|minha|nosso|nossa)\\s+"
                    + "(?:[\\p{L}\\-]+\\s+){0,2}?" + DOCUMENT + "\\b");

    /** Without a colon only "this"/"these"/"the … below" point at a text below ("explain that?" does not). */
    private static final Pattern POINTS_AT_THIS = words(
            "(?iu)\\b(?:this|these|following|attached|forwarded|below|este|esta|estes|estas|esse|essa|isto|isso|"
                    + "seguinte|anexo|abaixo)\\b");

    /** A greeting that opens a letter or an email: the pasted text starts on the next line. */
    private static final Pattern GREETING = words(
            "(?iu)^\\s*(?:hi|hello|hey|dear|good\\s+(?:morning|afternoon|evening)|ol[áa]|oi|prezad[oa]s?|caro|cara|"
                    + "bom\\s+dia|boa\\s+(?:tarde|noite))\\b");

    /** A line that asks for something: the imperative or a polite request opens it. */
    private static final Pattern ASKING = words(
            "(?iu)^\\s*(?:please\\s+|pls\\s+|plz\\s+|(?:can|could|would)\\s+(?:you|u)\\s+(?:please\\s+|pls\\s+)?|"
                    + "por\\s+favor,?\\s+|pode\\s+|poderia\\s+|voc[êe]\\s+pode\\s+)?(?:help\\s+me\\s+(?:to\\s+)?|"
                    + "ajuda-me\\s+a\\s+|ajude-me\\s+a\\s+|me\\s+ajuda\\s+a\\s+|me\\s+ajude\\s+a\\s+)?" + REQUEST + "\\b");

    /**
     * A colon after a source that speaks: "the doctor's letter reads:", "my landlord wrote:", "Tweet by
     * @bob:", "Pasted from the website:", "Copy of the letter:", "o e-mail diz:". Not the speaker's own
     * "I said:" / "eu disse:".
     */
    private static final Pattern SOURCE_COLON = words(
            "(?iu)(?:(?<!\\bi\\s)(?<!\\beu\\s)\\b(?:reads|read\\s+(?:me|us|out)|heard|overheard|says|said|wrote|writes|posted|tweeted|states|stated|"
                    + "replied|answered|told\\s+(?:me|us)|texted|sent|forwarded|shared|diz|disse|escreveu|escreve|postou|respondeu|"
                    + "me\\s+disse|me\\s+contou|contou|falou|mandou)\\b[^.!?:\\n]{0,40}?"
                    + "|\\b(?:pasted|copied)\\s+(?:from|of)\\b[^:\\n]{0,60}?|\\bcopy\\s+of\\b(?!\\s+(?:my|our|meu|minha)\\b)[^:\\n]{0,60}?"
                    + "|\\b(?:tweet|post|comment|review|message|e-?mail|text|reply|answer)\\s+(?:by|from)\\s+\\S{1,40}?"
                    + "|\\b(?:copiado|colado|c[óo]pia)\\s+(?:d[aoe]s?)\\b[^:\\n]{0,60}?)\\s*:(?=\\s|$)");

    /** "[14:02, 03/01/2026] Rita:", "03/01/2026, 14:02 - Rita:", "<darkstar>", a log line's timestamp. */
    private static final Pattern CHAT_OR_LOG_LINE = words(
            "^\\s*(?:\\[[^\\]\\n]{3,40}\\]\\s*[^:\\n]{1,40}:\\s|\\d{1,4}[-/.]\\d{1,2}[-/.]\\d{1,4},?\\s+\\d{1,2}:\\d{2}"
                    + "|\\[?\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}|<[^>\\s]{1,30}>\\s|\\[[^\\]\\n]{3,40}\\]\\s*<[^>\\s]{1,30}>\\s"
                    + "|[^|\\s]{1,30}\\s*\\|\\s*\\d{1,2}:\\d{2}(?::\\d{2})?\\s*\\|)");

    /** A copied chat line of the speaker's own: "[10:15] eu: …", "[14:02, 03/01/2026] Me: …". */
    private static final Pattern OWN_CHAT_PREFIX = words(
            "(?iu)^\\s*(?:\\[[^\\]\\n]{3,40}\\]\\s*(?:me|eu|i|you|voc[êe])\\s*:\\s|(?:\\[[^\\]\\n]{3,40}\\]\\s*)?<(?:me|eu|i)>\\s)");

    /** A chat app's author line: "Ana Souza  9:41 AM". */
    private static final Pattern AUTHOR_TIME_LINE = words(
            "(?iu)^\\s*\\p{L}[\\p{L} .'\\-]{0,40}(?:\\s{1,4}|\\s+[-\u2013\u2014]\\s+(?:today|yesterday|\\d{1,2}/\\d{1,2}/\\d{2,4})"
                    + "\\s+at\\s+)\\d{1,2}:\\d{2}(?:\\s?[ap]\\.?m\\.?)?\\s*$");

    /** Markup and data: an HTML tag, a JSON member or bracket, a one-line JSON object. */
    private static final Pattern MARKUP_LINE = words(
            "^\\s*(?:</?[A-Za-z!][^>]{0,200}>|[{}\\[\\]],?\\s*$|\"[^\"\\n]{1,40}\"\\s*:|\\{.*\\}\\s*,?\\s*$)");

    /** A label of two letters or more at a line's start ("jake:", "Mãe:"), the shape of a copied conversation. */
    private static final Pattern LABEL = words("^\\s*(\\p{L}[\\p{L}.'\\-]{1,20}(?: \\p{L}[\\p{L}.'\\-]{0,20})?)\\s?:\\s");

    /** Labels a speaker writes for themself, not names of others. */
    private static final java.util.Set<String> OWN_LABELS = java.util.Set.of("me", "eu", "i", "myself", "update",
            "ps", "p.s", "note", "nota", "tip", "dica", "btw", "edit", "til", "obs", "todo", "fyi", "important",
            "importante", "atualização", "atualizacao", "resumo", "summary", "about me", "sobre mim", "context",
            "contexto", "question", "pergunta", "goal", "objetivo",
            // a note's fields, not people: "From: Lisbon⏎To: Rome" (an email's header is told apart by headerBlock)
            "from", "to", "cc", "bcc", "subject", "sent", "date", "de", "para", "assunto", "data", "enviado",
            "enviada", "re", "fw", "fwd");

    /** "Fwd:", "Encaminhada", "Forwarded": the rest is a forwarded message. */
    private static final Pattern FORWARD_LINE = words(
            "(?iu)^\\s*(?:(?:fwd?|fw|enc)\\s*:|(?:encaminhad[ao]|reencaminhad[ao]|forwarded|mensagem\\s+encaminhada)\\s*:?\\s*$)");

    /** A paragraph after a paste in which the speaker speaks again: "Anyway, …", "btw …", "^ what do you think". */
    private static final Pattern RETURN = words(
            "(?iu)^\\s*(?:\\^|anyway|anyways|btw|by\\s+the\\s+way|also|ps\\b|p\\.s\\.|ok(?:ay)?\\b|so\\b|oh\\s+and|"
                    + "and\\s+btw|enfim|ali[áa]s|ah\\b|tamb[ée]m|obs\\b|e\\s+eu\\b|mas\\s+eu\\b|"
                    + "what\\s+do\\s+you\\s+think|o\\s+que\\s+(?:voc[êe]\\s+)?acha|that'?s\\s+not\\s+me|not\\s+me\\b|"
                    + "as\\s+for\\s+me|me,\\s|quanto\\s+a\\s+mim|n[ãa]o\\s+sou\\s+eu)");

    /**
     * The closing of a letter or email, a whole line: "Best,", "Kind regards, Mark", "Thanks,⏎Ana",
     * "Atenciosamente,", or a signature separator "--". Its comma (or the separator) tells it from the
     * speaker's own "Thanks!" at the end of a turn.
     */
    private static final Pattern SIGN_OFF = words(
            "(?iu)^\\s*(?:--\\s*|(?:best|best\\s+regards|best\\s+wishes|kind\\s+regards|warm\\s+regards|warmly|regards|"
                    + "cheers|thanks|many\\s+thanks|thank\\s+you|thanks\\s+again|sincerely|yours(?:\\s+(?:truly|sincerely))?|"
                    + "all\\s+the\\s+best|love|take\\s+care|atenciosamente|cumprimentos|melhores\\s+cumprimentos|"
                    + "abra[çc]os?|um\\s+abra[çc]o|beijos?|bjs|obrigad[oa]|saud[aã][çc][õo]es|att|grato|grata|signed|assinado|"
                    + "assinada)\\b\\s*,"
                    + "(?:\\s*\\p{L}[\\p{L}.' -]{0,40})?\\s*)$");

    /** A request that is the whole line before a colon: "translate to english pls:", "traduz:". */
    private static final Pattern REQUEST_LINE = words(
            "(?iu)^\\s*(?:please\\s+|pls\\s+|can\\s+you\\s+|could\\s+you\\s+|help\\s+me\\s+(?:to\\s+)?|por\\s+favor,?\\s+|"
                    + "pode\\s+|me\\s+ajuda\\s+a\\s+)?(?:" + REQUEST.substring(3, REQUEST.length() - 1)
                    + "|answer|responder?)\\b[^.!?:\\n]{0,50}:(?=\\s|$)");

    /** The speaker's own text named with a possessive: "check my cover letter:", "revê a minha carta:". */
    private static final Pattern MY_DOCUMENT = words(
            "(?iu)\\b(?:my|our|meu|minha|meus|minhas|nosso|nossa)\\s+(?:[\\p{L}\\-]+\\s+)?" + DOCUMENT + "\\b");

    /** A first person before a colon: the speaker introduces their own words ("I wrote down my goals:"). */
    private static final Pattern FIRST_PERSON = words("(?iu)\\b(?:i|i'm|i've|eu)\\b");

    /** A text the speaker made: "this post I made", "this message i'm sending", "for my profile", "saying this:". */
    private static final Pattern OWN_MADE = words(
            "(?iu)\\b" + DOCUMENT + "\\s+(?:that\\s+|que\\s+)?(?:i|i'm|i\\s+am|i'll|eu)\\s+(?:\\w+\\s+)?"
                    + "(?:made|wrote|written|posted|sending|send|sent|writing|write|drafted|escrevi|fiz|postei|mandei|"
                    + "vou\\s+mandar|estou\\s+escrevendo)\\b"
                    + "|\\bfor\\s+my\\s+(?:[\\p{L}\\-]+\\s+)?(?:profile|bio|cv|resume|r[ée]sum[ée]|linkedin|website|portfolio|"
                    + "application)\\b|\\bpara\\s+o\\s+meu\\s+(?:perfil|curr[íi]culo|cv|site|portf[óo]lio)\\b"
                    + "|\\b(?:saying|say|telling|tell\\s+(?:him|her|them))\\s+this\\s*:|\\b(?:a\\s+dizer|dizendo|falando)\\s+isto\\s*:");

    /**
     * A request to write, or a question, in the words that hand a text over ("Help me write …:", "Draft a
     * post for …:", "My question:"): the text is the speaker's own. Read before the colon only: "Text from
     * Dad: … Draft a reply." asks for a reply to Dad's words, which stay his.
     */
    private static final Pattern OWN_WRITING = words(
            "(?iu)\\b(?:write|writing|draft|drafting|escrever|escreve|escreva|redigir|redija)\\b|\\b(?:question|pergunta)\\b");

    /** A quoted passage of somebody else's ("she wrote "I am a nurse. I live in Ohio.""). */
    private static final Pattern QUOTED = words(
            "(?<=^|[\\s:(\\[—–-])[\"“](?=\\S)([^\"“”\\n]{20,400}?)(?<=\\S)[\"”](?![\\p{L}\\p{N}])");

    /**
     * A passage in single quotation marks ("Minha amiga me mandou 'I live in Faro now and I'm a nurse'"):
     * as {@link #QUOTED}, with apostrophes between letters inside ("I'm") not closing it.
     */
    private static final Pattern QUOTED_SINGLE = words(
            "(?<=^|[\\s:(\\[—–-])['‘](?=\\S)((?:[^'‘’\\n]|(?<=\\p{L})['’](?=\\p{L})){20,400}?)(?<=\\S)['’](?![\\p{L}\\p{N}])");

    /** The speaker quoting themself right before the quote: "I said", "eu disse-lhe". */
    private static final Pattern SELF_QUOTE = words(
            "(?iu)\\b(?:i|eu)\\s+(?:\\w+\\s+){0,2}?(?:said|told|wrote|replied|answered|asked|texted|disse|falei|escrevi|"
                    + "respondi|perguntei|mandei)\\b[^\"“]{0,30}$");

    /** A word of the first person inside a quote: the quote tells facts about whoever speaks in it. */
    private static final Pattern QUOTE_FIRST_PERSON = words(
            "(?iu)\\b(?:i|i'm|im|i've|my|me|eu|sou|moro|tenho|trabalho|meu|minha)\\b");

    /**
     * A source that speaks without a colon, its words after a dash, on the lines below, or (pointed at
     * with "this") after the sentence that hands them over: "Mom texted me - I moved to Berlin", "Rita
     * said⏎I moved to Ohio", "My friend sent me this⏎⏎…", "Kevin wrote this on my wall. I live in
     * Austin". Group {@code lead} is what comes before the verb (its subject, tested apart: never the
     * speaker), {@code obj} what the verb points at, {@code sep} what ends the hand-over.
     */
    private static final Pattern SOURCE_HANDOVER = words(
            "(?iu)(?:^|(?<=[.!?]\\s))(?<lead>[^.!?:\\n]{0,60}?)\\b(?:says|said|wrote|writes|posted|tweeted|texted|messaged|e-?mailed|sent|"
                    + "forwarded|shared|replied|answered|commented|disse|escreveu|escreve|postou|mandou|"
                    + "respondeu|comentou|heard|overheard|(?<quotative>goes|was\\s+like|is\\s+like|is\\s+all|was\\s+all|"
                    + "tipo|soltou(?:\\s+essa)?|mandou\\s+essa|falou\\s+assim))\\b"
                    + "(?<obj>(?:\\s+(?:me|us|to\\s+me|to\\s+us|pra\\s+mim|para\\s+mim|me\\s+isto|me\\s+isso))?"
                    + "(?:\\s+(?<ahead>this|the\\s+following|o\\s+seguinte|isto|isso)(?:\\s+(?:message|text|note|post|mensagem|texto))?)?"
                    + "(?<via>\\s+(?:on|in|to|via|over|at|from|no|na|em|pelo|pela)\\s+[^-\u2013\u2014.!?:\\n]{1,30}?)?"
                    + "(?:\\s+(?:yesterday|today|earlier|last\\s+night|this\\s+morning|just\\s+now|ontem|hoje))?)"
                    + "(?<sep>\\s+[-\u2013\u2014]+\\s+(?=\\S)|\\s*(?:->|=>|\u2192)\\s*(?=\\S)|\\s*,\\s+(?=\\S)"
                    + "|\\s*[.!]\\s+(?=\\S)|\\s*$)");

    /** Words that name a text as made up or an exercise ("sample answer", "a fake excuse", "dictation"). */
    private static final String MADE_UP_WORDS = "(?:example|sample|template|model|practice|mock|fake|dummy|made-up|prank|"
            + "dictation|drill|exercise|fictional|exemplo|modelo|ditado|exerc[íi]cio|pegadinha|trote)";

    /**
     * A label that names a text of somebody else's or a made-up one before its colon: "Excerpt:",
     * "Customer message below:", "Instagram caption I saw:", "OCR of the screenshot:", "Sample answer:",
     * "Example intro for my ESL class:", "Fill in the blanks:". Group {@code before} is what precedes the
     * kind of text (a possessive there makes it the speaker's own: "my post:").
     */
    private static final Pattern LABELLED_TEXT = words(
            "(?iu)^\\s*(?:(?![^:\\n]{0,60}?\\b(?:for\\s+(?:example|instance)|e\\.g|por\\s+exemplo)\\b)"
                    + "[^:\\n]{0,60}?\\b" + MADE_UP_WORDS + "\\b"
                    + "(?!\\s+(?:of|from|d[aoe])\\s+(?:my|our|meu|minha)\\b)[^:\\n]{0,60}"
                    + "|fill\\s+in\\s+the\\s+blanks?|(?<before>(?:[\\p{L}\\-']+\\s+){0,3}?)(?:excerpts?|extracts?|captions?|lyrics|"
                    + "ocr|transcripts?|scripts?|quotes?|tickets?|prompts?|dialogues?|passages?|articles?|e-?mails?|messages?|voicemails?|voice\\s+(?:messages?|notes?)|"
                    + "letters?|posts?|tweets?|comments?|reviews?|texts?|screenshots?|stor(?:y|ies)|poems?|speech(?:es)?|"
                    + "trechos?|legendas?|letras?|mensage(?:m|ns)|cartas?|textos?)\\b(?:\\s+(?:i|we)\\s+(?:saw|found|got|read|"
                    + "received|came\\s+across)|\\s+(?:below|above|abaixo|acima)|\\s+(?:of|from|by|d[aoe]s?|por)\\s+[^:\\n]{1,40}?)?)"
                    + "\\s*:(?=\\s|$)");

    /** A mark before a text read off an image or a screen: "[image text]", "(OCR)", "[screenshot]". */
    private static final Pattern IMAGE_TEXT_MARK = words(
            "(?iu)^\\s*[\\[(][^\\])\\n]{0,60}?\\b(?:(?:image|picture|photo|screenshot)\\s+text|text\\s+(?:in|from|on|of)\\s+"
                    + "(?:the\\s+|a\\s+|this\\s+)?(?:image|picture|photo|screenshot)|ocr|transcript|transcription|lyrics|quote|excerpt|"
                    + "caption|subtitles?|tv|radio|overheard|voicemail|recording|legenda|transcri[çc][ãa]o"
                    // "[screenshot] …", "[forwarded] …", "[voice note from Sam] …": somebody else's text handed on
                    + "|screen\\s?shots?|screengrab|print\\s?screen|forwarded|fwd|fw|encaminhad[ao]|reenviad[ao]"
                    + "|(?:voice\\s+(?:note|message|memo)|audio|message|text|sms|dm)\\s+from\\s+[^\\])\\n]{1,40})\\b"
                    + "[^\\])\\n]{0,60}[\\])]\\s*");

    /** A numbered ticket, case or message at a line's start, then a dash or a colon: "Ticket #4521 — …". */
    private static final Pattern NUMBERED_TEXT = words(
            "(?iu)^\\s*(?:[\\p{L}\\-]+\\s+){0,2}?(?:tickets?|cases?|support\\s+requests?|complaints?|reviews?|messages?|e-?mails?|"
                    + "comments?|posts?|orders?|chamados?|statements?|affidavits?|testimon(?:y|ies)|depositions?|exhibits?|"
                    + "depoimentos?)\\s*#\\s?[\\p{L}\\p{N}-]{1,20}\\s*(?:[-\u2013\u2014:]+\\s+(?=\\S)|$)");

    /** A line that opens with a musical note: lyrics ("🎶 I'm leaving on a jet plane… 🎶"). */
    private static final Pattern SUNG = Pattern.compile("^\\s*[\\x{1F3B5}\\x{1F3B6}\\x{1F3BC}\u266A\u266B\u266C]");

    /**
     * A closing paragraph that says somebody else wrote what is above it: "My cousin wrote this, can you
     * fix the grammar?", "^ my boss sent that". Group {@code lead} is the subject (never the speaker).
     */
    private static final Pattern SOURCE_AFTER = words(
            "(?iu)^\\s*\\^?\\s*(?<lead>[^.!?:\\n]{0,60}?)\\b(?:wrote|sent|posted|texted|shared|forwarded|said|escreveu|"
                    + "mandou|enviou|postou)\\s+(?:me\\s+|us\\s+)?(?:this|the\\s+above|the\\s+text\\s+above|isto|isso|"
                    + "(?:that|it)(?=\\s*(?:[,.!?;]|$)))\\b");

    /** A subject that is the speaker: "I", "we", "eu", "nós" (the speaker handing over their own words). */
    private static final Pattern SPEAKER_SUBJECT = words("(?iu)\\b(?:i|i'm|i've|i'd|we|we've|eu|n[óo]s)\\b");

    /**
     * The end of a {@link #SOURCE_HANDOVER} lead that makes its verb no source's: an object ("keep me
     * posted - …"), a form of "be" or "have" (a passive or perfect: "it was shared - …"), a relative.
     */
    private static final Pattern LEAD_NOT_SUBJECT = words("(?iu)\\b(?:me|us|him|her|them|it|you|keep|keeps|kept|stay|"
            + "stays|get|gets|got|be|been|being|was|were|is|are|am|have|has|had|who|which|that|what|[ée]|foi|era|t[áa]|"
            + "est[áa]|it's|its|that's|thats)\\s*$");

    /**
     * A source named at a line's start, then a dash or a colon: "From Jake - …", "From the recipe blog:
     * …", "Via @rita: …". Group {@code det} is a determiner, {@code src} the source: a name (capitalised
     * or a handle) without one, a person or a kind of text after one.
     */
    private static final Pattern FROM_SOURCE = words(
            "(?u)^\\s*(?i:from|via|de|da|do)\\s+(?<det>(?i:my|our|his|her|their|the|a|an|this|that|meu|minha|o|a|um|uma)\\s+)?"
                    + "(?<src>[\\p{L}@#][\\p{L}\\p{N}@#._'\u2019\\- ]{0,40}?)\\s*(?:\\s[-\u2013\u2014]+\\s+(?=\\S)|:(?=\\s|$))");

    /** Words that open a time, not a source: "From Monday: …", "From now on - …". */
    private static final java.util.Set<String> NOT_A_SOURCE = java.util.Set.of("now", "today", "tomorrow", "tonight",
            "here", "then", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january",
            "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
            "december", "experience", "agora", "hoje", "amanha", "segunda", "terca", "quarta", "quinta", "sexta",
            "sabado", "domingo", "janeiro", "fevereiro", "marco", "abril", "maio", "junho", "julho", "agosto",
            "setembro", "outubro", "novembro", "dezembro", "point", "scratch", "memory", "head", "heart");

    /** A person a text comes from or is written for: a relation, a friend, a role at work. */
    private static final String PERSON = "(?:friends?|boss|sisters?|brothers?|sis|bro|mom|mum|mother|dad|father|parents?|"
            + "wife|husband|partner|girlfriend|boyfriend|ex|coworkers?|co-workers?|colleagues?|doctor|teacher|neighbou?rs?|"
            + "landlord|landlady|tenants?|cousins?|aunt|uncle|sons?|daughters?|grandma|grandpa|grandmother|grandfather|"
            + "roommates?|manager|clients?|customers?|lawyer|therapist|students?|kids?|niece|nephew|amig[oa]s?|chefe|"
            + "irm[ãa]|irm[ãa]os?|m[ãa]e|pai|esposa|marido|namorad[oa]|colegas?|vizinh[oa]s?|prim[oa]s?|tia|tio|"
            + "filh[oa]s?|av[óo]|senhorio|cliente)";

    /** Words that open the speaker's own sentence: "I", "I'm", "my", "eu", "sou", "moro". */
    private static final Pattern SPEAKER_OPENS = words(
            "(?iu)\\s*(?:i|i'm|im|i've|i'd|i'll|my|we|we're|our|me|eu|sou|moro|tenho|trabalho|estou|meu|minha)\\b");

    /** Common words that name nobody: not a speaker before a quotative, not a screenplay's character cue ("ALSO"). */
    private static final java.util.Set<String> NOT_NAMES = java.util.Set.of("update", "sorry", "wow", "oops", "ugh",
            "yay", "btw", "fyi", "ps", "ok", "okay", "yes", "no", "nope", "yep", "yeah", "hey", "hi", "hello", "well", "so",
            "anyway", "also", "honestly", "actually", "seriously", "news", "edit", "note", "sim", "nao", "ola", "oi",
            "enfim", "entao", "bom", "pois", "gente", "galera", "cara", "mano");

    /** Whether the folded {@code word} is an ordinary word ({@link Terms#ordinaryWord}) or one of {@link #NOT_NAMES}. */
    private static boolean ordinary(String word) {
        return Terms.ordinaryWord(word) || NOT_NAMES.contains(word);
    }

    /** A subtitle's time line ("00:00:01,000 --> 00:00:04,000"): the lines after it, to a blank one, are the film's. */
    private static final Pattern SUBTITLE_TIME = Pattern.compile(
            "^\\s*\\d{1,2}:\\d{2}:\\d{2}[,.]\\d{1,3}\\s*-->\\s*\\d{1,2}:\\d{2}:\\d{2}[,.]\\d{1,3}\\s*$");

    /** A screenplay's scene heading ("INT. DINER - NIGHT") or a character's cue, a name in capitals on its own line. */
    private static final Pattern SCENE_HEADING = Pattern.compile("^\\s*(?:INT|EXT|INT\\.?/EXT)\\.\\s+\\S.*$");
    private static final Pattern CHARACTER_CUE = Pattern.compile(
            "^\\s*\\p{Lu}[\\p{Lu}'.\\-]{1,20}(?:\\s\\p{Lu}[\\p{Lu}'.\\-]{1,20}){0,2}(?:\\s\\((?:V\\.O\\.|O\\.S\\.|CONT'D)\\))?\\s*$");

    /**
     * A text written for somebody else, handed over after a colon or a dash: "Write my brother's bio in
     * first person: …", "Cover letter for my friend, first person please — …".
     */
    private static final Pattern FOR_SOMEONE_ELSE = words(
            "(?iu)^[^:\\n]{0,80}?(?:\\b(?:for|para)\\s+(?:my|our|a|an|his|her|the|meu|minha|o\\s+meu|a\\s+minha)\\s+"
                    + "(?:[\\p{L}\\-]+\\s+)?" + PERSON + "\\b|\\b(?:my|our|his|her)\\s+" + PERSON + "(?:'s|\u2019s)\\s)"
                    + "[^:\\n]{0,60}?(?::(?=\\s|$)|\\s[-\u2013\u2014]+\\s+(?=\\S))");

    /**
     * What makes a text written for somebody else theirs, not the speaker's: it is written in their voice
     * ("in first person", "as him"), or it is theirs ("my brother's bio"). "Write a speech for my
     * daughter's wedding - I'm the father of the bride" is the speaker's own.
     */
    private static final Pattern THEIR_TEXT = words(
            "(?iu)\\b(?:(?:in|na)\\s+(?:the\\s+)?(?:first|primeira)\\s+(?:person|pessoa)|first[-\\s]person|in\\s+(?:his|her|their)\\s+voice|"
                    + "as\\s+(?:him|her|them|if\\s+(?:he|she|they)\\s+(?:were|was))|pretending\\s+to\\s+be)\\b"
                    + "|\\b(?:my|our|his|her)\\s+" + PERSON + "(?:'s|\u2019s)\\s+(?:[\\p{L}\\-]+\\s+)?(?:bio|profile|letter|cover\\s+letter|"
                    + "essay|story|post|caption|message|text|intro|introduction|cv|resume|statement)\\b");

    /** Words that make a line like {@link #FOR_SOMEONE_ELSE} about a text ("bio", "letter", "write"). */
    private static final Pattern A_TEXT_TO_WRITE = words(
            "(?iu)\\b(?:write|draft|compose|bio|letter|speech|toast|excuse|profile|intro|introduction|message|text|post|"
                    + "caption|vows|eulogy|essay|story|resume|cv|escreve|escrever|escreva|carta|discurso|perfil|mensagem)\\b");

    /**
     * A text the speaker replies to, transcribes or quotes, named before it: "Amazon review I'm replying to
     * as the seller. …", "Podcast intro I'm transcribing. …".
     */
    private static final Pattern WORKING_ON_TEXT = words(
            "(?iu)^[^.!?:\\n]{0,60}?\\b(?:i'?m|i\\s+am|we'?re|i\\s+have\\s+to|i\\s+need\\s+to)\\s+(?:replying|responding|"
                    + "answering|reply|respond|answer|transcribing|translating|quoting|reading\\s+out)\\b[^.!?:\\n]{0,40}?"
                    + "(?:[.:!]\\s+|\\s+[-\u2013\u2014]+\\s+)(?=\\S)");

    /** Dialogue in a novel's style: a line opened by a dash and tagged with who said it ("— Moro em Faro — disse a Inês."). */
    private static final Pattern DIALOGUE_TAG = words(
            "(?iu)^\\s*[\u2014\u2013]\\s*\\S.*?\\s[\u2014\u2013]\\s*(?:disse|respondeu|perguntou|falou|acrescentou|gritou|"
                    + "murmurou|explicou|dijo|respondi[óo]|pregunt[óo]|a[ñn]adi[óo]|said|asked|replied|added)\\b"
                    + "(?:\\s+\\p{L}|\\s*[.!?]?\\s*$)");

    /** A text that is made up or an exercise, named before its colon. */
    private static final Pattern MADE_UP = words(
            "(?iu)^(?![^:\\n]{0,80}?\\b(?:for\\s+(?:example|instance)|e\\.g|por\\s+exemplo)\\b)[^:\\n]{0,80}?\\b" + MADE_UP_WORDS
                    + "\\b[^:\\n]{0,60}:(?=\\s|$)");

    /** A phone's signature naming somebody else's phone ("Sent from Rita's iPhone"): the text above is theirs. */
    private static final Pattern OTHERS_SIGNATURE = words(
            "(?iu)^\\s*sent\\s+from\\s+(?!my\\b)\\p{L}[\\p{L}\\-]{1,20}(?:'s|\u2019s)\\s+\\S{2,20}");

    /** "— that's what Rita posted": the lines above are somebody else's. */
    private static final Pattern THATS_WHAT = words(
            "(?iu)^\\s*[\\^\u2014\u2013\\-]?\\s*(?:that'?s|thats|this\\s+is|isso\\s+[ée]|foi\\s+isso)\\s+(?:what|o\\s+que)\\s+"
                    + "(?<lead>[^.!?:\\n]{1,40}?)\\s+(?:posted|said|wrote|texted|sent|shared|tweeted|says|writes|postou|disse|"
                    + "escreveu|mandou)\\b");

    /** People and places a text comes from, besides the kinds of text ({@link #DOCUMENT}). */
    private static final Pattern SOURCE_NOUN = words(
            "(?iu)\\b(?:" + DOCUMENT.substring(3, DOCUMENT.length() - 1) + "|blogs?|podcasts?|forums?|books?|novels?|"
                    + "shows?|series|movies?|films?|videos?|channels?|newspapers?|magazines?|reddit|subreddits?|groups?|"
                    + "interviews?|scripts?|textbooks?|courses?|lectures?|sermons?|speech(?:es)?|songs?|"
                    + "livro|revista|jornal|canal|v[íi]deo|grupo|" + PERSON.substring(3, PERSON.length() - 1) + ")$");

    /**
     * A heading that names a text of somebody else's: "Transcript of the podcast", "Lyrics from the
     * show:", "Excerpt by Rita -"; the text follows below, or after its colon or dash. Not "… of my …".
     */
    private static final Pattern TEXT_HEADING = words(
            "(?iu)^\\s*(?:transcripts?|excerpts?|lyrics|cop(?:y|ies)|screenshots?|quotes?|texts?|messages?|e-?mails?|"
                    + "posts?|tweets?|comments?|reviews?|letters?|captions?|threads?|transcri[çc][ãa]o|trechos?|"
                    + "letra|c[óo]pia|mensage(?:m|ns)|textos?)\\s+(?:(?:of|d[aoe]s?)\\s+(?!(?:my|our|meu|minha|meus|minhas|nosso|nossa)\\b)"
                    + "|(?:from|by|por)\\s+(?!(?:my|our|meu|minha|meus|minhas|nosso|nossa)\\b)"
                    + "|(?:from|by|por)\\s+(?:my|our|meu|minha|meus|minhas|nosso|nossa)\\s+(?=(?:[\\p{L}\\-]+\\s+)?" + PERSON + "\\b))"
                    + "[^.!?:\\n]{1,50}?"
                    + "(?:\\s*(?::|\\s[-\u2013\u2014]+)(?=\\s|$)|\\s*$)");

    /**
     * A question about a text that follows it on the line or below: "what does this say? …", "is this
     * a scam? …", "o que isso significa? …". Not questions about the speaker's own plans ("is this
     * safe? I'm allergic to…" stays the speaker's).
     */
    private static final Pattern ASKS_ABOUT_TEXT = words(
            "(?iu)^\\s*(?:(?:hey|so|ok|okay|um|pls|please|quick\\s+question)[,\\s]+)?(?:what\\s+does\\s+(?:this|that)\\s+"
                    + "(?:say|mean)|what\\s+is\\s+this|what'?s\\s+this|is\\s+this\\s+(?:true|real|legit|legitimate|a\\s+scam|"
                    + "fake|spam)|can\\s+you\\s+read\\s+this|o\\s+que\\s+(?:isso|isto)\\s+(?:diz|quer\\s+dizer|significa)|"
                    + "isso\\s+[ée]\\s+(?:verdade|golpe|real))\\s*\\?+\\s*");

    /*
     * Word gates: a long case-insensitive alternation tried at every position of a line costs ~0.5 µs a
     * position (a 300-character chat line took 180 µs in SOURCE_COLON alone), so each costly pattern runs
     * only on a line holding a word without which it cannot match. Each gate names words its pattern
     * needs (every match holds one of them, as letters in a row); the gate looks for them inside the
     * line's runs of letters and digits, with the pattern's own case folding, so no reading of a word
     * boundary (Java's \b changed in JDK 19) and no lower-casing (the Turkish İ) can make it refuse a
     * line the pattern would match. "e-mail" holds "mail"; "press release" holds "release".
     */

    /** The words {@link #SOURCE_COLON} needs one of. */
    private static final Pattern SOURCE_WORDS = Pattern.compile("(?iu)(?:" + "reads|read|says|said|wrote|writes|posted|tweeted|states|"
            + "stated|replied|answered|told|texted|sent|forwarded|shared|diz|disse|escreveu|escreve|postou|respondeu|"
            + "contou|falou|mandou|pasted|copied|copy|tweet|post|comment|review|message|e?mail|text|reply|answer|"
            + "messaged|e?mailed|commented|comentou|heard|overheard|goes|went|tipo|soltou|"
            + "copiado|colado|c[óo]pia)");

    /** The words {@link #THIS_COLON} needs one of (its request verb). */
    private static final Pattern THIS_WORDS = Pattern.compile("(?iu)(?:" + "summari[sz]e|translate|rewrite|rephrase|proofread|reply|answer|"
            + "respond|fix|edit|improve|correct|check|review|explain|read|sent|forwarded|resum[ae]|traduz[ae]?|"
            + "reescrev[ae]|revis[ae]|corrij[ae]|respond[ae]|expliqu[ae]|leia|mandou|enviou)");

    /** The words {@link #INTRO} needs one of: a kind of text ("press release" by its last word). */
    private static final Pattern DOCUMENT_WORDS = Pattern.compile("(?iu)(?:" + DOCUMENT.substring(3, DOCUMENT.length() - 1)
            + "|releases?)");

    /** The words {@link #WORKING_ON_TEXT} needs one of (what the speaker does with the text). */
    private static final Pattern WORK_WORDS = Pattern.compile("(?iu)(?:replying|responding|answering|reply|respond|answer|"
            + "transcribing|translating|quoting|reading)");

    /**
     * The gates' bits: a line holds a word of {@link #SOURCE_WORDS}, {@link #THIS_WORDS},
     * {@link #DOCUMENT_WORDS}, {@link #WORK_WORDS}.
     */
    private static final int SOURCE_GATE = 1;
    private static final int THIS_GATE = 2;
    private static final int DOCUMENT_GATE = 4;
    private static final int WORK_GATE = 8;
    private static final WordGates GATES = new WordGates(SOURCE_WORDS, THIS_WORDS, DOCUMENT_WORDS, WORK_WORDS);

    /**
     * Whether {@code text} pastes something: {@link #ownWords} sets part of it aside. A text longer than
     * {@value #MAX_READ_CHARS} characters (what the rule-based extractor reads of a turn) is a document,
     * taken for a paste (see {@link #saidWords} for the words before it that stay the speaker's).
     */
    public static boolean pastes(String text) {
        return saidWords(text) != text;
    }

    /**
     * The words of {@code text} its speaker said: {@link #ownWords} of a text up to {@link #MAX_READ_CHARS}
     * characters; {@code text} itself when it pastes nothing. A longer text is a document taken for a
     * paste: of it, only the speaker's words before the first stretch {@link #ownWords} sets aside in
     * its first {@link #MAX_READ_CHARS} characters ("I live in Oslo. Summarize this article:" above the
     * article), none when nothing there is set aside (a document from its first line).
     */
    public static String saidWords(String text) {
        if (text.length() <= MAX_READ_CHARS) {
            return ownWords(text);
        }
        String head = text.substring(0, MAX_READ_CHARS);
        String own = ownWords(head);
        if (own == head) {
            return "";
        }
        // ownWords keeps the lines: the first one it changed is where the paste starts (a line that hands
        // the text over keeps its own part)
        String[] was = head.split("\n", -1);
        String[] kept = own.split("\n", -1);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < kept.length && i < was.length; i++) {
            out.append(kept[i]);
            if (!kept[i].equals(was[i])) {
                break;
            }
            out.append('\n');
        }
        return out.toString().isBlank() ? "" : out.toString();
    }

    /** The most of a text {@link #pastes} reads; a longer text counts as pasted. */
    public static final int MAX_READ_CHARS = 20_000;

    /** What stands for a pasted stretch in {@link #withoutPastes}. */
    public static final String LEFT_OUT = "[a pasted text, left out]";

    /**
     * {@code text} with each pasted stretch replaced by {@link #LEFT_OUT} where it was, on one line (for a
     * model's prompt: a summary's, an extractor's); {@code text} itself when it pastes nothing. Of a text
     * longer than {@link #MAX_READ_CHARS}, the speaker's words before the document ({@link #saidWords}),
     * then the marker.
     */
    public static String withoutPastes(String text) {
        String own = saidWords(text);
        if (own == text) {
            return text;
        }
        if (own.isBlank()) {
            return LEFT_OUT;
        }
        if (text.length() > MAX_READ_CHARS) {
            return String.join(" ", own.strip().split("\\s*\n\\s*")) + " " + LEFT_OUT;
        }
        // ownWords keeps the turn's lines: a pasted line is blanked, a line that hands a text over is cut
        String[] was = text.split("\n", -1);
        String[] kept = own.split("\n", -1);
        StringBuilder out = new StringBuilder(own.length() + 32);
        boolean marked = false;
        for (int i = 0; i < kept.length; i++) {
            String k = kept[i].strip();
            boolean cut = i >= was.length || !kept[i].equals(was[i]) && !was[i].isBlank();
            if (!k.isEmpty()) {
                out.append(out.isEmpty() ? "" : " ").append(k);
                marked = false;
            }
            if (cut && !marked) {
                out.append(out.isEmpty() ? "" : " ").append(LEFT_OUT);
                marked = true;
            }
        }
        return out.toString();
    }

    /** The last line that closes a letter ({@link #SIGN_OFF}), or -1: a paste runs on to it. */
    private static int lastClosing(String[] lines) {
        for (int i = lines.length - 1; i > 0; i--) {
            if (lines[i].length() <= 60 && SIGN_OFF.matcher(lines[i]).matches()) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether the line at {@code i} is the last paragraph's first line and says somebody else wrote what
     * is above it ({@link #SOURCE_AFTER}): "Dear Grandma, … Love, Sofia⏎⏎My cousin wrote this, can you
     * fix the grammar?".
     */
    private static boolean closingSource(String[] lines, int i) {
        if (hasMore(lines, i)) {
            return false;
        }
        if (OTHERS_SIGNATURE.matcher(lines[i]).lookingAt()) {
            return true; // "…⏎⏎Sent from Rita's iPhone"
        }
        java.util.regex.Matcher that = THATS_WHAT.matcher(lines[i]);
        if (that.lookingAt() && !SPEAKER_SUBJECT.matcher(that.group("lead")).find()
                && !MY_DOCUMENT.matcher(that.group("lead")).find()) {
            return true; // "I moved to Faro!⏎— that's what Rita posted"
        }
        if (!lines[i - 1].isBlank() && !lines[i].strip().startsWith("^")) {
            return false;
        }
        java.util.regex.Matcher m = SOURCE_AFTER.matcher(lines[i]);
        return m.lookingAt() && !SPEAKER_SUBJECT.matcher(m.group("lead")).find()
                && !LEAD_NOT_SUBJECT.matcher(m.group("lead")).find() && !m.group("lead").isBlank()
                && !MY_DOCUMENT.matcher(m.group("lead")).find();
    }

    /** {@link #lastClosing} not looked for yet (it is, once, when a paste meets a paragraph like "Also, …"). */
    private static final int UNREAD = -2;

    /**
     * {@code text} with the pasted parts blanked out (each pasted line becomes an empty line, so the
     * sentences around them stay apart), or {@code text} itself when nothing is pasted. A paste runs
     * to the end of the turn, or to a paragraph in which the speaker speaks again ("Anyway, …",
     * "btw, …") below the pasted letter's closing ("Best, Mark"), if it has one; a paragraph of the
     * paste may start with "I" or "Also", so that does not end it.
     */
    public static String ownWords(String text) {
        if (text.indexOf('\n') < 0 && text.indexOf(':') < 0 && text.indexOf('>') < 0 && text.indexOf('`') < 0
                && text.indexOf('"') < 0 && text.indexOf('“') < 0) {
            // one line with no colon, quote or markup: only a source or a question without a colon hands a
            // text over ("Mom texted me - I moved to Berlin", "what does this say? …")
            if (SUNG.matcher(text).lookingAt()) {
                return "";
            }
            int cut = text.length() <= MAX_INTRO_CHARS ? introEnd(new String[] {text}, 0) : -1;
            return cut >= 0 ? text.substring(0, cut) : withoutQuotes(text);
        }
        String[] lines = text.split("\n", -1);
        // "^ what do you think": the caret points at what is above it
        int caret = -1;
        int last = lines.length - 1;
        while (last > 0 && lines[last].isBlank()) {
            last--;
        }
        for (int i = lines.length - 1; i > 0; i--) {
            // only the last line that is not blank can say who wrote what is above it (one test, not one per line)
            if (lines[i].strip().startsWith("^") || i == last && closingSource(lines, i)) {
                caret = i;
                break;
            }
        }
        boolean chatLog = labelledLines(lines) >= 2;
        boolean screenplay = screenplay(lines);
        boolean dialogue = false;
        for (String l : lines) {
            dialogue |= (l.indexOf('\u2014') >= 0 || l.indexOf('\u2013') >= 0) && DIALOGUE_TAG.matcher(l).lookingAt();
        }
        int lastClosing = UNREAD;
        StringBuilder out = new StringBuilder(text.length());
        boolean fence = false;
        boolean pasting = false;
        boolean authorBlock = false;
        boolean quotedPaste = false; // a paste made only of "> " lines so far
        boolean sawQuote = false;
        boolean labelBlock = false;
        boolean changed = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            String t = line.strip();
            if (i > 0) {
                out.append('\n');
            }
            if (t.startsWith("```") || t.startsWith("~~~")) {
                fence = !fence;
                changed = true;
                continue;
            }
            if (fence || i < caret) {
                changed = true;
                continue;
            }
            if (t.isEmpty()) {
                authorBlock = false;
                labelBlock = false;
                if (pasting && quotedPaste && sawQuote) {
                    pasting = false; // "my coworker wrote:⏎> …⏎⏎I'm allergic to soy": the quote is over
                }
                continue;
            }
            if (pasting && t.startsWith(">")) {
                sawQuote = true;
                changed = true;
                continue;
            }
            if (pasting) {
                quotedPaste = false; // the paste is more than quoted lines: it runs on
                if (i > 0 && lines[i - 1].isBlank() && RETURN.matcher(t).find()
                        && i > (lastClosing == UNREAD ? lastClosing = lastClosing(lines) : lastClosing)) {
                    pasting = false; // the speaker speaks again after the paste (and after its closing)
                } else {
                    changed = true;
                    continue;
                }
            }
            java.util.regex.Matcher chat = CHAT_OR_LOG_LINE.matcher(line);
            if (chat.find()) {
                java.util.regex.Matcher own = OWN_CHAT_PREFIX.matcher(line);
                if (own.find()) {
                    out.append(line, own.end(), line.length()); // "[10:15] eu: vivo em Aveiro" is the speaker's
                }
                changed = true;
                continue;
            }
            if (SUBTITLE_TIME.matcher(line).matches() || screenplay && CHARACTER_CUE.matcher(line).matches()
                    && !OWN_LABELS.contains(t.toLowerCase(Locale.ROOT))) {
                authorBlock = true; // a subtitle's or a character's lines, up to the next blank line
                changed = true;
                continue;
            }
            if (screenplay && SCENE_HEADING.matcher(line).matches()
                    || dialogue && (t.startsWith("\u2014") || t.startsWith("\u2013"))) {
                changed = true;
                continue;
            }
            if (t.startsWith(">") || MARKUP_LINE.matcher(line).find() || SUNG.matcher(line).lookingAt()) {
                changed = true;
                continue;
            }
            if (t.indexOf(':') > 0 && t.codePointCount(0, t.length()) <= 55 && AUTHOR_TIME_LINE.matcher(t).matches()) {
                authorBlock = true; // a chat app's author line: what follows up to a blank line is theirs
                changed = true;
                continue;
            }
            if (authorBlock) {
                changed = true;
                continue;
            }
            if (REPLY_LINE.matcher(t).matches() || FORWARD_LINE.matcher(t).find() || headerBlock(lines, i)) {
                pasting = true; // the email replied to or forwarded
                changed = true;
                continue;
            }
            if (chatLog) {
                java.util.regex.Matcher label = LABEL.matcher(line);
                if (mayBeLabelled(line) && label.find()) {
                    labelBlock = !OWN_LABELS.contains(label.group(1).toLowerCase(Locale.ROOT));
                }
                if (labelBlock) {
                    changed = true;
                    continue;
                }
            }
            int cut = t.length() <= MAX_INTRO_CHARS ? introEnd(lines, i) : -1;
            if (cut >= 0) {
                out.append(line, 0, cut);
                pasting = true;
                quotedPaste = cut == line.length() || line.substring(cut).isBlank();
                sawQuote = false;
                changed = true;
                continue;
            }
            String kept = withoutQuotes(line);
            changed |= kept != line;
            out.append(kept);
        }
        return changed ? out.toString() : text;
    }

    /**
     * Where the line at {@code i} hands a text over: the offset after its colon (the text follows on
     * the line and below) or the line's length (the text is on the lines below); -1 when it does not.
     */
    private static int introEnd(String[] lines, int i) {
        int cut = handedOverAt(lines, i);
        if (cut < 0) {
            return -1;
        }
        // a text the speaker calls their own is theirs (tested only on the few lines that hand one over:
        // "…, it's for my LinkedIn profile" anywhere on the line), unless it is written for somebody else
        // ("write my brother's bio in first person: …"); a request to write counts only in the words that
        // hand the text over ("Text from Dad: I'm retired now. Draft a reply." leaves Dad's words his)
        String line = lines[i];
        String intro = line.substring(0, Math.min(cut, line.length()));
        boolean own = OWN.matcher(line).find() || OWN_MADE.matcher(line).find() || OWN_WRITING.matcher(intro).find();
        return own && !writtenForSomeoneElse(line) ? -1 : cut;
    }

    /**
     * Whether {@code line} hands over a text written for somebody else ({@link #FOR_SOMEONE_ELSE}) or made
     * up ("Help me write a fake excuse to my boss: …", "Sample answer: …").
     */
    private static boolean writtenForSomeoneElse(String line) {
        if (MADE_UP.matcher(line).find()) {
            return true;
        }
        java.util.regex.Matcher m = FOR_SOMEONE_ELSE.matcher(line);
        return m.lookingAt() && A_TEXT_TO_WRITE.matcher(line.substring(0, m.end())).find()
                && THEIR_TEXT.matcher(line.substring(0, m.end())).find();
    }

    /** {@link #introEnd} before the test for the speaker's own text. */
    private static int handedOverAt(String[] lines, int i) {
        String line = lines[i];
        int gates = GATES.of(line);
        int bySource = handedOverBySource(lines, i, gates);
        if (bySource >= 0) {
            return bySource;
        }
        if (line.indexOf(':') < 0 && !hasMore(lines, i)) {
            return -1; // a text handed over follows a colon or starts on a line below: neither can
        }
        String t = line.strip();
        java.util.regex.Matcher source = SOURCE_COLON.matcher(line);
        if ((gates & SOURCE_GATE) != 0 && source.find()) {
            String rest = line.substring(source.end()).stripLeading();
            if (!rest.isEmpty() && "\"“'".indexOf(rest.charAt(0)) >= 0) {
                return -1; // 'she sent this: "…" and I live in Almada': the quote goes, the words after it stay
            }
            return source.end(); // what the source says follows the colon
        }
        java.util.regex.Matcher request = REQUEST_LINE.matcher(line);
        if (request.find() && !FIRST_PERSON.matcher(line.substring(0, request.end())).find()
                && !MY_DOCUMENT.matcher(line.substring(0, request.end())).find()
                && !OWN_LABELS.contains(line.substring(0, request.end() - 1).strip().toLowerCase(Locale.ROOT))) {
            return request.end(); // "translate to english pls:"
        }
        java.util.regex.Matcher m = THIS_COLON.matcher(line);
        boolean found = (gates & THIS_GATE) != 0 && m.find();
        if (!found) {
            m = INTRO.matcher(line);
            found = (gates & DOCUMENT_GATE) != 0 && m.find();
        }
        if (!found) {
            return -1;
        }
        int colon = line.indexOf(':', m.start());
        if (colon >= 0 && colon < m.end() && (colon + 1 == line.length()
                || Character.isWhitespace(line.charAt(colon + 1)))) {
            return colon + 1; // the text handed over follows the colon
        }
        // without a colon the text must start below: after a blank line, or a greeting
        // ("Can you reply to this email?⏎Hi Bob, …"), and the line must ask and point at it
        boolean below = hasMore(lines, i) && (lines[i + 1].isBlank() || GREETING.matcher(lines[i + 1]).find());
        boolean asks = t.endsWith("?") || ASKING.matcher(t).find();
        return below && asks && POINTS_AT_THIS.matcher(line).find() ? line.length() : -1;
    }

    /**
     * Where the line at {@code i} hands over a text with no colon after a request, or names its source
     * before a dash or a colon ({@link #ASKS_ABOUT_TEXT}, {@link #FROM_SOURCE}, {@link #TEXT_HEADING},
     * {@link #SOURCE_HANDOVER}): the offset where the text starts on the line, or the line's length when
     * it starts below; -1 when the line does neither, or nothing follows.
     */
    private static int handedOverBySource(String[] lines, int i, int gates) {
        String line = lines[i];
        boolean below = hasMore(lines, i);
        // the cheap tests first: most lines have no colon, no spaced dash, no '#' and open with no bracket
        boolean colon = line.indexOf(':') >= 0;
        boolean dash = spacedDash(line);
        char first = firstVisible(line);
        java.util.regex.Matcher m;
        if ((first == '[' || first == '(') && (m = IMAGE_TEXT_MARK.matcher(line)).lookingAt()
                || line.indexOf('#') >= 0 && (m = NUMBERED_TEXT.matcher(line)).lookingAt()) {
            return textStart(m, line, below);
        }
        if (colon && (m = LABELLED_TEXT.matcher(line)).lookingAt() && (m.group("before") == null
                || !MY_DOCUMENT.matcher(m.group("before") + "text").find())) {
            return textStart(m, line, below);
        }
        if ((colon || dash) && (m = FOR_SOMEONE_ELSE.matcher(line)).lookingAt()
                && A_TEXT_TO_WRITE.matcher(line.substring(0, m.end())).find()
                && THEIR_TEXT.matcher(line.substring(0, m.end())).find()) {
            return textStart(m, line, below);
        }
        if ((gates & WORK_GATE) != 0 && (m = WORKING_ON_TEXT.matcher(line)).lookingAt()) {
            return m.end(); // "Podcast intro I'm transcribing. Hey everyone, I'm Duda…"
        }
        m = ASKS_ABOUT_TEXT.matcher(line);
        if (m.lookingAt()) {
            if (m.end() < line.length()) {
                // "what does this say? NOTE: …" hands a text over; "Is this true? I'm allergic to cats" goes on
                // in the speaker's own words
                return SPEAKER_OPENS.matcher(line).region(m.end(), line.length()).lookingAt() ? -1 : m.end();
            }
            return below ? line.length() : -1;
        }
        m = FROM_SOURCE.matcher(line);
        if (m.lookingAt() && namesSource(m.group("det") != null, m.group("src").strip())) {
            return textStart(m, line, below);
        }
        m = TEXT_HEADING.matcher(line);
        if (m.lookingAt()) {
            return textStart(m, line, below);
        }
        if ((gates & SOURCE_GATE) == 0 && line.indexOf(" like,") < 0 && line.indexOf(" all,") < 0) {
            return -1;
        }
        m = SOURCE_HANDOVER.matcher(line);
        while (m.find()) {
            String lead = m.group("lead");
            if (lead.isBlank() || SPEAKER_SUBJECT.matcher(lead).find() || LEAD_NOT_SUBJECT.matcher(lead).find()
                    || !personLead(lead, m.group("quotative") != null)) {
                continue; // "I told her - …", "Keep me posted - …", "Everything is like, …": nobody else speaks
            }
            String sep = m.group("sep");
            boolean quotative = m.group("quotative") != null;
            boolean ahead = m.group("ahead") != null;
            if (sep.indexOf(',') >= 0 && (!quotative || !m.group("obj").isBlank())) {
                continue; // only a quotative ends at a comma, right after it ("she goes, …"; not "she said, …")
            }
            if (quotative && !m.group("obj").isBlank()) {
                continue; // "My son went to college - …": a quotative takes no object
            }
            if (m.group("via") != null && !ahead && sep.indexOf('>') < 0 && sep.indexOf('\u2192') < 0) {
                continue; // "Rita posted on Instagram - I'm so jealous": no text pointed at, only a place
            }
            if (m.end() < line.length() && "\"“'‘«".indexOf(line.charAt(m.end())) >= 0) {
                continue; // 'The sign says, "Always look on the bright side"': the quote is read as a quote
            }
            if (sep.isBlank()) {
                if (below) {
                    return line.length(); // "Rita said⏎I moved to Ohio."
                }
            } else if (sep.indexOf('.') >= 0 || sep.indexOf('!') >= 0) {
                if (ahead) {
                    // "Kevin wrote this on my wall. I live in Austin": the words after the sentence are his
                    return m.start("sep") + sep.indexOf(sep.indexOf('.') >= 0 ? '.' : '!') + 1;
                }
            } else {
                return m.end(); // "Mom texted me - I moved to Berlin", "my coworker goes, I'm moving", "-> …"
            }
        }
        return -1;
    }

    /** Where the text a match hands over starts: after it on the line, else below it (the line's end), else nowhere. */
    private static int textStart(java.util.regex.Matcher m, String line, boolean below) {
        return m.end() < line.length() ? m.end() : below ? line.length() : -1;
    }

    /** Pronouns that name somebody else as a subject: "she", "they", "ela". */
    private static final java.util.Set<String> THIRD_PERSON = java.util.Set.of("he", "she", "they", "someone", "somebody",
            "everyone", "everybody", "people", "ele", "ela", "eles", "elas", "alguém", "alguem");
    private static final Pattern PERSON_WORD = words("(?iu)\\b" + PERSON + "\\b");

    /**
     * Whether a lead ends in somebody who can speak: a third-person pronoun, a person ("my coworker", "her
     * boyfriend", "o chefe"), or a capitalised name that does not open the line ("E o Caio", "Mom", "Kevin").
     */
    private static boolean personLead(String lead, boolean quotative) {
        String[] words = lead.strip().split("[\\s,]+");
        if (words.length == 0 || words[0].isEmpty()) {
            return false;
        }
        String last = words[words.length - 1];
        String folded = Terms.fold(last);
        if (THIRD_PERSON.contains(folded) || PERSON_WORD.matcher(last).matches()) {
            return true;
        }
        if (words.length >= 2 && PERSON_WORD.matcher(words[words.length - 2]).matches()) {
            return true; // "my boss just", "her boyfriend also"
        }
        int c = last.codePointAt(0);
        // a quotative's capitalised subject must not open the line ("Everything is like, …"; "E o Caio tipo, …")
        return Character.isUpperCase(c) && last.length() >= 2 && !ordinary(folded)
                && !NOT_A_SOURCE.contains(folded) && (!quotative || words.length >= 2);
    }

    /** Whether {@code line} holds a dash between blanks ("Rita — …", "Mom texted me - …"). */
    private static boolean spacedDash(String line) {
        for (int i = 1; i + 1 < line.length(); i++) {
            char c = line.charAt(i);
            if ((c == '-' || c == '\u2013' || c == '\u2014') && Character.isWhitespace(line.charAt(i - 1))) {
                return true;
            }
        }
        return false;
    }

    /** The first character of {@code line} that is not a blank, or a blank when there is none. */
    private static char firstVisible(String line) {
        for (int i = 0; i < line.length(); i++) {
            if (!Character.isWhitespace(line.charAt(i))) {
                return line.charAt(i);
            }
        }
        return ' ';
    }

    /**
     * Whether {@code src} after "From" names where a text comes from: after a determiner, a person or a
     * kind of text ("the recipe blog", "my sister"); without one, a name or a handle ("Jake", "@rita"),
     * not a time ("From Monday", "From now on").
     */
    private static boolean namesSource(boolean determiner, String src) {
        if (src.isEmpty()) {
            return false;
        }
        String[] words = src.split("\\s+");
        String first = Terms.fold(words[0]);
        if (NOT_A_SOURCE.contains(first)) {
            return false;
        }
        if (determiner) {
            return SOURCE_NOUN.matcher(words[words.length - 1]).find();
        }
        int c = src.codePointAt(0);
        // a bare capitalised word may be a place or a time ("From Brazil - I live in Lisbon now"): only handles
        return words.length <= 3 && (c == '@' || c == '#');
    }

    /**
     * Whether {@code lines} read as a screenplay: a scene heading ("INT. DINER - NIGHT"), or two character
     * cues (a name in capitals alone on its line) each followed by a line of dialogue.
     */
    private static boolean screenplay(String[] lines) {
        int cues = 0;
        for (int i = 0; i < lines.length; i++) {
            if (SCENE_HEADING.matcher(lines[i]).matches()) {
                return true;
            }
            if (i + 1 < lines.length && !lines[i + 1].isBlank() && CHARACTER_CUE.matcher(lines[i]).matches()
                    && !OWN_LABELS.contains(lines[i].strip().toLowerCase(Locale.ROOT))
                    && !ordinary(Terms.fold(lines[i].strip().split("\\s+")[0]))) {
                cues++;
            }
        }
        return cues >= 3;
    }

    /** How many lines start with a label that is not the speaker's own ("jake:", "Rita:", "Q:"). */
    private static int labelledLines(String[] lines) {
        int n = 0;
        for (String line : lines) {
            java.util.regex.Matcher label = LABEL.matcher(line);
            if (mayBeLabelled(line) && label.find() && !OWN_LABELS.contains(label.group(1).toLowerCase(Locale.ROOT))) {
                n++;
            }
        }
        return n;
    }

    /** {@code line} without the quoted passages in which somebody else speaks in the first person. */
    private static String withoutQuotes(String line) {
        if (line.indexOf('"') < 0 && line.indexOf('“') < 0 && line.indexOf('\'') < 0 && line.indexOf('‘') < 0) {
            return line;
        }
        // the matches of QUOTED, tried only where a quotation mark opens (a find() tried every position)
        java.util.regex.Matcher dq = QUOTED.matcher(line).useTransparentBounds(true).useAnchoringBounds(false);
        java.util.regex.Matcher sq = null;
        StringBuilder out = null;
        int last = 0;
        for (int from = nextQuote(line, 0); from >= 0; from = nextQuote(line, from)) {
            char mark = line.charAt(from);
            java.util.regex.Matcher q = dq;
            if (mark == '\'' || mark == '‘') {
                q = sq == null ? sq = QUOTED_SINGLE.matcher(line).useTransparentBounds(true).useAnchoringBounds(false) : sq;
            }
            q.region(from, line.length());
            if (!q.lookingAt()) {
                from++;
                continue;
            }
            from = q.end();
            String before = line.substring(Math.max(0, q.start() - 60), q.start());
            if (!QUOTE_FIRST_PERSON.matcher(q.group(1)).find() || SELF_QUOTE.matcher(before).find()) {
                continue;
            }
            if (out == null) {
                out = new StringBuilder(line.length());
            }
            out.append(line, last, q.start());
            last = q.end();
        }
        return out == null ? line : out.append(line, last, line.length()).toString();
    }

    /** Whether the line at {@code i} starts two or more header lines in a row (one "Date:" may be the speaker's). */
    private static boolean headerBlock(String[] lines, int i) {
        if (!HEADER.matcher(lines[i].strip()).matches()) {
            return false;
        }
        if (i + 1 >= lines.length || !HEADER.matcher(lines[i + 1].strip()).matches()) {
            return false;
        }
        // "From: Lisbon\nTo: Berlin" is a note; an email's header names an address or a subject
        String two = lines[i] + "\n" + lines[i + 1];
        return two.indexOf('@') >= 0 || SUBJECT.matcher(two).find()
                || i + 2 < lines.length && HEADER.matcher(lines[i + 2].strip()).matches();
    }

    /** Where the next quotation mark opening a {@link #QUOTED} passage may be, from {@code from}; -1 if none. */
    private static int nextQuote(String line, int from) {
        for (int i = from; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"' || c == '“') {
                return i;
            }
            // a single quotation mark opens a quote only after a blank, a colon, a bracket or a dash (an
            // apostrophe follows a letter: "I'm", "Rita's")
            if ((c == '\'' || c == '‘') && (i == 0 || " \t:([—–-".indexOf(line.charAt(i - 1)) >= 0)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether {@link #LABEL} may match: a colon within its longest label (45 code points, the
     * pattern counts letters outside the BMP as one) after the indent.
     */
    private static boolean mayBeLabelled(String line) {
        int colon = line.indexOf(':');
        if (colon < 0) {
            return false;
        }
        int indent = 0;
        while (indent < colon && Character.isWhitespace(line.charAt(indent))) {
            indent++;
        }
        return line.codePointCount(indent, colon) <= 45;
    }

    /**
     * Which of a few sets of words (each a pattern of alternatives) a line holds, as bits (bit {@code i}
     * for set {@code i}): a set counts when one of the line's runs of letters and digits is one of its
     * words, case-insensitively as the patterns fold case. The cheap test before costly patterns that
     * need one of them: one pass over the line; each distinct run of at most {@value #MAX_CACHED_CHARS}
     * characters is matched once, and its bits kept in a map of at most {@value #MAX_RUNS} runs (emptied
     * when full: a few megabytes at most). Thread-safe.
     */
    private static final class WordGates {
        private static final int MAX_RUNS = 1 << 14;
        private static final int MAX_CACHED_CHARS = 32;
        private final Pattern[] sets;
        private final int all;
        private final java.util.concurrent.ConcurrentHashMap<String, Integer> known =
                new java.util.concurrent.ConcurrentHashMap<>();

        WordGates(Pattern... sets) {
            this.sets = sets.clone();
            this.all = (1 << sets.length) - 1;
        }

        int of(String line) {
            int bits = 0;
            int n = line.length();
            int i = 0;
            while (i < n && bits != all) {
                while (i < n && !wordAt(line, i)) {
                    i += step(line, i);
                }
                int start = i;
                while (i < n && wordAt(line, i)) {
                    i += step(line, i);
                }
                if (i - start >= 2) { // every word of the sets has two letters or more
                    bits |= bits(line.substring(start, i));
                }
            }
            return bits;
        }

        private int bits(String run) {
            if (run.length() > MAX_CACHED_CHARS) {
                return match(run);
            }
            Integer known = this.known.get(run);
            if (known == null) {
                known = match(run);
                if (this.known.size() >= MAX_RUNS) {
                    this.known.clear();
                }
                this.known.put(run, known);
            }
            return known;
        }

        private int match(String run) {
            int bits = 0;
            for (int s = 0; s < sets.length; s++) {
                if (sets[s].matcher(run).matches()) {
                    bits |= 1 << s;
                }
            }
            return bits;
        }

        /** The chars of the code point at {@code i}: 2 for a surrogate pair. */
        private static int step(String line, int i) {
            return Character.isHighSurrogate(line.charAt(i)) ? Character.charCount(line.codePointAt(i)) : 1;
        }

        private static boolean wordAt(String line, int i) {
            char c = line.charAt(i);
            if (c < 0x80) {
                return (c | 0x20) >= 'a' && (c | 0x20) <= 'z' || c >= '0' && c <= '9';
            }
            return Character.isLetterOrDigit(line.codePointAt(i));
        }
    }

    private static final Pattern SUBJECT = words("(?imu)^\\s*(?:subject|assunto)\\s?:");

    /** Whether a non-blank line follows line {@code i}. */
    private static boolean hasMore(String[] lines, int i) {
        for (int j = i + 1; j < lines.length; j++) {
            if (!lines[j].isBlank()) {
                return true;
            }
        }
        return false;
    }

}
