package dev.reverie;

import dev.reverie.internal.Checks;

import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;

/**
 * Which durable memories to list: by status, kind, a case-insensitive text fragment and a creation
 * time window, with paging. Results are ordered by creation time, then id. Immutable and
 * thread-safe; the {@code with...} methods return copies.
 *
 * @param statuses      statuses to include (never empty)
 * @param kinds         kinds to include (never empty)
 * @param textContains  a case-insensitive fragment the text must contain, or {@code null}; at most
 *                      {@value #MAX_TEXT_LENGTH} characters, without control characters
 * @param createdFrom   inclusive lower bound on creation time, or {@code null}
 * @param createdBefore exclusive upper bound on creation time, or {@code null}
 * @param offset        rows to skip
 * @param limit         most rows to return
 */
public record MemoryFilter(Set<MemoryStatus> statuses, Set<MemoryKind> kinds, String textContains,
                           Instant createdFrom, Instant createdBefore, int offset, int limit) {

    /** Largest page a single call returns. */
    public static final int MAX_LIMIT = 100_000;
    /** Longest {@code textContains} fragment. */
    public static final int MAX_TEXT_LENGTH = 1_000;

    public MemoryFilter {
        statuses = Set.copyOf(Checks.notNull("statuses", statuses));
        kinds = Set.copyOf(Checks.notNull("kinds", kinds));
        if (statuses.isEmpty()) {
            throw new IllegalArgumentException("statuses must not be empty");
        }
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("kinds must not be empty");
        }
        checkFragment(textContains);
        Checks.nonNegative("offset", offset);
        Checks.positive("limit", limit);
        if (limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be at most " + MAX_LIMIT + ", was " + limit);
        }
    }

    /**
     * Rejects what no stored text can sensibly be searched for and what a store could misread: a NUL
     * ends a C string (SQLite would then match every memory), and a huge fragment exceeds engine limits.
     */
    private static void checkFragment(String fragment) {
        if (fragment == null) {
            return;
        }
        if (fragment.length() > MAX_TEXT_LENGTH) {
            throw new IllegalArgumentException("textContains must be at most " + MAX_TEXT_LENGTH
                    + " characters, was " + fragment.length()); // not quoted: it may hold a secret
        }
        for (int i = 0; i < fragment.length(); i++) {
            char ch = fragment.charAt(i);
            if (Character.isISOControl(ch)) {
                throw new IllegalArgumentException("textContains must not contain control characters, found U+"
                        + String.format(java.util.Locale.ROOT, "%04X", (int) ch) + " at index " + i);
            }
        }
    }

    /** ACTIVE memories of every kind. */
    public static MemoryFilter active() {
        return new MemoryFilter(EnumSet.of(MemoryStatus.ACTIVE), EnumSet.allOf(MemoryKind.class), null, null, null,
                0, MAX_LIMIT);
    }

    /** Memories of every status and kind, for audit. */
    public static MemoryFilter all() {
        return new MemoryFilter(EnumSet.allOf(MemoryStatus.class), EnumSet.allOf(MemoryKind.class), null, null,
                null, 0, MAX_LIMIT);
    }

    public MemoryFilter withStatuses(MemoryStatus first, MemoryStatus... rest) {
        return new MemoryFilter(EnumSet.of(first, rest), kinds, textContains, createdFrom, createdBefore, offset, limit);
    }

    public MemoryFilter withKinds(MemoryKind first, MemoryKind... rest) {
        return new MemoryFilter(statuses, EnumSet.of(first, rest), textContains, createdFrom, createdBefore, offset, limit);
    }

    public MemoryFilter withText(String fragment) {
        return new MemoryFilter(statuses, kinds, fragment, createdFrom, createdBefore, offset, limit);
    }

    public MemoryFilter createdBetween(Instant from, Instant before) {
        return new MemoryFilter(statuses, kinds, textContains, from, before, offset, limit);
    }

    public MemoryFilter page(int newOffset, int newLimit) {
        return new MemoryFilter(statuses, kinds, textContains, createdFrom, createdBefore, newOffset, newLimit);
    }
}
