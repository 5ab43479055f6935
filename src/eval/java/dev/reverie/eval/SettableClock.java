package dev.reverie.eval;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A {@link Clock} the harness moves by hand, so that turn times, dream cycles and questions follow
 * the conversation's session dates rather than the wall clock. Always in UTC. Thread-safe: the
 * instant is a volatile field.
 */
public final class SettableClock extends Clock {
    private volatile Instant now;

    /** A clock standing at {@code start}. */
    public SettableClock(Instant start) {
        this.now = start;
    }

    /** Moves the clock to {@code instant} (backwards too: each sample starts its own timeline). */
    public void set(Instant instant) {
        this.now = instant;
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        if (!ZoneOffset.UTC.equals(zone)) {
            throw new UnsupportedOperationException("SettableClock is UTC only, asked for " + zone);
        }
        return this;
    }
}
