/**
 * The built-in {@link dev.reverie.spi.Extractor}s, which turn a turn (already free of secrets) into
 * typed facts: the deterministic {@link dev.reverie.extract.RuleBasedExtractor} (English and
 * Portuguese, the default) and the {@link dev.reverie.extract.LlmExtractor} (a model under a
 * validated JSON contract, falling back to the rules). An exported package: a host may construct
 * these two and pass them to the builder; the package-private rule classes are not API. See
 * {@code docs/extraction.md} for the subject scheme and the measured precision.
 */
package dev.reverie.extract;
