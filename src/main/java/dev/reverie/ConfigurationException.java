package dev.reverie;

/**
 * Reverie could not be configured: no store provider for a URI scheme, two providers for one
 * scheme, or a contradictory builder setting. The message says what was found and what to do.
 * Thread-safe.
 */
public class ConfigurationException extends ReverieException {
    private static final long serialVersionUID = 1L;

    public ConfigurationException(String message) {
        super(message);
    }

    public ConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
