package dev.reverie;

import dev.reverie.internal.Checks;
import dev.reverie.spi.SessionSummary;
import dev.reverie.spi.SessionTurn;

import java.time.Instant;
import java.util.List;

/**
 * Everything Reverie keeps about one end user, as written to and read from an export file (see
 * {@link ExportCodec} and {@code docs/governance.md}). Immutable and thread-safe. Not API.
 *
 * @param format        always {@link ExportCodec#FORMAT}
 * @param formatVersion the file format version
 * @param scope         whose data it is
 * @param exportedAt    when it was exported
 * @param styleProfile  the style profile, or {@code null}
 * @param observations  every L3 observation, any status
 * @param memories      every L4 memory, any status
 * @param history       every audit event, in append order (including deleted memories' events)
 * @param sessions      every session with its turns, summary and archive
 */
record UserExport(String format, int formatVersion, Scope scope, Instant exportedAt,
                         StyleProfile styleProfile, List<Observation> observations, List<Memory> memories,
                         List<MemoryEvent> history, List<SessionExport> sessions) {

    UserExport {
        Checks.notNull("format", format);
        Checks.notNull("scope", scope);
        Checks.notNull("exportedAt", exportedAt);
        observations = List.copyOf(Checks.notNull("observations", observations));
        memories = List.copyOf(Checks.notNull("memories", memories));
        history = List.copyOf(Checks.notNull("history", history));
        sessions = List.copyOf(Checks.notNull("sessions", sessions));
    }

    /**
     * One session: its turns in seq order, its compacted summary (or {@code null}) and its archived
     * turns.
     *
     * @param sessionId the session id
     * @param turns     the session turns, seq 0 to n-1
     * @param summary   the compacted summary, or {@code null}
     * @param archive   the verbatim archive turns
     */
    record SessionExport(String sessionId, List<SessionTurn> turns, SessionSummary summary,
                                List<SessionTurn> archive) {

        SessionExport {
            Checks.id("sessionId", sessionId);
            turns = List.copyOf(Checks.notNull("turns", turns));
            archive = List.copyOf(Checks.notNull("archive", archive));
        }
    }
}
