package dev.reverie.benchmarks;

import dev.reverie.ContextManager;
import dev.reverie.Scope;
import dev.reverie.Turn;
import dev.reverie.spi.MemoryStore;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The CPU a {@code recordTurn} costs, on {@link RecordTurnBenchmark}'s workload (the same data set,
 * exchanges, agent and per-thread sessions, durable store): four writer threads record
 * {@code calls} calls each after a warm-up of the same size, and the program reports turns per
 * second, the process's CPU time per call (callers, group-commit leaders, the store's background
 * commits and merges, GC, the JIT) and the writer threads' own CPU time per call. The CPU figures
 * hardly move when other processes share the cores, which turns per second do, so they compare two
 * builds on a busy machine. Each round is a fresh manager on the reopened store.
 *
 * <p>Run: {@code mvn -q -Pjmh compile exec:exec -Djmh.main=dev.reverie.benchmarks.RecordTurnCpu
 * -Djmh.args="sqlite,lucene 1000 3000 2"} (stores, end users in the data set, calls per writer,
 * rounds per store).
 *
 * <p>Not thread-safe; a main program.
 */
public final class RecordTurnCpu {

    private static final int WRITERS = 4;
    private static final int EXCHANGES = 1 << 12;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private RecordTurnCpu() {
    }

    public static void main(String[] args) throws Exception {
        String[] stores = (args.length > 0 ? args[0] : "sqlite,lucene").split(",");
        int users = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        int calls = args.length > 2 ? Integer.parseInt(args[2]) : 3_000;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 2;
        Random random = new Random(7);
        String[][] exchanges = new String[EXCHANGES][];
        Scope[] scopes = new Scope[EXCHANGES];
        for (int i = 0; i < EXCHANGES; i++) {
            int user = random.nextInt(users);
            scopes[i] = Scope.of(TenantDataGenerator.TENANT, RecordTurnBenchmark.AGENT, TenantDataGenerator.userId(user));
            exchanges[i] = TenantDataGenerator.exchange(user, random);
        }
        System.out.printf(Locale.ROOT, "%-8s %6s %12s %16s %16s%n", "store", "round", "turns/s x4", "cpu ms/call",
                "writers ms/call");
        for (String store : stores) {
            TenantDataGenerator.Dataset dataset = TenantDataGenerator.prepare(store, users, false);
            for (int round = 1; round <= rounds; round++) {
                try (MemoryStore memoryStore = dataset.open();
                     ContextManager manager = ContextManager.builder().store(memoryStore)
                             .clock(Clock.fixed(TenantDataGenerator.NOW, ZoneOffset.UTC))
                             .immutable(TenantDataGenerator.SYSTEM_PROMPT).build()) {
                    run(manager, scopes, exchanges, calls, new AtomicLong()); // warm-up
                    manager.flush();
                    AtomicLong writersCpu = new AtomicLong();
                    long cpu0 = processCpuNanos();
                    long t0 = System.nanoTime();
                    run(manager, scopes, exchanges, calls, writersCpu);
                    double seconds = (System.nanoTime() - t0) / 1e9;
                    double perCall = (processCpuNanos() - cpu0) / 1e6 / ((double) calls * WRITERS);
                    System.out.printf(Locale.ROOT, "%-8s %6d %12.0f %16.3f %16.3f%n", store, round,
                            2.0 * calls * WRITERS / seconds, perCall, writersCpu.get() / 1e6 / ((double) calls * WRITERS));
                }
            }
        }
    }

    /** {@link #WRITERS} threads, each in its own session, record {@code calls} exchanges; adds their CPU time. */
    private static void run(ContextManager manager, Scope[] scopes, String[][] exchanges, int calls,
                            AtomicLong writersCpu) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        try {
            List<Callable<Long>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers.add(() -> {
                    long cpu0 = THREADS.getCurrentThreadCpuTime();
                    int next = writer * 1_009;
                    for (int c = 0; c < calls; c++) {
                        int i = next++ & (EXCHANGES - 1);
                        manager.recordTurn(scopes[i], "live-" + writer, Turn.user(exchanges[i][0]),
                                Turn.assistant(exchanges[i][1]));
                    }
                    return THREADS.getCurrentThreadCpuTime() - cpu0;
                });
            }
            for (Future<Long> cpu : pool.invokeAll(writers)) {
                writersCpu.addAndGet(cpu.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
