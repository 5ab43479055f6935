package dev.reverie.eval;

import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.reverie.langchain4j.LangChain4jEmbedder;
import dev.reverie.spi.Embedder;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An {@link Embedder} that remembers every vector by exact text for the run, over another embedder;
 * {@link #miniLm()} gives the one the harness uses: Reverie's {@link LangChain4jEmbedder} over
 * LangChain4j's local all-MiniLM-L6-v2 model (384 dimensions; the ONNX model ships inside its jar,
 * so it runs offline).
 *
 * <p>One instance serves the dense baseline and the Reverie hybrid systems, so every turn,
 * question and observation text is run through the model once per run however many systems and
 * budgets ask for it. {@link #embedAll} passes only the uncached texts on, in batches of
 * {@value #BATCH}. Thread-safe when the inner embedder is: the cache is a concurrent map (two
 * threads may both embed a text the first time; the vectors are the same).
 */
public final class CachingEmbedder implements Embedder {

    /** Texts per call to the model. */
    static final int BATCH = 64;

    private final Embedder inner;
    private final Map<String, float[]> cache = new ConcurrentHashMap<>();
    private final AtomicLong embedded = new AtomicLong();
    private final AtomicLong nanos = new AtomicLong();

    /** A cache over {@code inner}. */
    public CachingEmbedder(Embedder inner) {
        this.inner = inner;
    }

    /** The harness's embedder: all-MiniLM-L6-v2 through {@link LangChain4jEmbedder}, cached. */
    public static CachingEmbedder miniLm() {
        return new CachingEmbedder(LangChain4jEmbedder.builder(new AllMiniLmL6V2EmbeddingModel())
                .dimension(384)
                .maxBatchSize(BATCH)
                .build());
    }

    @Override
    public int dimension() {
        return inner.dimension();
    }

    @Override
    public float[] embed(String text) {
        float[] cached = cache.get(text);
        if (cached != null) {
            return cached.clone();
        }
        return embedAll(List.of(text)).get(0);
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        Set<String> unique = new LinkedHashSet<>();
        for (String text : texts) {
            if (!cache.containsKey(text)) {
                unique.add(text);
            }
        }
        List<String> missing = new ArrayList<>(unique);
        for (int from = 0; from < missing.size(); from += BATCH) {
            List<String> batch = missing.subList(from, Math.min(missing.size(), from + BATCH));
            long start = System.nanoTime();
            List<float[]> vectors = inner.embedAll(batch);
            nanos.addAndGet(System.nanoTime() - start);
            embedded.addAndGet(batch.size());
            for (int i = 0; i < batch.size(); i++) {
                cache.put(batch.get(i), vectors.get(i));
            }
        }
        List<float[]> out = new ArrayList<>(texts.size());
        for (String text : texts) {
            out.add(cache.get(text).clone());
        }
        return out;
    }

    /** Texts actually run through the model so far (cache misses). */
    public long embeddedCount() {
        return embedded.get();
    }

    /** Time spent in the model so far, in seconds. */
    public double modelSeconds() {
        return nanos.get() / 1e9;
    }
}
