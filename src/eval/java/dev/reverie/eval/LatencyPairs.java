package dev.reverie.eval;

import dev.reverie.spi.TokenCounter;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The harness's latency comparison made steadier on a shared machine: Reverie lexical (SQLite, dream
 * after each session, as {@link LocomoEval} runs it) and the BM25 baseline, or with {@code hybrid}
 * Reverie hybrid (MiniLM) and the dense baseline, answer every usable question of every sample in
 * turn, call by call, taking turns at going first, so load hits both alike; each call's wall time
 * and the calling thread's CPU time (work a call leaves to background threads, such as recall
 * statistics, is not in it) are recorded, and the medians and their ratios printed. No quality
 * figures: {@link LocomoEval} gives those. The first sample's first 20 questions run untimed
 * first, as in the harness. In the hybrid pairing both systems share one caching embedder and every
 * question is embedded before the first call, as in the harness, so the times are retrieval's alone.
 *
 * <p>Run: {@code mvn -B -o -q -Peval compile exec:java -Dexec.mainClass=dev.reverie.eval.LatencyPairs
 * -Dexec.args="/work/shared/eval/locomo/locomo-dev.json /tmp/latency-pairs 4000 hybrid"} (data, output
 * folder for the store, and optionally the token budget, 2,000 when absent, and the pairing,
 * {@code lexical} when absent). Not thread-safe; a program, not
 * a test.
 */
public final class LatencyPairs {

    private static final int WARM_UP_QUESTIONS = 20;
    private static final int DEFAULT_BUDGET = 2_000;

    private LatencyPairs() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || args.length > 4) {
            throw new IllegalArgumentException(
                    "usage: LatencyPairs <locomo json> <output folder> [budget tokens] [lexical|hybrid]");
        }
        final int budget;
        try {
            budget = args.length >= 3 ? Integer.parseInt(args[2]) : DEFAULT_BUDGET;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("budget tokens must be a whole number, was '" + args[2] + "'", e);
        }
        if (budget <= 0) {
            throw new IllegalArgumentException("budget tokens must be positive, was " + budget);
        }
        String pairing = args.length == 4 ? args[3] : "lexical";
        if (!pairing.equals("lexical") && !pairing.equals("hybrid")) {
            throw new IllegalArgumentException("pairing must be lexical or hybrid, was '" + pairing + "'");
        }
        boolean hybrid = pairing.equals("hybrid");
        List<LocomoData.Sample> samples = LocomoData.load(Path.of(args[0]));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        List<Long> reverieWall = new ArrayList<>();
        List<Long> reverieCpu = new ArrayList<>();
        List<Long> baseWall = new ArrayList<>();
        List<Long> baseCpu = new ArrayList<>();
        boolean warmedUp = false;
        CachingEmbedder embedder = hybrid ? CachingEmbedder.miniLm() : null;
        if (embedder != null) {
            List<String> questions = new ArrayList<>();
            for (LocomoData.Sample sample : samples) {
                sample.questions().stream().filter(LocomoData.QaItem::usable)
                        .forEach(qa -> questions.add(qa.question()));
            }
            embedder.embedAll(questions);
        }
        String reverieName = hybrid ? "reverie-hybrid" : "reverie-lexical";
        String baselineName = hybrid ? "dense" : "bm25";
        TurnPacker packer = new TurnPacker(TokenCounter.o200k());
        try (ReverieSystem reverie = new ReverieSystem(reverieName, "sqlite",
                "sqlite:" + ReverieSystem.freshFolder(Path.of(args[1]), reverieName).toAbsolutePath(), embedder, true);
             EvalSystem baseline = hybrid ? new DenseSystem(packer, embedder) : new Bm25System(packer)) {
            for (LocomoData.Sample sample : samples) {
                reverie.ingest(sample);
                baseline.ingest(sample);
                List<LocomoData.QaItem> questions = sample.questions().stream()
                        .filter(LocomoData.QaItem::usable).toList();
                if (!warmedUp) {
                    for (LocomoData.QaItem qa : questions.subList(0, Math.min(WARM_UP_QUESTIONS, questions.size()))) {
                        reverie.context(qa.question(), budget);
                        baseline.context(qa.question(), budget);
                    }
                    warmedUp = true;
                }
                for (LocomoData.QaItem qa : questions) {
                    // the two calls take turns going first, so neither always meets the other's leftovers
                    boolean reverieFirst = (reverieWall.size() & 1) == 0;
                    if (reverieFirst) {
                        time(() -> reverie.context(qa.question(), budget), reverieWall, reverieCpu, threads);
                    }
                    time(() -> baseline.context(qa.question(), budget), baseWall, baseCpu, threads);
                    if (!reverieFirst) {
                        time(() -> reverie.context(qa.question(), budget), reverieWall, reverieCpu, threads);
                    }
                }
            }
        }
        if (reverieWall.isEmpty()) {
            throw new IllegalArgumentException("no usable question in " + args[0] + ": nothing was timed");
        }
        double rw = millis(reverieWall, 50);
        double rc = millis(reverieCpu, 50);
        double bw = millis(baseWall, 50);
        double bc = millis(baseCpu, 50);
        System.out.printf(Locale.ROOT, "%d questions, budget %d, load %.2f%n", reverieWall.size(), budget,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        System.out.printf(Locale.ROOT, "  %-16s wall p50 %.2f ms, p99 %.1f ms; CPU p50 %.2f ms%n", reverieName, rw,
                millis(reverieWall, 99), rc);
        System.out.printf(Locale.ROOT, "  %-16s wall p50 %.3f ms; CPU p50 %.3f ms%n", baselineName, bw, bc);
        System.out.printf(Locale.ROOT, "  ratio p50        wall %.1f, CPU %.1f%n", rw / bw, rc / bc);
    }

    /** Times one call: its wall time and the calling thread's CPU time (background work is not in it). */
    private static void time(Runnable call, List<Long> wall, List<Long> cpu, ThreadMXBean threads) {
        long c0 = threads.getCurrentThreadCpuTime();
        long w0 = System.nanoTime();
        call.run();
        long c1 = threads.getCurrentThreadCpuTime();
        long w1 = System.nanoTime();
        wall.add(w1 - w0);
        cpu.add(c1 - c0);
    }

    private static double millis(List<Long> nanos, int percentile) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        return sorted.get(Math.min(sorted.size() - 1, sorted.size() * percentile / 100)) / 1e6;
    }
}
