package dev.reverie.dream;

import dev.reverie.Memory;
import dev.reverie.MemoryEventType;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryPolicy;
import dev.reverie.MemoryStatus;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.Outcome;
import dev.reverie.Provenance;
import dev.reverie.Source;
import dev.reverie.StyleProfile;
import dev.reverie.Trust;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.ReferenceValidator;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.Subjects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * REM: works on one end user's ACTIVE memories. In order: memories whose reference is gone
 * ({@link ReferenceValidator}) and memories neither recalled nor reinforced during the user's last
 * {@link MemoryPolicy#unusedSessions()} sessions become DEPRECATED (the latter only once the host
 * records recalls for the user at all, and never identity, health or operator memories); memories past their TTL or whose
 * decayed importance falls below {@link MemoryPolicy#forgetFloor()} are forgotten (the row is
 * deleted, its history stays with a FORGOTTEN event); the others get their decayed importance;
 * syntheses whose sources are no longer ACTIVE are deprecated; new syntheses connect memories that
 * share an entity (see {@link Synthesizer}) and take the weakest trust of their sources (THIRD_PARTY
 * if any source is, outcome FAILED if any source failed); pending STYLE observations are folded into the single style profile.
 *
 * <p>Decay is computed from each memory's own base importance and last reinforcement (see
 * {@link Importance}), never compounded on the stored value, and a stored importance is rewritten
 * only when it moved by at least {@link #DECAY_STEP}: a rerun at the same clock changes nothing, and
 * a daily cycle does not write every memory every night. One instance serves one end user's cycle
 * (its scoring remembers texts for the run); not thread-safe.
 */
final class Rem {

    /** Smallest change of importance worth a write and a DECAYED history event. */
    static final double DECAY_STEP = 1.0;

    private static final Logger LOG = LoggerFactory.getLogger(Rem.class);

    private final MemoryPolicy policy;
    private final Importance importance;
    private final ModelJudge judge;
    private final ReferenceValidator validator;
    private final MemoryStore store;

    Rem(MemoryPolicy policy, Importance importance, ModelJudge judge, ReferenceValidator validator,
        MemoryStore store) {
        this.policy = policy;
        this.importance = importance;
        this.judge = judge;
        this.validator = validator;
        this.store = store;
    }

    void run(UserState state, UserState.Changes changes, Counts counts, RunEmbeddings vectors, Progress progress) {
        List<Memory> active = state.active();
        List<Observation> styles = pendingStyle(state);
        counts.remBefore = active.size();
        long total = active.size() + styles.size();
        Optional<Instant> unusedBefore = unusedBefore(state);
        long done = 0;
        for (Memory m : active) {
            if (m.kind() != MemoryKind.SYNTHESIS) {
                review(state, m, unusedBefore, changes, counts);
            }
            progress.tick(++done, total);
        }
        for (Memory m : state.active()) {
            if (m.kind() == MemoryKind.SYNTHESIS) {
                reviewSynthesis(state, m, changes, counts);
            }
        }
        synthesize(state, changes, counts, vectors);
        if (!styles.isEmpty()) {
            foldStyle(state, styles, changes, counts);
        }
        progress.tick(total, total);
        counts.remAfter = state.active().size();
    }

    /** Deprecates, forgets or decays one memory. */
    private void review(UserState state, Memory m, Optional<Instant> unusedBefore, UserState.Changes changes,
                        Counts counts) {
        Optional<String> stale = staleReason(m);
        if (stale.isPresent()) {
            deprecate(state, m, stale.get(), changes, counts);
            return;
        }
        if (unusedBefore.isPresent() && Importance.decays(m) && lastUse(m).isBefore(unusedBefore.get())) {
            deprecate(state, m, "not recalled in the last " + policy.unusedSessions() + " sessions", changes, counts);
            return;
        }
        decayOrForget(state, m, changes, counts);
    }

    private void decayOrForget(UserState state, Memory m, UserState.Changes changes, Counts counts) {
        if (m.expired(state.now)) {
            forget(m, "ttl", changes, counts);
            return;
        }
        double current = importance.current(m, state.now);
        if (Importance.decays(m) && current < policy.forgetFloor()) {
            forget(m, "decay", changes, counts);
        } else if (Importance.decays(m) && Math.abs(current - m.importance()) >= DECAY_STEP) {
            changes.put(m.toBuilder().importance(current).updatedAt(state.now).build());
            changes.event(m.id(), MemoryEventType.DECAYED, importance(m.importance()), importance(current), "decay");
            counts.decayed++;
        }
    }

    /**
     * A synthesis lives while at least two of its sources are ACTIVE; it decays from when it was
     * made, and once forgotten it is made again (same id) if its sources are still recent enough.
     */
    private void reviewSynthesis(UserState state, Memory s, UserState.Changes changes, Counts counts) {
        int alive = 0;
        for (String id : s.sourceObservationIds()) {
            if (state.memory(id).filter(m -> m.status() == MemoryStatus.ACTIVE).isPresent()) {
                alive++;
            }
        }
        if (alive < 2) {
            deprecate(state, s, "sources no longer active", changes, counts);
            return;
        }
        decayOrForget(state, s, changes, counts);
    }

    private void synthesize(UserState state, UserState.Changes changes, Counts counts, RunEmbeddings vectors) {
        List<Memory> memories = new ArrayList<>();
        for (Memory m : state.active()) {
            // the assistant's own commitments are no evidence about anybody: a synthesis joining one with
            // the user's facts would state the assistant's words as a fact ("since you're also allergic …")
            if (m.kind() != MemoryKind.SYNTHESIS && m.provenance().source() != Source.ASSISTANT) {
                memories.add(m);
            }
        }
        for (Synthesizer.Group g : Synthesizer.groups(memories)) {
            String id = Ids.synthesis(g.sourceIds());
            Optional<Memory> existing = state.memory(id);
            if (existing.isPresent() && existing.get().status() == MemoryStatus.ACTIVE) {
                continue;
            }
            List<Memory> sources = new ArrayList<>();
            for (String sourceId : g.sourceIds()) {
                sources.add(state.memory(sourceId).orElseThrow());
            }
            sources.sort(Synthesizer.OLDEST_FIRST);
            Memory draft = draft(state, id, g, sources, "");
            if (importance.current(draft, state.now) < policy.forgetFloor()) {
                continue; // it would be forgotten at once: nothing recent connects these memories
            }
            List<String> facts = new ArrayList<>();
            sources.forEach(m -> facts.add(m.text()));
            String text = judge.synthesis(g.display(), facts, counts)
                    .orElseGet(() -> Synthesizer.ruleText(g.display(), sources));
            Memory synthesis = draft(state, id, g, sources, text);
            synthesis = synthesis.toBuilder().importance(importance.current(synthesis, state.now))
                    .embedding(vectors.forText(text)).build();
            changes.put(synthesis);
            changes.event(id, existing.isPresent() ? MemoryEventType.RESTORED : MemoryEventType.CREATED, null, text,
                    "synthesis of " + String.join(", ", g.sourceIds()));
            counts.synthesized++;
            for (Memory old : state.active()) {
                if (old.kind() == MemoryKind.SYNTHESIS && old.subject().equals(synthesis.subject())
                        && !old.id().equals(id)) {
                    changes.put(old.toBuilder().status(MemoryStatus.SUPERSEDED).supersededBy(id)
                            .updatedAt(state.now).build());
                    changes.event(old.id(), MemoryEventType.SUPERSEDED, old.text(), text, "contradicted by " + id);
                    counts.superseded++;
                }
            }
        }
    }

    private Memory draft(UserState state, String id, Synthesizer.Group g, List<Memory> sources, String text) {
        Instant last = sources.get(0).lastReinforcedAt();
        Set<String> turns = new LinkedHashSet<>();
        Trust trust = Trust.FIRST_PARTY;
        Outcome outcome = Outcome.UNKNOWN;
        for (Memory m : sources) {
            last = m.lastReinforcedAt().isAfter(last) ? m.lastReinforcedAt() : last;
            turns.addAll(m.sourceTurnIds());
            // derived content is never trusted more than its weakest source
            if (m.provenance().trust() == Trust.THIRD_PARTY) {
                trust = Trust.THIRD_PARTY;
            }
            if (m.provenance().outcome() == Outcome.FAILED) {
                outcome = Outcome.FAILED;
            }
        }
        return Memory.builder(id, state.scope, MemoryKind.SYNTHESIS, text.isEmpty() ? g.display() : text, state.now)
                .subject("synthesis." + Text.key(g.key().substring(g.key().indexOf(':') + 1)))
                .value(g.display())
                .importance(policy.importanceSignals().synthesis())
                .lastReinforcedAt(last)
                .expiresAt(state.now.plus(policy.ttl(MemoryKind.SYNTHESIS)))
                .sourceObservationIds(g.sourceIds())
                .sourceTurnIds(List.copyOf(turns))
                .provenance(new Provenance(Source.DREAM, null, null, state.now, outcome, trust))
                .build();
    }

    private void foldStyle(UserState state, List<Observation> styles, UserState.Changes changes, Counts counts) {
        List<Observation> accepted = new ArrayList<>();
        for (Observation o : styles) {
            counts.considered++;
            // the profile is the end user's: another speaker's style (a household, a group chat) never
            // shapes how the assistant answers the end user
            if (o.provenance().trust() == Trust.THIRD_PARTY || o.provenance().outcome() == Outcome.FAILED
                    || !Subjects.USER.equals(Subjects.owner(o.subject()))) {
                changes.put(o.withStatus(ObservationStatus.DISCARDED, state.now));
                counts.discarded++;
            } else {
                accepted.add(o);
                changes.put(o.withStatus(ObservationStatus.CONSOLIDATED, state.now));
                counts.styled++;
            }
        }
        if (accepted.isEmpty()) {
            return;
        }
        StyleProfile profile = StyleFolder.fold(state.scope, state.style().orElse(null), accepted, state.now);
        Optional<String> described = judge.styleDescription(profile, counts);
        if (described.isPresent()) {
            profile = StyleFolder.withDescription(profile, described.get());
        }
        changes.put(profile);
    }

    private static List<Observation> pendingStyle(UserState state) {
        List<Observation> out = new ArrayList<>();
        for (Observation o : state.observations(EnumSet.of(ObservationStatus.PENDING))) {
            if (o.kind() == MemoryKind.STYLE) {
                out.add(o);
            }
        }
        return out;
    }

    private Optional<String> staleReason(Memory m) {
        try {
            return validator.staleReason(m);
        } catch (RuntimeException e) {
            LOG.warn("reference validator failed on memory {} of {}; keeping it: {}", m.id(), m.scope(), e.toString());
            return Optional.empty();
        }
    }

    /**
     * The start of the user's {@code unusedSessions}-th most recent session, before which a memory
     * must have been last used to count as unused; empty while the user has had fewer sessions, and
     * empty while no memory of the user was ever recalled: then the host does not recall (an
     * ingest-only evaluation, a tool-only recall mode that was never called) and "not recalled" says
     * nothing about a memory's use.
     */
    private Optional<Instant> unusedBefore(UserState state) {
        boolean recallIsRecorded = false;
        for (Memory m : state.memories()) {
            if (m.retrievalCount() > 0) {
                recallIsRecorded = true;
                break;
            }
        }
        if (!recallIsRecorded) {
            return Optional.empty();
        }
        List<String> sessions = store.sessions(state.scope);
        if (sessions.size() < policy.unusedSessions()) {
            return Optional.empty();
        }
        String oldest = sessions.get(sessions.size() - policy.unusedSessions());
        List<SessionTurn> first = store.sessionTurns(state.scope, oldest, 0, 1);
        return first.isEmpty() ? Optional.empty() : Optional.of(first.get(0).at());
    }

    private static Instant lastUse(Memory m) {
        Instant last = m.createdAt().isAfter(m.lastReinforcedAt()) ? m.createdAt() : m.lastReinforcedAt();
        return m.lastRetrievedAt() != null && m.lastRetrievedAt().isAfter(last) ? m.lastRetrievedAt() : last;
    }

    private static void deprecate(UserState state, Memory m, String cause, UserState.Changes changes, Counts counts) {
        changes.put(m.toBuilder().status(MemoryStatus.DEPRECATED).updatedAt(state.now).build());
        changes.event(m.id(), MemoryEventType.DEPRECATED, m.text(), null, cause);
        counts.deprecated++;
    }

    private static void forget(Memory m, String cause, UserState.Changes changes, Counts counts) {
        changes.deleteMemory(m.id());
        changes.event(m.id(), MemoryEventType.FORGOTTEN, m.text(), null, cause);
        counts.forgotten++;
    }

    private static String importance(double v) {
        return String.format(Locale.ROOT, "importance=%.2f", v);
    }
}
