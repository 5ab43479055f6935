package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A plain-Java timing harness (not a unit test, not JMH) for the durable write path, run in one JVM
 * so that modes can be compared under the same load: for each store URI it records user and
 * assistant turns for random end users of one tenant, first from one thread (median and p99 per
 * call), then from four writer threads (turns per second, which group commit is for). The JMH
 * figures are in {@code RecordTurnBenchmark}; this harness adds the Lucene commit-per-write mode
 * ({@code ?commit=every}) as a baseline in the same process. The last two columns are CPU time per
 * call of the four-writer phase: of the whole process (callers, the store's background commits and
 * merges, GC, the JIT) and of the four writer threads alone (what a call costs its caller, including
 * the group commits a writer leads). Unlike turns per second, they hardly move when other processes
 * share the cores, so they compare builds on a busy machine.
 *
 * <p>Run: {@code mvn -q -o test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.reverie.RecordTurnTiming}; {@code -Dtiming.calls=600} calls per phase.
 *
 * <p>Not thread-safe; a main program.
 */
public final class RecordTurnTiming {

    private static final String[] TEXTS = {
        "I'm allergic to penicillin.", "I live in Recife and I work as a nurse.", "I like jazz and I hate cilantro.",
        "My daughter Clara starts school next week.", "I have a dog named Rex.", "I'll be 10 minutes late today.",
        "Please call me Ana Paula.", "I prefer short answers.", "ok, thanks!"};
    private static final int USERS = 200;
    private static final int WRITERS = 4;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private RecordTurnTiming() {
    }

    public static void main(String[] args) throws Exception {
        int calls = Integer.getInteger("timing.calls", 600);
        List<String> modes = args.length > 0 ? Arrays.asList(args)
                : List.of("sqlite:%s", "lucene:%s", "lucene:%s?commit=every");
        System.out.printf(Locale.ROOT, "%-26s %10s %10s %14s %14s %14s %14s%n", "store", "p50 ms", "p99 ms",
                "turns/s x1", "turns/s x4", "cpu ms/call", "writers ms/call");
        for (String mode : modes) {
            Path dir = Files.createTempDirectory("record-turn-timing");
            try (MemoryStore store = MemoryStores.open(String.format(Locale.ROOT, mode, dir));
                 ContextManager memory = ContextManager.builder().store(store).build()) {
                record(memory, 0, calls, 0); // warm-up
                long[] single = new long[calls];
                long t0 = System.nanoTime();
                for (int i = 0; i < calls; i++) {
                    long s = System.nanoTime();
                    record(memory, 0, 1, calls + i);
                    single[i] = System.nanoTime() - s;
                }
                double perSecond1 = 2.0 * calls / ((System.nanoTime() - t0) / 1e9);
                Arrays.sort(single);
                long cpu0 = processCpuNanos();
                AtomicLong writersCpu = new AtomicLong();
                double perSecond4 = concurrent(memory, calls, writersCpu);
                double cpuPerCall = (processCpuNanos() - cpu0) / 1e6 / (calls * WRITERS);
                System.out.printf(Locale.ROOT, "%-26s %10.2f %10.2f %14.0f %14.0f %14.3f %14.3f%n",
                        mode.replace("%s", "<dir>"), single[calls / 2] / 1e6, single[calls * 99 / 100] / 1e6,
                        perSecond1, perSecond4, cpuPerCall, writersCpu.get() / 1e6 / (calls * WRITERS));
            } finally {
                delete(dir);
            }
        }
    }

    /** CPU time of the whole process so far. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /**
     * Turns per second of {@link #WRITERS} threads recording {@code calls} calls each, started together;
     * adds the writers' CPU time to {@code writersCpu}.
     */
    private static double concurrent(ContextManager memory, int calls, AtomicLong writersCpu)
            throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w + 1;
            Thread t = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                long cpu0 = THREADS.getCurrentThreadCpuTime();
                record(memory, writer, calls, 0);
                writersCpu.addAndGet(THREADS.getCurrentThreadCpuTime() - cpu0);
            });
            t.start();
            writers.add(t);
        }
        long t0 = System.nanoTime();
        start.countDown();
        for (Thread t : writers) {
            t.join();
        }
        return 2.0 * calls * WRITERS / ((System.nanoTime() - t0) / 1e9);
    }

    private static void record(ContextManager memory, int writer, int calls, int offset) {
        for (int i = offset; i < offset + calls; i++) {
            Scope scope = Scope.of("timing", "writer", "u" + ((i * 31 + writer * 7) % USERS));
            memory.recordTurn(scope, "s-" + writer, Turn.user(TEXTS[(i + writer) % TEXTS.length]),
                    Turn.assistant("Noted."));
        }
    }

    private static void delete(Path dir) throws IOException {
        try (var files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
