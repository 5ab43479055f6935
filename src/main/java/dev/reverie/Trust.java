package dev.reverie;

/** Whether content came from the user or assistant themselves or from a third party. */
public enum Trust {
    /** Said by the end user or the assistant. */
    FIRST_PARTY,
    /** Tool output, documents, retrieved pages: never becomes a permanent memory. */
    THIRD_PARTY
}
