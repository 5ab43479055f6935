package dev.reverie;

import dev.reverie.spi.Embedder;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.Scored;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.TurnRange;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds and ranks the memories for a query (DESIGN §5): lexical candidates from the store (and
 * vector candidates when an {@link Embedder} is set) among durable memories, pending observations
 * and the verbatim turns of past sessions (episodic recall), fused by reciprocal rank into a
 * relevance in [0, 1]; then
 * {@code score = wRel·relevance + wImp·importance/100 + wRec·recency}, times the trust factor;
 * then maximal marginal relevance for diversity. A candidate with zero relevance is never
 * returned. Stateless apart from its configuration (and a process-wide cache of term sets);
 * thread-safe.
 */
final class Retriever {

    private final MemoryStore store;
    private final MemoryPolicy policy;
    private final Embedder embedder;

    Retriever(MemoryStore store, MemoryPolicy policy, Embedder embedder) {
        this.store = store;
        this.policy = policy;
        this.embedder = embedder;
    }

    /**
     * The ranked, diversified candidates for {@code query}, best first, at most {@code limit}.
     *
     * @param queryVector    the query's embedding, or {@code null} for lexical retrieval only
     * @param currentSession observations of this session are left out (the TEMPORAL layer holds that
     *                       session already), or {@code null}
     */
    List<ScoredCandidate> retrieve(Scope scope, String query, float[] queryVector, Set<MemoryKind> kinds,
                                          boolean includeDeprecated, boolean includeObservations,
                                          String currentSession, Instant now, int limit) {
        return retrieve(scope, query, queryVector, kinds, includeDeprecated, includeObservations,
                policy.episodicRecall(), currentSession, 0, now, limit, Integer.MAX_VALUE);
    }

    /**
     * As {@link #retrieve(Scope, String, float[], Set, boolean, boolean, String, Instant, int)}, with
     * the verbatim turns of past sessions competing too when {@code includeTurns}: turns said before
     * the policy's retention are never returned, nor turns of {@code currentSession} from
     * {@code currentSessionFromSeq} on (the TEMPORAL layer holds those verbatim). Neighbours of a
     * strongly matching turn join the ranking just below it. {@code tokenBudget} bounds the
     * diversification to what can fit ({@code Integer.MAX_VALUE}: no bound). With turns and the
     * policy's {@code quoteSourceTurns}, the source turns of picked memories derived from one turn
     * follow the picks (see {@link #withSourceTurns}), so the result may hold more than {@code limit}.
     */
    List<ScoredCandidate> retrieve(Scope scope, String query, float[] queryVector, Set<MemoryKind> kinds,
                                          boolean includeDeprecated, boolean includeObservations,
                                          boolean includeTurns, String currentSession, long currentSessionFromSeq,
                                          Instant now, int limit, int tokenBudget) {
        if (limit <= 0 || query == null || query.isBlank()) {
            return List.of();
        }
        Set<MemoryStatus> statuses = includeDeprecated
                ? EnumSet.of(MemoryStatus.ACTIVE, MemoryStatus.DEPRECATED) : EnumSet.of(MemoryStatus.ACTIVE);
        int n = policy.candidateLimit();
        List<List<Candidate>> lexical = new ArrayList<>();
        List<List<Candidate>> vector = new ArrayList<>();
        // vector hits above the policy's similarity floor: every vector is somebody's nearest neighbour
        double floor = policy.minVectorSimilarity();
        lexical.add(memories(store.searchMemories(scope, query, statuses, kinds, n), now));
        if (queryVector != null) {
            vector.add(memories(store.searchMemoriesByVector(scope, queryVector, statuses, n, floor), now));
        }
        if (includeObservations) {
            Set<ObservationStatus> pending = EnumSet.of(ObservationStatus.PENDING);
            lexical.add(observations(store.searchObservations(scope, query, pending, n), kinds, currentSession));
            if (queryVector != null) {
                vector.add(observations(store.searchObservationsByVector(scope, queryVector, pending, n, floor), kinds,
                        currentSession));
            }
        }
        boolean turns = includeTurns && kinds.contains(MemoryKind.EVENT);
        Instant retainedFrom = now.minus(policy.turnRetention());
        if (turns) {
            lexical.add(turns(store.searchTurns(scope, query, n), currentSession, currentSessionFromSeq, retainedFrom));
            if (queryVector != null) {
                vector.add(longEnough(turns(store.searchTurnsByVector(scope, queryVector, n, floor), currentSession,
                        currentSessionFromSeq, retainedFrom)));
            }
        }
        List<QueryDates.When> dates = policy.dateMatchBoost() > 0 ? QueryDates.of(query, now) : List.of();
        List<ScoredCandidate> scored = score(fuse(List.of(lexical, vector)), now, dates);
        if (turns && policy.neighbourTurns() > 0) {
            scored = withNeighbours(scope, scored, currentSession, currentSessionFromSeq, retainedFrom);
        }
        List<ScoredCandidate> picked = diversify(scored, limit, tokenBudget);
        return turns && policy.quoteSourceTurns() ? withSourceTurns(picked, scored) : picked;
    }

    /**
     * The picks, then the verbatim source turns of the picked memories and observations derived
     * from one turn, when that turn was found but not picked (diversity often keeps a sentence and
     * drops the turn it came from, as they share most words): the packer quotes a memory as its
     * turn only when it has the turn, and the turn carries the memory plus the words around it.
     */
    private static List<ScoredCandidate> withSourceTurns(List<ScoredCandidate> picked, List<ScoredCandidate> scored) {
        // the picks' source turns by turn id (a turn key is built only for a turn whose id is one of them)
        Map<String, List<String>> wanted = null;
        for (ScoredCandidate sc : picked) {
            String key = sc.candidate().sourceTurnKey();
            if (key != null) {
                if (wanted == null) {
                    wanted = new java.util.HashMap<>();
                }
                wanted.computeIfAbsent(sc.candidate().sourceTurnIds().get(0), k -> new ArrayList<>(1)).add(key);
            }
        }
        if (wanted == null) {
            return picked;
        }
        Map<String, ScoredCandidate> found = new java.util.HashMap<>();
        for (ScoredCandidate sc : scored) {
            Candidate c = sc.candidate();
            if (c.episode()) {
                List<String> keys = wanted.get(c.turn().turnId());
                if (keys != null) {
                    String key = c.turnKey();
                    if (keys.contains(key)) {
                        found.putIfAbsent(key, sc);
                    }
                }
            }
        }
        if (found.isEmpty()) {
            return picked;
        }
        Set<String> have = new HashSet<>();
        for (ScoredCandidate sc : picked) {
            Candidate c = sc.candidate();
            if (c.episode() && wanted.containsKey(c.turn().turnId())) {
                have.add(c.turnKey());
            }
        }
        List<ScoredCandidate> out = new ArrayList<>(picked);
        for (ScoredCandidate sc : picked) {
            String key = sc.candidate().sourceTurnKey();
            ScoredCandidate turn = key == null ? null : found.get(key);
            if (turn != null && have.add(key)) {
                out.add(turn);
            }
        }
        return out;
    }

    /**
     * A neighbour before its anchor turn scores this share of one after it: both get the anchor's
     * score times {@link MemoryPolicy#neighbourDiscount}, and the turn before it this much less. Of
     * two turns that fit once, the reply is packed (LoCoMo dev, lexical default at 1,000 tokens: word
     * coverage 78.6 → 79.4 %, recall 78.9 → 79.7 %; 0.9 gained less, 0.6 lost at 2,000 tokens).
     */
    static final double BEFORE_ANCHOR = 0.8;

    private List<ScoredCandidate> withNeighbours(Scope scope, List<ScoredCandidate> scored, String currentSession,
                                                 long currentSessionFromSeq, Instant retainedFrom) {
        int w = policy.neighbourTurns();
        List<ScoredCandidate> anchors = new ArrayList<>();
        List<TurnRange> ranges = new ArrayList<>();
        for (ScoredCandidate sc : scored) {
            if (anchors.size() >= policy.neighbourAnchors()) {
                break;
            }
            Candidate c = sc.candidate();
            if (!c.episode() || sc.relevance() < policy.neighbourMinRelevance()) {
                continue;
            }
            anchors.add(sc);
            SessionTurn t = c.turn();
            ranges.add(new TurnRange(t.sessionId(), Math.max(0, t.seq() - w),
                    t.seq() > Long.MAX_VALUE - w ? Long.MAX_VALUE : t.seq() + w));
        }
        if (anchors.isEmpty()) {
            return scored;
        }
        // a neighbour the search found on its own (often only through a shared word such as a
        // speaker's name) keeps the higher of its own score and the one its anchor gives it
        Map<String, Integer> present = new java.util.HashMap<>();
        for (int i = 0; i < scored.size(); i++) {
            present.putIfAbsent(scored.get(i).candidate().id(), i);
        }
        List<ScoredCandidate> out = new ArrayList<>(scored);
        boolean changed = false;
        // the windows' turns the searches found are known; the others come in one read; then each
        // anchor takes its window in seq order
        Map<String, java.util.TreeMap<Long, SessionTurn>> bySession = new java.util.HashMap<>();
        for (TurnRange r : ranges) {
            bySession.putIfAbsent(r.sessionId(), new java.util.TreeMap<>());
        }
        for (ScoredCandidate sc : scored) {
            if (sc.candidate().episode()) {
                SessionTurn t = sc.candidate().turn();
                java.util.TreeMap<Long, SessionTurn> session = bySession.get(t.sessionId());
                if (session != null) {
                    session.putIfAbsent(t.seq(), t);
                }
            }
        }
        List<TurnRange> unknown = unknownParts(ranges, bySession);
        if (!unknown.isEmpty()) {
            for (SessionTurn nb : store.archivedTurns(scope, unknown)) {
                bySession.computeIfAbsent(nb.sessionId(), k -> new java.util.TreeMap<>()).put(nb.seq(), nb);
            }
        }
        for (int a = 0; a < anchors.size(); a++) {
            ScoredCandidate sc = anchors.get(a);
            SessionTurn t = sc.candidate().turn();
            TurnRange range = ranges.get(a);
            java.util.TreeMap<Long, SessionTurn> session = bySession.get(t.sessionId());
            if (session == null) {
                continue;
            }
            for (SessionTurn nb : session.subMap(range.fromSeq(), true, range.toSeq(), true).values()) {
                if (nb.seq() == t.seq() || !keep(nb, currentSession, currentSessionFromSeq, retainedFrom)) {
                    continue;
                }
                Candidate nc = Candidate.of(nb, policy.episodeImportance());
                // the neighbour's own trust, not its anchor's: a tool reply next to a user turn stays marked
                double trust = nc.provenance().trust() == Trust.THIRD_PARTY ? policy.thirdPartyFactor() : 1.0;
                double untrusted = sc.trustFactor() > 0 ? sc.score() / sc.trustFactor() : 0;
                // a reply carries the answer to a matching question more often than the turn before it
                double d = policy.neighbourDiscount() * (nb.seq() < t.seq() ? BEFORE_ANCHOR : 1.0);
                ScoredCandidate boosted = new ScoredCandidate(nc, untrusted * trust * d, sc.relevance() * d,
                        sc.recency(), trust);
                Integer at = present.get(nc.id());
                if (at == null) {
                    present.put(nc.id(), out.size());
                    out.add(boosted);
                    changed = true;
                } else if (out.get(at).score() < boosted.score()) {
                    ScoredCandidate own = out.get(at); // its own recency: only the score comes from the anchor
                    out.set(at, new ScoredCandidate(own.candidate(), boosted.score(),
                            Math.max(own.relevance(), boosted.relevance()), own.recency(), trust));
                    changed = true;
                }
            }
        }
        if (!changed) {
            return scored;
        }
        out.sort(BY_SCORE_THEN_ID);
        return out;
    }

    /**
     * The vector hits among past turns with at least {@link MemoryPolicy#minVectorTurnTerms} distinct
     * content words (counted on the term sets diversification caches and compares anyway).
     */
    private List<Candidate> longEnough(List<Candidate> turns) {
        int min = policy.minVectorTurnTerms();
        if (min == 0) {
            return turns;
        }
        List<Candidate> out = new ArrayList<>(turns.size());
        for (Candidate c : turns) {
            if (TERM_SETS.of(c.text()).length >= min) {
                out.add(c);
            }
        }
        return out;
    }

    /**
     * What of {@code ranges} must be read, given the turns {@code known} (by session, then seq): each
     * range trimmed to its first and last seq not known (dropped when it holds none), then overlapping
     * or adjacent ranges of a session merged. At most one range per given range, as a store query
     * grows with them (Lucene refuses a few hundred nested clauses); a known turn between two missing
     * ones is read again, which costs less than another range.
     */
    static List<TurnRange> unknownParts(List<TurnRange> ranges, Map<String, java.util.TreeMap<Long, SessionTurn>> known) {
        Map<String, List<TurnRange>> bySession = new LinkedHashMap<>();
        for (TurnRange r : ranges) {
            java.util.TreeMap<Long, SessionTurn> have = known.getOrDefault(r.sessionId(), EMPTY_SESSION);
            long span = r.toSeq() - r.fromSeq(); // both non-negative: no overflow
            long first = -1;
            long last = -1;
            for (long k = 0; k <= span; k++) {
                long seq = r.fromSeq() + k;
                if (!have.containsKey(seq)) {
                    if (first < 0) {
                        first = seq;
                    }
                    last = seq;
                }
            }
            if (first >= 0) {
                bySession.computeIfAbsent(r.sessionId(), x -> new ArrayList<>())
                        .add(new TurnRange(r.sessionId(), first, last));
            }
        }
        List<TurnRange> out = new ArrayList<>();
        for (List<TurnRange> session : bySession.values()) {
            session.sort(Comparator.comparingLong(TurnRange::fromSeq));
            TurnRange open = null;
            for (TurnRange r : session) {
                if (open != null && r.fromSeq() - 1 <= open.toSeq()) {
                    open = new TurnRange(open.sessionId(), open.fromSeq(), Math.max(open.toSeq(), r.toSeq()));
                } else {
                    if (open != null) {
                        out.add(open);
                    }
                    open = r;
                }
            }
            out.add(open);
        }
        return out;
    }

    private static final java.util.TreeMap<Long, SessionTurn> EMPTY_SESSION = new java.util.TreeMap<>();

    private List<Candidate> turns(List<Scored<SessionTurn>> hits, String currentSession, long currentSessionFromSeq,
                                  Instant retainedFrom) {
        List<Candidate> out = new ArrayList<>(hits.size());
        for (Scored<SessionTurn> h : hits) {
            if (keep(h.item(), currentSession, currentSessionFromSeq, retainedFrom)) {
                out.add(Candidate.of(h.item(), policy.episodeImportance()));
            }
        }
        return out;
    }

    private static boolean keep(SessionTurn t, String currentSession, long currentSessionFromSeq,
                                Instant retainedFrom) {
        if (t.at().isBefore(retainedFrom)) {
            return false;
        }
        return currentSession == null || !currentSession.equals(t.sessionId()) || t.seq() < currentSessionFromSeq;
    }

    private static List<Candidate> memories(List<Scored<dev.reverie.Memory>> hits, Instant now) {
        List<Candidate> out = new ArrayList<>(hits.size());
        for (Scored<dev.reverie.Memory> h : hits) {
            if (!h.item().expired(now)) {
                out.add(Candidate.of(h.item()));
            }
        }
        return out;
    }

    private static List<Candidate> observations(List<Scored<dev.reverie.Observation>> hits, Set<MemoryKind> kinds,
                                                String currentSession) {
        List<Candidate> out = new ArrayList<>(hits.size());
        for (Scored<dev.reverie.Observation> h : hits) {
            if (kinds.contains(h.item().kind())
                    && (currentSession == null || !currentSession.equals(h.item().sessionId()))) {
                out.add(Candidate.of(h.item()));
            }
        }
        return out;
    }

    /**
     * Reciprocal-rank fusion over retrieval modes (lexical, vector). Within a mode, the lists cover
     * disjoint candidates (memories, observations), so each candidate has one rank per mode. The sum
     * is normalized so that first place in every mode that returned anything scores 1. The pairs come
     * in first-found order; they are not a map keyed by candidate, as hashing a candidate hashes its
     * whole record (text, provenance, source turns), which was 7 % of a LoCoMo {@code buildContext}.
     */
    List<Map.Entry<Candidate, Double>> fuse(List<List<List<Candidate>>> modes) {
        int k = policy.rrfK();
        int usedModes = 0;
        int total = 0;
        for (List<List<Candidate>> mode : modes) {
            for (List<Candidate> list : mode) {
                total += list.size();
            }
        }
        // one map from id to first-found position; the sums in an array (no boxed partial sums)
        Map<String, Integer> at = new java.util.HashMap<>(Math.max(16, total * 2));
        List<Candidate> first = new ArrayList<>(total);
        double[] sums = new double[total];
        for (List<List<Candidate>> mode : modes) {
            boolean used = false;
            for (List<Candidate> list : mode) {
                for (int rank = 0; rank < list.size(); rank++) {
                    Candidate c = list.get(rank);
                    Integer i = at.putIfAbsent(c.id(), first.size());
                    if (i == null) {
                        i = first.size();
                        first.add(c);
                    }
                    sums[i] += 1.0 / (k + rank + 1);
                    used = true;
                }
            }
            if (used) {
                usedModes++;
            }
        }
        List<Map.Entry<Candidate, Double>> out = new ArrayList<>(first.size());
        double best = (double) usedModes / (k + 1);
        for (int i = 0; i < first.size(); i++) {
            out.add(Map.entry(first.get(i), Math.min(1.0, sums[i] / best)));
        }
        return out;
    }

    List<ScoredCandidate> score(List<Map.Entry<Candidate, Double>> relevance, Instant now) {
        return score(relevance, now, List.of());
    }

    /**
     * As {@link #score(List, Instant)}, with the candidates said on a day or in a month of {@code dates}
     * (the dates the query names) scoring {@code 1 + dateMatchBoost} times as high.
     */
    List<ScoredCandidate> score(List<Map.Entry<Candidate, Double>> relevance, Instant now,
                                List<QueryDates.When> dates) {
        double dateBoost = policy.dateMatchBoost();
        List<ScoredCandidate> out = new ArrayList<>(relevance.size());
        double halfLifeMs = policy.recencyHalfLife().toMillis();
        for (Map.Entry<Candidate, Double> e : relevance) {
            Candidate c = e.getKey();
            double rel = e.getValue();
            if (rel <= 0) {
                continue;
            }
            long ageMs = Math.max(0, Duration.between(c.lastSeen(), now).toMillis());
            double recency = Math.pow(0.5, ageMs / halfLifeMs);
            double trust = 1.0;
            if (c.provenance().trust() == Trust.THIRD_PARTY) {
                trust *= policy.thirdPartyFactor();
            }
            if (c.provenance().outcome() == Outcome.FAILED) {
                trust *= policy.failedFactor();
            }
            double s = (policy.relevanceWeight() * rel + policy.importanceWeight() * c.importance() / 100.0
                    + policy.recencyWeight() * recency) * trust;
            if (!dates.isEmpty() && QueryDates.covers(dates, c.provenance().observedAt())) {
                s *= 1 + dateBoost;
            }
            out.add(new ScoredCandidate(c, s, rel, recency, trust));
        }
        out.sort(BY_SCORE_THEN_ID);
        return out;
    }

    /**
     * Maximal marginal relevance: trade score against similarity to what is already chosen. Each
     * candidate's highest similarity to the chosen set is kept up to date as picks are made, so a
     * pair's similarity is computed once.
     *
     * <p>Diversity is measured on words (Jaccard of term sets) for every candidate, with or without
     * an embedder: sentence embeddings of one conversation's turns are close across a whole topic, so
     * a cosine-based MMR held back the evidence that shares a topic with a pick (LoCoMo, hybrid, 2,000
     * tokens: recall 87.5 % with cosine, 88.1 % with words; docs/benchmarks.md), and shared words are
     * cheaper to count than a 384-dimensional cosine.
     */
    List<ScoredCandidate> diversify(List<ScoredCandidate> ranked, int limit) {
        return diversify(ranked, limit, Integer.MAX_VALUE);
    }

    /**
     * MMR bounded by what can still fit: picking stops once the picks' estimated tokens reach
     * {@link #OVERPICK} times {@code tokenBudget} (the packer skips what does not fit, so it gets a
     * margin), which keeps the cost proportional to the budget, not to the candidates found.
     *
     * <p>Two ways to the same picks, chosen by how many picks the budget is expected to hold (at least
     * {@link #INDEX_FROM_PICKS}: the index). The lazy greedy of {@link #diversifyPairwise} compares a
     * candidate with the picks only when it reaches the top, which is cheap while picks are few. With
     * many picks (4,000-token LoCoMo contexts: 160 of 260 candidates) its pairwise merges took 1.5 ms
     * of a call; {@link #diversifyIndexed} builds an inverted index of the pool's terms, and each pick
     * visits only the candidates sharing a term with it, which gives every intersection with the pick
     * at once (the others' Jaccard is 0 and leaves their highest similarity as it was). Either way the
     * next pick is the highest {@code lambda * score - (1 - lambda) * maxSim}, ties to the earlier
     * ranked: the picks of the textbook definition, to the bit (same integers, same arithmetic), for
     * the finite, non-negative scores {@link #score} gives.
     */
    List<ScoredCandidate> diversify(List<ScoredCandidate> ranked, int limit, int tokenBudget) {
        int n = ranked.size();
        long budget = tokenBudget == Integer.MAX_VALUE ? Long.MAX_VALUE : (long) (OVERPICK * tokenBudget);
        if (n == 0 || limit <= 0) {
            return new ArrayList<>();
        }
        long lines = 0;
        for (ScoredCandidate sc : ranked) {
            lines += estimatedTokens(sc.candidate());
        }
        // the picks expected: as many as the budget holds of lines of the pool's average length
        double picks = Math.min(Math.min(limit, n), budget == Long.MAX_VALUE ? n : budget / ((double) lines / n) + 1);
        return picks < INDEX_FROM_PICKS ? diversifyPairwise(ranked, limit, budget) : diversifyIndexed(ranked, limit, budget);
    }

    /**
     * From how many expected picks the inverted index ({@link TermIndex}) beats pairwise comparisons:
     * building it takes the term sets of the whole pool (LoCoMo, 320 candidates: ~0.26 ms, most of it
     * hashing texts for the term-set cache), where pairwise comparisons take those of the candidates
     * that reach the top. Mean diversification per call on LoCoMo (lexical and hybrid, no dream):
     * 17 picks 0.12 ms pairwise / 0.39 ms indexed; 36 picks 0.15 / 0.37; 77 picks 0.44 / 0.45;
     * 160 picks 1.49 / 0.61.
     */
    static final int INDEX_FROM_PICKS = 80;

    List<ScoredCandidate> diversifyIndexed(List<ScoredCandidate> ranked, int limit, long budget) {
        double lambda = policy.mmrLambda();
        int n = ranked.size();
        // each candidate's lambda * score, read on every pick (the same product each time)
        double[] weighted = new double[n];
        for (int c = 0; c < n; c++) {
            weighted[c] = lambda * ranked.get(c).score();
        }
        List<ScoredCandidate> chosen = new ArrayList<>();
        TermIndex index = new TermIndex(ranked);
        double[] maxSim = new double[n];
        boolean[] picked = new boolean[n];
        int[] shared = new int[n];
        int[] touched = new int[n];
        long estimated = 0;
        while (chosen.size() < limit && estimated < budget) {
            int best = -1;
            double bestValue = 0;
            for (int c = 0; c < n; c++) {
                if (!picked[c]) {
                    double value = weighted[c] - (1 - lambda) * maxSim[c];
                    if (best < 0 || value > bestValue) {
                        best = c;
                        bestValue = value;
                    }
                }
            }
            if (best < 0) {
                break;
            }
            picked[best] = true;
            chosen.add(ranked.get(best));
            estimated += estimatedTokens(ranked.get(best).candidate());
            index.share(best, picked, shared, touched, maxSim);
        }
        return chosen;
    }

    /**
     * The same picks by lazy greedy over pairwise similarities: a candidate's value only falls as
     * picks are added, so its similarity to the picks made since it was last looked at is computed
     * only when it reaches the top of the heap. Cheaper than {@link TermIndex} when few picks are made
     * (most candidates never get a term set).
     */
    List<ScoredCandidate> diversifyPairwise(List<ScoredCandidate> ranked, int limit, long budget) {
        double lambda = policy.mmrLambda();
        int n = ranked.size();
        // term sets are built on first comparison: most candidates never reach the top of the heap
        TermSets terms = new TermSets(ranked);
        // lazy greedy: a candidate's MMR value only falls as picks are added, so its similarity to the
        // picks made since it was last looked at is computed only when it reaches the top of the heap;
        // ties go to the earlier-ranked candidate, exactly as a full scan would choose
        double[] maxSim = new double[n];
        int[] seen = new int[n];
        double[] value = new double[n];
        java.util.PriorityQueue<Integer> heap = new java.util.PriorityQueue<>(Math.max(1, n), (a, b) -> {
            int byValue = Double.compare(value[b], value[a]);
            return byValue != 0 ? byValue : Integer.compare(a, b);
        });
        for (int c = 0; c < n; c++) {
            value[c] = lambda * ranked.get(c).score();
            heap.add(c);
        }
        long estimated = 0;
        List<Integer> picks = new ArrayList<>();
        List<ScoredCandidate> chosen = new ArrayList<>();
        while (!heap.isEmpty() && chosen.size() < limit && estimated < budget) {
            int top = heap.poll();
            if (seen[top] < picks.size()) {
                // once its value falls behind the next in heap order it cannot be picked this round: the
                // remaining picks are compared when it next reaches the top (its value stays an upper
                // bound, so the picks are the same as with every similarity computed at once)
                Integer next = heap.peek();
                double score = ranked.get(top).score();
                for (int p = seen[top]; p < picks.size(); p++) {
                    int pick = picks.get(p);
                    maxSim[top] = Math.max(maxSim[top], similarity(terms, top, pick));
                    seen[top] = p + 1;
                    value[top] = lambda * score - (1 - lambda) * maxSim[top];
                    if (next != null && heap.comparator().compare(next, top) < 0) {
                        break;
                    }
                }
                heap.add(top);
                continue;
            }
            picks.add(top);
            chosen.add(ranked.get(top));
            estimated += estimatedTokens(ranked.get(top).candidate());
        }
        return chosen;
    }

    /**
     * The candidates' term sets as sorted arrays of 64-bit term hashes, looked up when first asked
     * for, so each similarity is a merge, not hashing. Not thread-safe: one per diversification.
     */
    private static final class TermSets {
        private final List<ScoredCandidate> ranked;
        private final long[][] terms;

        TermSets(List<ScoredCandidate> ranked) {
            this.ranked = ranked;
            this.terms = new long[ranked.size()][];
        }

        long[] of(int c) {
            long[] ids = terms[c];
            if (ids == null) {
                ids = TERM_SETS.of(ranked.get(c).candidate().text());
                terms[c] = ids;
            }
            return ids;
        }
    }

    private static double similarity(TermSets terms, int ia, int ib) {
        return TermSetCache.jaccard(terms.of(ia), terms.of(ib));
    }

    /**
     * The pool's term sets as dense term numbers, with each term's candidates (postings), both as
     * flat arrays (one allocation each, not one per candidate and term). Built from the cached
     * term-hash sets ({@link TermSetCache}): two candidates share a term exactly when their sets share
     * its hash. Not thread-safe: one per diversification.
     */
    private static final class TermIndex {
        /** Candidate c's term numbers are {@code terms[termStart[c]]} to {@code terms[termStart[c + 1] - 1]}. */
        private final int[] termStart;
        private final int[] terms;
        /**
         * Term t's unpicked candidates are {@code posted[postStart[t]]} to {@code posted[postEnd[t] - 1]}
         * (a pick leaves the postings of its terms, so later picks visit only candidates that can still
         * be picked); {@code postedAt[j]} is the position in {@link #terms} of the term of
         * {@code posted[j]}, and {@code postPosition[k]} where term position k sits in {@link #posted}.
         */
        private final int[] postStart;
        private final int[] postEnd;
        private final int[] posted;
        private final int[] postedAt;
        private final int[] postPosition;

        TermIndex(List<ScoredCandidate> ranked) {
            int n = ranked.size();
            long[][] hashes = new long[n][];
            int total = 0;
            for (int c = 0; c < n; c++) {
                hashes[c] = TERM_SETS.of(ranked.get(c).candidate().text());
                total += hashes[c].length;
            }
            // open addressing from term hash to number, at most half full; the slot mixes the hash with
            // a per-process seed, so words crafted to share a slot offline cannot make probing quadratic
            int bits = 32 - Integer.numberOfLeadingZeros(Math.max(4, total * 2) - 1);
            long[] keys = new long[1 << bits];
            int[] numbers = new int[1 << bits];
            java.util.Arrays.fill(numbers, -1);
            int mask = (1 << bits) - 1;
            termStart = new int[n + 1];
            terms = new int[total];
            int distinct = 0;
            int at = 0;
            for (int c = 0; c < n; c++) {
                termStart[c] = at;
                for (long h : hashes[c]) {
                    int slot = (int) (((h ^ SLOT_SEED) * 0x9E37_79B9_7F4A_7C15L) >>> (64 - bits));
                    while (numbers[slot] >= 0 && keys[slot] != h) {
                        slot = (slot + 1) & mask;
                    }
                    if (numbers[slot] < 0) {
                        keys[slot] = h;
                        numbers[slot] = distinct++;
                    }
                    terms[at++] = numbers[slot];
                }
            }
            termStart[n] = at;
            postStart = new int[distinct + 1];
            for (int k = 0; k < total; k++) {
                postStart[terms[k] + 1]++;
            }
            for (int t = 0; t < distinct; t++) {
                postStart[t + 1] += postStart[t];
            }
            posted = new int[total];
            postedAt = new int[total];
            postPosition = new int[total];
            int[] fill = java.util.Arrays.copyOf(postStart, distinct);
            for (int c = 0; c < n; c++) {
                for (int k = termStart[c]; k < termStart[c + 1]; k++) {
                    int j = fill[terms[k]]++;
                    posted[j] = c;
                    postedAt[j] = k;
                    postPosition[k] = j;
                }
            }
            postEnd = java.util.Arrays.copyOfRange(postStart, 1, distinct + 1);
        }

        /**
         * Raises each unpicked candidate's highest similarity to its Jaccard with the new pick
         * {@code p}, which first leaves its terms' postings: shared terms counted over those postings
         * ({@code shared} and {@code touched} are scratch arrays of the pool's size, {@code shared} all
         * zero between calls). Two empty sets are identical (Jaccard 1), as {@link TermSetCache#jaccard}
         * has them. Called once for each pick, in picking order.
         */
        void share(int p, boolean[] picked, int[] shared, int[] touched, double[] maxSim) {
            int size = termStart[p + 1] - termStart[p];
            // the pick leaves its terms' postings: the last of each segment takes its place (a term set
            // holds a term once, so the pick sits once in each)
            for (int k = termStart[p]; k < termStart[p + 1]; k++) {
                int t = terms[k];
                int at = postPosition[k];
                int last = --postEnd[t];
                if (at != last) {
                    posted[at] = posted[last];
                    postedAt[at] = postedAt[last];
                    postPosition[postedAt[at]] = at;
                }
            }
            int seen = 0;
            for (int k = termStart[p]; k < termStart[p + 1]; k++) {
                int t = terms[k];
                for (int j = postStart[t]; j < postEnd[t]; j++) {
                    int c = posted[j];
                    if (shared[c]++ == 0) {
                        touched[seen++] = c;
                    }
                }
            }
            for (int k = 0; k < seen; k++) {
                int c = touched[k];
                int inter = shared[c];
                shared[c] = 0;
                double sim = (double) inter / (termStart[c + 1] - termStart[c] + size - inter);
                if (sim > maxSim[c]) {
                    maxSim[c] = sim;
                }
            }
            if (size == 0) {
                for (int c = 0; c + 1 < termStart.length; c++) {
                    if (!picked[c] && termStart[c + 1] == termStart[c]) {
                        maxSim[c] = 1.0;
                    }
                }
            }
        }
    }

    /** Mixed into {@link TermIndex}'s slots, fixed per process. */
    private static final long SLOT_SEED = new java.security.SecureRandom().nextLong();

    /** Term sets of texts seen recently: the same memories and turns come back call after call. */
    private static final TermSetCache TERM_SETS = new TermSetCache(1 << 15);

    /**
     * Highest score first, ties by candidate id: {@code comparingDouble(score).reversed()
     * .thenComparing(id)} written as one comparator.
     */
    private static final Comparator<ScoredCandidate> BY_SCORE_THEN_ID = (a, b) -> {
        int byScore = Double.compare(b.score(), a.score());
        return byScore != 0 ? byScore : a.candidate().id().compareTo(b.candidate().id());
    };

    /** How far past the token budget MMR keeps picking, for the packer to choose among. */
    static final double OVERPICK = 1.5;

    /** A cheap upper-side estimate of a candidate's line: ~4 characters a token plus the line's dressing. */
    private static int estimatedTokens(Candidate c) {
        return c.text().length() / 4 + 8;
    }

}
