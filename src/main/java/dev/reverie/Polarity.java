package dev.reverie;

/** Whether a statement affirms or negates its value ("I eat meat" / "I no longer eat meat"). */
public enum Polarity {
    /** The statement affirms the value. */
    POSITIVE,
    /** The statement negates the value. */
    NEGATIVE
}
