package dev.reverie.extract;

import java.util.List;
import java.util.Set;

/**
 * How the speaker writes, one STYLE fact per signal and turn (the dream cycle's REM phase folds
 * them into the single style profile): {@code user.style.length} = short (≤ 8 words) / medium /
 * long (≥ 40 words), {@code user.style.language} = en / pt when the turn is clearly in one of them
 * (three marker words or more, three to one), {@code user.style.emoji} = yes when the turn has an
 * emoji or emoticon, {@code user.style.formality} = formal / informal when only one kind of marker
 * appears (twice, or once in a short turn). Stateless and thread-safe.
 */
final class StyleRules {

    static final int SHORT_WORDS = 8;
    static final int LONG_WORDS = 40;

    private static final Set<String> FORMAL = Lexicon.words("formal");
    private static final Set<String> INFORMAL = Lexicon.words("informal");

    private StyleRules() {
    }

    static void apply(String text, List<Sentence> sentences, Sentence.Lang lang, Facts out) {
        int words = 0;
        int en = 0;
        int pt = 0;
        int formal = 0;
        int informal = 0;
        for (Sentence s : sentences) {
            words += s.tokens.size();
            en += s.enScore;
            pt += s.ptScore;
            for (String t : s.tokens) {
                if (FORMAL.contains(t)) {
                    formal++;
                }
                if (INFORMAL.contains(t)) {
                    informal++;
                }
            }
        }
        if (words == 0) {
            return;
        }
        boolean portuguese = lang == Sentence.Lang.PT;
        String who = out.who;
        String length = words <= SHORT_WORDS ? "short" : words >= LONG_WORDS ? "long" : "medium";
        out.style("user.style.length", length, portuguese
                ? who + " escreve mensagens " + (length.equals("short") ? "curtas" : length.equals("long") ? "longas" : "médias")
                : who + " writes " + (length.equals("medium") ? "medium-length" : length) + " messages");
        if (en + pt >= 3 && (en >= 3 * pt || pt >= 3 * en)) {
            String code = pt > en ? "pt" : "en";
            out.style("user.style.language", code, portuguese
                    ? who + (code.equals("pt") ? " escreve em português" : " escreve em inglês")
                    : who + (code.equals("pt") ? " writes in Portuguese" : " writes in English"));
        }
        if (hasEmoji(text)) {
            out.style("user.style.emoji", "yes", portuguese ? who + " usa emojis" : who + " uses emoji");
        }
        if (formal >= 2 && informal == 0 || formal >= 1 && informal == 0 && words <= SHORT_WORDS) {
            out.style("user.style.formality", "formal", portuguese ? who + " escreve de modo formal"
                    : who + " writes formally");
        } else if (informal >= 2 && formal == 0 || informal >= 1 && formal == 0 && words <= SHORT_WORDS) {
            out.style("user.style.formality", "informal", portuguese ? who + " escreve de modo informal"
                    : who + " writes informally");
        }
    }

    static boolean hasEmoji(String text) {
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if ((cp >= 0x1F300 && cp <= 0x1FAFF) || (cp >= 0x2600 && cp <= 0x27BF) || (cp >= 0x1F000 && cp <= 0x1F2FF)
                    || cp == 0x2764 || cp == 0x2B50) {
                return true;
            }
            i += Character.charCount(cp);
        }
        return text.contains(":)") || text.contains(":-)") || text.contains(":D") || text.contains(";)")
                || text.contains(":(") || text.contains("<3") || text.contains(":P") || text.contains("xD");
    }
}
