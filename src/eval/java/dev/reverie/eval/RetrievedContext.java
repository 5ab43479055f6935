package dev.reverie.eval;

import java.util.List;

/**
 * What a system returned for one question: the context's full text (every message, in order), the
 * tokens it used as the system counts them, and the items it recalled with the turns each one was
 * derived from. Immutable and thread-safe.
 *
 * @param text     the messages' contents joined by new lines
 * @param tokens   the context's size in tokens
 * @param recalled the recalled items, best first
 */
public record RetrievedContext(String text, int tokens, List<Recalled> recalled) {

    public RetrievedContext {
        recalled = List.copyOf(recalled);
    }

    /**
     * One recalled item: a raw turn for the baselines, a memory for Reverie.
     *
     * @param label         a short name for traces (a turn id, or a memory's kind and id)
     * @param text          the item's text
     * @param score         the system's score for it
     * @param sourceTurnIds the turns it was derived from
     */
    public record Recalled(String label, String text, double score, List<String> sourceTurnIds) {
        public Recalled {
            sourceTurnIds = List.copyOf(sourceTurnIds);
        }
    }
}
