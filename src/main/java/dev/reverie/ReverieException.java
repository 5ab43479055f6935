package dev.reverie;

/**
 * The root of Reverie's unchecked exceptions; each area has a subclass. Misuse of the API gets the
 * JDK's {@link IllegalArgumentException} or {@link IllegalStateException} instead. Thread-safe.
 */
public class ReverieException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ReverieException(String message) {
        super(message);
    }

    public ReverieException(String message, Throwable cause) {
        super(message, cause);
    }
}
