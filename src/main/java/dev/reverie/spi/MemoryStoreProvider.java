package dev.reverie.spi;

/**
 * Creates a {@link MemoryStore} for a URI scheme, discovered through {@link java.util.ServiceLoader}
 * (register the implementation in {@code META-INF/services/dev.reverie.spi.MemoryStoreProvider}).
 * Implementations must be thread-safe and cheap to instantiate.
 */
public interface MemoryStoreProvider {

    /** The URI scheme this provider serves, e.g. {@code sqlite} (lower case, no colon). */
    String scheme();

    /** Opens a store for the part of the URI after {@code scheme:} (e.g. a folder, or {@code :memory:}). */
    MemoryStore open(String location);
}
