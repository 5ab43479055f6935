package dev.reverie;

import dev.reverie.internal.Checks;

/**
 * One health alert of DESIGN §10: which condition fired, for which tenant and agent (both
 * {@code null} for a manager-wide condition such as the IMMUTABLE layer's size), the measured value,
 * the threshold it crossed and a message that says what to do. Immutable and thread-safe.
 *
 * @param type      the condition
 * @param tenantId  the tenant, or {@code null} when manager-wide
 * @param agentId   the agent, or {@code null} when manager-wide
 * @param value     the measured value (a share in [0, 1], tokens, or a count, as the type says)
 * @param threshold the policy threshold it crossed
 * @param message   a human-readable explanation
 */
public record HealthAlert(Type type, String tenantId, String agentId, double value, double threshold,
                          String message) {

    public HealthAlert {
        Checks.notNull("type", type);
        Checks.notBlank("message", message);
        if ((tenantId == null) != (agentId == null)) {
            throw new IllegalArgumentException("tenantId and agentId must both be set or both be null, were "
                    + tenantId + " and " + agentId);
        }
    }

    /** The layer the alert is about. */
    public Layer layer() {
        return type.layer();
    }

    /**
     * The conditions that raise an alert, each with its layer; each says what the alert's
     * {@code value} and {@code threshold} hold. Thread-safe (an enum).
     */
    public enum Type {
        /**
         * Share of calls whose first message equals the previous call's is below
         * {@link MemoryPolicy#prefixStabilityAlert()}. Value: the share; threshold: the policy's.
         */
        PREFIX_UNSTABLE(Layer.IMMUTABLE),
        /** The IMMUTABLE layer is larger than {@link MemoryPolicy#immutableSizeAlert()} tokens. Value: its tokens. */
        IMMUTABLE_TOO_LARGE(Layer.IMMUTABLE),
        /**
         * Share of retrieving calls that recalled nothing is above {@link MemoryPolicy#nullRetrievalAlert()}.
         * Value: the share; threshold: the policy's.
         */
        NULL_RETRIEVAL_HIGH(Layer.PERSISTENT),
        /** A recorded turn had more than {@link MemoryPolicy#tokensPerTurnAlert()} tokens. Value: the largest turn's tokens. */
        TURN_TOO_LARGE(Layer.TEMPORAL),
        /**
         * A session was assembled with more than {@link MemoryPolicy#longSessionTurns()} turns and no
         * compaction. Value: how many such sessions; threshold: 0 (any).
         */
        LONG_SESSION_NOT_COMPACTED(Layer.TEMPORAL),
        /** Scratchpad text was found in a recorded turn, so it reached the store. Value: leaks; threshold: 0 (any). */
        TRANSIENT_LEAK(Layer.TRANSIENT);

        private final Layer layer;

        Type(Layer layer) {
            this.layer = layer;
        }

        /** The layer this condition concerns. */
        public Layer layer() {
            return layer;
        }
    }
}
