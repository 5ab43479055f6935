package dev.reverie;

import dev.reverie.internal.Checks;

/**
 * Who a memory belongs to: a tenant (the customer of the host application), an agent (the
 * assistant persona within that tenant) and an end user. Every read and write in Reverie takes a
 * scope, and no operation ever crosses from one scope to another.
 *
 * <p>Each id is non-blank, at most 128 characters, and made only of letters, digits and
 * {@code . _ : @ -}; anything else fails with an {@link IllegalArgumentException} naming the
 * field. Immutable and thread-safe.
 *
 * @param tenantId  the tenant id
 * @param agentId   the agent id
 * @param endUserId the end-user id
 */
public record Scope(String tenantId, String agentId, String endUserId) {

    public Scope {
        Checks.id("tenantId", tenantId);
        Checks.id("agentId", agentId);
        Checks.id("endUserId", endUserId);
    }

    /** Creates a scope; see the class comment for the id rules. */
    public static Scope of(String tenantId, String agentId, String endUserId) {
        return new Scope(tenantId, agentId, endUserId);
    }

    @Override
    public String toString() {
        return tenantId + "/" + agentId + "/" + endUserId;
    }
}
