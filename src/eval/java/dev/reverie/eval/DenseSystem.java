package dev.reverie.eval;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;

import java.util.ArrayList;
import java.util.List;

/**
 * Baseline: dense retrieval over the raw turns with LangChain4j's {@link InMemoryEmbeddingStore} and
 * the local all-MiniLM-L6-v2 model, the top turns by cosine packed greedily to the budget.
 *
 * <p>Each turn is embedded as {@code speaker: text} (caption included), in batches, through the
 * run's shared {@link CachingEmbedder} cache. The harness embeds every question up front, so the
 * measured latency is the search and the packing; the embedding cost is reported apart. Not
 * thread-safe.
 */
final class DenseSystem implements EvalSystem {
    private final TurnPacker packer;
    private final CachingEmbedder embedder;
    private List<TurnPacker.PackableTurn> turns = List.of();
    private InMemoryEmbeddingStore<Integer> store = new InMemoryEmbeddingStore<>();

    DenseSystem(TurnPacker packer, CachingEmbedder embedder) {
        this.packer = packer;
        this.embedder = embedder;
    }

    @Override
    public String name() {
        return "dense";
    }

    @Override
    public String description() {
        return "dense retrieval over raw turns (LangChain4j InMemoryEmbeddingStore, all-MiniLM-L6-v2)";
    }

    @Override
    public void ingest(LocomoData.Sample sample) {
        turns = packer.prepare(sample);
        List<String> texts = new ArrayList<>(turns.size());
        List<String> ids = new ArrayList<>(turns.size());
        List<Integer> positions = new ArrayList<>(turns.size());
        for (TurnPacker.PackableTurn turn : turns) {
            texts.add(TurnPacker.retrievalText(turn.turn()));
            ids.add(turn.turn().diaId());
            positions.add(turn.position());
        }
        List<Embedding> embeddings = new ArrayList<>(turns.size());
        for (float[] vector : embedder.embedAll(texts)) {
            embeddings.add(Embedding.from(vector));
        }
        store = new InMemoryEmbeddingStore<>();
        store.addAll(ids, embeddings, positions);
    }

    @Override
    public RetrievedContext context(String question, int budgetTokens) {
        Embedding query = Embedding.from(embedder.embed(question));
        EmbeddingSearchRequest request = EmbeddingSearchRequest.builder()
                .queryEmbedding(query)
                .maxResults(Math.max(1, turns.size()))
                .minScore(0.0)
                .build();
        List<TurnPacker.Ranked> ranked = new ArrayList<>();
        for (EmbeddingMatch<Integer> match : store.search(request).matches()) {
            ranked.add(new TurnPacker.Ranked(turns.get(match.embedded()), match.score()));
        }
        return packer.pack(question, budgetTokens, ranked, false);
    }
}
