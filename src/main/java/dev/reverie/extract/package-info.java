/**
 * The write path before anything is stored: {@link dev.reverie.extract.SecretRedactor} removes
 * secrets from a turn, then an {@link dev.reverie.spi.Extractor} turns it into typed facts — the
 * deterministic {@link dev.reverie.extract.RuleBasedExtractor} (English and Portuguese, the default)
 * or the {@link dev.reverie.extract.LlmExtractor} (a model under a validated JSON contract, falling
 * back to the rules). An implementation package: the public types here may be constructed and
 * passed to the builder, but the package-private rule classes are not API. See
 * {@code docs/extraction.md} for the subject scheme and the measured precision.
 */
package dev.reverie.extract;
