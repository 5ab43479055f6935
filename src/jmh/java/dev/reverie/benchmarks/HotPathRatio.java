package dev.reverie.benchmarks;

import dev.reverie.ContextManager;
import dev.reverie.ContextRequest;
import dev.reverie.Memory;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryStatus;
import dev.reverie.Observation;
import dev.reverie.ObservationFilter;
import dev.reverie.ObservationStatus;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.SessionTurn;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

/**
 * The hot-path ratio of issue 13: in one process, the median {@code buildContext} (lexical, budget
 * 2,000 tokens) over the median bare BM25 top-50 search for the same question over the same texts
 * (the end user's memories, pending observations and archived turns) in an in-memory Lucene index
 * ({@link EnglishAnalyzer}, BM25 defaults, the stored text of each hit read, as a search that hands
 * text to a prompt must). The two calls alternate for every request, so load on the machine hits
 * both alike; the calling thread's CPU time is reported too, which load does not inflate. (Background
 * work a call triggers, such as recall statistics, is not in its CPU time; it is in the wall time
 * when it competes for the cores.) The data set is the JMH one ({@link TenantDataGenerator}, cached under
 * {@code target/jmh-data}).
 *
 * <p>Run: {@code mvn -q -Pjmh compile exec:exec -Djmh.main=dev.reverie.benchmarks.HotPathRatio
 * -Djmh.args="sqlite,lucene 1000 20000"} (stores, end users in the data set, timed requests). With
 * {@code -Dreverie.bench.maintain=true} in {@code jmh.jvmArgs} the store's {@code maintain} runs on the
 * tenant first, as the nightly dream does (it changes the cached data set for later runs, unless
 * {@code -Dreverie.bench.copy=true} is given too). With {@code -Dreverie.bench.copy=true} the run
 * works on a fresh copy of the generated data set, so runs do not age it (each writes its recall
 * statistics, and a set shared with the recordTurn benchmarks grows): use it to compare builds.
 * {@code -Dreverie.bench.writesAfter=N} records N exchanges (a user and an assistant turn, random
 * end users) through the manager before timing, after the maintenance if asked: the state of a
 * store some traffic after its nightly dream. Both run in an open of the store of their own, closed
 * before the timed open, so the background work they cause (SQLite's index upkeep) is done first.
 */
public final class HotPathRatio {

    /** End users whose texts get an in-memory BM25 index; requests are drawn among them. */
    private static final int SAMPLED_USERS = 64;
    private static final int TOP = 50;

    private HotPathRatio() {
    }

    public static void main(String[] args) throws IOException {
        String[] stores = (args.length > 0 ? args[0] : "sqlite,lucene").split(",");
        int users = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int requests = args.length > 2 ? Integer.parseInt(args[2]) : 20_000;
        for (String store : stores) {
            run(store, users, requests);
        }
    }

    private static void run(String storeName, int users, int requests) throws IOException {
        TenantDataGenerator.Dataset dataset = TenantDataGenerator.prepare(storeName, users, false);
        Random random = new Random(42);
        int sampled = Math.min(SAMPLED_USERS, users);
        int[] userOf = new int[sampled];
        Bm25[] indexes = new Bm25[sampled];
        long texts = 0;
        int later = Integer.getInteger("reverie.bench.writesAfter", 0);
        if (later > 0 || Boolean.getBoolean("reverie.bench.maintain")) {
            // the maintenance and a day's traffic in an open of their own: closing the store lets its
            // background work (SQLite's index upkeep, Lucene's commits) finish before the timed open
            try (MemoryStore store = dataset.open();
                 ContextManager manager = manager(store)) {
                TenantDataGenerator.maintainIfAsked(store);
                if (later > 0) {
                    // a day's traffic after the (maintained) data set: exchanges recorded through the
                    // manager (redaction, extraction, archive), each end user's in a session of its own
                    Random writes = new Random(7);
                    long w0 = System.nanoTime();
                    for (int i = 0; i < later; i++) {
                        int u = writes.nextInt(users);
                        String[] exchange = TenantDataGenerator.exchange(u, writes);
                        manager.recordTurn(TenantDataGenerator.user(u), "day-after", dev.reverie.Turn.user(exchange[0]),
                                dev.reverie.Turn.assistant(exchange[1]));
                    }
                    manager.flush();
                    System.out.printf(Locale.ROOT, "[reverie-jmh] %d exchanges recorded first, in %.1f s%n", later,
                            (System.nanoTime() - w0) / 1e9);
                }
            }
        }
        try (MemoryStore store = dataset.open();
             ContextManager manager = manager(store)) {
            for (int i = 0; i < sampled; i++) {
                userOf[i] = random.nextInt(users);
                indexes[i] = new Bm25(texts(store, TenantDataGenerator.user(userOf[i])));
                texts += indexes[i].size;
            }
            ContextRequest[] reqs = new ContextRequest[requests];
            String[] queries = new String[requests];
            int[] who = new int[requests];
            for (int r = 0; r < requests; r++) {
                who[r] = random.nextInt(sampled);
                queries[r] = TenantDataGenerator.query(userOf[who[r]], random);
                reqs[r] = TenantDataGenerator.request(TenantDataGenerator.user(userOf[who[r]]), queries[r]);
            }
            // warm-up: the JIT and the stores' caches, then the timed, alternating run
            int warm = Math.min(requests, 1_000);
            long sink = 0;
            for (int r = 0; r < warm; r++) {
                sink += manager.buildContext(reqs[r]).usage().total();
                sink += indexes[who[r]].search(queries[r]);
            }
            manager.flush();
            long[] build = new long[requests];
            long[] bm25 = new long[requests];
            long[] buildCpu = new long[requests];
            long[] bm25Cpu = new long[requests];
            java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
            for (int r = 0; r < requests; r++) {
                long c0 = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                sink += manager.buildContext(reqs[r]).usage().total();
                long t1 = System.nanoTime();
                long c1 = threads.getCurrentThreadCpuTime();
                sink += indexes[who[r]].search(queries[r]);
                long t2 = System.nanoTime();
                long c2 = threads.getCurrentThreadCpuTime();
                build[r] = t1 - t0;
                bm25[r] = t2 - t1;
                buildCpu[r] = c1 - c0;
                bm25Cpu[r] = c2 - c1;
            }
            manager.flush();
            Arrays.sort(build);
            Arrays.sort(bm25);
            Arrays.sort(buildCpu);
            Arrays.sort(bm25Cpu);
            System.out.printf(Locale.ROOT, "%s, %d end users (%d sampled, %.0f texts each), %d requests, load %s%n",
                    storeName, users, sampled, (double) texts / sampled, requests, load());
            System.out.printf(Locale.ROOT, "  buildContext  p50 %8.3f ms  p90 %8.3f ms  p99 %8.3f ms%n",
                    ms(build, 0.50), ms(build, 0.90), ms(build, 0.99));
            System.out.printf(Locale.ROOT, "  bare BM25     p50 %8.3f ms  p90 %8.3f ms  p99 %8.3f ms%n",
                    ms(bm25, 0.50), ms(bm25, 0.90), ms(bm25, 0.99));
            System.out.printf(Locale.ROOT, "  ratio p50 %.1f   p99 %.1f   (checksum %d)%n",
                    ms(build, 0.50) / ms(bm25, 0.50), ms(build, 0.99) / ms(bm25, 0.99), sink % 10);
            // CPU time of the calling thread: what the call costs, whatever else the machine is doing
            System.out.printf(Locale.ROOT, "  CPU p50: buildContext %.3f ms, bare BM25 %.3f ms, ratio %.1f%n",
                    ms(buildCpu, 0.50), ms(bm25Cpu, 0.50), ms(buildCpu, 0.50) / ms(bm25Cpu, 0.50));
        }
    }

    /** The manager every open of the data set uses: the data set's clock and system prompt. */
    private static ContextManager manager(MemoryStore store) {
        return ContextManager.builder().store(store).clock(Clock.fixed(TenantDataGenerator.NOW, ZoneOffset.UTC))
                .immutable(TenantDataGenerator.SYSTEM_PROMPT).build();
    }

    private static double ms(long[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) (q * sorted.length))] / 1e6;
    }

    private static String load() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /** What the PERSISTENT layer searches for this end user: memories, pending observations, archived turns. */
    private static List<String> texts(MemoryStore store, Scope scope) {
        List<String> out = new ArrayList<>();
        for (Memory m : store.memories(scope, MemoryFilter.all())) {
            if (m.status() == MemoryStatus.ACTIVE) {
                out.add(m.text());
            }
        }
        for (Observation o : store.observations(scope, ObservationFilter.all())) {
            if (o.status() == ObservationStatus.PENDING) {
                out.add(o.text());
            }
        }
        for (String session : store.sessions(scope)) {
            for (SessionTurn t : store.archivedTurns(scope, session)) {
                out.add(t.searchText());
            }
        }
        return out;
    }

    /** One end user's texts in an in-memory Lucene index, searched as a disjunction of the question's terms. */
    private static final class Bm25 {
        private static final String FIELD = "text";
        private final Analyzer analyzer = new EnglishAnalyzer();
        private final IndexSearcher searcher;
        private final int size;

        Bm25(List<String> texts) throws IOException {
            ByteBuffersDirectory dir = new ByteBuffersDirectory();
            try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(analyzer))) {
                for (String t : texts) {
                    Document d = new Document();
                    d.add(new TextField(FIELD, t, Field.Store.YES));
                    w.addDocument(d);
                }
            }
            searcher = new IndexSearcher(DirectoryReader.open(dir));
            size = texts.size();
        }

        /** Total characters of the top hits' texts (read, as a caller would). */
        long search(String question) {
            try {
                BooleanQuery.Builder q = new BooleanQuery.Builder();
                for (String term : terms(question)) {
                    q.add(new TermQuery(new Term(FIELD, term)), BooleanClause.Occur.SHOULD);
                }
                long chars = 0;
                StoredFields stored = searcher.storedFields();
                for (ScoreDoc sd : searcher.search(q.build(), TOP).scoreDocs) {
                    chars += stored.document(sd.doc).get(FIELD).length();
                }
                return chars;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private Set<String> terms(String text) throws IOException {
            Set<String> out = new LinkedHashSet<>();
            try (TokenStream ts = analyzer.tokenStream(FIELD, text)) {
                CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
                ts.reset();
                while (ts.incrementToken()) {
                    out.add(term.toString());
                }
                ts.end();
            }
            return out;
        }
    }
}
