package dev.reverie;

import dev.reverie.internal.Checks;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * A durable memory an operator adds by hand through {@link MemoryAdmin#remember}: its kind, text,
 * subject and value, importance, permanence and an optional TTL. The admin turns it into an ACTIVE
 * {@link Memory} with source {@link Source#OPERATOR} and a CREATED history event. Start from
 * {@link #of(MemoryKind, String)} and refine with the {@code with...} methods; each validates its
 * field. Immutable and thread-safe.
 *
 * <p>TTL: with neither {@code expiresAt} nor {@code ttl} the memory has no deadline of its own and
 * the policy's per-kind TTL ({@link MemoryPolicy#ttl(MemoryKind)}) applies through the dream cycle.
 * {@code expiresAt} sets an absolute deadline; {@code ttl} sets one relative to the moment it is
 * remembered. Setting one clears the other. Past its deadline a memory is never recalled and is not
 * listed by {@link MemoryAdmin#memories(Scope)}.
 *
 * @param kind        what kind of memory (any, including SYNTHESIS)
 * @param text        the memory as it is rendered into a context; at most {@link #MAX_TEXT_LENGTH} characters
 * @param subject     a normalized key such as {@code user.allergy}; defaults to {@code user.<kind>}
 * @param value       the normalized value for the subject (may be empty)
 * @param cardinality whether the subject holds one value (a newer fact supersedes) or many; default MULTI
 * @param importance  0 to 100; default {@link #DEFAULT_IMPORTANCE}
 * @param permanent   identity or safety-critical: never decays
 * @param expiresAt   an absolute TTL deadline, or {@code null}
 * @param ttl         a TTL relative to the time it is remembered, or {@code null}
 */
public record MemoryDraft(MemoryKind kind, String text, String subject, String value, Cardinality cardinality,
                          double importance, boolean permanent, Instant expiresAt, Duration ttl) {

    /** Longest accepted memory text, in characters. */
    public static final int MAX_TEXT_LENGTH = 10_000;
    /** Importance of a hand-added memory unless set: an operator's deliberate addition starts high. */
    public static final double DEFAULT_IMPORTANCE = 70;

    public MemoryDraft {
        Checks.notNull("kind", kind);
        Checks.notBlank("text", text);
        if (text.length() > MAX_TEXT_LENGTH) {
            throw new IllegalArgumentException("text must be at most " + MAX_TEXT_LENGTH + " characters, was "
                    + text.length() + "; split it or store a summary"); // not quoted: it may hold a secret
        }
        subject = subject == null ? defaultSubject(kind) : subject;
        Checks.notBlank("subject", subject);
        if (subject.length() > Checks.MAX_ID_LENGTH) {
            throw new IllegalArgumentException("subject must be at most " + Checks.MAX_ID_LENGTH
                    + " characters, was " + subject.length());
        }
        value = value == null ? "" : value;
        cardinality = cardinality == null ? Cardinality.MULTI : cardinality;
        Checks.between("importance", importance, 0, 100);
        if (expiresAt != null && ttl != null) {
            throw new IllegalArgumentException("set either expiresAt (" + expiresAt + ") or ttl (" + ttl
                    + "), not both");
        }
        if (ttl != null && (ttl.isNegative() || ttl.isZero())) {
            throw new IllegalArgumentException("ttl must be positive, was " + ttl);
        }
    }

    /** A draft with the defaults: subject {@code user.<kind>}, no value, MULTI, importance 70, no TTL. */
    public static MemoryDraft of(MemoryKind kind, String text) {
        return new MemoryDraft(kind, text, null, null, null, DEFAULT_IMPORTANCE, false, null, null);
    }

    public MemoryDraft withSubject(String newSubject) {
        Checks.notNull("subject", newSubject);
        return new MemoryDraft(kind, text, newSubject, value, cardinality, importance, permanent, expiresAt, ttl);
    }

    public MemoryDraft withValue(String newValue) {
        Checks.notNull("value", newValue);
        return new MemoryDraft(kind, text, subject, newValue, cardinality, importance, permanent, expiresAt, ttl);
    }

    public MemoryDraft withCardinality(Cardinality newCardinality) {
        Checks.notNull("cardinality", newCardinality);
        return new MemoryDraft(kind, text, subject, value, newCardinality, importance, permanent, expiresAt, ttl);
    }

    public MemoryDraft withImportance(double newImportance) {
        return new MemoryDraft(kind, text, subject, value, cardinality, newImportance, permanent, expiresAt, ttl);
    }

    public MemoryDraft withPermanent(boolean newPermanent) {
        return new MemoryDraft(kind, text, subject, value, cardinality, importance, newPermanent, expiresAt, ttl);
    }

    /** A copy expiring at {@code deadline} (clears any relative ttl). */
    public MemoryDraft withExpiresAt(Instant deadline) {
        Checks.notNull("expiresAt", deadline);
        return new MemoryDraft(kind, text, subject, value, cardinality, importance, permanent, deadline, null);
    }

    /** A copy expiring {@code newTtl} after it is remembered (clears any absolute expiresAt). */
    public MemoryDraft withTtl(Duration newTtl) {
        Checks.notNull("ttl", newTtl);
        return new MemoryDraft(kind, text, subject, value, cardinality, importance, permanent, null, newTtl);
    }

    /** The deadline this draft gets when remembered at {@code now}, or {@code null} for none of its own. */
    public Instant deadline(Instant now) {
        return expiresAt != null ? expiresAt : ttl != null ? now.plus(ttl) : null;
    }

    private static String defaultSubject(MemoryKind kind) {
        return "user." + kind.name().toLowerCase(Locale.ROOT);
    }
}
