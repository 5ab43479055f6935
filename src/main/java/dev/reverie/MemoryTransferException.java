package dev.reverie;

/**
 * An export could not be written to, or an import read from, the caller's stream; the
 * {@link java.io.IOException} is kept as the cause. Nothing was imported; an export may have been
 * written in part, so discard the output and retry once the stream works. Malformed content is a
 * {@link MemoryFormatException} instead. Thread-safe.
 */
public class MemoryTransferException extends ReverieException {
    private static final long serialVersionUID = 1L;

    public MemoryTransferException(String message, Throwable cause) {
        super(message, cause);
    }
}
