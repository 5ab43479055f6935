package dev.reverie;

/** How the run that produced a turn ended, as reported by the host. Thread-safe (an enum). */
public enum Outcome {
    /** The run succeeded. */
    SUCCEEDED,
    /** The run failed: what it produced is trusted less and never promoted on its own. */
    FAILED,
    /** Not reported (the default). */
    UNKNOWN
}
