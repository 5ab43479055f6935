/**
 * The dream cycle, the whole of it: {@link dev.reverie.dream.DreamCycle} consolidates each end
 * user's L3 observations into L4 memories between conversations, phase by phase — light sleep
 * (dedup), deep sleep (importance, then create, reinforce, supersede or discard), REM (deprecate,
 * decay, forget, synthesize, update the style profile) and prune — and reports what it did in a
 * {@link dev.reverie.dream.DreamReport}, with progress for a {@link dev.reverie.dream.DreamListener}.
 * The three public types are API; the phase classes, the importance scoring and the prompts (the
 * {@code *.prompt} resources next to these classes) are package-private. See {@code docs/dream.md}
 * for the rules, the defaults and what they measured.
 */
package dev.reverie.dream;
