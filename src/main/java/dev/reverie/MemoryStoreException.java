package dev.reverie;

/**
 * A store failed to read or write (I/O, database or index error); the underlying
 * {@code SQLException} or {@code IOException} is kept as the cause. A failed write leaves the store
 * as it was. Thread-safe.
 */
public class MemoryStoreException extends ReverieException {
    private static final long serialVersionUID = 1L;

    public MemoryStoreException(String message) {
        super(message);
    }

    public MemoryStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
