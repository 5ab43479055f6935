package dev.reverie;

import dev.reverie.internal.Checks;

/**
 * The importance (0–100) the dream cycle gives a statement before repetition and provenance: a base
 * per subject or kind, ceilings for small talk, logistics and reactions, the bonus for repetition,
 * and the bonuses that decide whether an episodic statement clears the cutoff
 * ({@link MemoryPolicy#importanceCutoff()}). Part of {@link MemoryPolicy}
 * ({@link MemoryPolicy#importanceSignals()}); the defaults are the values tuned on the evaluation
 * data (docs/dream.md). Changing them changes which statements are promoted and how fast they
 * decay below the forget floor. Immutable and thread-safe; build a changed copy with
 * {@link #toBuilder()}.
 */
public final class ImportanceSignals {

    private static final ImportanceSignals DEFAULTS = new Builder().build();
    private final double identity;
    private final double allergy;
    private final double health;
    private final double family;
    private final double jobOrLocation;
    private final double pet;
    private final double skill;
    private final double likes;
    private final double planOrEvent;
    private final double style;
    private final double synthesis;
    private final double episode;
    private final double smallTalkCap;
    private final double logisticsCap;
    private final double reactionCap;
    private final double reinforcementStep;
    private final double reinforcementCap;
    private final double temporalBonus;
    private final double firstPersonBonus;
    private final double pastOrOngoingBonus;
    private final double planBonus;
    private final double nameBonus;
    private final double detailBonus;
    private final double richDetailBonus;
    private final double ownWorldBonus;
    private final double aboutListenerPenalty;

    private ImportanceSignals(Builder b) {
        identity = b.identity;
        allergy = b.allergy;
        health = b.health;
        family = b.family;
        jobOrLocation = b.jobOrLocation;
        pet = b.pet;
        skill = b.skill;
        likes = b.likes;
        planOrEvent = b.planOrEvent;
        style = b.style;
        synthesis = b.synthesis;
        episode = b.episode;
        smallTalkCap = b.smallTalkCap;
        logisticsCap = b.logisticsCap;
        reactionCap = b.reactionCap;
        reinforcementStep = b.reinforcementStep;
        reinforcementCap = b.reinforcementCap;
        temporalBonus = b.temporalBonus;
        firstPersonBonus = b.firstPersonBonus;
        pastOrOngoingBonus = b.pastOrOngoingBonus;
        planBonus = b.planBonus;
        nameBonus = b.nameBonus;
        detailBonus = b.detailBonus;
        richDetailBonus = b.richDetailBonus;
        ownWorldBonus = b.ownWorldBonus;
        aboutListenerPenalty = b.aboutListenerPenalty;
    }

    /** The defaults (each accessor's javadoc gives its value). */
    public static ImportanceSignals defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these values. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Base of a person's name, preferred form of address and native language: said once, valid until corrected (default 95). */
    public double identity() { return identity; }
    /** Base of an allergy: safety-critical (default 95). */
    public double allergy() { return allergy; }
    /** Base of any other health fact: safety-critical (default 85). */
    public double health() { return health; }
    /** Base of a family member (default 70). */
    public double family() { return family; }
    /** Base of job, employer, where the person lives and comes from (default 65). */
    public double jobOrLocation() { return jobOrLocation; }
    /** Base of pets, age and birthday (default 62). */
    public double pet() { return pet; }
    /** Base of skills and diet, and of an untyped SKILL statement (default 60). */
    public double skill() { return skill; }
    /** Base of likes, dislikes, preferences and favourites (default 55). */
    public double likes() { return likes; }
    /** Base of plans and dated events, and of an untyped FACT or PREFERENCE; an untyped EVENT gets it only when its text names a time (else this minus {@link #temporalBonus()}) (default 50). */
    public double planOrEvent() { return planOrEvent; }
    /** Base of an untyped STYLE statement (default 40). */
    public double style() { return style; }
    /** Importance of a synthesis REM writes (default 50). */
    public double synthesis() { return synthesis; }
    /** Base of an episodic fallback statement before its text signals (the bonuses below) (default 30). */
    public double episode() { return episode; }
    /** Ceiling for pure small talk ("ok see you", "thanks!") (default 8). */
    public double smallTalkCap() { return smallTalkCap; }
    /** Ceiling for resolved logistics ("I'll be 10 minutes late", "on my way") (default 12). */
    public double logisticsCap() { return logisticsCap; }
    /** Ceiling for reactions and questions with no statement of the speaker's own (default 20). */
    public double reactionCap() { return reactionCap; }
    /** Added per repetition beyond the first, up to {@link #reinforcementCap()} (default 5). */
    public double reinforcementStep() { return reinforcementStep; }
    /** Most that repetition adds (default 20). */
    public double reinforcementCap() { return reinforcementCap; }
    /** Added when the text names a time (a plan, a dated event, an episode) (default 5). */
    public double temporalBonus() { return temporalBonus; }
    /** Added to an episode said in the first person (default 8). */
    public double firstPersonBonus() { return firstPersonBonus; }
    /** Added to an episode that tells what happened or is happening (past or progressive verb) (default 7). */
    public double pastOrOngoingBonus() { return pastOrOngoingBonus; }
    /** Added to an episode that tells a plan (when it has no past or progressive verb) (default 4). */
    public double planBonus() { return planBonus; }
    /** Added to an episode that names someone (default 4). */
    public double nameBonus() { return nameBonus; }
    /** Added to an episode with at least four substantive words (default 4). */
    public double detailBonus() { return detailBonus; }
    /** Added again to an episode with at least eight substantive words (default 4). */
    public double richDetailBonus() { return richDetailBonus; }
    /** Added to an episode about the speaker's own life (three substantive words, no second person) (default 4). */
    public double ownWorldBonus() { return ownWorldBonus; }
    /** Taken from an episode about the listener only (second person without first person: compliments, advice, questions back) (default 6). */
    public double aboutListenerPenalty() { return aboutListenerPenalty; }

    /** Mutable builder; every value must be between 0 and 100. Not thread-safe. */
    public static final class Builder {
        private double identity = 95;
        private double allergy = 95;
        private double health = 85;
        private double family = 70;
        private double jobOrLocation = 65;
        private double pet = 62;
        private double skill = 60;
        private double likes = 55;
        private double planOrEvent = 50;
        private double style = 40;
        private double synthesis = 50;
        private double episode = 30;
        private double smallTalkCap = 8;
        private double logisticsCap = 12;
        private double reactionCap = 20;
        private double reinforcementStep = 5;
        private double reinforcementCap = 20;
        private double temporalBonus = 5;
        private double firstPersonBonus = 8;
        private double pastOrOngoingBonus = 7;
        private double planBonus = 4;
        private double nameBonus = 4;
        private double detailBonus = 4;
        private double richDetailBonus = 4;
        private double ownWorldBonus = 4;
        private double aboutListenerPenalty = 6;

        private Builder() {
        }

        private Builder(ImportanceSignals s) {
            identity = s.identity;
            allergy = s.allergy;
            health = s.health;
            family = s.family;
            jobOrLocation = s.jobOrLocation;
            pet = s.pet;
            skill = s.skill;
            likes = s.likes;
            planOrEvent = s.planOrEvent;
            style = s.style;
            synthesis = s.synthesis;
            episode = s.episode;
            smallTalkCap = s.smallTalkCap;
            logisticsCap = s.logisticsCap;
            reactionCap = s.reactionCap;
            reinforcementStep = s.reinforcementStep;
            reinforcementCap = s.reinforcementCap;
            temporalBonus = s.temporalBonus;
            firstPersonBonus = s.firstPersonBonus;
            pastOrOngoingBonus = s.pastOrOngoingBonus;
            planBonus = s.planBonus;
            nameBonus = s.nameBonus;
            detailBonus = s.detailBonus;
            richDetailBonus = s.richDetailBonus;
            ownWorldBonus = s.ownWorldBonus;
            aboutListenerPenalty = s.aboutListenerPenalty;
        }

        /** Sets {@link ImportanceSignals#identity()}. */
        public Builder identity(double v) { identity = Checks.between("identity", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#allergy()}. */
        public Builder allergy(double v) { allergy = Checks.between("allergy", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#health()}. */
        public Builder health(double v) { health = Checks.between("health", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#family()}. */
        public Builder family(double v) { family = Checks.between("family", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#jobOrLocation()}. */
        public Builder jobOrLocation(double v) { jobOrLocation = Checks.between("jobOrLocation", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#pet()}. */
        public Builder pet(double v) { pet = Checks.between("pet", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#skill()}. */
        public Builder skill(double v) { skill = Checks.between("skill", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#likes()}. */
        public Builder likes(double v) { likes = Checks.between("likes", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#planOrEvent()}. */
        public Builder planOrEvent(double v) { planOrEvent = Checks.between("planOrEvent", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#style()}. */
        public Builder style(double v) { style = Checks.between("style", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#synthesis()}. */
        public Builder synthesis(double v) { synthesis = Checks.between("synthesis", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#episode()}. */
        public Builder episode(double v) { episode = Checks.between("episode", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#smallTalkCap()}. */
        public Builder smallTalkCap(double v) { smallTalkCap = Checks.between("smallTalkCap", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#logisticsCap()}. */
        public Builder logisticsCap(double v) { logisticsCap = Checks.between("logisticsCap", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#reactionCap()}. */
        public Builder reactionCap(double v) { reactionCap = Checks.between("reactionCap", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#reinforcementStep()}. */
        public Builder reinforcementStep(double v) { reinforcementStep = Checks.between("reinforcementStep", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#reinforcementCap()}. */
        public Builder reinforcementCap(double v) { reinforcementCap = Checks.between("reinforcementCap", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#temporalBonus()}. */
        public Builder temporalBonus(double v) { temporalBonus = Checks.between("temporalBonus", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#firstPersonBonus()}. */
        public Builder firstPersonBonus(double v) { firstPersonBonus = Checks.between("firstPersonBonus", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#pastOrOngoingBonus()}. */
        public Builder pastOrOngoingBonus(double v) { pastOrOngoingBonus = Checks.between("pastOrOngoingBonus", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#planBonus()}. */
        public Builder planBonus(double v) { planBonus = Checks.between("planBonus", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#nameBonus()}. */
        public Builder nameBonus(double v) { nameBonus = Checks.between("nameBonus", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#detailBonus()}. */
        public Builder detailBonus(double v) { detailBonus = Checks.between("detailBonus", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#richDetailBonus()}. */
        public Builder richDetailBonus(double v) { richDetailBonus = Checks.between("richDetailBonus", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#ownWorldBonus()}. */
        public Builder ownWorldBonus(double v) { ownWorldBonus = Checks.between("ownWorldBonus", v, 0, 100); return this; }
        /** Sets {@link ImportanceSignals#aboutListenerPenalty()}. */
        public Builder aboutListenerPenalty(double v) { aboutListenerPenalty = Checks.between("aboutListenerPenalty", v, 0, 100); return this; }

        /** The signals. */
        public ImportanceSignals build() {
            return new ImportanceSignals(this);
        }
    }
}
