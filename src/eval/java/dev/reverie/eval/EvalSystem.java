package dev.reverie.eval;

import java.util.Map;

/**
 * A memory system under evaluation: it ingests one LoCoMo conversation and then builds a context
 * for each question under a token budget. The harness scores every system the same way, from the
 * context's text and the turn ids its recalled items name.
 *
 * <p>Named {@code EvalSystem} rather than {@code System} so that it never shadows
 * {@link java.lang.System} in this package.
 *
 * <p>Implementations are used from one thread at a time and need not be thread-safe.
 */
public interface EvalSystem extends AutoCloseable {

    /** The name used on the command line and in the results, e.g. {@code bm25}. */
    String name();

    /** One line saying what the system does, for the results. */
    String description();

    /**
     * Feeds one conversation, replacing whatever an earlier call fed: the following
     * {@link #context} calls answer about this sample only.
     */
    void ingest(LocomoData.Sample sample);

    /** The context this system would give a model for {@code question}, at most {@code budgetTokens}. */
    RetrievedContext context(String question, int budgetTokens);

    /**
     * For {@code --trace}: what this system knows about one turn it failed to bring into a context
     * (for example which memories were derived from it and their status), or an empty string.
     */
    default String diagnose(String turnId) {
        return "";
    }

    /** Figures about the run worth reporting next to the scores (for example embedding time). */
    default Map<String, Object> notes() {
        return Map.of();
    }

    /** Releases what the system holds; the default holds nothing. */
    @Override
    default void close() {
    }
}
