package dev.reverie.langchain4j;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import dev.reverie.internal.Checks;
import dev.reverie.spi.Embedder;

import java.util.ArrayList;
import java.util.List;

/**
 * Any LangChain4j {@link EmbeddingModel} (a local ONNX model such as all-MiniLM-L6-v2, or a hosted
 * one) as a Reverie {@link Embedder}, for hybrid retrieval and near-duplicate detection. Texts are
 * sent in batches through {@link EmbeddingModel#embedAll} (at most {@link Builder#maxBatchSize} per
 * call); blank texts get a zero vector without a model call. The dimension is taken from
 * {@link Builder#dimension(int)} when given, else from the model's {@code dimension()} (which
 * LangChain4j answers from metadata or with one probe embedding), once, at build time; every vector
 * the model returns is checked against it, so a misconfigured model fails loudly instead of
 * corrupting the vector index. Thread-safe when the model is, as LangChain4j models are.
 */
public final class LangChain4jEmbedder implements Embedder {

    /** Default most texts per {@code embedAll} call. */
    public static final int DEFAULT_MAX_BATCH_SIZE = 128;

    private final EmbeddingModel model;
    private final int dimension;
    private final int maxBatchSize;

    private LangChain4jEmbedder(EmbeddingModel model, int dimension, int maxBatchSize) {
        this.model = model;
        this.dimension = dimension;
        this.maxBatchSize = maxBatchSize;
    }

    /** An embedder over {@code model} with the defaults (dimension discovered, batches of 128). */
    public static LangChain4jEmbedder of(EmbeddingModel model) {
        return builder(model).build();
    }

    /** A builder over {@code model}. */
    public static Builder builder(EmbeddingModel model) {
        return new Builder(model);
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public float[] embed(String text) {
        return embedAll(List.of(Checks.notNull("text", text))).get(0);
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        Checks.notNull("texts", texts);
        List<float[]> out = new ArrayList<>(texts.size());
        List<TextSegment> batch = new ArrayList<>(Math.min(texts.size(), maxBatchSize));
        List<Integer> batchSlots = new ArrayList<>(batch.size());
        for (int i = 0; i < texts.size(); i++) {
            String text = Checks.notNull("texts[" + i + "]", texts.get(i));
            if (text.isBlank()) {
                out.add(new float[dimension]);
                continue;
            }
            out.add(null);
            batch.add(TextSegment.from(text));
            batchSlots.add(i);
            if (batch.size() == maxBatchSize) {
                fill(out, batch, batchSlots);
            }
        }
        if (!batch.isEmpty()) {
            fill(out, batch, batchSlots);
        }
        return out;
    }

    private void fill(List<float[]> out, List<TextSegment> batch, List<Integer> slots) {
        Response<List<Embedding>> response = model.embedAll(batch);
        List<Embedding> vectors = response == null ? null : response.content();
        if (vectors == null || vectors.size() != batch.size()) {
            throw new IllegalStateException("embedding model " + describe() + " returned "
                    + (vectors == null ? "no vectors" : vectors.size() + " vectors") + " for " + batch.size() + " texts");
        }
        for (int i = 0; i < vectors.size(); i++) {
            float[] v = vectors.get(i).vector();
            if (v.length != dimension) {
                throw new IllegalStateException("embedding model " + describe() + " returned a vector of " + v.length
                        + " components, expected " + dimension);
            }
            out.set(slots.get(i), v);
        }
        batch.clear();
        slots.clear();
    }

    private String describe() {
        String name = null;
        try {
            name = model.modelName();
        } catch (RuntimeException ignored) {
            // the name is for the message only
        }
        return name == null || name.isBlank() ? model.getClass().getSimpleName() : name;
    }

    /** The most texts sent in one {@code embedAll} call. */
    public int maxBatchSize() {
        return maxBatchSize;
    }

    @Override
    public String toString() {
        return "LangChain4jEmbedder[" + describe() + ", dim=" + dimension + "]";
    }

    /** Configures a {@link LangChain4jEmbedder}; setters fail fast. Not thread-safe. */
    public static final class Builder {
        private final EmbeddingModel model;
        private int dimension;
        private int maxBatchSize = DEFAULT_MAX_BATCH_SIZE;

        private Builder(EmbeddingModel model) {
            this.model = Checks.notNull("model", model);
        }

        /** The model's vector size, when known: skips discovery (and its probe call to a remote model). */
        public Builder dimension(int components) {
            this.dimension = Checks.positive("dimension", components);
            return this;
        }

        /** The most texts per {@code embedAll} call (default 128); match the provider's limit. */
        public Builder maxBatchSize(int texts) {
            this.maxBatchSize = Checks.positive("maxBatchSize", texts);
            return this;
        }

        /** Builds the embedder, asking the model for its dimension unless it was given. */
        public LangChain4jEmbedder build() {
            int dim = dimension;
            if (dim == 0) {
                dim = model.dimension();
                if (dim <= 0) {
                    throw new IllegalStateException("embedding model " + model.getClass().getName()
                            + " reported dimension " + dim + "; set it with builder(model).dimension(n)");
                }
            }
            return new LangChain4jEmbedder(model, dim, maxBatchSize);
        }
    }
}
