package dev.reverie.extract;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Finds what a user turn pastes rather than says: a code block, quoted lines ({@code > …}), an email
 * with its headers or below a reply line ("On Mon, 3 Jun, Ana wrote:"), and a text handed over with a
 * request ("Summarize this article: …", "Can you reply to this email?" followed by the email, "Segue o
 * texto: …"). Those words are somebody else's — an email's "I'm allergic to peanuts" is its writer's —
 * so no fact about the speaker is read from them; they stay verbatim in the turn (and in episodic
 * recall). A text the speaker calls their own ("check my cover letter: …") is theirs. Stateless and
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

    /** A determiner that hands over a text that is not the speaker's own. */
    private static final String DETERMINER = "(?:this|that|the|a|an|these|those|following|attached|forwarded|below|"
            + "este|esta|esse|essa|estes|estas|esses|essas|o|a|os|as|um|uma|seguinte|anexo)";

    /** A kind of text somebody writes (an email, an article), in English and Portuguese. */
    private static final String DOCUMENT = "(?:e-?mails?|mails?|messages?|texts?|articles?|posts?|letters?|documents?|"
            + "docs?|paragraphs?|essays?|reviews?|comments?|tweets?|transcripts?|stor(?:y|ies)|passages?|excerpts?|"
            + "threads?|announcements?|newsletters?|press\\s+releases?|abstracts?|poems?|lyrics|quotes?|replies|"
            + "reply|responses?|answers?|bio|profile|statements?|reports?|memos?|notices?|chats?|conversations?|"
            + "mensage(?:m|ns)|textos?|artigos?|cartas?|documentos?|par[áa]grafos?|reda[çc](?:[ãa]o|[õo]es)|"
            + "coment[áa]rios?|resenhas?|conversas?|hist[óo]rias?|relat[óo]rios?|trechos?|cita[çc](?:[ãa]o|[õo]es)|"
            + "not[íi]cias?|respostas?|perfil|comunicados?|an[úu]ncios?|poemas?)";

    /** A request about a text, or words that present one. */
    private static final String REQUEST = "(?:summari[sz]e|summary|translate|translation|reply|respond|answer|"
            + "rewrite|rephrase|reword|paraphrase|proofread|review|check|edit|fix|improve|correct|polish|"
            + "read|analy[sz]e|explain|shorten|simplify|format|critique|evaluate|grade|draft|help|think|"
            + "here\\s+is|here's|here\\s+are|heres|below|got|received|forwarded|found|"
            + "resum[aioe]\\w*|traduz\\w*|tradu[çc][ãa]o|respond\\w*|reescrev\\w*|revis\\w*|corrij\\w*|corrig\\w*|"
            + "melhor\\w*|leia|ler|analis\\w*|expliqu\\w*|explic\\w*|ajud\\w*|segue|seguem|aqui\\s+est[áa]|"
            + "abaixo|recebi|chegou)";

    /**
     * A line that hands a text over: a request or presentation, a non-possessive determiner and a kind
     * of text in one clause, then a colon (the text follows on the line or below) or, at most a few
     * words later, the line's end (the text follows after a blank line).
     */
    private static final Pattern INTRO = Pattern.compile(
            "(?iu)\\b" + REQUEST + "\\b[^.!?\\n]{0,80}?\\b" + DETERMINER + "\\s+(?:[\\p{L}\\-]+\\s+){0,2}?"
                    + DOCUMENT + "\\b(?:[^.!?:\\n]{0,60}?(?<colon>:)|(?:\\s+[^\\s.!?:]+){0,5}[.!?]?\\s*$)");

    /** "Summarize this:", "Traduza isto:": a request about the text after the colon. */
    private static final Pattern THIS_COLON = Pattern.compile(
            "(?iu)\\b(?:summari[sz]e|translate|rewrite|rephrase|proofread|reply\\s+to|respond\\s+to|answer|fix|edit|"
                    + "improve|correct|check|review|explain|read|resum[ae]|traduz[ae]|reescrev[ae]|revis[ae]|corrij[ae]|"
                    + "respond[ae]|expliqu[ae]|leia)\\s+(?:this|that|these|isto|isso|esse|este|essa|esta)\\s*:");

    /** A possessive before the text: the speaker's own ("my cover letter", "minha carta"). */
    private static final Pattern OWN = Pattern.compile(
            "(?iu)\\b(?:my|our|meu|minha|meus|minhas|nosso|nossa)\\s+(?:[\\p{L}\\-]+\\s+){0,2}?" + DOCUMENT + "\\b");

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
            if (t.length() <= MAX_INTRO_CHARS && !OWN.matcher(t).find()) {
                java.util.regex.Matcher m = THIS_COLON.matcher(line);
                if (!m.find()) {
                    m = INTRO.matcher(line);
                }
                if (m.find(0)) {
                    if (m.end() < line.length() && line.charAt(m.end() - 1) == ':' || line.strip().endsWith(":")) {
                        out.append(line, 0, m.end());
                        return out.toString(); // the text handed over follows the colon
                    }
                    if (i + 1 < lines.length && lines[i + 1].isBlank() && hasMore(lines, i)) {
                        out.append(line);
                        return out.toString(); // the text handed over is the paragraphs below
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
        return i + 1 < lines.length && HEADER.matcher(lines[i + 1].strip()).matches();
    }

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
