package dev.reverie.store;

import dev.reverie.Memory;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStatus;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.WriteBatch;
import dev.reverie.store.lucene.LuceneMemoryStore;
import dev.reverie.store.postgres.EmbeddedPostgresServer;
import dev.reverie.store.sqlite.SqliteMemoryStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A plain-Java timing harness (not a unit test, not JMH): fills the SQLite and the Lucene store with
 * the same tenant of {@code users × memories} generated from a seeded {@link Random}, then times
 * lexical candidate search for random end users (median and p99) and write throughput in batches of
 * 1 and of 100 (Lucene durable, Lucene group commit, SQLite durable, and PostgreSQL on the tests'
 * embedded server unless {@code -Dtiming.postgres=false}). Numbers are wall-clock on
 * whatever else the machine is doing; compare the stores within one run.
 *
 * <p>Run: {@code mvn -q -o test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.reverie.store.StoreSearchTiming}. Sizes: {@code -Dtiming.users=10000
 * -Dtiming.memories=100 -Dtiming.searches=2000 -Dtiming.singleWrites=200 -Dtiming.batchWrites=20};
 * {@code -Dtiming.dir=<folder>} keeps the data in that folder instead of a deleted temp folder.
 *
 * <p>Single-threaded; not thread-safe.
 */
public final class StoreSearchTiming {

    private static final String TENANT = "timing-tenant";
    private static final String AGENT = "assistant";
    private static final Set<MemoryStatus> ACTIVE = EnumSet.of(MemoryStatus.ACTIVE);
    private static final Set<MemoryKind> ALL_KINDS = EnumSet.allOf(MemoryKind.class);
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static final String[] COMMON = (
            "likes loves prefers hates avoids drinks eats coffee tea water juice wine beer chocolate pizza pasta"
            + " rice beans salad fish chicken beef vegetarian vegan allergic allergy penicillin dipyrone peanuts"
            + " gluten lactose works nurse doctor teacher engineer lawyer designer clinic hospital school office"
            + " lives moved city village Recife Lisbon Porto London Boston apartment house garden dog cat bird"
            + " daughter son wife husband mother father brother sister friend birthday wedding anniversary trip"
            + " vacation flight hotel beach mountains hiking running swimming cycling yoga football tennis chess"
            + " guitar piano music jazz rock samba reading novels poetry movies series cooking baking painting"
            + " appointment monday tuesday wednesday thursday friday saturday sunday morning afternoon evening"
            + " january february march april june july august september october november december"
            + " gosta prefere detesta bebe come café chá água suco vinho cerveja alergia alérgica trabalha"
            + " enfermeira médica professora engenheira advogada mora mudou cidade praia montanha cachorro gato"
            + " filha filho esposa marido mãe pai irmão irmã amiga aniversário casamento viagem férias consulta"
            + " segunda terça quarta quinta sexta sábado domingo manhã tarde noite música leitura cozinhar"
            + " medication insulin diabetes asthma pressure headache migraine back knee surgery therapy dentist"
            + " project deadline meeting report budget client customer invoice contract launch release"
            + " python java kotlin rust sql spreadsheet excel presentation spanish french english portuguese")
            .split(" ");
    private static final String[] SYLLABLES = ("ba be bi bo bu ca ce ci co cu da de di do du fa fe fi fo fu ga ge"
            + " gi go gu la le li lo lu ma me mi mo mu na ne ni no nu pa pe pi po pu ra re ri ro ru sa se si so su"
            + " ta te ti to tu va ve vi vo vu za ze zi zo zu").split(" ");
    private static final String[] FILLER = "the a my her his their at in on with for and to of from every since"
            .split(" ");

    private final Random random = new Random(42);
    private final List<String> vocabulary = vocabulary(new Random(7));
    private final int users = Integer.getInteger("timing.users", 10_000);
    private final int memoriesPerUser = Integer.getInteger("timing.memories", 100);
    private final int searches = Integer.getInteger("timing.searches", 2_000);
    private final int singleWrites = Integer.getInteger("timing.singleWrites", 200);
    private final int batchWrites = Integer.getInteger("timing.batchWrites", 20);
    private int nextWriteUser;

    private StoreSearchTiming() {
    }

    public static void main(String[] args) throws IOException {
        new StoreSearchTiming().run();
    }

    private void run() throws IOException {
        String keep = System.getProperty("timing.dir");
        Path root = keep == null ? Files.createTempDirectory("reverie-store-timing") : Path.of(keep);
        System.out.printf(Locale.ROOT, "Reverie store timing: %,d end users x %,d memories = %,d memories in one"
                        + " tenant; %,d searches; %d cores; Java %s; data in %s%n", users, memoriesPerUser,
                (long) users * memoriesPerUser, searches, Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"), root);
        List<String> queries = queries(searches);
        List<Results> results = new ArrayList<>();
        try {
            Path sqliteDir = root.resolve("sqlite");
            Results sqlite = new Results("SQLite (durable)");
            try (MemoryStore store = SqliteMemoryStore.open(sqliteDir)) {
                sqlite.fillSeconds = fill(store);
                sqlite.search = searchTimes(store, queries);
                sqlite.single = writeRate(store, 1, singleWrites);
                sqlite.batched = writeRate(store, 100, batchWrites);
            }
            results.add(sqlite);

            Path luceneDir = root.resolve("lucene");
            Results luceneDurable = new Results("Lucene (durable)");
            Results luceneGroup = new Results("Lucene (group commit 50 ms)");
            try (LuceneMemoryStore store = LuceneMemoryStore.builder(luceneDir)
                    .groupCommit(LuceneMemoryStore.DEFAULT_GROUP_COMMIT_INTERVAL).build()) {
                luceneGroup.fillSeconds = fill(store);
                store.commit();
                luceneGroup.search = searchTimes(store, queries);
                luceneGroup.single = writeRate(store, 1, singleWrites);
                luceneGroup.batched = writeRate(store, 100, batchWrites);
            }
            try (LuceneMemoryStore store = LuceneMemoryStore.open(luceneDir)) {
                luceneDurable.search = searchTimes(store, queries);
                luceneDurable.single = writeRate(store, 1, singleWrites);
                luceneDurable.batched = writeRate(store, 100, batchWrites);
            }
            results.add(luceneDurable);
            results.add(luceneGroup);
            System.out.printf(Locale.ROOT, "on disk: SQLite %,d MB, Lucene %,d MB%n", size(sqliteDir) >> 20,
                    size(luceneDir) >> 20);

            if (Boolean.parseBoolean(System.getProperty("timing.postgres", "true"))) {
                // the embedded server of the tests (same machine, fsync on, default settings)
                Results postgres = new Results("PostgreSQL (embedded, durable)");
                Path pgFolder = root.resolve("postgres");
                try (MemoryStore store = MemoryStores.open(EmbeddedPostgresServer.url(pgFolder))) {
                    postgres.fillSeconds = fill(store);
                    // what autovacuum does within a minute of a bulk load: without statistics the planner
                    // walks the tenant-wide GIN index instead of the end user's rows (about 10x slower)
                    try (var c = EmbeddedPostgresServer.connect(pgFolder); var st = c.createStatement()) {
                        st.execute("ANALYZE");
                    } catch (java.sql.SQLException e) {
                        throw new IllegalStateException(e);
                    }
                    postgres.search = searchTimes(store, queries);
                    postgres.single = writeRate(store, 1, singleWrites);
                    postgres.batched = writeRate(store, 100, batchWrites);
                }
                results.add(postgres);
            }
        } finally {
            if (keep == null) {
                delete(root);
            }
        }
        report(results);
    }

    // ---------------------------------------------------------------- phases

    /** Writes every user's memories, one batch per user; returns the seconds it took. */
    private double fill(MemoryStore store) {
        long start = System.nanoTime();
        Random r = new Random(1234);
        for (int u = 0; u < users; u++) {
            store.write(userBatch(r, "user-" + u, memoriesPerUser));
            if ((u + 1) % 1000 == 0) {
                System.out.printf(Locale.ROOT, "  %s: %,d users filled in %.1f s%n", store.describe(), u + 1,
                        (System.nanoTime() - start) / 1e9);
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private WriteBatch userBatch(Random r, String user, int count) {
        Scope scope = Scope.of(TENANT, AGENT, user);
        WriteBatch batch = WriteBatch.of(scope);
        for (int i = 0; i < count; i++) {
            MemoryKind kind = MemoryKind.values()[r.nextInt(MemoryKind.values().length)];
            batch.put(Memory.builder(user + "-m" + i + "-" + r.nextInt(1_000_000), scope, kind, sentence(r),
                    T0.plusSeconds(60L * i)).importance(r.nextInt(101)).build());
        }
        return batch;
    }

    private long[] searchTimes(MemoryStore store, List<String> queries) {
        Random r = new Random(99);
        long hits = 0;
        for (int i = 0; i < Math.min(500, queries.size()); i++) { // warm-up: JIT and page cache
            hits += store.searchMemories(Scope.of(TENANT, AGENT, "user-" + r.nextInt(users)), queries.get(i),
                    ACTIVE, ALL_KINDS, 8).size();
        }
        long[] nanos = new long[queries.size()];
        r = new Random(2024);
        for (int i = 0; i < queries.size(); i++) {
            Scope scope = Scope.of(TENANT, AGENT, "user-" + r.nextInt(users));
            long t = System.nanoTime();
            hits += store.searchMemories(scope, queries.get(i), ACTIVE, ALL_KINDS, 8).size();
            nanos[i] = System.nanoTime() - t;
        }
        System.out.printf(Locale.ROOT, "  %s: %,d searches done (%,d candidates returned)%n", store.describe(),
                queries.size(), hits);
        Arrays.sort(nanos);
        return nanos;
    }

    /** Memories per second when writing {@code batches} batches of {@code size} memories for fresh users. */
    private double writeRate(MemoryStore store, int size, int batches) {
        Random r = new Random(5_000 + size);
        List<WriteBatch> prepared = new ArrayList<>(batches);
        for (int i = 0; i < batches; i++) {
            prepared.add(userBatch(r, "writer-" + nextWriteUser++, size));
        }
        long start = System.nanoTime();
        for (WriteBatch b : prepared) {
            store.write(b);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return (double) size * batches / seconds;
    }

    // ---------------------------------------------------------------- text

    private static List<String> vocabulary(Random r) {
        List<String> words = new ArrayList<>(Arrays.asList(COMMON));
        while (words.size() < 20_000) {
            StringBuilder w = new StringBuilder();
            int n = 2 + r.nextInt(3);
            for (int i = 0; i < n; i++) {
                w.append(SYLLABLES[r.nextInt(SYLLABLES.length)]);
            }
            words.add(w.toString());
        }
        return words;
    }

    /** A word with a skewed (Zipf-like) frequency: common words often, the long tail rarely. */
    private String word(Random r) {
        double x = r.nextDouble();
        return vocabulary.get((int) (vocabulary.size() * x * x * x));
    }

    private String sentence(Random r) {
        int n = 6 + r.nextInt(10);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                sb.append(' ');
            }
            sb.append(i % 3 == 1 ? FILLER[r.nextInt(FILLER.length)] : word(r));
        }
        return sb.append('.').toString();
    }

    private List<String> queries(int count) {
        Random r = new Random(31);
        List<String> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int n = 2 + r.nextInt(4);
            StringBuilder q = new StringBuilder("what about");
            for (int k = 0; k < n; k++) {
                q.append(' ').append(word(r));
            }
            out.add(q.append('?').toString());
        }
        return out;
    }

    // ---------------------------------------------------------------- report

    private static final class Results {
        final String name;
        double fillSeconds = Double.NaN;
        long[] search;
        double single;
        double batched;

        Results(String name) {
            this.name = name;
        }
    }

    private void report(List<Results> results) {
        System.out.println();
        System.out.printf(Locale.ROOT, "%-28s %12s %12s %16s %18s %12s%n", "store", "search p50", "search p99",
                "writes/s (b=1)", "writes/s (b=100)", "fill");
        for (Results r : results) {
            System.out.printf(Locale.ROOT, "%-28s %9.0f us %9.0f us %16.0f %18.0f %12s%n", r.name,
                    percentile(r.search, 0.50) / 1e3, percentile(r.search, 0.99) / 1e3, r.single, r.batched,
                    Double.isNaN(r.fillSeconds) ? "-" : String.format(Locale.ROOT, "%.0f s", r.fillSeconds));
        }
        System.out.printf(Locale.ROOT, "(search: %,d lexical searches, top 8, random user of %,d, 2-5 query words;"
                        + " writes: %d single-memory batches and %d batches of 100, for fresh users of the filled"
                        + " tenant; fill: %,d batches of %d)%n", searches, users, singleWrites, batchWrites, users,
                memoriesPerUser);
    }

    private static double percentile(long[] sorted, double p) {
        int i = (int) Math.ceil(p * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static long size(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        }
    }

    private static void delete(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
