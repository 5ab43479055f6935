package dev.reverie.benchmarks;

import dev.reverie.AssembledContext;
import dev.reverie.ContextManager;
import dev.reverie.ContextRequest;
import dev.reverie.spi.MemoryStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * {@code buildContext} latency at the tenant size of DESIGN §12 (target: p50 ≤ 1 ms, p99 ≤ 5 ms,
 * lexical, both stores): each call assembles a 2,000-token context for a random end user among
 * {@code users}, in that user's current session (40 turns, compacted once by the data set's
 * settle pass), with a realistic question. {@code retrieval=lexical} uses BM25 candidates only;
 * {@code retrieval=hybrid} adds vector candidates from a data set whose memories carry embeddings,
 * with the deterministic {@link HashingEmbedder} (a few microseconds per query), so the time is
 * Reverie's retrieval, not a model's. Recall statistics are written in the background, as in
 * production. The data set is filled on first use and cached (see {@link TenantDataGenerator}).
 *
 * <p>Run (sample time: the output has p0.50, p0.99 per parameter set):
 * <pre>
 * mvn -q -Pjmh compile exec:exec -Djmh.args="BuildContextBenchmark -f 1 -wi 2 -i 3 -w 5s -r 10s"
 * mvn -q -Pjmh compile exec:exec -Djmh.args="BuildContextBenchmark -p users=1000 -p retrieval=lexical"
 * </pre>
 *
 * <p>Thread-safety: JMH state; one manager shared by the benchmark threads, which is how a host
 * uses it.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class BuildContextBenchmark {

    /** Requests are drawn from this many precomputed (end user, question) pairs. */
    private static final int REQUESTS = 1 << 16;

    @Param({"sqlite", "lucene"})
    public String store;

    @Param({"10000"})
    public int users;

    @Param({"lexical", "hybrid"})
    public String retrieval;

    private MemoryStore memoryStore;
    private ContextManager manager;
    private ContextRequest[] requests;

    @Setup(Level.Trial)
    public void setUp() {
        boolean hybrid = switch (retrieval) {
            case "lexical" -> false;
            case "hybrid" -> true;
            default -> throw new IllegalArgumentException("retrieval must be lexical or hybrid, was " + retrieval);
        };
        TenantDataGenerator.Dataset dataset = TenantDataGenerator.prepare(store, users, hybrid);
        System.out.println("[reverie-jmh] data set: " + dataset);
        memoryStore = dataset.open();
        TenantDataGenerator.maintainIfAsked(memoryStore);
        ContextManager.Builder builder = ContextManager.builder().store(memoryStore)
                .clock(Clock.fixed(TenantDataGenerator.NOW, ZoneOffset.UTC))
                .immutable(TenantDataGenerator.SYSTEM_PROMPT);
        if (hybrid) {
            builder.embedder(new HashingEmbedder());
        }
        manager = builder.build();
        Random random = new Random(42);
        requests = new ContextRequest[REQUESTS];
        for (int i = 0; i < REQUESTS; i++) {
            int user = random.nextInt(users);
            requests[i] = TenantDataGenerator.request(TenantDataGenerator.user(user),
                    TenantDataGenerator.query(user, random));
        }
    }

    /** Each benchmark thread walks the request table from its own offset. */
    @State(Scope.Thread)
    public static class Cursor {
        private int next = (int) (Thread.currentThread().getId() * 7919);
    }

    @Benchmark
    public AssembledContext buildContext(Cursor cursor) {
        return manager.buildContext(requests[cursor.next++ & (REQUESTS - 1)]);
    }

    @TearDown(Level.Iteration)
    public void drainBackgroundWrites() {
        manager.flush();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        manager.close();
        memoryStore.close();
    }
}
