package dev.reverie.spi;

import dev.reverie.Memory;

import java.util.Optional;

/**
 * Tells whether a memory still refers to something that exists (a file path, a table, an endpoint,
 * a feature flag); asked by the dream cycle's REM phase. A memory whose reference is gone becomes
 * DEPRECATED with the reason in its history. The default accepts everything. Implementations must
 * be thread-safe.
 */
public interface ReferenceValidator {

    /** Why the memory refers to something that no longer exists, or empty when it is still valid. */
    Optional<String> staleReason(Memory memory);

    /** A validator that accepts every memory. */
    static ReferenceValidator acceptAll() {
        return memory -> Optional.empty();
    }
}
