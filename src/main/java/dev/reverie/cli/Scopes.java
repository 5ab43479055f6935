package dev.reverie.cli;

import dev.reverie.Scope;

/** Parses the scopes operators type: {@code tenant/agent/user}, or {@code tenant/agent} for every user. */
final class Scopes {

    private Scopes() {
    }

    /** {@code tenant/agent/user}. */
    static Scope user(String text) {
        String[] parts = split(text);
        if (parts.length != 3) {
            throw new CliException("scope '" + text + "' must be written tenant/agent/user");
        }
        return scope(text, parts[0], parts[1], parts[2]);
    }

    /** {@code tenant/agent}: the tenant and agent ids, validated. */
    static String[] agent(String text) {
        String[] parts = split(text);
        if (parts.length != 2) {
            throw new CliException("scope '" + text + "' must be written tenant/agent");
        }
        scope(text, parts[0], parts[1], "user");
        return parts;
    }

    /** {@code tenant/agent} or {@code tenant/agent/user}: the parts, validated. */
    static String[] agentOrUser(String text) {
        String[] parts = split(text);
        if (parts.length == 2) {
            return agent(text);
        }
        if (parts.length == 3) {
            user(text);
            return parts;
        }
        throw new CliException("scope '" + text + "' must be written tenant/agent or tenant/agent/user");
    }

    private static String[] split(String text) {
        if (text == null || text.isBlank()) {
            throw new CliException("a scope is required, written tenant/agent/user");
        }
        return text.split("/", -1);
    }

    private static Scope scope(String text, String tenant, String agent, String user) {
        try {
            return Scope.of(tenant, agent, user);
        } catch (IllegalArgumentException e) {
            throw new CliException("bad scope '" + text + "': " + e.getMessage());
        }
    }
}
