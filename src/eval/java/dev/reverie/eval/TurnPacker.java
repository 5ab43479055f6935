package dev.reverie.eval;

import dev.reverie.spi.TokenCounter;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Renders raw turns and packs them into a token budget, the same way for every baseline.
 *
 * <p>A baseline's context is three kinds of message: the fixed {@link #SYSTEM_PROMPT}, one message
 * per packed turn rendered as {@code [8 May 2023] Caroline: text}, and the question. Each message
 * costs {@link TokenCounter#countMessage} tokens (o200k_base plus the per-message overhead), and the
 * prompt and question are paid for first, as Reverie pays for its immutable and transient layers.
 * Packed turns are shown in conversation order whatever order they were ranked in.
 *
 * <p>Thread-safe: it holds only the thread-safe counter.
 */
final class TurnPacker {

    /**
     * The instruction every system gets (Reverie as its immutable layer), so that all contexts pay
     * for the same preamble.
     */
    static final String SYSTEM_PROMPT = "You answer questions about a long-running conversation between two"
            + " people. Use the dated conversation excerpts and memories below.";

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("d MMMM yyyy", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    private final TokenCounter counter;

    TurnPacker(TokenCounter counter) {
        this.counter = counter;
    }

    /**
     * A turn ready to pack.
     *
     * @param position its place in the conversation, from 0
     * @param turn     the turn
     * @param rendered the message text
     * @param tokens   the message's cost
     */
    record PackableTurn(int position, LocomoData.DialogTurn turn, String rendered, int tokens) {
    }

    /** A ranked candidate with the ranker's score. */
    record Ranked(PackableTurn turn, double score) {
    }

    /** Renders and prices every turn of a sample, in conversation order. */
    List<PackableTurn> prepare(LocomoData.Sample sample) {
        List<PackableTurn> out = new ArrayList<>();
        for (LocomoData.DialogTurn turn : sample.turns()) {
            String rendered = render(turn);
            out.add(new PackableTurn(out.size(), turn, rendered, counter.countMessage(rendered)));
        }
        return out;
    }

    /** {@code [8 May 2023] Caroline: text}. */
    static String render(LocomoData.DialogTurn turn) {
        return "[" + DAY.format(turn.at()) + "] " + turn.speaker() + ": " + turn.text();
    }

    /** The text a retriever indexes for a turn: the speaker and the text, without the date. */
    static String retrievalText(LocomoData.DialogTurn turn) {
        return turn.speaker() + ": " + turn.text();
    }

    /**
     * Packs ranked turns into what the budget leaves after the prompt and the question.
     *
     * @param stopAtFirstMiss {@code true} for a contiguous window (stop at the first turn that does
     *                        not fit); {@code false} to skip it and keep trying lower-ranked turns
     */
    RetrievedContext pack(String question, int budgetTokens, List<Ranked> ranked, boolean stopAtFirstMiss) {
        int fixed = counter.countMessage(SYSTEM_PROMPT) + counter.countMessage(question);
        int left = budgetTokens - fixed;
        List<Ranked> chosen = new ArrayList<>();
        for (Ranked candidate : ranked) {
            if (candidate.turn().tokens() <= left) {
                chosen.add(candidate);
                left -= candidate.turn().tokens();
            } else if (stopAtFirstMiss) {
                break;
            }
            if (left <= 0) {
                break;
            }
        }
        List<RetrievedContext.Recalled> recalled = new ArrayList<>(chosen.size());
        for (Ranked r : chosen) {
            recalled.add(new RetrievedContext.Recalled(r.turn().turn().diaId(), r.turn().rendered(), r.score(),
                    List.of(r.turn().turn().diaId())));
        }
        chosen.sort(Comparator.comparingInt(r -> r.turn().position()));
        StringBuilder text = new StringBuilder(SYSTEM_PROMPT).append('\n');
        int tokens = fixed;
        for (Ranked r : chosen) {
            text.append(r.turn().rendered()).append('\n');
            tokens += r.turn().tokens();
        }
        text.append(question);
        return new RetrievedContext(text.toString(), Math.max(tokens, 0), recalled);
    }
}
