package dev.reverie.crash;

import dev.reverie.ContextManager;
import dev.reverie.MutableClock;
import dev.reverie.Scope;
import dev.reverie.Turn;
import dev.reverie.TurnReceipt;
import dev.reverie.dream.DreamCycle;
import dev.reverie.dream.DreamListener;
import dev.reverie.dream.DreamPhase;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * The process {@link KillNineCrash} kills: {@code <mode> <store uri> <args...>}. It prints a line,
 * flushed, for every acknowledged write before going on, so the parent knows what must survive.
 * <ul>
 *   <li>{@code record <uri>}: records turns for {@link #USERS} until killed; {@code ACK <user> <session> <turnId>}</li>
 *   <li>{@code record-concurrent <uri>}: the same from {@link #WRITERS} threads at once (group commit), each
 *       thread on its own sessions</li>
 *   <li>{@code dream <uri> <epochMillis>}: dreams the tenant at that fixed time; {@code PHASE <user> <phase>} as
 *       each phase starts, {@code DONE} at the end</li>
 *   <li>{@code import <uri> <folder of exports>}: imports {@code <user>.json} for each user;
 *       {@code ACK <user>} after each</li>
 *   <li>{@code recalls <uri> <before> <after>}: puts one memory per user, adds {@code before} recalls to them
 *       in turn, one write each; on a Lucene folder then waits until a background commit left the recalls
 *       unfolded (its commit data says so); adds {@code after} more, prints {@code DONE} and waits to be
 *       killed</li>
 * </ul>
 */
public final class CrashChild {

    static final String TENANT = "crash-tenant";
    static final String AGENT = "assistant";
    static final int WRITERS = 4;
    static final List<String> USERS = List.of("ana", "bia", "caio", "davi", "eva", "fabio");
    static final List<String> TEXTS = List.of(
            "I'm allergic to penicillin.",
            "I live in Recife and I work as a nurse.",
            "I like jazz and I hate cilantro.",
            "My daughter Clara starts school next week.",
            "I have a dog named Rex.",
            "I'll be 10 minutes late today.",
            "Please call me Ana Paula.",
            "I moved to Lisbon last month.",
            "I prefer short answers.",
            "ok, thanks!");

    private CrashChild() {
    }

    /** The memory whose recalls the {@code recalls} mode counts, one per user. */
    static final String RECALLED_ID = "m-recalled";
    static final Instant RECALLS_FROM = Instant.parse("2026-03-01T09:00:00Z");

    static dev.reverie.Memory recalledMemory(String user) {
        return dev.reverie.Memory.builder(RECALLED_ID, scope(user), dev.reverie.MemoryKind.FACT,
                "plays the cello on Sundays", RECALLS_FROM).subject("user.hobby").build();
    }

    /**
     * Waits until a background commit of some tenant index under {@code folder} left recall
     * statistics unfolded: its commit data's {@code reverie.translog.folded} ({@code <from>@<translog
     * generation>}) keeps generations before the one the commit holds. Checks every 10 ms.
     */
    private static void awaitUnfoldedCommit(Path folder) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try (java.util.stream.Stream<Path> tenants = Files.list(folder)) {
                for (Path tenant : tenants.filter(Files::isDirectory).toList()) {
                    try (org.apache.lucene.store.Directory d = org.apache.lucene.store.FSDirectory.open(tenant)) {
                        String folded = org.apache.lucene.index.SegmentInfos.readLatestCommit(d).getUserData()
                                .get("reverie.translog.folded");
                        if (folded != null) {
                            String[] parts = folded.split("@");
                            if (Long.parseLong(parts[0]) < Long.parseLong(parts[1])) {
                                return;
                            }
                        }
                    } catch (java.io.IOException e) {
                        // no commit yet, or one being written: look again
                    }
                }
            }
            Thread.sleep(10);
        }
        throw new IllegalStateException("no background commit left recalls unfolded under " + folder);
    }

    static Scope scope(String user) {
        return Scope.of(TENANT, AGENT, user);
    }

    /** The i-th turn of the fixed workload: user, session and text. */
    static String[] turn(int i) {
        String user = USERS.get(i % USERS.size());
        String session = "s" + (i / (USERS.size() * 5)) + "-" + user;
        String text = TEXTS.get((i * 7 + i / USERS.size()) % TEXTS.size());
        return new String[] {user, session, text};
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = System.out;
        switch (args[0]) {
            case "record" -> {
                try (ContextManager memory = ContextManager.builder().store(args[1]).build()) {
                    for (int i = 0; i < 1_000_000; i++) {
                        String[] t = turn(i);
                        TurnReceipt r = memory.recordTurn(scope(t[0]), t[1], Turn.user(t[2]));
                        out.println("ACK " + t[0] + " " + t[1] + " " + r.turnIds().get(0));
                        out.flush();
                    }
                }
            }
            case "record-concurrent" -> {
                try (ContextManager memory = ContextManager.builder().store(args[1]).build()) {
                    Thread[] writers = new Thread[WRITERS];
                    for (int w = 0; w < WRITERS; w++) {
                        int writer = w;
                        writers[w] = new Thread(() -> {
                            for (int i = 0; i < 1_000_000; i++) {
                                String[] t = turn(i);
                                String session = t[1] + "-w" + writer;
                                TurnReceipt r = memory.recordTurn(scope(t[0]), session, Turn.user(t[2]));
                                synchronized (out) {
                                    out.println("ACK " + t[0] + " " + session + " " + r.turnIds().get(0));
                                    out.flush();
                                }
                            }
                        });
                        writers[w].start();
                    }
                    for (Thread w : writers) {
                        w.join();
                    }
                }
            }
            case "dream" -> {
                try (MemoryStore store = MemoryStores.open(args[1])) {
                    DreamCycle cycle = DreamCycle.builder(store)
                            .clock(new MutableClock(Instant.ofEpochMilli(Long.parseLong(args[2])))).build();
                    cycle.runAll(TENANT, AGENT, new DreamListener() {
                        @Override
                        public void phaseStarted(Scope scope, DreamPhase phase) {
                            out.println("PHASE " + scope.endUserId() + " " + phase);
                            out.flush();
                        }
                    });
                    out.println("DONE");
                    out.flush();
                }
            }
            case "import" -> {
                try (ContextManager memory = ContextManager.builder().store(args[1]).build()) {
                    for (String user : USERS) {
                        out.println("IMPORTING " + user);
                        out.flush();
                        try (InputStream in = Files.newInputStream(Path.of(args[2], user + ".json"))) {
                            memory.admin().importFrom(scope(user), in);
                        }
                        out.println("ACK " + user);
                        out.flush();
                    }
                }
            }
            case "recalls" -> {
                try (MemoryStore store = MemoryStores.open(args[1])) {
                    for (String user : USERS) {
                        store.write(dev.reverie.spi.WriteBatch.of(scope(user)).put(recalledMemory(user)));
                    }
                    int before = Integer.parseInt(args[2]);
                    int total = before + Integer.parseInt(args[3]);
                    for (int i = 0; i < total; i++) {
                        if (i == before && args[1].startsWith("lucene:")) {
                            awaitUnfoldedCommit(Path.of(args[1].substring("lucene:".length())));
                        }
                        String user = USERS.get(i % USERS.size());
                        store.write(dev.reverie.spi.WriteBatch.of(scope(user))
                                .addRecalls(RECALLED_ID, 1, RECALLS_FROM.plusMillis(i)));
                    }
                    out.println("DONE");
                    out.flush();
                    System.in.read(); // killed here
                }
            }
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }
}
