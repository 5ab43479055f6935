package dev.reverie.eval;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.reverie.spi.Embedder;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Reverie {@link Embedder} over LangChain4j's local all-MiniLM-L6-v2 model (384 dimensions; the
 * ONNX model ships inside its jar, so it runs offline), with a cache by exact text for the run.
 *
 * <p>One instance serves the dense baseline and the Reverie hybrid systems, so every turn, question
 * and memory text is embedded once per run however many systems and budgets ask for it.
 * {@link #embedAll} embeds the uncached texts in batches of {@value #BATCH}. Thread-safe: the model
 * is, and the cache is a concurrent map.
 */
public final class MiniLmEmbedder implements Embedder {

    /** Texts per call to the model. */
    static final int BATCH = 64;

    private final EmbeddingModel model;
    private final Map<String, float[]> cache = new ConcurrentHashMap<>();
    private final AtomicLong embedded = new AtomicLong();
    private final AtomicLong nanos = new AtomicLong();

    /** Loads the model from the classpath. */
    public MiniLmEmbedder() {
        this.model = new AllMiniLmL6V2EmbeddingModel();
    }

    @Override
    public int dimension() {
        return 384;
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
            List<TextSegment> segments = new ArrayList<>(batch.size());
            for (String text : batch) {
                segments.add(TextSegment.from(text));
            }
            long start = System.nanoTime();
            var vectors = model.embedAll(segments).content();
            nanos.addAndGet(System.nanoTime() - start);
            embedded.addAndGet(batch.size());
            for (int i = 0; i < batch.size(); i++) {
                cache.put(batch.get(i), vectors.get(i).vector());
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
