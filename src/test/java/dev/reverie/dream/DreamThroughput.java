package dev.reverie.dream;

import dev.reverie.Cardinality;
import dev.reverie.MemoryKind;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.Outcome;
import dev.reverie.Polarity;
import dev.reverie.Provenance;
import dev.reverie.Scope;
import dev.reverie.Source;
import dev.reverie.Trust;
import dev.reverie.spi.WriteBatch;
import dev.reverie.store.sqlite.SqliteMemoryStore;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Throughput of {@link DreamCycle#runAll} on the embedded SQLite store: N end users of one tenant,
 * each with 200 pending observations over 5 sessions (45 % episodes, 10 % small talk and logistics,
 * 45 % typed facts: identity, health, preferences, work, family, plans, style; about a quarter of
 * them repetitions), consolidated in one nightly run.
 * Prints observations consolidated per second (the design's target: 20,000 per tenant). Not a test
 * (no wall-clock asserts in unit tests); run it with
 *
 * <pre>mvn -q -o test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=dev.reverie.dream.DreamThroughput [-Dexec.args="users durable|relaxed rounds [threads [warmup]]"]</pre>
 *
 * Defaults: 500 users, durable writes ({@code synchronous=FULL}), 3 rounds on fresh stores, the
 * cycle's default {@link DreamCycle.Builder#threads} (threads 0 on the command line), 1 warm-up round (its rate is printed but
 * not in the median of the others). The dream's code runs only at night, so the JIT takes several
 * 40,000-observation rounds to reach steady state (200 users: about 11k, 15k, 17k, then 22–24k
 * obs/s); {@code 200 durable 10 0 5} reports the median of the last five rounds, as a
 * long-running host sees after its first nights. Each round prints the CPU time of the calling thread and of the
 * whole process (which counts the run's worker threads, and also the JIT and the garbage collector).
 */
public final class DreamThroughput {

    private static final int OBSERVATIONS_PER_USER = 200;
    private static final String[][] FACTS = {
            {"user.name", "FACT", "S", "Ana|Bia", "My name is %s"},
            {"user.allergy", "FACT", "M", "penicillin|dipyrone|latex|peanuts|shellfish|ibuprofen", "I'm allergic to %s"},
            {"user.job", "FACT", "S", "nurse|teacher|engineer|chef", "I work as a %s"},
            {"user.location", "FACT", "S", "Recife|Lisbon|Porto|Natal", "I live in %s"},
            {"user.family.sister", "FACT", "S", "Marta|Joana|Rita", "My sister %s lives nearby"},
            {"user.pet", "FACT", "M", "dog Rex|cat Tom|parrot Kiko|turtle Zeca", "I have a %s"},
            {"user.likes", "PREFERENCE", "M",
                    "jazz|green tea|sushi|hiking|chess|samba|yoga|novels|cycling|baking|board games|photography"
                            + "|gardening|museums|podcasts|tennis", "I really like %s"},
            {"user.dislikes", "PREFERENCE", "M", "cilantro|traffic|rain|horror films|loud bars|cold coffee",
                    "I can't stand %s"},
            {"user.skill", "SKILL", "M", "python|guitar|spanish|pottery|knitting|sql|drawing|swimming",
                    "I'm good at %s"},
            {"user.plan", "EVENT", "M", "trip to Rome|dentist appointment|exam|concert|wedding|job interview"
                    + "|marathon|move to a new flat", "I have a %s coming up next month"},
            {"user.style.length", "STYLE", "S", "short|long", "keep answers %s"}};
    private static final String[] DID = {"went to", "visited", "cleaned", "painted", "organized", "walked to",
            "photographed", "talked about", "read about", "cooked for"};
    private static final String[] WHAT = {"the support group", "my grandmother's house", "the lake at sunrise",
            "the community garden", "the old library", "the animal shelter", "the new bakery", "the beach",
            "my friend's studio", "the farmers market", "the museum of art", "the mountain trail"};
    private static final String[] WHEN = {"yesterday", "last Saturday", "this morning", "on Sunday", "last week",
            "two days ago", "after work", "with my sister"};
    private static final String[] FILLER = {"ok see you", "I'll be 10 minutes late", "thanks!", "running late, sorry",
            "haha ok", "good morning!", "sounds good", "on my way"};

    private DreamThroughput() {
    }

    public static void main(String[] args) throws IOException {
        int users = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        boolean relaxed = args.length > 1 && args[1].equals("relaxed");
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int threads = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        int warmup = args.length > 4 ? Integer.parseInt(args[4]) : 1;
        if (rounds < 2 || warmup < 0 || warmup >= rounds) {
            throw new IllegalArgumentException("rounds (" + rounds + ") must be at least 2 and warmup (" + warmup
                    + ") between 0 and rounds - 1, so some round is measured");
        }
        double[] rates = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            rates[round] = round(users, relaxed, round, threads);
        }
        double[] measured = java.util.Arrays.copyOfRange(rates, Math.min(warmup, rounds - 1), rounds);
        java.util.Arrays.sort(measured);
        int n = measured.length;
        double median = n % 2 == 1 ? measured[n / 2] : (measured[n / 2 - 1] + measured[n / 2]) / 2;
        System.out.printf(Locale.ROOT, "median of measured rounds (%d to %d): %,.0f observations consolidated per"
                + " second%n", rounds - n, rounds - 1, median);
    }

    private static double round(int users, boolean relaxed, int round, int threads) throws IOException {
        Path folder = Files.createTempDirectory("reverie-dream-throughput");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(folder, relaxed)) {
            Instant start = Instant.parse("2025-03-03T09:00:00Z");
            Random random = new Random(round);
            for (int u = 0; u < users; u++) {
                Scope scope = Scope.of("tenant-1", "assistant", String.format(Locale.ROOT, "user-%05d", u));
                WriteBatch batch = WriteBatch.of(scope);
                for (int i = 0; i < OBSERVATIONS_PER_USER; i++) {
                    batch.put(observation(random, scope, i, start.plus(Duration.ofMinutes(30L * i))));
                }
                store.write(batch);
            }
            Clock clock = Clock.fixed(start.plus(Duration.ofDays(5)), ZoneOffset.UTC);
            DreamCycle.Builder builder = DreamCycle.builder(store).clock(clock);
            if (threads > 0) {
                builder.threads(threads);
            }
            DreamCycle cycle = builder.build();
            ThreadMXBean threadBean = ManagementFactory.getThreadMXBean();
            com.sun.management.OperatingSystemMXBean os =
                    (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpu0 = threadBean.getCurrentThreadCpuTime();
            long process0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            DreamReport report = cycle.runAll("tenant-1", "assistant", DreamListener.NONE);
            double seconds = (System.nanoTime() - t0) / 1e9;
            double cpuSeconds = (threadBean.getCurrentThreadCpuTime() - cpu0) / 1e9;
            double processSeconds = (os.getProcessCpuTime() - process0) / 1e9;
            long observations = (long) users * OBSERVATIONS_PER_USER;
            double rate = observations / seconds;
            System.out.printf(Locale.ROOT, "round %d: %d users x %d observations (%s) in %.2f s wall = %,.0f obs/s"
                            + " (%.2f s on the dreaming thread's CPU = %,.0f obs per CPU-second; process CPU %.2f s"
                            + " = %,.0f obs per process CPU-second; load average %.1f)%n  %s%n",
                    round, users, OBSERVATIONS_PER_USER, relaxed ? "synchronous=NORMAL" : "synchronous=FULL",
                    seconds, rate, cpuSeconds, observations / cpuSeconds, processSeconds,
                    observations / processSeconds,
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), report);
            return rate;
        } finally {
            try (Stream<Path> files = Files.walk(folder)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    static Observation observation(Random random, Scope scope, int i, Instant at) {
        String session = "session-" + (i / 40);
        String turn = "turn-" + i;
        Provenance provenance = new Provenance(Source.USER, session, turn, at, Outcome.UNKNOWN, Trust.FIRST_PARTY);
        String id = "obs-" + i;
        int kind = random.nextInt(100);
        if (kind < 55) {
            String text = kind < 45
                    ? "I " + DID[random.nextInt(DID.length)] + " " + WHAT[random.nextInt(WHAT.length)] + " "
                            + WHEN[random.nextInt(WHEN.length)]
                    : FILLER[random.nextInt(FILLER.length)];
            return new Observation(id, scope, MemoryKind.EVENT, text, "user.episode." + Integer.toHexString(text.hashCode()),
                    "", Cardinality.MULTI, Polarity.POSITIVE, 0.6, at, session, provenance, List.of(turn), 1,
                    ObservationStatus.PENDING, null, null);
        }
        String[] f = FACTS[random.nextInt(FACTS.length)];
        String[] values = f[3].split("\\|");
        String value = values[random.nextInt(values.length)];
        return new Observation(id, scope, MemoryKind.valueOf(f[1]), String.format(f[4], value), f[0], value,
                f[2].equals("S") ? Cardinality.SINGLE : Cardinality.MULTI, Polarity.POSITIVE, 0.8, at, session,
                provenance, List.of(turn), 1, ObservationStatus.PENDING, null, null);
    }
}
