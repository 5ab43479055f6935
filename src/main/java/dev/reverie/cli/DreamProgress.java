package dev.reverie.cli;

import dev.reverie.Scope;
import dev.reverie.dream.DreamListener;
import dev.reverie.dream.DreamPhase;
import dev.reverie.dream.DreamReport;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Shows a dream's progress on stderr. On a terminal: for one end user, one bar per phase, redrawn in
 * place and left on screen when the phase ends; for every user of a tenant and agent, a single line
 * redrawn in place with a bar of users done and the current user's phase, failures printed above
 * it. Elsewhere (a pipe, a file, CI): plain lines, one per phase event for one user and one per
 * finished user for many, so a log stays readable. Redraws are throttled to one per 50 ms.
 * Thread-safe (synchronized), though the dream cycle calls it from one thread.
 */
final class DreamProgress implements DreamListener {

    private static final int BAR = 24;
    private static final long REDRAW_NANOS = 50_000_000L;
    private static final String CLEAR_LINE = "\r\033[K";

    private final PrintStream err;
    private final boolean terminal;
    private final boolean everyUser;
    private long lastDraw;
    private boolean lineOpen;
    private long usersDone;
    private long usersTotal = -1;
    private String user = "";
    private DreamPhase phase;
    private long done;
    private long total;

    DreamProgress(PrintStream err, boolean terminal, boolean everyUser) {
        this.err = err;
        this.terminal = terminal;
        this.everyUser = everyUser;
    }

    @Override
    public synchronized void phaseStarted(Scope scope, DreamPhase p) {
        user = Table.clean(scope.endUserId());
        phase = p;
        done = 0;
        total = 0;
        if (terminal) {
            draw(!everyUser); // for many users only the throttled redraw: thousands of phases go by
        } else if (!everyUser) {
            err.println(p + " started");
        }
    }

    @Override
    public synchronized void progress(Scope scope, DreamPhase p, long d, long t) {
        phase = p;
        done = d;
        total = t;
        if (terminal) {
            draw(!everyUser && d >= t);
        } else if (!everyUser) {
            err.println(p + " " + d + "/" + t);
        }
    }

    @Override
    public synchronized void phaseFinished(Scope scope, DreamPhase p, DreamReport counters) {
        if (everyUser) {
            return;
        }
        if (terminal) {
            done = Math.max(done, total);
            String bar = total == 0 ? String.format("%-6s %s", p, bar(1, 1)) : phaseLine();
            err.print(CLEAR_LINE + bar + "  " + summary(counters));
            err.println();
            lineOpen = false;
        } else {
            err.println(p + " finished: " + summary(counters));
        }
    }

    @Override
    public synchronized void endUserFinished(Scope scope, long d, long t, DreamReport report) {
        usersDone = d;
        usersTotal = t;
        if (!everyUser) {
            return;
        }
        if (terminal) {
            draw(d == t);
        } else {
            err.println("[" + d + "/" + t + "] " + Table.clean(scope.endUserId()) + ": "
                    + (report == null ? "failed" : summary(report)));
        }
    }

    @Override
    public synchronized void endUserFailed(Scope scope, DreamPhase p, RuntimeException error) {
        String line = Table.clean(scope.endUserId()) + " failed in " + p + ": " + Table.clean(error.getMessage());
        if (terminal && lineOpen) {
            err.print(CLEAR_LINE);
            lineOpen = false;
        }
        err.println(line);
    }

    /** Ends an open progress line so what follows starts on its own line. */
    synchronized void finish() {
        if (lineOpen) {
            err.println();
            lineOpen = false;
        }
        err.flush();
    }

    private void draw(boolean force) {
        long now = System.nanoTime();
        if (!force && lineOpen && now - lastDraw < REDRAW_NANOS) {
            return;
        }
        lastDraw = now;
        String line = everyUser ? usersLine() : phaseLine();
        err.print(CLEAR_LINE + line);
        err.flush();
        lineOpen = true;
    }

    private String phaseLine() {
        return String.format("%-6s %s %d/%d", phase, bar(done, total), done, total);
    }

    private String usersLine() {
        String users = usersTotal < 0 ? "users " + bar(0, 0) + " " + usersDone + "/?"
                : "users " + bar(usersDone, usersTotal) + " " + usersDone + "/" + usersTotal;
        return phase == null ? users : users + "  " + user + " " + phase + " " + done + "/" + total;
    }

    static String bar(long d, long t) {
        int filled = t <= 0 ? 0 : (int) Math.min(BAR, d * BAR / t);
        return "[" + "#".repeat(filled) + "-".repeat(BAR - filled) + "]";
    }

    /** The counters that are not zero, {@code name=value}, or "no changes". */
    static String summary(DreamReport r) {
        List<String> parts = new ArrayList<>();
        add(parts, "considered", r.considered());
        add(parts, "duplicates", r.duplicates());
        add(parts, "promoted", r.promoted());
        add(parts, "discarded", r.discarded());
        add(parts, "reinforced", r.reinforced());
        add(parts, "superseded", r.superseded());
        add(parts, "decayed", r.decayed());
        add(parts, "forgotten", r.forgotten());
        add(parts, "deprecated", r.deprecated());
        add(parts, "synthesized", r.synthesized());
        add(parts, "styled", r.styled());
        add(parts, "pruned", r.pruned());
        return parts.isEmpty() ? "no changes" : String.join(" ", parts);
    }

    private static void add(List<String> parts, String name, long value) {
        if (value != 0) {
            parts.add(name + "=" + value);
        }
    }
}
