package dev.reverie;

import dev.reverie.internal.Checks;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * Every threshold of context assembly, the dream cycle, forgetting and health alerts, with the
 * defaults of the design (DESIGN §5–§10). Immutable and thread-safe; build a changed copy with
 * {@link #toBuilder()}. Each setter validates its value and names it when it is wrong
 * ({@link IllegalArgumentException}); rules that span fields (the score weights sum to 1, the forget
 * floor is not above the cutoff) are checked in {@link Builder#build()}, which throws
 * {@link ConfigurationException}. The dream's importance table is a part of its own,
 * {@link #importanceSignals()}.
 */
public final class MemoryPolicy {

    private final double relevanceWeight;
    private final double importanceWeight;
    private final double recencyWeight;
    private final double thirdPartyFactor;
    private final double failedFactor;
    private final Duration recencyHalfLife;
    private final int rrfK;
    private final double mmrLambda;
    private final int topK;
    private final int candidateLimit;
    private final double persistentShare;
    private final double pinnedShare;
    private final int recentTurns;
    private final double compactionThreshold;
    private final boolean observationRecall;
    private final ImportanceSignals importanceSignals;
    private final double importanceCutoff;
    private final int sessionsToAlwaysPromote;
    private final Map<MemoryKind, Duration> halfLives;
    private final double forgetFloor;
    private final Map<MemoryKind, Duration> ttls;
    private final double duplicateJaccard;
    private final double duplicateCosine;
    private final Duration pruneAfter;
    private final int unusedSessions;
    private final double prefixStabilityAlert;
    private final int immutableSizeAlert;
    private final double nullRetrievalAlert;
    private final int tokensPerTurnAlert;
    private final int longSessionTurns;
    private final double minVectorSimilarity;
    private final int minVectorTurnTerms;
    private final boolean episodicRecall;
    private final Duration turnRetention;
    private final double episodeImportance;
    private final int neighbourTurns;
    private final boolean quoteSourceTurns;
    private final int neighbourAnchors;
    private final double neighbourMinRelevance;
    private final double neighbourDiscount;
    private final double dateMatchBoost;

    private MemoryPolicy(Builder b) {
        relevanceWeight = b.relevanceWeight;
        importanceWeight = b.importanceWeight;
        recencyWeight = b.recencyWeight;
        thirdPartyFactor = b.thirdPartyFactor;
        failedFactor = b.failedFactor;
        recencyHalfLife = b.recencyHalfLife;
        rrfK = b.rrfK;
        mmrLambda = b.mmrLambda;
        topK = b.topK;
        candidateLimit = b.candidateLimit;
        persistentShare = b.persistentShare;
        pinnedShare = b.pinnedShare;
        recentTurns = b.recentTurns;
        compactionThreshold = b.compactionThreshold;
        observationRecall = b.observationRecall;
        importanceSignals = b.importanceSignals;
        importanceCutoff = b.importanceCutoff;
        sessionsToAlwaysPromote = b.sessionsToAlwaysPromote;
        halfLives = Map.copyOf(b.halfLives);
        forgetFloor = b.forgetFloor;
        ttls = Map.copyOf(b.ttls);
        duplicateJaccard = b.duplicateJaccard;
        duplicateCosine = b.duplicateCosine;
        pruneAfter = b.pruneAfter;
        unusedSessions = b.unusedSessions;
        prefixStabilityAlert = b.prefixStabilityAlert;
        immutableSizeAlert = b.immutableSizeAlert;
        nullRetrievalAlert = b.nullRetrievalAlert;
        tokensPerTurnAlert = b.tokensPerTurnAlert;
        longSessionTurns = b.longSessionTurns;
        minVectorSimilarity = b.minVectorSimilarity;
        minVectorTurnTerms = b.minVectorTurnTerms;
        episodicRecall = b.episodicRecall;
        turnRetention = b.turnRetention;
        episodeImportance = b.episodeImportance;
        neighbourTurns = b.neighbourTurns;
        quoteSourceTurns = b.quoteSourceTurns;
        neighbourAnchors = b.neighbourAnchors;
        neighbourMinRelevance = b.neighbourMinRelevance;
        neighbourDiscount = b.neighbourDiscount;
        dateMatchBoost = b.dateMatchBoost;
    }

    /** The defaults: DESIGN §5–§10's values, with the retrieval ones tuned on LoCoMo (docs/benchmarks.md). */
    public static MemoryPolicy defaults() {
        return builder().build();
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this policy's values. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Weight of relevance in the retrieval score (default 0.75; DESIGN §5 started at 0.60). */
    public double relevanceWeight() { return relevanceWeight; }
    /** Weight of importance/100 in the retrieval score (default 0.15; DESIGN §5 started at 0.25). */
    public double importanceWeight() { return importanceWeight; }
    /** Weight of recency in the retrieval score (default 0.10; DESIGN §5 started at 0.15). */
    public double recencyWeight() { return recencyWeight; }
    /** Score factor for THIRD_PARTY content (default 0.5). */
    public double thirdPartyFactor() { return thirdPartyFactor; }
    /** Score factor for content from a FAILED run (default 0.3). */
    public double failedFactor() { return failedFactor; }
    /** Half-life of the recency term (default 30 days). */
    public Duration recencyHalfLife() { return recencyHalfLife; }
    /** The k of reciprocal-rank fusion (default 10; see the builder for why not 60). */
    public int rrfK() { return rrfK; }
    /** MMR trade-off between relevance and diversity (default 0.85; DESIGN §5 started at 0.7). */
    public double mmrLambda() { return mmrLambda; }
    /** Most memories injected per call besides the pins (default 200; the layer's budget binds first). */
    public int topK() { return topK; }
    /** Candidates asked of the store per search (default 200). */
    public int candidateLimit() { return candidateLimit; }
    /** Share of the budget left after IMMUTABLE and TRANSIENT that PERSISTENT may use (default 0.30). */
    public double persistentShare() { return persistentShare; }
    /**
     * When a call recalls for a query ({@link RecallMode#INJECT}), the most its pinned part may take,
     * as a share of the budget left after IMMUTABLE and TRANSIENT (as {@link #persistentShare()}):
     * permanent (identity and safety-critical) memories in importance order, each that fits, then the
     * style profile's line if it still fits (default 0.15: ~290 tokens of a 2,000-token call, a
     * dozen facts; ~70 of a 512-token one). A permanent memory beyond the share is not pinned on that
     * call but competes by relevance like any other memory, so a question about it still finds it; the
     * style line has no such second way in. 1 pins whatever fits the layer; 0 pins nothing when
     * recalling. Without recall ({@link RecallMode#ON_DEMAND}, or no query) the pins are all the
     * layer holds and take whatever fits it.
     */
    public double pinnedShare() { return pinnedShare; }
    /** Turns kept verbatim in TEMPORAL (default 8). */
    public int recentTurns() { return recentTurns; }
    /** Share of the temporal budget at which older turns are compacted (default 0.80). */
    public double compactionThreshold() { return compactionThreshold; }
    /**
     * Whether PENDING L3 observations compete for the persistent layer before the dream cycle judges
     * them (default {@code true}).
     */
    public boolean observationRecall() { return observationRecall; }
    /**
     * 8 when {@link #observationRecall()} is on, 0 when off.
     *
     * @return 8 or 0
     * @deprecated the number was only ever read as on (above 0) or off (0), and no count of
     *             observations depends on it; use {@link #observationRecall()}
     */
    @Deprecated(since = "0.2.0")
    public int recentObservations() { return observationRecall ? DEFAULT_RECENT_OBSERVATIONS : 0; }
    /** How the dream cycle weighs a statement's importance before repetition and provenance (defaults: {@link ImportanceSignals#defaults()}). */
    public ImportanceSignals importanceSignals() { return importanceSignals; }
    /** Importance at or above which deep sleep promotes (default 40). */
    public double importanceCutoff() { return importanceCutoff; }
    /** Distinct sessions after which an observation is always promoted (default 3). */
    public int sessionsToAlwaysPromote() { return sessionsToAlwaysPromote; }
    /** Importance below which REM forgets (default 10). */
    public double forgetFloor() { return forgetFloor; }
    /** Token-set Jaccard at or above which light sleep treats two texts as duplicates (default 0.8). */
    public double duplicateJaccard() { return duplicateJaccard; }
    /** Cosine at or above which light sleep treats two embeddings as duplicates (default 0.92). */
    public double duplicateCosine() { return duplicateCosine; }
    /** Age after which consolidated or discarded observations are pruned (default 7 days). */
    public Duration pruneAfter() { return pruneAfter; }
    /** Sessions without a recall after which a memory is deprecated (default 20). */
    public int unusedSessions() { return unusedSessions; }
    /** IMMUTABLE prefix stability below which health alerts (default 0.8). */
    public double prefixStabilityAlert() { return prefixStabilityAlert; }
    /** IMMUTABLE size in tokens above which health alerts (default 10,000). */
    public int immutableSizeAlert() { return immutableSizeAlert; }
    /** Null-retrieval rate above which health alerts (default 0.2). */
    public double nullRetrievalAlert() { return nullRetrievalAlert; }
    /** Tokens per turn above which health alerts (default 50,000). */
    public int tokensPerTurnAlert() { return tokensPerTurnAlert; }
    /** Session length in turns that should have compacted at least once (default 200). */
    public int longSessionTurns() { return longSessionTurns; }

    /** Cosine below which a vector candidate counts as unrelated and is dropped (default 0.25). */
    public double minVectorSimilarity() { return minVectorSimilarity; }

    /**
     * Fewest distinct content words a past turn needs to be a vector candidate (default 8; 0 keeps
     * every vector hit). A short turn's embedding ("Cool! What did it look like?") lies close to
     * almost any question, so it took places, and neighbour windows, from the evidence; short turns
     * still compete lexically and as neighbours. Memories and observations are not affected.
     */
    public int minVectorTurnTerms() { return minVectorTurnTerms; }

    /**
     * Whether the verbatim turns of past sessions (the archive) compete for the persistent layer next
     * to memories and observations (default {@code true}).
     */
    public boolean episodicRecall() { return episodicRecall; }
    /**
     * How long verbatim archived turns stay retrievable and stored (default 365 days): the dream
     * purges older ones, and retrieval never returns them.
     */
    public Duration turnRetention() { return turnRetention; }
    /** Importance (0–100) a verbatim turn scores with, since no dream has judged it (default 50). */
    public double episodeImportance() { return episodeImportance; }
    /**
     * Turns on each side of a strongly matching turn packed with it when the budget allows, since
     * answers often sit in the reply (default 2; 0 turns it off).
     */
    public int neighbourTurns() { return neighbourTurns; }
    /**
     * Whether a memory or observation derived from a single turn is packed as that verbatim turn
     * when the turn search found the turn (even if diversity did not pick it) and it fits (default
     * {@code true}): the model gets what was said, not a one-sentence fragment of it.
     */
    public boolean quoteSourceTurns() { return quoteSourceTurns; }
    /** How many of the best-ranked turns get their neighbours fetched (default 5: a call stays cheap). */
    public int neighbourAnchors() { return neighbourAnchors; }
    /** Fused relevance (0–1) a turn needs for its neighbours to be fetched (default 0.5). */
    public double neighbourMinRelevance() { return neighbourMinRelevance; }
    /** A neighbour's score as a share of its anchor turn's (default 0.9; a turn before the anchor 0.8 of that). */
    public double neighbourDiscount() { return neighbourDiscount; }
    /**
     * How much more a candidate said on a day or in a month the query names ("on 3 June, 2023",
     * "in March") scores: {@code 1 + boost} times as much (default 0.5; 0 turns it off, at most 4).
     * Days are UTC days, as the context dates its turns.
     */
    public double dateMatchBoost() { return dateMatchBoost; }

    /** Decay half-life for a kind (default 30 days; SKILL and FACT 90 days; EVENT 180 days). */
    public Duration halfLife(MemoryKind kind) {
        return halfLives.get(kind);
    }

    /** Default TTL for a kind (default 180 days; FACT, SKILL and EVENT 365 days). */
    public Duration ttl(MemoryKind kind) {
        return ttls.get(kind);
    }

    private static final int DEFAULT_RECENT_OBSERVATIONS = 8;

    /** The longest {@link #turnRetention()} accepted: 100 years (keeps date arithmetic finite). */
    public static final Duration MAX_TURN_RETENTION = Duration.ofDays(36_500);

    /** Mutable builder; not thread-safe. */
    public static final class Builder {
        private double relevanceWeight = 0.75;
        private double importanceWeight = 0.15;
        private double recencyWeight = 0.10;
        private double thirdPartyFactor = 0.5;
        private double failedFactor = 0.3;
        private Duration recencyHalfLife = Duration.ofDays(30);
        // tuned on LoCoMo (docs/benchmarks.md): k = 60 squeezes rank 1 and rank 20 into 1.0 vs 0.75, so
        // importance and recency outvoted relevance; k = 10 keeps relevance in charge
        private int rrfK = 10;
        private double mmrLambda = 0.85;
        // the persistent budget, not a fixed count, should bound what is injected: with top-k 8 a
        // 2,000-token context on LoCoMo used 300 tokens and recalled 47 % of the evidence
        private int topK = 200;
        private int candidateLimit = 200;
        private double persistentShare = 0.30;
        // three allergies with their quotes and the style line took ~100 of a 512-token context's
        // ~460 tokens on every question, and recall fell below the no-dream twin's (docs/benchmarks.md)
        private double pinnedShare = 0.15;
        private int recentTurns = 8;
        private double compactionThreshold = 0.80;
        private boolean observationRecall = true;
        private ImportanceSignals importanceSignals = ImportanceSignals.defaults();
        private double importanceCutoff = 40;
        private int sessionsToAlwaysPromote = 3;
        private final Map<MemoryKind, Duration> halfLives = new EnumMap<>(MemoryKind.class);
        private double forgetFloor = 10;
        private final Map<MemoryKind, Duration> ttls = new EnumMap<>(MemoryKind.class);
        private double duplicateJaccard = 0.8;
        private double duplicateCosine = 0.92;
        private Duration pruneAfter = Duration.ofDays(7);
        private int unusedSessions = 20;
        private double prefixStabilityAlert = 0.8;
        private int immutableSizeAlert = 10_000;
        private double nullRetrievalAlert = 0.2;
        private int tokensPerTurnAlert = 50_000;
        private int longSessionTurns = 200;
        private double minVectorSimilarity = 0.25;
        private int minVectorTurnTerms = 8;
        private boolean episodicRecall = true;
        private Duration turnRetention = Duration.ofDays(365);
        private double episodeImportance = 50;
        private int neighbourTurns = 2;
        private boolean quoteSourceTurns = true;
        private int neighbourAnchors = 5;
        private double neighbourMinRelevance = 0.5;
        private double neighbourDiscount = 0.9;
        private double dateMatchBoost = 0.5;

        private Builder() {
            for (MemoryKind kind : MemoryKind.values()) {
                halfLives.put(kind, Duration.ofDays(30));
                ttls.put(kind, Duration.ofDays(180));
            }
            // tuned on LoCoMo (docs/dream.md): life events are what later questions ask about
            halfLives.put(MemoryKind.EVENT, Duration.ofDays(180));
            ttls.put(MemoryKind.EVENT, Duration.ofDays(365));
            halfLives.put(MemoryKind.FACT, Duration.ofDays(90));
            halfLives.put(MemoryKind.SKILL, Duration.ofDays(90));
            ttls.put(MemoryKind.FACT, Duration.ofDays(365));
            ttls.put(MemoryKind.SKILL, Duration.ofDays(365));
        }

        private Builder(MemoryPolicy p) {
            relevanceWeight = p.relevanceWeight;
            importanceWeight = p.importanceWeight;
            recencyWeight = p.recencyWeight;
            thirdPartyFactor = p.thirdPartyFactor;
            failedFactor = p.failedFactor;
            recencyHalfLife = p.recencyHalfLife;
            rrfK = p.rrfK;
            mmrLambda = p.mmrLambda;
            topK = p.topK;
            candidateLimit = p.candidateLimit;
            persistentShare = p.persistentShare;
            pinnedShare = p.pinnedShare;
            recentTurns = p.recentTurns;
            compactionThreshold = p.compactionThreshold;
            observationRecall = p.observationRecall;
            importanceSignals = p.importanceSignals;
            importanceCutoff = p.importanceCutoff;
            sessionsToAlwaysPromote = p.sessionsToAlwaysPromote;
            halfLives.putAll(p.halfLives);
            forgetFloor = p.forgetFloor;
            ttls.putAll(p.ttls);
            duplicateJaccard = p.duplicateJaccard;
            duplicateCosine = p.duplicateCosine;
            pruneAfter = p.pruneAfter;
            unusedSessions = p.unusedSessions;
            prefixStabilityAlert = p.prefixStabilityAlert;
            immutableSizeAlert = p.immutableSizeAlert;
            nullRetrievalAlert = p.nullRetrievalAlert;
            tokensPerTurnAlert = p.tokensPerTurnAlert;
            longSessionTurns = p.longSessionTurns;
            minVectorSimilarity = p.minVectorSimilarity;
            minVectorTurnTerms = p.minVectorTurnTerms;
            episodicRecall = p.episodicRecall;
            turnRetention = p.turnRetention;
            episodeImportance = p.episodeImportance;
            neighbourTurns = p.neighbourTurns;
            quoteSourceTurns = p.quoteSourceTurns;
            neighbourAnchors = p.neighbourAnchors;
            neighbourMinRelevance = p.neighbourMinRelevance;
            neighbourDiscount = p.neighbourDiscount;
            dateMatchBoost = p.dateMatchBoost;
        }

        /** Sets the three score weights; they must each be in [0, 1] and sum to 1. */
        public Builder scoreWeights(double relevance, double importance, double recency) {
            relevanceWeight = Checks.between("relevanceWeight", relevance, 0, 1);
            importanceWeight = Checks.between("importanceWeight", importance, 0, 1);
            recencyWeight = Checks.between("recencyWeight", recency, 0, 1);
            return this;
        }

        public Builder thirdPartyFactor(double v) { thirdPartyFactor = Checks.between("thirdPartyFactor", v, 0, 1); return this; }
        public Builder failedFactor(double v) { failedFactor = Checks.between("failedFactor", v, 0, 1); return this; }
        public Builder recencyHalfLife(Duration v) { recencyHalfLife = positive("recencyHalfLife", v); return this; }
        public Builder rrfK(int v) { rrfK = Checks.positive("rrfK", v); return this; }
        public Builder mmrLambda(double v) { mmrLambda = Checks.between("mmrLambda", v, 0, 1); return this; }
        public Builder topK(int v) { topK = Checks.positive("topK", v); return this; }
        public Builder candidateLimit(int v) { candidateLimit = Checks.positive("candidateLimit", v); return this; }
        public Builder persistentShare(double v) { persistentShare = Checks.between("persistentShare", v, 0, 1); return this; }
        public Builder pinnedShare(double v) { pinnedShare = Checks.between("pinnedShare", v, 0, 1); return this; }
        public Builder recentTurns(int v) { recentTurns = Checks.nonNegative("recentTurns", v); return this; }
        public Builder compactionThreshold(double v) { compactionThreshold = Checks.between("compactionThreshold", v, 0.05, 1); return this; }
        /** Sets {@link MemoryPolicy#observationRecall()}. */
        public Builder observationRecall(boolean v) { observationRecall = v; return this; }
        /**
         * Turns observation recall on (any value above 0) or off (0).
         *
         * @param v not negative
         * @return this builder
         * @deprecated the number was only read as on or off; use {@link #observationRecall(boolean)}
         */
        @Deprecated(since = "0.2.0")
        public Builder recentObservations(int v) { observationRecall = Checks.nonNegative("recentObservations", v) > 0; return this; }
        /** Sets {@link MemoryPolicy#importanceSignals()}. */
        public Builder importanceSignals(ImportanceSignals v) { importanceSignals = Checks.notNull("importanceSignals", v); return this; }
        public Builder importanceCutoff(double v) { importanceCutoff = Checks.between("importanceCutoff", v, 0, 100); return this; }
        public Builder sessionsToAlwaysPromote(int v) { sessionsToAlwaysPromote = Checks.positive("sessionsToAlwaysPromote", v); return this; }
        public Builder halfLife(MemoryKind kind, Duration v) { halfLives.put(Checks.notNull("kind", kind), positive("halfLife", v)); return this; }
        public Builder forgetFloor(double v) { forgetFloor = Checks.between("forgetFloor", v, 0, 100); return this; }
        public Builder ttl(MemoryKind kind, Duration v) { ttls.put(Checks.notNull("kind", kind), positive("ttl", v)); return this; }
        public Builder duplicateJaccard(double v) { duplicateJaccard = Checks.between("duplicateJaccard", v, 0.01, 1); return this; }
        public Builder duplicateCosine(double v) { duplicateCosine = Checks.between("duplicateCosine", v, 0.01, 1); return this; }
        public Builder pruneAfter(Duration v) { pruneAfter = positive("pruneAfter", v); return this; }
        public Builder unusedSessions(int v) { unusedSessions = Checks.positive("unusedSessions", v); return this; }
        public Builder prefixStabilityAlert(double v) { prefixStabilityAlert = Checks.between("prefixStabilityAlert", v, 0, 1); return this; }
        public Builder immutableSizeAlert(int v) { immutableSizeAlert = Checks.positive("immutableSizeAlert", v); return this; }
        public Builder nullRetrievalAlert(double v) { nullRetrievalAlert = Checks.between("nullRetrievalAlert", v, 0, 1); return this; }
        public Builder tokensPerTurnAlert(int v) { tokensPerTurnAlert = Checks.positive("tokensPerTurnAlert", v); return this; }
        public Builder minVectorSimilarity(double v) { minVectorSimilarity = Checks.between("minVectorSimilarity", v, -1, 1); return this; }
        public Builder minVectorTurnTerms(int v) { minVectorTurnTerms = Checks.nonNegative("minVectorTurnTerms", v); return this; }
        public Builder episodicRecall(boolean v) { episodicRecall = v; return this; }
        public Builder turnRetention(Duration v) {
            turnRetention = positive("turnRetention", v);
            if (v.compareTo(MAX_TURN_RETENTION) > 0) {
                throw new IllegalArgumentException("turnRetention must be at most " + MAX_TURN_RETENTION.toDays()
                        + " days (100 years), was " + v + "; use episodicRecall(false) to stop recalling turns");
            }
            return this;
        }
        public Builder episodeImportance(double v) { episodeImportance = Checks.between("episodeImportance", v, 0, 100); return this; }
        public Builder neighbourTurns(int v) { neighbourTurns = (int) Checks.between("neighbourTurns", v, 0, 5); return this; }
        public Builder quoteSourceTurns(boolean v) { quoteSourceTurns = v; return this; }
        public Builder neighbourAnchors(int v) { neighbourAnchors = Checks.nonNegative("neighbourAnchors", v); return this; }
        public Builder neighbourMinRelevance(double v) { neighbourMinRelevance = Checks.between("neighbourMinRelevance", v, 0, 1); return this; }
        public Builder neighbourDiscount(double v) { neighbourDiscount = Checks.between("neighbourDiscount", v, 0, 1); return this; }
        public Builder dateMatchBoost(double v) { dateMatchBoost = Checks.between("dateMatchBoost", v, 0, 4); return this; }
        public Builder longSessionTurns(int v) { longSessionTurns = Checks.positive("longSessionTurns", v); return this; }

        /**
         * Builds the policy.
         *
         * @throws ConfigurationException when the score weights do not sum to 1 or the forget floor is
         *                                above the importance cutoff
         */
        public MemoryPolicy build() {
            double sum = relevanceWeight + importanceWeight + recencyWeight;
            if (Math.abs(sum - 1.0) > 1e-6) {
                throw new ConfigurationException("score weights must sum to 1, were relevanceWeight "
                        + relevanceWeight + " + importanceWeight " + importanceWeight + " + recencyWeight "
                        + recencyWeight + " = " + sum + ": set all three so that they add up to 1");
            }
            if (forgetFloor > importanceCutoff) {
                throw new ConfigurationException("forgetFloor (" + forgetFloor
                        + ") must not be above importanceCutoff (" + importanceCutoff
                        + "): every promoted memory would be forgotten at once; lower forgetFloor or raise "
                        + "importanceCutoff");
            }
            return new MemoryPolicy(this);
        }

        private static Duration positive(String field, Duration v) {
            Checks.notNull(field, v);
            if (v.isNegative() || v.isZero()) {
                throw new IllegalArgumentException(field + " must be positive, was " + v);
            }
            return v;
        }
    }
}
