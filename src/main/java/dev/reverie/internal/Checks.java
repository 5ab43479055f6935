package dev.reverie.internal;


/**
 * Argument checks with messages that name the field, the rule and what is wrong; long or malformed
 * values are not quoted (pasted text may hold a secret). Not API.
 */
public final class Checks {
    public static final int MAX_ID_LENGTH = 128;

    private Checks() {
    }

    public static String id(String field, String value) {
        if (value == null) {
            throw new IllegalArgumentException(field + " must not be null");
        }
        if (value.isBlank()) {
            throw new IllegalArgumentException(field + " must not be blank");
        }
        if (value.length() > MAX_ID_LENGTH) {
            throw new IllegalArgumentException(field + " must be at most " + MAX_ID_LENGTH
                    + " characters, was " + value.length() + " (not quoted: text that long may be pasted content)");
        }
        int bad = firstBadIdChar(value);
        if (bad >= 0) {
            // the value is not quoted: a wrong id is often pasted text ("Bearer sk-…"), which may hold a secret
            int cp = value.codePointAt(bad);
            String shown = cp >= 0x20 && cp < 0x7F ? "'" + (char) cp + "'" : String.format(java.util.Locale.ROOT, "U+%04X", cp);
            throw new IllegalArgumentException(field + " has " + shown + " at position " + bad + " of "
                    + value.length() + "; an id may contain only letters, digits and . _ : @ -");
        }
        return value;
    }

    /** Whether every char is an ASCII letter or digit or one of {@code . _ : @ -} (a loop: ids are checked on every decode). */
    /** The index of the first character an id may not hold, or -1. */
    private static int firstBadIdChar(String value) {
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            boolean ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')
                    || ch == '.' || ch == '_' || ch == ':' || ch == '@' || ch == '-';
            if (!ok) {
                return i;
            }
        }
        return -1;
    }

    public static String notBlank(String field, String value) {
        if (value == null) {
            throw new IllegalArgumentException(field + " must not be null");
        }
        if (value.isBlank()) {
            throw new IllegalArgumentException(field + " must not be blank");
        }
        return value;
    }

    public static <T> T notNull(String field, T value) {
        if (value == null) {
            throw new IllegalArgumentException(field + " must not be null");
        }
        return value;
    }

    /**
     * {@code role} as the producer of a recorded turn: USER, ASSISTANT or TOOL. SYSTEM is the role of
     * the instructions Reverie assembles, never of something said in a conversation.
     */
    public static dev.reverie.Role turnRole(String field, dev.reverie.Role role) {
        if (notNull(field, role) == dev.reverie.Role.SYSTEM) {
            throw new IllegalArgumentException(field + " must be USER, ASSISTANT or TOOL for a turn, was SYSTEM:"
                    + " instructions belong in the ImmutableLayer or the request's scratchpad, not in a recorded turn");
        }
        return role;
    }

    public static int positive(String field, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(field + " must be positive, was " + value);
        }
        return value;
    }

    public static int nonNegative(String field, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " must not be negative, was " + value);
        }
        return value;
    }

    public static double between(String field, double value, double min, double max) {
        if (Double.isNaN(value) || value < min || value > max) {
            throw new IllegalArgumentException(field + " must be between " + min + " and " + max + ", was " + value);
        }
        return value;
    }

    /** A vector search's similarity floor: any finite number (cosines lie in [-1, 1]). */
    public static double similarityFloor(String field, double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(field + " must be a finite number (a cosine floor such as 0.25), was "
                    + value);
        }
        return value;
    }

    public static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }

    /**
     * {@code uri} with its credentials masked, for messages and logs: the password of a {@code
     * user:password@} part and the value of a {@code password=} parameter become {@code ***}.
     */
    public static String withoutCredentials(String uri) {
        if (uri == null) {
            return null;
        }
        // the password runs to the last "@" of the URI ("//app:p@ss/w0rd@db/x"): masking a little more
        // than the password, never less
        return uri.replaceAll("(?i)(password=)[^&;\\s]*", "$1***")
                .replaceAll("(//[^/@?#:\\s]*:)\\S*@", "$1***@");
    }
}
