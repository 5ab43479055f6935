package dev.reverie.store.postgres;

import dev.reverie.ContextManager;
import dev.reverie.Scope;
import dev.reverie.Turn;
import dev.reverie.dream.DreamListener;
import dev.reverie.dream.DreamReport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One application instance of {@link PostgresTwoProcessTest}, run in its own JVM: its own store and
 * {@link ContextManager} on the shared database, recording turns into its own users, into a session
 * of its own of a shared user and into a session both instances share, while a second thread dreams
 * every user of the tenant in a loop ({@code ContextManager.dream(tenant, agent, ...)}, which takes
 * each user's dream lease in the store and skips users another instance is dreaming). Writes what it
 * acknowledged and counted to a report file; exits 0 when nothing failed.
 *
 * <p>Arguments: location ({@code postgresql://...}), instance name, turns per user, report file.
 */
public final class TwoProcessWorker {

    static final String TENANT = "shared-tenant";
    static final String AGENT = "assistant";
    static final String SHARED_USER = "shared-user";
    static final String SHARED_SESSION = "shared-session";
    static final int OWN_USERS = 2;
    private static final List<String> FACTS = List.of("I live in Olinda.", "I'm allergic to dipyrone.",
            "I like jazz.", "My favourite color is green.", "I work as a nurse.", "I have a dog named Rex.");

    private TwoProcessWorker() {
    }

    public static void main(String[] args) throws Exception {
        String location = args[0];
        String name = args[1];
        int turns = Integer.parseInt(args[2]);
        Path report = Path.of(args[3]);
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger errors = new AtomicInteger();
        AtomicInteger dreams = new AtomicInteger();
        AtomicInteger skipped = new AtomicInteger();
        try (PostgresMemoryStore store = PostgresMemoryStore.open(location);
             ContextManager manager = ContextManager.builder().store(store).build()) {
            AtomicBoolean recording = new AtomicBoolean(true);
            Thread dreamer = new Thread(() -> {
                boolean last = false;
                while (!last) {
                    last = !recording.get();
                    try {
                        DreamReport cycle = manager.dream(TENANT, AGENT, DreamListener.NONE);
                        dreams.addAndGet((int) cycle.endUsers());
                        skipped.addAndGet((int) cycle.skipped());
                        if (cycle.failed() > 0) {
                            errors.addAndGet((int) cycle.failed());
                            lines.add("error dream failed for " + cycle.failed() + " users");
                        }
                    } catch (RuntimeException e) {
                        errors.incrementAndGet();
                        lines.add("error dream " + e);
                        e.printStackTrace();
                    }
                }
            }, "dreamer");
            dreamer.start();
            List<String> users = new ArrayList<>();
            for (int u = 0; u < OWN_USERS; u++) {
                users.add(name + "-user" + u);
            }
            users.add(SHARED_USER);
            for (int i = 0; i < turns; i++) {
                for (int k = 0; k <= users.size(); k++) {
                    // the last one: the shared user's session that both instances append to
                    String user = k < users.size() ? users.get(k) : SHARED_USER;
                    String session = k < users.size() ? name + "-session" : SHARED_SESSION;
                    Scope scope = Scope.of(TENANT, AGENT, user);
                    String turnId = name + "-" + user + "-" + session + "-" + i;
                    try {
                        manager.recordTurn(scope, session, Turn.user(FACTS.get(i % FACTS.size())).withId(turnId));
                        lines.add("ack " + user + " " + session + " " + turnId);
                    } catch (RuntimeException e) {
                        errors.incrementAndGet();
                        lines.add("error record " + turnId + " " + e);
                        e.printStackTrace();
                    }
                }
            }
            recording.set(false);
            dreamer.join();
        }
        lines.add("errors " + errors.get());
        lines.add("dreams " + dreams.get());
        lines.add("skipped " + skipped.get());
        try {
            Files.write(report, lines);
        } catch (IOException e) {
            e.printStackTrace();
            System.exit(2);
        }
        System.exit(errors.get() == 0 ? 0 : 1);
    }
}
