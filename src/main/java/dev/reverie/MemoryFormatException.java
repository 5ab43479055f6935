package dev.reverie;

/**
 * An export file could not be imported: malformed JSON, a newer format version, or a scope that
 * does not match. Nothing was written. Thread-safe.
 */
public class MemoryFormatException extends ReverieException {
    private static final long serialVersionUID = 1L;

    public MemoryFormatException(String message) {
        super(message);
    }

    public MemoryFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
