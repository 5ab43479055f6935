package dev.reverie.benchmarks;

import dev.reverie.dream.DreamCycle;
import dev.reverie.dream.DreamListener;
import dev.reverie.dream.DreamReport;
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
import org.openjdk.jmh.annotations.Warmup;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The dream cycle's consolidation rate (target, DESIGN §12: ≥ 20,000 observations consolidated per
 * second per tenant, rule-based). Each measured invocation runs the cycle (light sleep, deep sleep,
 * REM, prune) for a batch of {@value #BATCH} end users as a nightly run of a tenant does
 * ({@link DreamCycle#runAll(List, DreamListener)}: the users' phases committed together, then the
 * store's index maintenance), each holding 100 durable memories and 200 fresh PENDING observations (about one in
 * five a repetition; see {@link TenantDataGenerator#dreamBatch}). The batch is written before the
 * invocation, outside the measurement, into the tenant of the cached data set (under the agent
 * {@value #AGENT}, so the data set the read benchmarks use stays as it was).
 *
 * <p>Mode: single-shot time with {@code @OperationsPerInvocation} = observations per batch, so the
 * score is microseconds per observation; observations per second = 1,000,000 / score. The trial
 * also prints the summed {@link DreamReport} counters and the rate it measured.
 *
 * <p>Run:
 * <pre>
 * mvn -q -Pjmh compile exec:exec -Djmh.args="DreamBenchmark -f 1 -wi 2 -i 5"
 * </pre>
 *
 * <p>Thread-safety: JMH state, single benchmark thread.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class DreamBenchmark {

    /** The agent the benchmark's end users live under. */
    static final String AGENT = "dreamer";
    /** End users consolidated per measured invocation. */
    static final int BATCH = 20;
    static final int OBSERVATIONS = BATCH * TenantDataGenerator.OBSERVATIONS_PER_USER;

    @Param({"sqlite", "lucene"})
    public String store;

    @Param({"10000"})
    public int users;

    private MemoryStore memoryStore;
    private DreamCycle cycle;
    private final String run = Long.toString(System.currentTimeMillis(), 36);
    private int invocation;
    private List<dev.reverie.Scope> batch = List.of();
    private DreamReport total = DreamReport.EMPTY;
    private long measuredNanos;
    private long measuredObservations;

    @Setup(Level.Trial)
    public void setUp() {
        TenantDataGenerator.Dataset dataset = TenantDataGenerator.prepare(store, users, false);
        System.out.println("[reverie-jmh] data set: " + dataset);
        memoryStore = dataset.open();
        cycle = DreamCycle.builder(memoryStore).clock(Clock.fixed(TenantDataGenerator.NOW, ZoneOffset.UTC)).build();
    }

    /** Writes the next batch of end users with fresh observations (not measured). */
    @Setup(Level.Invocation)
    public void writeBatch() {
        List<dev.reverie.Scope> scopes = new ArrayList<>(BATCH);
        for (int i = 0; i < BATCH; i++) {
            int index = invocation * BATCH + i;
            dev.reverie.Scope scope = dev.reverie.Scope.of(TenantDataGenerator.TENANT, AGENT,
                    "d" + run + "-" + index);
            memoryStore.write(TenantDataGenerator.dreamBatch(scope, index % users));
            scopes.add(scope);
        }
        invocation++;
        batch = scopes;
    }

    @Benchmark
    @OperationsPerInvocation(OBSERVATIONS)
    public DreamReport dream() {
        long t0 = System.nanoTime();
        DreamReport report = cycle.runAll(batch, DreamListener.NONE);
        measuredNanos += System.nanoTime() - t0;
        measuredObservations += OBSERVATIONS;
        total = total.plus(report);
        return report;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        System.out.printf(Locale.ROOT, "%n[reverie-jmh] dream %s: %d observations in %.2f s = %.0f observations/s"
                        + " (warm-up included); counters: %s%n", store, measuredObservations, measuredNanos / 1e9,
                measuredObservations / (measuredNanos / 1e9), total);
        memoryStore.close();
    }
}
