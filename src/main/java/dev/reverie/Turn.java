package dev.reverie;

import dev.reverie.internal.Checks;

import java.time.Instant;

/**
 * One message of a conversation as the host records it: who said it, the text, and optionally the
 * caller's own turn id, the speaker's name, a tool name and the time it was said (the manager's
 * clock when absent). Immutable and thread-safe; the {@code with...} methods return copies.
 *
 * @param role     who produced it: USER, ASSISTANT or TOOL (never SYSTEM)
 * @param text     what was said (may be long; never blank)
 * @param id       the caller's turn id, or {@code null} to let Reverie assign one
 * @param speaker  the speaker's display name, or {@code null}
 * @param toolName the tool's name for {@link Role#TOOL} turns, otherwise {@code null}
 * @param at       when it was said, or {@code null} for "now" by the manager's clock
 */
public record Turn(Role role, String text, String id, String speaker, String toolName, Instant at) {

    /** Longest accepted turn text, in characters. */
    public static final int MAX_TEXT_LENGTH = 1_000_000;

    public Turn {
        Checks.turnRole("role", role);
        Checks.notBlank("text", text);
        if (text.length() > MAX_TEXT_LENGTH) {
            throw new IllegalArgumentException("text must be at most " + MAX_TEXT_LENGTH
                    + " characters, was " + text.length());
        }
        if (id != null) {
            Checks.id("turn id", id);
        }
        if (speaker != null && (speaker.isBlank() || speaker.length() > 128)) {
            // the speaker is not quoted: a name that long is pasted text, which may hold a secret
            throw new IllegalArgumentException("speaker must be non-blank and at most 128 characters, was "
                    + (speaker.isBlank() ? "blank" : speaker.length() + " characters") + "; pass the name only");
        }
        if (speaker != null && hasControl(speaker)) {
            // a line break in a name would forge lines of the summaries and contexts it is printed in
            throw new IllegalArgumentException("speaker must not contain line breaks or other control characters;"
                    + " pass the name on one line");
        }
        if (toolName != null && hasControl(toolName)) {
            throw new IllegalArgumentException("toolName must not contain line breaks or other control characters;"
                    + " pass the name on one line");
        }
        if (role == Role.TOOL) {
            Checks.notBlank("toolName", toolName);
        }
    }

    /** A turn said by the end user. */
    public static Turn user(String text) {
        return new Turn(Role.USER, text, null, null, null, null);
    }

    /** A turn said by the assistant. */
    public static Turn assistant(String text) {
        return new Turn(Role.ASSISTANT, text, null, null, null, null);
    }

    /** The output of a tool: stored as THIRD_PARTY content. */
    public static Turn tool(String toolName, String text) {
        return new Turn(Role.TOOL, text, null, null, toolName, null);
    }

    /** A copy with the caller's turn id (letters, digits and {@code . _ : @ -}). */
    public Turn withId(String turnId) {
        return new Turn(role, text, turnId, speaker, toolName, at);
    }

    /** A copy with the speaker's display name. */
    public Turn withSpeaker(String speakerName) {
        return new Turn(role, text, id, speakerName, toolName, at);
    }

    /** A copy said at the given time. */
    public Turn at(Instant time) {
        return new Turn(role, text, id, speaker, toolName, Checks.notNull("at", time));
    }

    /** A copy with other text (used after redaction). */
    public Turn withText(String newText) {
        return new Turn(role, newText, id, speaker, toolName, at);
    }

    private static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isISOControl(s.charAt(i)) || s.charAt(i) == '\u2028' || s.charAt(i) == '\u2029') {
                return true;
            }
        }
        return false;
    }
}
