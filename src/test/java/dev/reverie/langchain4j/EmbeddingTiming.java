package dev.reverie.langchain4j;

import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.reverie.Cardinality;
import dev.reverie.ContextManager;
import dev.reverie.ContextRequest;
import dev.reverie.Embedding;
import dev.reverie.Memory;
import dev.reverie.MemoryKind;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.Polarity;
import dev.reverie.Provenance;
import dev.reverie.Scope;
import dev.reverie.Turn;
import dev.reverie.spi.ExtractedFact;
import dev.reverie.spi.Extractor;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.WriteBatch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * What the local all-MiniLM-L6-v2 model costs on this machine: embedding the observations of one
 * recorded turn (one batch), embedding one query, and {@code buildContext} with the embedder on and
 * off over the same SQLite data (the difference is the query embedding plus the vector scan).
 * Also {@code recordTurn} with and without the embedder (vectors are written off the caller's
 * thread). Wall-clock medians and p99 in milliseconds, and the process CPU time per call (all
 * threads: ONNX, background writers), which a machine shared with other builds disturbs far less
 * than wall-clock time. Not a test; run it with
 * {@code mvn -q -o test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.reverie.langchain4j.EmbeddingTiming} (args: users, iterations).
 */
public final class EmbeddingTiming {

    private static final String[] WORDS = {"appointment", "friday", "morning", "dipyrone", "allergy", "penicillin",
            "doctor", "teacher", "recife", "cats", "jazz", "walks", "insurance", "invoice", "parking", "pharmacy",
            "headache", "vaccine", "daughter", "school", "coffee", "football", "guitar", "nurse", "dentist", "glasses",
            "diabetes", "running", "vegetarian", "portuguese", "english", "husband", "garden", "travel", "lisbon"};
    private static final String[] QUERIES = {"What should I avoid prescribing?", "Can I move my appointment to Friday?",
            "Does she have any allergies?", "Where does the patient live?", "What does he do for a living?",
            "Any dietary restrictions?", "Who is the emergency contact?", "What time of day does she prefer?"};

    private EmbeddingTiming() {
    }

    public static void main(String[] args) throws Exception {
        int users = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 400;
        Random random = new Random(7);
        LangChain4jEmbedder miniLm = LangChain4jEmbedder.of(new AllMiniLmL6V2EmbeddingModel());
        System.out.printf("all-MiniLM-L6-v2, dim %d, %d cores, %d iterations%n", miniLm.dimension(),
                Runtime.getRuntime().availableProcessors(), iterations);

        for (int batch : new int[] {1, 2, 4, 8}) {
            List<List<String>> inputs = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                List<String> texts = new ArrayList<>();
                for (int j = 0; j < batch; j++) {
                    texts.add("The user said " + sentence(random, 6 + random.nextInt(10)));
                }
                inputs.add(texts);
            }
            int[] next = {0};
            report("embedAll, one turn's observations: " + batch + " text" + (batch == 1 ? "" : "s"),
                    time(iterations, () -> miniLm.embedAll(inputs.get(next[0]++ % inputs.size()))));
        }
        int[] q = {0};
        report("embed, one query", time(iterations, () -> miniLm.embed(QUERIES[q[0]++ % QUERIES.length])));

        Path dir = Files.createTempDirectory("reverie-embedding-timing");
        try (MemoryStore store = MemoryStores.open("sqlite:" + dir)) {
            Instant now = Instant.parse("2026-03-02T09:00:00Z");
            List<Scope> scopes = seed(store, miniLm, users, now, random);
            System.out.printf("data: %d users x (100 memories + 200 observations), all with vectors%n", users);
            int limit = dev.reverie.MemoryPolicy.defaults().candidateLimit();
            List<float[]> queryVectors = miniLm.embedAll(Arrays.asList(QUERIES));
            int[] v = {0};
            report("vector candidates alone (memories + observations)", time(iterations, () -> {
                int n = v[0]++;
                Scope scope = scopes.get(n % scopes.size());
                float[] vector = queryVectors.get(n % QUERIES.length);
                return store.searchMemoriesByVector(scope, vector, java.util.EnumSet.of(dev.reverie.MemoryStatus.ACTIVE),
                        limit).size() + store.searchObservationsByVector(scope, vector,
                        java.util.EnumSet.of(ObservationStatus.PENDING), limit).size();
            }));
            for (boolean withEmbedder : new boolean[] {false, true, false, true}) {
                ContextManager.Builder b = ContextManager.builder().store(store)
                        .clock(java.time.Clock.fixed(now, java.time.ZoneOffset.UTC));
                if (withEmbedder) {
                    b.embedder(miniLm);
                }
                try (ContextManager memory = b.build()) {
                    int[] i = {0};
                    report("buildContext, embedder " + (withEmbedder ? "on " : "off"), time(iterations, () -> {
                        int n = i[0]++;
                        return memory.buildContext(ContextRequest.builder(scopes.get(n % scopes.size()), "s1")
                                .query(QUERIES[n % QUERIES.length]).budgetTokens(2_000).build());
                    }));
                }
            }
        }

        Extractor sentences = turn -> {
            List<ExtractedFact> out = new ArrayList<>();
            for (String s : turn.text().split("\\.\\s*")) {
                if (!s.isBlank()) {
                    out.add(new ExtractedFact(MemoryKind.FACT, s.strip(), "user.note", "", Cardinality.MULTI,
                            Polarity.POSITIVE, 0.9, null));
                }
            }
            return out;
        };
        for (boolean withEmbedder : new boolean[] {false, true}) {
            Path dir2 = Files.createTempDirectory("reverie-record-timing");
            try (MemoryStore store = MemoryStores.open("sqlite:" + dir2)) {
                ContextManager.Builder b = ContextManager.builder().store(store).extractor(sentences).archive(false);
                if (withEmbedder) {
                    b.embedder(miniLm);
                }
                try (ContextManager memory = b.build()) {
                    Scope scope = Scope.of("t", "a", "u");
                    int[] i = {0};
                    long start = System.nanoTime();
                    long cpuStart = OS.getProcessCpuTime();
                    long[] t = time(iterations, () -> memory.recordTurn(scope, "s" + (i[0]++ / 20),
                            Turn.user("I " + sentence(random, 6) + ". I " + sentence(random, 8) + "."),
                            Turn.assistant("Noted.")));
                    report("recordTurn (2 observations), embedder " + (withEmbedder ? "on " : "off"), t);
                    memory.flush();
                    double total = (System.nanoTime() - start) / 1e6;
                    double cpu = (OS.getProcessCpuTime() - cpuStart) / 1e6;
                    System.out.printf("  %d turns recorded and their vectors written: %.2f ms wall, %.2f ms cpu per turn%n",
                            i[0], total / i[0], cpu / i[0]);
                }
            }
        }
    }

    private static List<Scope> seed(MemoryStore store, LangChain4jEmbedder embedder, int users, Instant now,
                                    Random random) {
        List<Scope> scopes = new ArrayList<>();
        for (int u = 0; u < users; u++) {
            Scope scope = Scope.of("clinic-1", "receptionist", "user-" + u);
            scopes.add(scope);
            List<String> texts = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                texts.add((i < 100 ? "Patient " : "Said ") + sentence(random, 4 + random.nextInt(12)));
            }
            List<float[]> vectors = embedder.embedAll(texts);
            WriteBatch batch = WriteBatch.of(scope);
            for (int i = 0; i < 100; i++) {
                batch.put(Memory.builder("m" + i, scope, MemoryKind.FACT, texts.get(i), now).importance(random.nextInt(100))
                        .embedding(Embedding.of(vectors.get(i))).build());
            }
            for (int i = 100; i < 300; i++) {
                batch.put(new Observation("o" + i, scope, MemoryKind.FACT, texts.get(i), "user.note", "",
                        Cardinality.MULTI, Polarity.POSITIVE, 0.9, now, "s0", Provenance.operator(now), List.of(), 1,
                        ObservationStatus.PENDING, null, Embedding.of(vectors.get(i))));
            }
            store.write(batch);
        }
        return scopes;
    }

    private static String sentence(Random random, int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        return sb.toString();
    }

    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    private static double lastCpuPerCall;

    /** Nanosecond timings of {@code iterations} calls, after {@code iterations / 4} warm-up calls. */
    private static long[] time(int iterations, Supplier<?> call) {
        for (int i = 0; i < iterations / 4; i++) {
            call.get();
        }
        long[] t = new long[iterations];
        long cpu = OS.getProcessCpuTime();
        for (int i = 0; i < iterations; i++) {
            long s = System.nanoTime();
            call.get();
            t[i] = System.nanoTime() - s;
        }
        lastCpuPerCall = (OS.getProcessCpuTime() - cpu) / 1e6 / iterations;
        return t;
    }

    private static void report(String what, long[] nanos) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        System.out.printf("%-52s median %7.3f ms   p99 %7.3f ms   cpu/call %7.3f ms%n", what, s[s.length / 2] / 1e6,
                s[(int) Math.ceil(s.length * 0.99) - 1] / 1e6, lastCpuPerCall);
    }
}
