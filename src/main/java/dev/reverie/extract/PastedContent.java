package dev.reverie.extract;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Finds what a user turn pastes rather than says: a code block, quoted lines ({@code > …}), an email
 * with its headers or below a reply line ("On Mon, 3 Jun, Ana wrote:"), and a text handed over with a
 * request ("Summarize this article: …", "Can you reply to this email?" followed by the email, "Segue o
 * texto: …"). Those words are somebody else's — an email's "I'm allergic to peanuts" is its writer's —
 * so no fact about the speaker is read from them; they stay verbatim in the turn (and in episodic
 * recall). A text the speaker calls their own ("check my cover letter: …", "help me write a reply") is
 * theirs: the text must be pointed at ("this email", "the following text") or presented ("here's the
 * email:"). Stateless and
 * thread-safe; linear in the text.
 */
final class PastedContent {

    private PastedContent() {
    }

    /** Lines longer than this are not tested as an introduction (a pasted line is long, a request short). */
    private static final int MAX_INTRO_CHARS = 400;

    /** "From: …", "Subject: …", "Assunto: …": a line of an email's header. */
    private static final Pattern HEADER = Pattern.compile(
            "(?iu)^(?:from|to|cc|bcc|subject|sent|date|reply-to|de|para|assunto|enviad[oa]|data|enviado\\s+em|"
                    + "cc/cco)\\s?:\\s*\\S.*");

    /** "-----Original Message-----", "---------- Forwarded message ---------", "On …, Ana wrote:". */
    private static final Pattern REPLY_LINE = Pattern.compile(
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
            + "pdfs?|files?|screenshots?|captions?|descriptions?|listings?|ads?|"
            + "mensage(?:m|ns)|textos?|artigos?|cartas?|documentos?|par[áa]grafos?|reda[çc](?:[ãa]o|[õo]es)|"
            + "coment[áa]rios?|resenhas?|conversas?|hist[óo]rias?|relat[óo]rios?|trechos?|cita[çc](?:[ãa]o|[õo]es)|"
            + "not[íi]cias?|comunicados?|an[úu]ncios?|poemas?|p[áa]ginas?|sites?|arquivos?|descri[çc][ãa]o)";

    /** A request about a text somebody else wrote, or a verb that presents one. */
    private static final String REQUEST = "(?:summari[sz]e|translate|reply|respond|rewrite|rephrase|reword|"
            + "paraphrase|proofread|review|check|edit|fix|improve|correct|polish|read|analy[sz]e|explain|shorten|"
            + "simplify|format|critique|evaluate|grade|look\\s+at|got|received|forwarded|sent|found|"
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
    private static final Pattern INTRO = Pattern.compile(
            "(?iu)(?:\\b" + REQUEST + "\\b[^.!?:\\n]{0,80}?\\b" + DEMONSTRATIVE
                    + "|\\b" + PRESENTING + "\\s+(?:the|a|an|o|os|as|um|uma|" + DEMONSTRATIVE.substring(3) + ")"
                    + "\\s+(?:[\\p{L}\\-]+\\s+){0,2}?" + DOCUMENT
                    + "\\b(?:[^.!?:\\n]{0,60}?:(?=\\s|$)|(?:\\s+[^\\s.!?:]+){0,5}[.!?:]?\\s*$)");

    /**
     * "Summarize this:", "Translate to Portuguese:", "Can you translate this for me?", "My friend sent
     * me this:": a request whose object is the text after it.
     */
    private static final Pattern THIS_COLON = Pattern.compile(
            "(?iu)\\b(?:summari[sz]e|translate|rewrite|rephrase|proofread|reply\\s+to|respond\\s+to|fix|edit|"
                    + "improve|correct|check|review|explain|read|sent\\s+(?:me|us)|forwarded\\s+(?:me|us)|"
                    + "resum[ae]|traduz[ae]|reescrev[ae]|revis[ae]|corrij[ae]|respond[ae]|expliqu[ae]|leia|"
                    + "mandou|enviou)\\s+(?:this|that|these|isto|isso|esse|este|essa|esta|"
                    + "(?:it\\s+)?(?:to|into|para|pro|pra)\\s+[\\p{L}\\-]{2,20})(?:\\s+(?:for\\s+me|pra\\s+mim|"
                    + "para\\s+mim|please|por\\s+favor))?\\s*(?::(?=\\s|$)|[?.]?\\s*$)");

    /**
     * A colon after a source that speaks: "the doctor's letter reads:", "my landlord wrote:", "Tweet by
     * @bob:", "Pasted from the website:", "Copy of the letter:", "o e-mail diz:". Not the speaker's own
     * "I said:" / "eu disse:".
     */
    private static final Pattern SOURCE_COLON = Pattern.compile(
            "(?iu)(?:(?<!\\bi\\s)(?<!\\beu\\s)\\b(?:reads|says|said|wrote|writes|posted|tweeted|states|stated|"
                    + "replied|answered|diz|disse|escreveu|escreve|postou|respondeu)"
                    + "|\\b(?:pasted|copied)\\s+(?:from|of)\\b[^:\\n]{0,60}?|\\bcopy\\s+of\\b[^:\\n]{0,60}?"
                    + "|\\b(?:tweet|post|comment|review|message|e-?mail|text|reply|answer)\\s+(?:by|from)\\s+\\S{1,40}?"
                    + "|\\b(?:copiado|colado|c[óo]pia)\\s+(?:d[aoe]s?)\\b[^:\\n]{0,60}?)\\s*:(?=\\s|$)");

    /**
     * {@code text} with the pasted parts blanked out (each pasted line becomes an empty line, so the
     * sentences around them stay apart), or {@code text} itself when nothing is pasted.
     */
    static String ownWords(String text) {
        if (text.indexOf('\n') < 0 && text.indexOf(':') < 0 && text.indexOf('>') < 0 && text.indexOf('`') < 0) {
            return text;
        }
        String[] lines = text.split("\n", -1);
        StringBuilder out = new StringBuilder(text.length());
        boolean fence = false;
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
            if (fence || t.startsWith(">")) {
                changed = true;
                continue;
            }
            if (REPLY_LINE.matcher(t).matches() || headerBlock(lines, i)) {
                return out.toString(); // the rest is the email replied to or forwarded
            }
            if (t.length() <= MAX_INTRO_CHARS) {
                java.util.regex.Matcher source = SOURCE_COLON.matcher(line);
                if (source.find()) {
                    out.append(line, 0, source.end());
                    return out.toString(); // what the source says follows the colon
                }
                java.util.regex.Matcher m = THIS_COLON.matcher(line);
                if (!m.find()) {
                    m = INTRO.matcher(line);
                }
                if (m.find(0)) {
                    int colon = line.indexOf(':', m.start());
                    if (colon >= 0 && colon < m.end() && (colon + 1 == line.length()
                            || Character.isWhitespace(line.charAt(colon + 1)))) {
                        out.append(line, 0, colon + 1);
                        return out.toString(); // the text handed over follows the colon
                    }
                    boolean asks = t.endsWith("?") || t.endsWith(":");
                    if (hasMore(lines, i) && (asks || lines[i + 1].isBlank())) {
                        out.append(line);
                        return out.toString(); // the text handed over is on the lines below
                    }
                }
            }
            out.append(line);
        }
        return changed ? out.toString() : text;
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
        return two.indexOf('@') >= 0 || SUBJECT.matcher(two).find();
    }

    private static final Pattern SUBJECT = Pattern.compile("(?imu)^\\s*(?:subject|assunto)\\s?:");

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
