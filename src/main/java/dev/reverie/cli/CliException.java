package dev.reverie.cli;

/**
 * A mistake of the person at the keyboard (a bad scope, an unknown id, a missing file): the tool
 * prints the message on one line and exits with {@link ReverieCli#USER_ERROR}. Thread-safe.
 */
final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CliException(String message) {
        super(message);
    }
}
