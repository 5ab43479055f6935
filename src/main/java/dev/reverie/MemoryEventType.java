package dev.reverie;

/** The kinds of change recorded in a memory's audit history. Thread-safe (an enum). */
public enum MemoryEventType {
    CREATED, REINFORCED, EDITED, SUPERSEDED, DEPRECATED, DECAYED, FORGOTTEN, DELETED, IMPORTED, RESTORED
}
