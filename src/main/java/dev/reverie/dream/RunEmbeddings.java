package dev.reverie.dream;

import dev.reverie.Embedding;
import dev.reverie.Memory;
import dev.reverie.MemoryKind;
import dev.reverie.Observation;
import dev.reverie.spi.Embedder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The vectors of one end user's cycle: stored embeddings when present, otherwise (with an
 * {@link Embedder}) computed once per text and kept for the run. An embedder failure turns vectors
 * off for the rest of the run (duplicates are then found by text only) and is logged. Not
 * thread-safe: one per user cycle.
 */
final class RunEmbeddings {

    private static final Logger LOG = LoggerFactory.getLogger(RunEmbeddings.class);

    private final Embedder embedder;
    private final Map<String, float[]> computed = new HashMap<>();
    private boolean failed;

    RunEmbeddings(Embedder embedder) {
        this.embedder = embedder;
    }

    /** Computes, in one call to the embedder, the vectors of the observations that have none. */
    void prefetch(List<Observation> observations) {
        if (embedder == null || failed) {
            return;
        }
        List<String> texts = new ArrayList<>();
        for (Observation o : observations) {
            if (o.embedding() == null && computes(o) && !computed.containsKey(o.text())) {
                texts.add(o.text());
            }
        }
        if (texts.isEmpty()) {
            return;
        }
        try {
            List<float[]> vectors = embedder.embedAll(texts);
            for (int i = 0; i < texts.size() && i < vectors.size(); i++) {
                computed.put(texts.get(i), vectors.get(i));
            }
        } catch (RuntimeException e) {
            fail(e);
        }
    }

    float[] of(Observation o) {
        return o.embedding() != null ? o.embedding().toArray() : computes(o) ? text(o.text()) : null;
    }

    /**
     * Whether a missing vector is computed: not for STYLE observations, which are never embedded
     * (their duplicates share subject and value, and they only feed the style profile).
     */
    private static boolean computes(Observation o) {
        return o.kind() != MemoryKind.STYLE;
    }

    float[] of(Memory m) {
        return m.embedding() != null ? m.embedding().toArray() : null;
    }

    /** The embedding a new memory with this text gets: the observation's, or a computed one, or none. */
    Embedding forMemory(Observation source) {
        if (source.embedding() != null) {
            return source.embedding();
        }
        return embedding(text(source.text()));
    }

    /** The embedding of a text the dream cycle wrote (a synthesis), or none. */
    Embedding forText(String text) {
        return embedding(text(text));
    }

    private Embedding embedding(float[] v) {
        if (v == null) {
            return null;
        }
        try {
            return Embedding.of(v);
        } catch (IllegalArgumentException e) {
            LOG.warn("embedder returned an unusable vector; storing the memory without one: {}", e.getMessage());
            return null;
        }
    }

    private float[] text(String text) {
        if (embedder == null || failed) {
            return null;
        }
        float[] v = computed.get(text);
        if (v != null) {
            return v;
        }
        try {
            v = embedder.embed(text);
            computed.put(text, v);
            return v;
        } catch (RuntimeException e) {
            fail(e);
            return null;
        }
    }

    private void fail(RuntimeException e) {
        failed = true;
        LOG.warn("embedder failed; the dream cycle compares texts only for the rest of this run: {}", e.toString());
    }
}
