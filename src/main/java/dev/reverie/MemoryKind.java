package dev.reverie;

/** What kind of thing an observation or memory records. Thread-safe (an enum). */
public enum MemoryKind {
    /** A fact about the user or their world (name, allergy, job, family). */
    FACT,
    /** A like, dislike or preference. */
    PREFERENCE,
    /** Something that happened or is planned, with its date. */
    EVENT,
    /** A skill, tool or competence. */
    SKILL,
    /** How the user communicates (length, formality, language, emoji). */
    STYLE,
    /** A memory written by the dream cycle that connects two or more memories. */
    SYNTHESIS
}
