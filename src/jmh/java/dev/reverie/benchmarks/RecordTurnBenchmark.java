package dev.reverie.benchmarks;

import dev.reverie.ContextManager;
import dev.reverie.Turn;
import dev.reverie.TurnReceipt;
import dev.reverie.spi.MemoryStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code recordTurn} of a user turn and an assistant turn for a random end user among
 * {@code users}, on the durable store (its default mode: {@code sqlite:} is
 * {@code synchronous=FULL} with group commit, {@code lucene:} appends every write to its fsynced
 * translog with group commit and commits Lucene in the background) with the manager's default
 * redaction and rule-based extraction, in a tenant already holding the
 * data set of DESIGN §12 (target: p50 ≤ 2 ms single-threaded; ≥ 2,000 turns/s with 4 writer
 * threads). Writes go to the agent {@value #AGENT}, so the cached data set the read benchmarks use
 * is not changed by them (same database or index, other end-user scopes).
 *
 * <ul>
 *   <li>{@code latency}: one thread, sample time per call (two turns), p50/p99 in the output;</li>
 *   <li>{@code throughput1}, {@code throughput4}: turns per second with one and four writer
 *       threads ({@code @OperationsPerInvocation(2)}: the score is in turns, not calls).</li>
 * </ul>
 *
 * <p>Run:
 * <pre>
 * mvn -q -Pjmh compile exec:exec -Djmh.args="RecordTurnBenchmark -f 1 -wi 2 -i 3 -w 5s -r 10s"
 * </pre>
 *
 * <p>Thread-safety: JMH state; one manager shared by all writer threads.
 */
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class RecordTurnBenchmark {

    /** The agent the benchmark writes under (the data set lives under another agent). */
    static final String AGENT = "writer";
    private static final int EXCHANGES = 1 << 12;

    @Param({"sqlite", "lucene"})
    public String store;

    @Param({"10000"})
    public int users;

    private MemoryStore memoryStore;
    private ContextManager manager;
    private String[][] exchanges;
    private int[] exchangeUser;

    @Setup(Level.Trial)
    public void setUp() {
        TenantDataGenerator.Dataset dataset = TenantDataGenerator.prepare(store, users, false);
        System.out.println("[reverie-jmh] data set: " + dataset);
        memoryStore = dataset.open();
        manager = ContextManager.builder().store(memoryStore)
                .clock(Clock.fixed(TenantDataGenerator.NOW, ZoneOffset.UTC))
                .immutable(TenantDataGenerator.SYSTEM_PROMPT).build();
        Random random = new Random(7);
        exchanges = new String[EXCHANGES][];
        exchangeUser = new int[EXCHANGES];
        for (int i = 0; i < EXCHANGES; i++) {
            exchangeUser[i] = random.nextInt(users);
            exchanges[i] = TenantDataGenerator.exchange(exchangeUser[i], random);
        }
    }

    /** Per writer thread: its position in the exchange table and its session. */
    @State(Scope.Thread)
    public static class Writer {
        private static final AtomicInteger THREADS = new AtomicInteger();
        private final int thread = THREADS.getAndIncrement();
        private final String session = "live-" + thread;
        private int next = thread * 1_009;
    }

    private TurnReceipt record(Writer w) {
        int i = w.next++ & (EXCHANGES - 1);
        dev.reverie.Scope scope = dev.reverie.Scope.of(TenantDataGenerator.TENANT, AGENT,
                TenantDataGenerator.userId(exchangeUser[i]));
        return manager.recordTurn(scope, w.session, Turn.user(exchanges[i][0]), Turn.assistant(exchanges[i][1]));
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Threads(1)
    public TurnReceipt latency(Writer w) {
        return record(w);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(2)
    @Threads(1)
    public TurnReceipt throughput1(Writer w) {
        return record(w);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(2)
    @Threads(4)
    public TurnReceipt throughput4(Writer w) {
        return record(w);
    }

    @TearDown(Level.Iteration)
    public void drainArchive() {
        manager.flush();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        manager.close();
        memoryStore.close();
    }
}
