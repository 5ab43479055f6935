package dev.reverie.dream;

import dev.reverie.Cardinality;
import dev.reverie.Memory;
import dev.reverie.MemoryEventType;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryPolicy;
import dev.reverie.MemoryStatus;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.Outcome;
import dev.reverie.Polarity;
import dev.reverie.Provenance;
import dev.reverie.Trust;
import dev.reverie.internal.Terms;
import dev.reverie.internal.Vectors;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Deep sleep: judges each light-sleep survivor of one end user and promotes it into L4 or discards
 * it. Importance comes from {@link Importance}; an observation is promoted when it reaches
 * {@link MemoryPolicy#importanceCutoff()}, when it was said in at least
 * {@link MemoryPolicy#sessionsToAlwaysPromote()} distinct sessions, or when it says again what an
 * ACTIVE memory already holds. Content from a failed run alone is never promoted.
 *
 * <p>Promotion compares the survivor with the ACTIVE memories of the same subject only (different
 * subjects never merge, however similar the wording; episodic fallbacks are compared by text):
 * the same meaning reinforces the memory (no new row); a positive statement of a single-valued
 * subject with another value, a negative one of the value a positive memory holds (or contains, or is
 * contained in), or any subject with the opposite polarity for the same value, is a contradiction and
 * the newer statement wins (the older memory becomes SUPERSEDED, kept for audit); anything else is a
 * new memory. Subjects are owned ({@code ana.location} is not {@code bruno.location}), so two
 * people in one scope never merge or supersede each other's facts, and episodes only match episodes
 * of the same owner. Only the user's own first-party words or the operator's supersede (see
 * {@link Importance#authoritative}): a statement of the assistant or a tool that contradicts a memory
 * is kept beside it, never in its place. Reinforcement never upgrades trust: a first-hand statement
 * that matches third-party content replaces its text and provenance with the user's own. Survivors are processed in the order they were last said, so within one run the latest
 * statement of a single-valued subject ends up ACTIVE. One instance serves one end user's cycle
 * (its scoring remembers texts for the run); not thread-safe.
 */
final class DeepSleep {

    /** Most memories of one subject that the model is asked to compare a survivor with. */
    private static final int MAX_MODEL_COMPARISONS = 3;
    /** Episodic texts at least this similar (but under the duplicate threshold) go to the model. */
    private static final double MODEL_EPISODE_JACCARD = 0.5;

    private final MemoryPolicy policy;
    private final Importance importance;
    private final ModelJudge judge;
    private final LightSleep light;

    DeepSleep(MemoryPolicy policy, Importance importance, ModelJudge judge, LightSleep light) {
        this.policy = policy;
        this.importance = importance;
        this.judge = judge;
        this.light = light;
    }

    /**
     * One survivor with the observations it absorbed, and the earlier judged observations that said
     * the same thing (support: discarded on their own nights, they count once it is promoted).
     */
    private record Candidate(Observation survivor, List<Observation> group, List<Observation> support, Instant latest,
                             Set<String> sessions) {
        List<String> ids() {
            List<String> out = new ArrayList<>(group.size() + support.size());
            group.forEach(o -> out.add(o.id()));
            support.forEach(o -> out.add(o.id()));
            return out;
        }

        /** How many times it was said: the survivor's merged count plus the support's. */
        int utterances() {
            int n = survivor.reinforcementCount();
            for (Observation o : support) {
                n += o.reinforcementCount();
            }
            return n;
        }

        /** Every source turn, the support's (oldest first) before the survivor's. */
        List<String> turns() {
            List<Observation> ordered = new ArrayList<>(support);
            ordered.sort(Comparator.comparing(Observation::observedAt).thenComparing(Observation::id));
            Set<String> out = new LinkedHashSet<>();
            ordered.forEach(o -> out.addAll(o.sourceTurnIds()));
            out.addAll(survivor.sourceTurnIds());
            return List.copyOf(out);
        }
    }

    /** What a survivor does to L4. */
    private record Match(Memory reinforce, List<Memory> contradicted) {
        static final Match NEW = new Match(null, List.of());
    }

    void run(UserState state, List<Observation> survivors, Lineage lineage, UserState.Changes changes, Counts counts,
             RunEmbeddings vectors, Progress progress) {
        ActiveIndex active = new ActiveIndex(state, policy.duplicateJaccard());
        Map<String, List<Observation>> judgedByKey = judgedByKey(state);
        List<Candidate> candidates = new ArrayList<>(survivors.size());
        for (Observation s : survivors) {
            List<Observation> group = new ArrayList<>();
            group.add(s);
            group.addAll(lineage.absorbedInto(s));
            Set<String> groupIds = new HashSet<>();
            Instant latest = s.observedAt();
            Set<String> sessions = new LinkedHashSet<>();
            for (Observation o : group) {
                groupIds.add(o.id());
                latest = o.observedAt().isAfter(latest) ? o.observedAt() : latest;
                if (o.provenance().outcome() != Outcome.FAILED) {
                    sessions.add(session(o));
                }
            }
            List<Observation> support = new ArrayList<>();
            for (Observation o : judgedByKey.getOrDefault(LightSleep.key(s), List.of())) {
                if (groupIds.contains(o.id())) {
                    continue;
                }
                sessions.add(session(o));
                if (!lineage.absorbed(o) && !lineage.reflected(o)) {
                    support.add(o);
                }
            }
            candidates.add(new Candidate(s, group, support, latest, sessions));
        }
        candidates.sort(Comparator.comparing(Candidate::latest).thenComparing(c -> c.survivor().id()));
        int done = 0;
        for (Candidate c : candidates) {
            judge(state, c, lineage, active, changes, counts, vectors);
            progress.tick(++done, candidates.size());
        }
    }

    private void judge(UserState state, Candidate c, Lineage lineage, ActiveIndex active, UserState.Changes changes,
                       Counts counts, RunEmbeddings vectors) {
        Observation s = c.survivor();
        counts.considered++;
        if (lineage.reflected(s)) {
            // already in L4 (an imported or re-read observation): never count it twice
            settle(state, s, ObservationStatus.CONSOLIDATED, changes);
            counts.promoted++;
            return;
        }
        boolean failedOnly = c.group().stream().allMatch(o -> o.provenance().outcome() == Outcome.FAILED);
        double score = importance.of(s, c.utterances());
        boolean worthy = !failedOnly
                && (score >= policy.importanceCutoff() || c.sessions().size() >= policy.sessionsToAlwaysPromote());
        Match match = failedOnly ? Match.NEW : match(s, active, vectors, counts, worthy);
        if (match.reinforce() != null && !failedOnly
                && (worthy || importance.base(match.reinforce()) >= policy.importanceCutoff())) {
            reinforce(state, match.reinforce(), c, changes, counts, vectors);
            if (!match.contradicted().isEmpty() && Importance.authoritative(s.provenance())) {
                // the user's own words settle what the assistant or a tool had left beside it
                for (Memory m : match.contradicted()) {
                    markSuperseded(m, match.reinforce().id(), state, changes, counts);
                }
            }
        } else if (worthy) {
            Memory created = create(state, c, changes, vectors);
            active.add(created);
            if (!match.contradicted().isEmpty()) {
                supersede(state, match.contradicted(), created, c, changes, counts);
            }
        } else {
            if (settle(state, s, ObservationStatus.DISCARDED, changes)) {
                counts.discarded++; // a re-judged observation that was already discarded changes nothing
            }
            return;
        }
        settle(state, s, ObservationStatus.CONSOLIDATED, changes);
        counts.promoted++;
    }

    /**
     * Whether the single-valued survivor {@code s} (normalized value {@code value}) contradicts the
     * memory {@code m} of its subject that it does not reinforce: a positive statement replaces a
     * positive memory of another value and denies a negative one of its own value ("call me Johnny"
     * ends "does not want to be called Johnny", not "does not want to be called Jack"); a negative one
     * ends only a positive memory of its value, or of a value one of them contains ("I'm no longer a
     * teacher" ends "high school teacher"; "I don't live in Porto anymore" never ends "lives in Lisbon").
     */
    private static boolean contradicts(Observation s, Memory m, String value) {
        String other = Terms.normalizeValue(m.value());
        if (s.polarity() == Polarity.POSITIVE) {
            return m.polarity() == Polarity.POSITIVE || other.equals(value);
        }
        return m.polarity() == Polarity.POSITIVE && contains(other, value);
    }

    /** Whether the words of one normalized value appear, in order, in the other's ("new york", "new york city"). */
    private static boolean contains(String a, String b) {
        if (a.isEmpty() || b.isEmpty()) {
            return a.equals(b);
        }
        return (" " + a + " ").contains(" " + b + " ") || (" " + b + " ").contains(" " + a + " ");
    }

    /** Finds the ACTIVE memory the survivor reinforces, or the ones it contradicts. */
    private Match match(Observation s, ActiveIndex active, RunEmbeddings vectors, Counts counts, boolean askModel) {
        List<Memory> same = active.bySubject(s.subject());
        if (Text.episodic(s.subject())) {
            return episode(s, same, active, vectors, counts, askModel);
        }
        String value = Terms.normalizeValue(s.value());
        if (s.cardinality() == Cardinality.SINGLE) {
            // contradictions are collected even beside a match: what a non-authoritative source left
            // next to a memory (never superseding it) is settled once the user says it again
            Memory reinforce = null;
            List<Memory> contradicted = new ArrayList<>();
            for (Memory m : same) {
                if (reinforce == null && sameMeaning(s, m, value, vectors, counts, askModel)) {
                    reinforce = m;
                } else if (contradicts(s, m, value)) {
                    contradicted.add(m);
                }
            }
            return new Match(reinforce, contradicted);
        }
        Memory reinforce = null;
        List<Memory> opposite = new ArrayList<>();
        List<Memory> others = new ArrayList<>();
        for (Memory m : same) {
            if (!value.isEmpty() && Terms.normalizeValue(m.value()).equals(value)) {
                if (m.polarity() != s.polarity()) {
                    opposite.add(m);
                } else if (reinforce == null) {
                    reinforce = m;
                }
            } else if (m.polarity() == s.polarity() && Text.valuesMayMatch(s.value(), m.value())) {
                // two values of a many-valued subject with nothing in common are two facts (penicillin
                // and amoxicillin, two sisters), however alike their sentences
                others.add(m);
            }
        }
        if (reinforce != null || !opposite.isEmpty()) {
            return new Match(reinforce, opposite);
        }
        Set<String> terms = Terms.contentTerms(s.text());
        for (Memory m : others) {
            if (similar(s, m, terms, vectors)) {
                return new Match(m, List.of());
            }
        }
        if (askModel && judge.present()) {
            for (Memory m : closest(others, terms, 0)) {
                if (judge.sameMeaning(s.subject(), m.text(), s.text(), counts) == ModelJudge.Verdict.SAME) {
                    return new Match(m, List.of());
                }
            }
        }
        return Match.NEW;
    }

    private Match episode(Observation s, List<Memory> sameKey, ActiveIndex active, RunEmbeddings vectors, Counts counts,
                          boolean askModel) {
        for (Memory m : sameKey) {
            if (m.polarity() == s.polarity()) {
                return new Match(m, List.of());
            }
        }
        Set<String> terms = Terms.contentTerms(s.text());
        for (Memory m : active.similarEpisodes(terms)) {
            if (m.polarity() == s.polarity() && m.kind() == s.kind() && Text.sameFamily(m.subject(), s.subject())) {
                return new Match(m, List.of());
            }
        }
        float[] v = vectors.of(s);
        if (v != null) {
            for (Memory m : active.episodes()) {
                if (m.polarity() == s.polarity() && m.kind() == s.kind() && Text.sameFamily(m.subject(), s.subject())
                        && Vectors.cosineOrMinusOne(v, vectors.of(m)) >= policy.duplicateCosine()) {
                    return new Match(m, List.of());
                }
            }
        }
        if (askModel && judge.present()) {
            List<Memory> near = new ArrayList<>();
            for (Memory m : active.episodes()) {
                if (m.polarity() == s.polarity() && m.kind() == s.kind() && Text.sameFamily(m.subject(), s.subject())) {
                    near.add(m);
                }
            }
            for (Memory m : closest(near, terms, MODEL_EPISODE_JACCARD)) {
                if (judge.sameMeaning("episode", m.text(), s.text(), counts) == ModelJudge.Verdict.SAME) {
                    return new Match(m, List.of());
                }
            }
        }
        return Match.NEW;
    }

    /**
     * Same meaning under a single-valued subject: the same polarity and the same value (text
     * similarity decides only when neither has a value: two sentences that differ just in the value
     * are a contradiction, not a paraphrase); with a model, the model decides between two values.
     */
    private boolean sameMeaning(Observation s, Memory m, String value, RunEmbeddings vectors, Counts counts,
                                boolean askModel) {
        if (m.polarity() != s.polarity()) {
            return false;
        }
        String other = Terms.normalizeValue(m.value());
        if (value.equals(other)) {
            return !value.isEmpty() || similar(s, m, Terms.contentTerms(s.text()), vectors)
                    || Terms.normalizeValue(m.text()).equals(Terms.normalizeValue(s.text()));
        }
        return askModel && judge.present()
                && judge.sameMeaning(s.subject(), m.text(), s.text(), counts) == ModelJudge.Verdict.SAME;
    }

    private boolean similar(Observation s, Memory m, Set<String> terms, RunEmbeddings vectors) {
        return Terms.jaccard(terms, Terms.contentTerms(m.text())) >= policy.duplicateJaccard()
                || Vectors.cosineOrMinusOne(vectors.of(s), vectors.of(m)) >= policy.duplicateCosine();
    }

    /** The memories sharing at least {@code floor} Jaccard (and one term) with the terms, most similar first. */
    private static List<Memory> closest(List<Memory> memories, Set<String> terms, double floor) {
        List<Map.Entry<Memory, Double>> scored = new ArrayList<>();
        for (Memory m : memories) {
            double j = Terms.jaccard(terms, Terms.contentTerms(m.text()));
            if (j > 0 && j >= floor) {
                scored.add(Map.entry(m, j));
            }
        }
        scored.sort(Map.Entry.<Memory, Double>comparingByValue().reversed()
                .thenComparing(e -> e.getKey().id()));
        List<Memory> out = new ArrayList<>();
        for (int i = 0; i < scored.size() && i < MAX_MODEL_COMPARISONS; i++) {
            out.add(scored.get(i).getKey());
        }
        return out;
    }

    private void reinforce(UserState state, Memory m, Candidate c, UserState.Changes changes, Counts counts,
                           RunEmbeddings vectors) {
        Observation s = c.survivor();
        Provenance provenance = m.provenance();
        // trust is never upgraded on third-party text: when the user (or the operator) now says it
        // first-hand, the memory takes the user's own words and provenance instead of the tool's
        boolean firstHand = provenance.trust() == Trust.THIRD_PARTY && Importance.authoritative(s.provenance())
                && s.provenance().outcome() != Outcome.FAILED;
        if (firstHand) {
            provenance = s.provenance();
        }
        boolean permanent = m.permanent() || Importance.permanent(m.subject(), provenance);
        Instant last = c.latest().isAfter(m.lastReinforcedAt()) ? c.latest() : m.lastReinforcedAt();
        Memory.Builder b = m.toBuilder()
                .reinforcementCount(m.reinforcementCount() + c.utterances())
                .lastReinforcedAt(last)
                .updatedAt(state.now)
                .sourceTurnIds(union(m.sourceTurnIds(), c.turns()))
                .sourceObservationIds(union(m.sourceObservationIds(), c.ids()))
                .provenance(provenance)
                .permanent(permanent)
                .confidence(Math.max(m.confidence(), s.confidence()))
                .expiresAt(permanent ? null : later(m.expiresAt(), state.now.plus(policy.ttl(m.kind()))));
        if (firstHand) {
            b.text(s.text()).value(s.value()).embedding(vectors.forMemory(s));
        } else if (m.embedding() == null && s.embedding() != null) {
            b.embedding(s.embedding());
        }
        Memory updated = b.build();
        updated = updated.toBuilder().importance(importance.current(updated, state.now)).build();
        changes.put(updated);
        changes.event(m.id(), MemoryEventType.REINFORCED, describe(m), describe(updated), "observation " + s.id());
        counts.reinforced++;
    }

    private Memory create(UserState state, Candidate c, UserState.Changes changes, RunEmbeddings vectors) {
        Observation s = c.survivor();
        String id = Ids.memory(s.id());
        for (int n = 2; state.memory(id).isPresent(); n++) {
            id = Ids.memory(s.id() + "#" + n);
        }
        boolean permanent = Importance.permanent(s.subject(), s.provenance());
        Memory m = Memory.builder(id, state.scope, s.kind(), s.text(), state.now)
                .subject(s.subject())
                .value(s.value())
                .cardinality(s.cardinality())
                .polarity(s.polarity())
                .permanent(permanent)
                .lastReinforcedAt(c.latest())
                .reinforcementCount(c.utterances())
                .expiresAt(permanent ? null : state.now.plus(policy.ttl(s.kind())))
                .sourceObservationIds(c.ids())
                .sourceTurnIds(c.turns())
                .provenance(s.provenance())
                .confidence(s.confidence())
                .embedding(vectors.forMemory(s))
                .build();
        m = m.toBuilder().importance(importance.current(m, state.now)).build();
        changes.put(m);
        changes.event(m.id(), MemoryEventType.CREATED, null, m.text(), "observation " + s.id());
        return m;
    }

    /**
     * The newer fact wins: the contradicted memories become SUPERSEDED by {@code created}; when the
     * survivor is older than what it contradicts (a late backlog), it is the one kept only for audit.
     */
    private void supersede(UserState state, List<Memory> contradicted, Memory created, Candidate c,
                           UserState.Changes changes, Counts counts) {
        Memory newest = contradicted.get(0);
        for (Memory m : contradicted) {
            if (m.lastReinforcedAt().isAfter(newest.lastReinforcedAt())) {
                newest = m;
            }
        }
        if (c.latest().isBefore(newest.lastReinforcedAt())) {
            markSuperseded(created, newest.id(), state, changes, counts);
            return;
        }
        if (!Importance.authoritative(c.survivor().provenance())) {
            return; // only the user's own words or the operator correct a memory: both stay, each with its mark
        }
        for (Memory m : contradicted) {
            markSuperseded(m, created.id(), state, changes, counts);
        }
    }

    private static void markSuperseded(Memory m, String by, UserState state, UserState.Changes changes,
                                       Counts counts) {
        Memory current = state.memory(m.id()).orElse(m);
        changes.put(current.toBuilder().status(MemoryStatus.SUPERSEDED).supersededBy(by).updatedAt(state.now).build());
        changes.event(m.id(), MemoryEventType.SUPERSEDED, current.text(),
                state.memory(by).map(Memory::text).orElse(null), "contradicted by " + by);
        counts.superseded++;
    }

    /**
     * Sets the judged status (and time) unless the observation already has it, so a re-judgement
     * changes nothing; returns whether it changed.
     */
    private static boolean settle(UserState state, Observation s, ObservationStatus status,
                                  UserState.Changes changes) {
        Observation current = state.observation(s.id());
        if (current.status() == status) {
            return false;
        }
        changes.put(current.withStatus(status, state.now));
        return true;
    }

    /**
     * Earlier, already judged observations by what they said (same kind, subject, polarity and
     * value), excluding those from failed runs. Judged observations stay in L3 until pruned, so
     * support accumulates across nightly cycles within the retention period.
     */
    private static Map<String, List<Observation>> judgedByKey(UserState state) {
        Map<String, List<Observation>> out = new HashMap<>();
        for (Observation o : state.observations()) {
            if (o.status() == ObservationStatus.PENDING || o.kind() == MemoryKind.STYLE
                    || o.provenance().outcome() == Outcome.FAILED) {
                continue;
            }
            out.computeIfAbsent(LightSleep.key(o), k -> new ArrayList<>()).add(o);
        }
        return out;
    }

    private static String session(Observation o) {
        return o.sessionId() != null ? o.sessionId() : "observation:" + o.id();
    }

    private static List<String> union(List<String> a, List<String> b) {
        Set<String> out = new LinkedHashSet<>(a);
        out.addAll(b);
        return List.copyOf(out);
    }

    private static Instant later(Instant a, Instant b) {
        return a == null || b.isAfter(a) ? b : a;
    }

    private static String describe(Memory m) {
        return String.format(Locale.ROOT, "reinforcement=%d importance=%.2f", m.reinforcementCount(), m.importance());
    }

    /**
     * The ACTIVE non-synthesis memories of one user, by subject and (for episodic fallbacks) by text,
     * kept current as deep sleep creates, reinforces and supersedes (ids resolve through the state,
     * which always holds the latest version, and only ACTIVE ones are returned). Not thread-safe.
     */
    private static final class ActiveIndex {
        private final UserState state;
        private final Map<String, List<String>> bySubject = new HashMap<>();
        private final List<String> episodes = new ArrayList<>();
        private final SimilarityIndex<String> episodeText;

        ActiveIndex(UserState state, double threshold) {
            this.state = state;
            this.episodeText = new SimilarityIndex<>(threshold);
            for (Memory m : state.active()) {
                add(m);
            }
        }

        void add(Memory m) {
            if (m.kind() == MemoryKind.SYNTHESIS || m.status() != MemoryStatus.ACTIVE) {
                return;
            }
            bySubject.computeIfAbsent(m.subject(), k -> new ArrayList<>()).add(m.id());
            if (Text.episodic(m.subject())) {
                episodes.add(m.id());
                episodeText.add(m.id(), Terms.contentTerms(m.text()));
            }
        }

        List<Memory> bySubject(String subject) {
            return resolve(bySubject.getOrDefault(subject, List.of()));
        }

        List<Memory> episodes() {
            return resolve(episodes);
        }

        List<Memory> similarEpisodes(Set<String> terms) {
            return resolve(episodeText.similar(terms));
        }

        private List<Memory> resolve(List<String> ids) {
            List<Memory> out = new ArrayList<>(ids.size());
            for (String id : ids) {
                state.memory(id).filter(m -> m.status() == MemoryStatus.ACTIVE).ifPresent(out::add);
            }
            return out;
        }
    }
}
