package dev.reverie;

import dev.reverie.internal.Checks;

import java.time.Instant;

/**
 * One entry of a memory's append-only audit history: what changed, when, the text (or value)
 * before and after, and why. Immutable and thread-safe.
 *
 * @param id       unique id of the event
 * @param scope    whose memory it is
 * @param memoryId the memory it concerns
 * @param type     what happened
 * @param at       when
 * @param before   the text or value before the change, or {@code null}
 * @param after    the text or value after the change, or {@code null}
 * @param cause    why (for example {@code ttl}, {@code decay}, {@code operator}, {@code contradicted by m-42})
 */
public record MemoryEvent(String id, Scope scope, String memoryId, MemoryEventType type, Instant at, String before,
                          String after, String cause) {

    public MemoryEvent {
        Checks.id("event id", id);
        Checks.notNull("scope", scope);
        Checks.id("memoryId", memoryId);
        Checks.notNull("type", type);
        Checks.notNull("at", at);
        cause = cause == null ? "" : cause;
    }
}
