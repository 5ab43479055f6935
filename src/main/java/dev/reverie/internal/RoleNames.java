package dev.reverie.internal;

import java.util.regex.Pattern;

/**
 * Speaker names that read as a role's ({@code "Assistant"}, {@code "system"}, {@code "Tool (…)"},
 * {@code "USER"}, {@code "developer"}): a person so named is shown and described as
 * {@code User (Assistant)}, never as the role, in facts, recalled turns, the session's messages and
 * its summary, so nobody can speak as the assistant, a tool or the end user. Not API.
 */
public final class RoleNames {

    private static final Pattern ROLE_NAME = Pattern.compile("(?i)\\s*(assistant|system|tool|user|developer)\\b");

    private RoleNames() {
    }

    /** Whether {@code name} starts as a role's name does. */
    public static boolean looksLikeRole(String name) {
        return name != null && ROLE_NAME.matcher(name).lookingAt();
    }

    /** How a person named {@code name} is shown: {@code User (name)} when the name reads as a role's, else the name. */
    public static String person(String name) {
        return looksLikeRole(name) ? "User (" + name + ")" : name;
    }
}
