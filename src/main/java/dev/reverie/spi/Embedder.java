package dev.reverie.spi;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns text into dense vectors for hybrid retrieval and near-duplicate detection. Optional: without
 * one, Reverie retrieves lexically. Implementations must be thread-safe and return vectors of
 * {@link #dimension()} components.
 */
public interface Embedder {

    /** The number of components of every vector this embedder returns. */
    int dimension();

    /** The vector for one text. */
    float[] embed(String text);

    /** The vectors for several texts, in order; override to batch calls to a model. */
    default List<float[]> embedAll(List<String> texts) {
        List<float[]> out = new ArrayList<>(texts.size());
        for (String text : texts) {
            out.add(embed(text));
        }
        return out;
    }
}
