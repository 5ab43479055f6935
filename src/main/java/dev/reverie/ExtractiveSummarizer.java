package dev.reverie;

import dev.reverie.internal.PastedContent;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.Summarizer;
import dev.reverie.spi.TokenCounter;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The default {@link Summarizer}: extractive and deterministic. It keeps the sentences of older
 * turns that carry decisions, commitments, open questions, names and numbers (English and
 * Portuguese cues), newest last, within the token limit; older summary lines give way first. Tool
 * output is left out (third-party text never enters this SYSTEM-rendered summary), and an assistant
 * turn is labelled as the assistant's whatever speaker name it carries. Thread-safe.
 */
final class ExtractiveSummarizer implements Summarizer {

    private static final Pattern SENTENCE = Pattern.compile("(?<=[.!?])\\s+|\\n+");
    private static final Pattern CUES = Pattern.compile(
            "\\b(decid|agree|confirm|schedul|book|will|won't|going to|plan|need|must|should|promis|deadline|"
                    + "cancel|move|prefer|remember|allerg|call me|my name|decidi|combin|confirm|vou|vamos|"
                    + "preciso|precisa|marc|agend|cancel|prefiro|lembr|alerg|me chame)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern NUMBERISH = Pattern.compile("\\d|\\b\\p{Lu}\\p{L}+\\b");

    private final TokenCounter tokens;

    ExtractiveSummarizer(TokenCounter tokens) {
        this.tokens = tokens;
    }

    @Override
    public String summarize(String previousSummary, List<SessionTurn> turns, int maxTokens) {
        List<String> lines = new ArrayList<>();
        if (previousSummary != null && !previousSummary.isBlank()) {
            for (String l : previousSummary.split("\n")) {
                if (!l.isBlank()) {
                    lines.add(l);
                }
            }
        }
        Set<String> seen = new LinkedHashSet<>(lines);
        for (SessionTurn t : turns) {
            if (t.role() == Role.TOOL) {
                // tool output is third-party text: the summary is rendered as a SYSTEM message and has
                // no per-line trust mark, so it never quotes a tool (the turn stays in the archive,
                // marked, for episodic recall)
                continue;
            }
            String name = t.speaker() == null ? null
                    : t.speaker().replaceAll("[\\p{Cntrl}\\u2028\\u2029]+", " ").strip();
            if (name != null) {
                name = Rendering.escape(name);
            }
            // a person named "Assistant", "System" or "Tool (…)" is shown as a user, never as one of those
            String who = t.role() == Role.ASSISTANT
                    ? (name == null || name.isEmpty() ? "Assistant"
                    : "Assistant (" + dev.reverie.internal.RoleNames.shown(name) + ")")
                    : (name == null || name.isEmpty() ? "User"
                    : dev.reverie.internal.RoleNames.person(name));
            // what a user pastes (an email, an article) is somebody else's: its sentences are not the
            // user's decisions or facts (the turn stays in the archive, marked, for episodic recall)
            for (String sentence : SENTENCE.split(t.role() == Role.USER ? PastedContent.saidWords(t.text()) : t.text())) {
                String s = sentence.strip();
                if (s.length() < 3 || !(s.endsWith("?") || CUES.matcher(s).find() || NUMBERISH.matcher(s).find())) {
                    continue;
                }
                String marker = s.endsWith("?") ? " (open question)" : "";
                String line = "- " + who + ": " + Rendering.escape(s) + marker;
                if (seen.add(line.toLowerCase(Locale.ROOT))) {
                    lines.add(line);
                }
            }
        }
        // drop the oldest lines until it fits
        int start = 0;
        while (start < lines.size() && tokens.count(String.join("\n", lines.subList(start, lines.size()))) > maxTokens) {
            start++;
        }
        return String.join("\n", lines.subList(start, lines.size()));
    }
}
