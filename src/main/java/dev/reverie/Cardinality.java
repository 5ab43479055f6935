package dev.reverie;

/**
 * Whether a subject holds one value at a time (a name, a city: a new value supersedes the old one)
 * or many (allergies, likes). Thread-safe (an enum).
 */
public enum Cardinality {
    /** One value at a time: a newer value supersedes the older. */
    SINGLE,
    /** Several values may hold together. */
    MULTI
}
