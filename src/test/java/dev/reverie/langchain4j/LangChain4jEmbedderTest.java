package dev.reverie.langchain4j;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.output.Response;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LangChain4jEmbedderTest {

    /** A small deterministic embedding model: one vector component per letter class, calls recorded. */
    static final class CountingModel implements EmbeddingModel {
        final List<List<String>> calls = new CopyOnWriteArrayList<>();
        int dimension = 3;
        int dropLast;

        @Override
        public Response<List<Embedding>> embedAll(List<TextSegment> segments) {
            List<String> texts = segments.stream().map(TextSegment::text).toList();
            calls.add(texts);
            List<Embedding> out = new ArrayList<>();
            for (int i = 0; i < texts.size() - dropLast; i++) {
                float[] v = new float[dimension];
                v[0] = texts.get(i).length();
                out.add(Embedding.from(v));
            }
            return Response.from(out);
        }
    }

    @Test
    void discovers_the_dimension_with_one_probe_and_embeds_in_batches() {
        CountingModel model = new CountingModel();
        LangChain4jEmbedder embedder = LangChain4jEmbedder.builder(model).maxBatchSize(2).build();
        assertThat(embedder.dimension()).isEqualTo(3);
        assertThat(model.calls).hasSize(1); // LangChain4j's dimension() probes once
        model.calls.clear();

        List<float[]> vectors = embedder.embedAll(List.of("a", "bb", "ccc", "dddd", "eeeee"));

        assertThat(model.calls).containsExactly(List.of("a", "bb"), List.of("ccc", "dddd"), List.of("eeeee"));
        assertThat(vectors).extracting(v -> v[0]).containsExactly(1f, 2f, 3f, 4f, 5f);
    }

    @Test
    void a_given_dimension_skips_the_probe() {
        CountingModel model = new CountingModel();
        LangChain4jEmbedder embedder = LangChain4jEmbedder.builder(model).dimension(3).build();
        assertThat(model.calls).isEmpty();
        assertThat(embedder.embed("hello")).containsExactly(5f, 0f, 0f);
    }

    @Test
    void blank_texts_get_a_zero_vector_without_a_model_call() {
        CountingModel model = new CountingModel();
        LangChain4jEmbedder embedder = LangChain4jEmbedder.builder(model).dimension(3).build();
        List<float[]> vectors = embedder.embedAll(List.of(" ", "ab", ""));
        assertThat(model.calls).containsExactly(List.of("ab"));
        assertThat(vectors.get(0)).containsExactly(0f, 0f, 0f);
        assertThat(vectors.get(1)).containsExactly(2f, 0f, 0f);
        assertThat(vectors.get(2)).containsExactly(0f, 0f, 0f);
    }

    @Test
    void a_model_that_answers_the_wrong_shape_fails_loudly() {
        CountingModel model = new CountingModel();
        LangChain4jEmbedder embedder = LangChain4jEmbedder.builder(model).dimension(4).build();
        assertThatThrownBy(() -> embedder.embed("hello")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("3 components, expected 4");
        model.dropLast = 1;
        LangChain4jEmbedder short1 = LangChain4jEmbedder.builder(model).dimension(3).build();
        assertThatThrownBy(() -> short1.embedAll(List.of("a", "b"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("returned 1 vectors for 2 texts");
    }

    @Test
    void settings_fail_fast() {
        assertThatThrownBy(() -> LangChain4jEmbedder.builder(null)).hasMessageContaining("model must not be null");
        assertThatThrownBy(() -> LangChain4jEmbedder.builder(new CountingModel()).maxBatchSize(0))
                .hasMessageContaining("maxBatchSize must be positive, was 0");
        assertThatThrownBy(() -> LangChain4jEmbedder.builder(new CountingModel()).dimension(-1))
                .hasMessageContaining("dimension must be positive, was -1");
    }
}
