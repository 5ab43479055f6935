package dev.reverie.benchmarks;

import dev.reverie.ContextManager;
import dev.reverie.spi.MemoryStore;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Random;

/**
 * Checks DESIGN §12's footprint rule, "heap does not grow with the number of end users served":
 * one manager serves {@code buildContext} for distinct end users of the cached data set, and the
 * used heap after a full GC is printed after every 1,000 of them. It exits with status 1 when the
 * heap after all users exceeds the heap after the first 1,000 by more than the tolerance (default
 * 20 % and at least 8 MiB, for GC and JIT noise). Not a JMH benchmark: a growth check needs one
 * long-lived process, not forks.
 *
 * <p>Run (arguments: store, end users of the data set, and optionally how many of them to serve,
 * all by default; the data set is filled first when missing):
 * <pre>
 * mvn -q -Pjmh compile exec:exec -Djmh.main=dev.reverie.benchmarks.HeapGrowthCheck -Djmh.args="sqlite 10000"
 * mvn -q -Pjmh compile exec:exec -Djmh.main=dev.reverie.benchmarks.HeapGrowthCheck -Djmh.args="lucene 10000 4000"
 * </pre>
 * Each step waits for the recall statistics written in the background; on the durable Lucene store
 * each of those is a commit, which makes a full 10,000-user run take about 40 minutes.
 *
 * <p>Thread-safety: a single-threaded program.
 */
public final class HeapGrowthCheck {

    private static final int STEP = 1_000;

    private HeapGrowthCheck() {
    }

    public static void main(String[] args) throws InterruptedException {
        String store = args.length > 0 ? args[0] : "sqlite";
        int datasetUsers = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int users = args.length > 2 ? Math.min(Integer.parseInt(args[2]), datasetUsers) : datasetUsers;
        TenantDataGenerator.Dataset dataset = TenantDataGenerator.prepare(store, datasetUsers, false);
        System.out.println("[reverie-jmh] data set: " + dataset);
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        Random random = new Random(3);
        try (MemoryStore s = dataset.open();
             ContextManager manager = ContextManager.builder().store(s)
                     .clock(Clock.fixed(TenantDataGenerator.NOW, ZoneOffset.UTC))
                     .immutable(TenantDataGenerator.SYSTEM_PROMPT).build()) {
            // warm-up on a few users (class loading, JIT, connection pools), served again later
            for (int i = 0; i < 200; i++) {
                manager.buildContext(TenantDataGenerator.request(TenantDataGenerator.user(i),
                        TenantDataGenerator.query(i, random)));
            }
            manager.flush();
            long base = usedAfterGc(memory);
            System.out.printf(Locale.ROOT, "%8s %12s%n", "served", "used heap");
            System.out.printf(Locale.ROOT, "%8d %9.1f MiB %,14d bytes (after warm-up)%n", 0, base / 1048576.0, base);
            long first = 0;
            long last = 0;
            for (int i = 0; i < users; i++) {
                manager.buildContext(TenantDataGenerator.request(TenantDataGenerator.user(i),
                        TenantDataGenerator.query(i, random)));
                if ((i + 1) % STEP == 0 || i + 1 == users) {
                    manager.flush();
                    last = usedAfterGc(memory);
                    if (i + 1 == Math.min(STEP, users)) {
                        first = last;
                    }
                    System.out.printf(Locale.ROOT, "%8d %9.1f MiB %,14d bytes%n", i + 1, last / 1048576.0, last);
                }
            }
            double ratio = (double) last / first;
            long perUser = users > STEP ? (last - first) / (users - STEP) : 0;
            System.out.printf(Locale.ROOT, "used heap after %d users / after %d users = %.3f (%+d bytes per extra user)%n",
                    users, Math.min(STEP, users), ratio, perUser);
            double tolerance = Double.parseDouble(System.getProperty("reverie.heap.tolerance", "0.20"));
            boolean grew = last > first * (1 + tolerance) && last - first > 8L * 1048576;
            System.out.println(grew ? "FAIL: heap grows with the number of end users served"
                    : "OK: heap does not grow with the number of end users served");
            if (grew) {
                System.exit(1);
            }
        }
    }

    private static long usedAfterGc(MemoryMXBean memory) throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}
