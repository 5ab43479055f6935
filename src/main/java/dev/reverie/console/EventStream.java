package dev.reverie.console;

import dev.reverie.Scope;
import dev.reverie.dream.DreamListener;
import dev.reverie.dream.DreamPhase;
import dev.reverie.dream.DreamReport;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A dream's progress as server-sent events: {@code phase_started}, {@code progress} (done, total),
 * {@code phase_finished} (the phase's counters), {@code user_finished}, {@code user_failed}, then
 * {@code report} or {@code error}; each {@code data:} line is one JSON object. A client that goes
 * away only stops the stream, never the dream. For a dream of every end user of a tenant and agent
 * the phase events are thinned to one per 100 ms (a thousand users would otherwise stream some
 * 29,000 events, 4.5 MB); {@code user_finished}, failures and the report always go out. Writes are
 * synchronized, so one stream may be shared by concurrent cycles.
 */
final class EventStream implements DreamListener, AutoCloseable {

    private static final long PHASE_EVENT_NANOS = 100_000_000L;

    private final OutputStream out;
    private final boolean everyUser;
    private boolean broken;
    private long lastPhaseEvent;
    private boolean anyPhaseEvent;

    EventStream(OutputStream out, boolean everyUser) {
        this.out = out;
        this.everyUser = everyUser;
    }

    @Override
    public void phaseStarted(Scope scope, DreamPhase phase) {
        if (thinned()) {
            return;
        }
        send("phase_started", base(scope, phase));
    }

    @Override
    public void progress(Scope scope, DreamPhase phase, long done, long total) {
        if (thinned()) {
            return;
        }
        Map<String, Object> data = base(scope, phase);
        data.put("done", done);
        data.put("total", total);
        send("progress", data);
    }

    @Override
    public void phaseFinished(Scope scope, DreamPhase phase, DreamReport counters) {
        if (thinned()) {
            return;
        }
        Map<String, Object> data = base(scope, phase);
        data.put("counters", counters);
        send("phase_finished", data);
    }

    @Override
    public void endUserFinished(Scope scope, long done, long total, DreamReport report) {
        Map<String, Object> data = base(scope, null);
        data.put("done", done);
        data.put("total", total);
        send("user_finished", data);
    }

    @Override
    public void endUserFailed(Scope scope, DreamPhase phase, RuntimeException error) {
        Map<String, Object> data = base(scope, phase);
        data.put("error", String.valueOf(error.getMessage()));
        send("user_failed", data);
    }

    /** Whether this phase event is dropped: only in a dream of every user, within 100 ms of the last one sent. */
    private synchronized boolean thinned() {
        if (!everyUser) {
            return false;
        }
        long now = System.nanoTime();
        if (anyPhaseEvent && now - lastPhaseEvent < PHASE_EVENT_NANOS) {
            return true;
        }
        anyPhaseEvent = true;
        lastPhaseEvent = now;
        return false;
    }

    /** Writes one event; after the client is gone, does nothing. */
    synchronized void send(String event, Object data) {
        if (broken) {
            return;
        }
        String frame = "event: " + event + "\ndata: " + OperatorJson.write(data) + "\n\n";
        try {
            out.write(frame.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            broken = true;
        }
    }

    private static Map<String, Object> base(Scope scope, DreamPhase phase) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("scope", scope.toString());
        data.put("user", scope.endUserId());
        if (phase != null) {
            data.put("phase", phase);
        }
        return data;
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            broken = true;
        }
    }
}
