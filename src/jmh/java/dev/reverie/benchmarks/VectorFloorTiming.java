package dev.reverie.benchmarks;

import dev.reverie.Memory;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryStatus;
import dev.reverie.ObservationStatus;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.Scored;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The three vector searches of one hybrid {@code buildContext} (memories, pending observations,
 * archived turns; 200 candidates each, the default policy's cosine floor 0.25), timed in one process
 * two ways on the same store and query vectors: the unfloored searches filtered afterwards (how the
 * retriever searched before the floored SPI methods) and the floored searches (the store skips the
 * records under the floor before reading them). The two alternate for every query, so load hits
 * both alike; the calling thread's CPU time is reported too. Both must return the same hits, or the
 * program fails.
 *
 * <p>The query vectors are the stored embeddings of the scope's ACTIVE memories (real sentence
 * embeddings of the same conversation, standing in for questions). Any store with vectors works, e.g.
 * the LoCoMo harness's hybrid store:
 *
 * <pre>{@code
 * mvn -q -Peval compile exec:java -Dexec.args="--data /work/shared/eval/locomo/locomo-dev.json --budgets 2000 \
 *     --systems reverie-hybrid --samples conv-26 --out /tmp/vf"
 * mvn -q -Pjmh compile exec:exec -Djmh.main=dev.reverie.benchmarks.VectorFloorTiming \
 *     -Djmh.args="sqlite:/tmp/vf/stores/reverie-hybrid locomo eval conv-26 5"
 * }</pre>
 *
 * Arguments: store URI, tenant, agent, end user, rounds over the queries (default 5).
 */
public final class VectorFloorTiming {

    private static final int LIMIT = 200;
    private static final double FLOOR = 0.25;

    private VectorFloorTiming() {
    }

    public static void main(String[] args) {
        if (args.length < 4) {
            throw new IllegalArgumentException(
                    "usage: VectorFloorTiming <store uri> <tenant> <agent> <end user> [rounds]");
        }
        Scope scope = Scope.of(args[1], args[2], args[3]);
        int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 5;
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        try (MemoryStore store = MemoryStores.open(args[0])) {
            List<float[]> queries = new ArrayList<>();
            for (Memory m : store.memories(scope, MemoryFilter.all())) {
                if (m.status() == MemoryStatus.ACTIVE && m.embedding() != null) {
                    queries.add(m.embedding().toArray());
                }
            }
            if (queries.isEmpty()) {
                throw new IllegalArgumentException("no ACTIVE memory with an embedding in " + scope + " of " + args[0]);
            }
            Set<MemoryStatus> active = EnumSet.of(MemoryStatus.ACTIVE);
            Set<ObservationStatus> pending = EnumSet.of(ObservationStatus.PENDING);
            List<Long> wallOld = new ArrayList<>();
            List<Long> wallNew = new ArrayList<>();
            List<Long> cpuOld = new ArrayList<>();
            List<Long> cpuNew = new ArrayList<>();
            long hitsKept = 0;
            long hitsAll = 0;
            for (int r = 0; r < rounds + 1; r++) {
                for (float[] q : queries) {
                    long w0 = System.nanoTime();
                    long c0 = cpu.getCurrentThreadCpuTime();
                    List<List<? extends Scored<?>>> old = List.of(
                            atLeast(store.searchMemoriesByVector(scope, q, active, LIMIT)),
                            atLeast(store.searchObservationsByVector(scope, q, pending, LIMIT)),
                            atLeast(store.searchTurnsByVector(scope, q, LIMIT)));
                    long c1 = cpu.getCurrentThreadCpuTime();
                    long w1 = System.nanoTime();
                    List<List<? extends Scored<?>>> floored = List.of(
                            store.searchMemoriesByVector(scope, q, active, LIMIT, FLOOR),
                            store.searchObservationsByVector(scope, q, pending, LIMIT, FLOOR),
                            store.searchTurnsByVector(scope, q, LIMIT, FLOOR));
                    long c2 = cpu.getCurrentThreadCpuTime();
                    long w2 = System.nanoTime();
                    if (!old.equals(floored)) {
                        throw new IllegalStateException(
                                "the floored searches returned other hits than the filtered ones");
                    }
                    if (r == 0) {
                        hitsKept += floored.stream().mapToInt(List::size).sum();
                        hitsAll += store.searchMemoriesByVector(scope, q, active, LIMIT).size()
                                + store.searchObservationsByVector(scope, q, pending, LIMIT).size()
                                + store.searchTurnsByVector(scope, q, LIMIT).size();
                        continue; // warm-up round
                    }
                    wallOld.add(w1 - w0);
                    cpuOld.add(c1 - c0);
                    wallNew.add(w2 - w1);
                    cpuNew.add(c2 - c1);
                }
            }
            System.out.printf(Locale.ROOT,
                    "%s %s: %d queries x %d rounds; hits per query %.1f of %.1f above the floor%n",
                    args[0], scope, queries.size(), rounds, (double) hitsKept / queries.size(),
                    (double) hitsAll / queries.size());
            System.out.printf(Locale.ROOT, "filtered after:  wall p50 %.3f ms, cpu p50 %.3f ms%n",
                    median(wallOld), median(cpuOld));
            System.out.printf(Locale.ROOT, "floored search:  wall p50 %.3f ms, cpu p50 %.3f ms%n",
                    median(wallNew), median(cpuNew));
            System.out.printf(Locale.ROOT, "ratio (floored / filtered): wall %.2f, cpu %.2f%n",
                    median(wallNew) / median(wallOld), median(cpuNew) / median(cpuOld));
        }
    }

    private static <T> List<Scored<T>> atLeast(List<Scored<T>> hits) {
        return hits.stream().filter(h -> h.score() >= FLOOR).toList();
    }

    private static double median(List<Long> nanos) {
        long[] a = nanos.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(a);
        return a[a.length / 2] / 1e6;
    }
}
