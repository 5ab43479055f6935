package dev.reverie;

/**
 * A candidate with its score and the parts of the score. Immutable and thread-safe.
 *
 * @param candidate   the candidate
 * @param score       final score (weighted sum times trust factor)
 * @param relevance   fused relevance, 0 to 1
 * @param recency     0.5^(age / half-life)
 * @param trustFactor multiplier for third-party or failed-run content
 */
record ScoredCandidate(Candidate candidate, double score, double relevance, double recency,
                             double trustFactor) {
}
