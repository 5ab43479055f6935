package dev.reverie.dream;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock the test moves by hand; never sleeps. Not thread-safe beyond volatile reads. */
final class MutableClock extends Clock {
    private volatile Instant now;

    MutableClock(Instant start) {
        now = start;
    }

    void set(Instant instant) {
        now = instant;
    }

    void advance(Duration d) {
        now = now.plus(d);
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
        return this;
    }
}
