package dev.reverie.multi;

import dev.reverie.ContextManager;
import dev.reverie.Memory;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryStatus;
import dev.reverie.Scope;
import dev.reverie.Turn;
import dev.reverie.TurnReceipt;
import dev.reverie.dream.DreamListener;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.SessionTurn;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The workload of the multi-instance tests: one application instance ({@code name}) records turns
 * into sessions it shares with the other instances and into its own sessions, for three end users,
 * while a second thread dreams the whole tenant in a loop. Every acknowledged turn is reported as
 * {@code ACK <user> <session> <turnId>}. The facts repeat across sessions and instances, so two
 * concurrent dreams of one user would promote the same fact twice.
 *
 * <p>{@link #main} runs it in a child JVM: {@code <folder> <name> <turns>}; it prints one
 * {@code ACK} line per acknowledged turn (flushed), {@code ERR <message>} per failure,
 * {@code DREAMS <user cycles completed> <user cycles skipped>}, then {@code DONE <errors>}.
 */
public final class SharedFolderWorkload {

    public static final String TENANT = "shared-tenant";
    public static final String AGENT = "assistant";
    public static final List<String> USERS = List.of("ana", "bia", "caio");
    private static final List<String> FACTS = List.of(
            "I'm allergic to penicillin.",
            "I live in Recife.",
            "I like jazz.",
            "I work as a nurse.",
            "I have a dog named Rex.",
            "My favourite food is moqueca.",
            "ok, thanks!");

    private SharedFolderWorkload() {
    }

    public static Scope scope(String user) {
        return Scope.of(TENANT, AGENT, user);
    }

    /**
     * Records {@code turns} turns (alternating shared and own sessions), reporting each acknowledged
     * one to {@code ack} and each failure to {@code error}, while dreaming the tenant in a loop on a
     * second thread; returns the sum of the dream reports after a last dream.
     */
    public static dev.reverie.dream.DreamReport run(ContextManager memory, String name, int turns, Consumer<String> ack,
                           Consumer<Throwable> error) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        java.util.concurrent.atomic.AtomicReference<dev.reverie.dream.DreamReport> total =
                new java.util.concurrent.atomic.AtomicReference<>(dev.reverie.dream.DreamReport.EMPTY);
        Thread dreamer = new Thread(() -> {
            while (!stop.get()) {
                try {
                    dev.reverie.dream.DreamReport r = memory.dream(TENANT, AGENT, DreamListener.NONE);
                    total.accumulateAndGet(r, dev.reverie.dream.DreamReport::plus);
                } catch (Throwable e) {
                    error.accept(e);
                }
            }
        }, "dreamer-" + name);
        dreamer.start();
        try {
            for (int i = 0; i < turns; i++) {
                String user = USERS.get(i % USERS.size());
                String session = (i / USERS.size()) % 2 == 0 ? "shared-" + user : name + "-" + user;
                String text = FACTS.get((i / USERS.size()) % FACTS.size());
                try {
                    TurnReceipt r = memory.recordTurn(scope(user), session, Turn.user(text));
                    for (String id : r.turnIds()) {
                        ack.accept(user + " " + session + " " + id);
                    }
                } catch (Throwable e) {
                    error.accept(e);
                }
            }
        } finally {
            stop.set(true);
            dreamer.join();
        }
        try {
            total.accumulateAndGet(memory.dream(TENANT, AGENT, DreamListener.NONE), dev.reverie.dream.DreamReport::plus);
        } catch (Throwable e) {
            error.accept(e);
        }
        return total.get();
    }

    /** Acknowledged turns ({@code user session turnId}) missing from the session or the archive. */
    public static List<String> missing(MemoryStore store, List<String> acks) {
        Map<String, Set<String>> sessionIds = new HashMap<>();
        Map<String, Set<String>> archiveIds = new HashMap<>();
        List<String> out = new ArrayList<>();
        for (String a : acks) {
            String[] p = a.split(" ");
            String key = p[0] + " " + p[1];
            Set<String> inSession = sessionIds.computeIfAbsent(key, k -> ids(store.sessionTurns(scope(p[0]), p[1], 0,
                    Integer.MAX_VALUE)));
            Set<String> inArchive = archiveIds.computeIfAbsent(key, k -> ids(store.archivedTurns(scope(p[0]), p[1])));
            if (!inSession.contains(p[2]) || !inArchive.contains(p[2])) {
                out.add(a);
            }
        }
        return out;
    }

    /** Sessions whose seqs are not exactly 0..n-1. */
    public static List<String> brokenSessions(MemoryStore store) {
        List<String> out = new ArrayList<>();
        for (String user : USERS) {
            for (String session : store.sessions(scope(user))) {
                List<SessionTurn> turns = store.sessionTurns(scope(user), session, 0, Integer.MAX_VALUE);
                for (int i = 0; i < turns.size(); i++) {
                    if (turns.get(i).seq() != i) {
                        out.add(user + "/" + session);
                        break;
                    }
                }
            }
        }
        return out;
    }

    /** ACTIVE memories that repeat another ACTIVE memory of the same user (same subject and value). */
    public static List<String> duplicateActiveMemories(MemoryStore store) {
        List<String> out = new ArrayList<>();
        for (String user : USERS) {
            Set<String> seen = new HashSet<>();
            for (Memory m : store.memories(scope(user), MemoryFilter.active())) {
                if (!seen.add(m.subject() + "=" + m.value())) {
                    out.add(user + ": " + m.subject() + "=" + m.value());
                }
            }
        }
        return out;
    }

    public static long activeMemories(MemoryStore store) {
        long n = 0;
        for (String user : USERS) {
            n += store.countMemories(scope(user), java.util.EnumSet.of(MemoryStatus.ACTIVE));
        }
        return n;
    }

    private static Set<String> ids(List<SessionTurn> turns) {
        Set<String> out = new HashSet<>();
        for (SessionTurn t : turns) {
            out.add(t.turnId());
        }
        return out;
    }

    /** Child JVM entry point: {@code <folder> <name> <turns>}. */
    public static void main(String[] args) throws Exception {
        Path folder = Path.of(args[0]);
        String name = args[1];
        int turns = Integer.parseInt(args[2]);
        PrintStream out = System.out;
        int[] errors = {0};
        try (ContextManager memory = ContextManager.builder().store("sqlite:" + folder).build()) {
            dev.reverie.dream.DreamReport dreams = run(memory, name, turns, a -> {
                synchronized (out) {
                    out.println("ACK " + a);
                    out.flush();
                }
            }, e -> {
                synchronized (out) {
                    errors[0]++;
                    out.println("ERR " + String.valueOf(e).replace('\n', ' '));
                    out.flush();
                }
            });
            synchronized (out) {
                out.println("DREAMS " + dreams.endUsers() + " " + dreams.skipped());
            }
        }
        synchronized (out) {
            out.println("DONE " + errors[0]);
            out.flush();
        }
    }
}
