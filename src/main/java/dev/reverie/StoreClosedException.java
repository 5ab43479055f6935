package dev.reverie;

/**
 * A store, a tenant's database or index inside it, or a {@link ContextManager} was used after
 * {@code close()}. Nothing was read or written; open a new instance to go on.
 *
 * <p>It extends {@link IllegalStateException}, not {@link ReverieException}: using a closed object
 * is misuse, which the JDK's type signals, and code written for 0.1.0 that catches
 * {@code IllegalStateException} keeps working. It exists so that code that must tell "closed" from
 * any other illegal state (the dream cycle stops a run over every end user only for this one) does
 * not have to guess from a message. A {@code MemoryStore} throws it from every method once closed.
 * Thread-safe.
 */
public class StoreClosedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public StoreClosedException(String message) {
        super(message);
    }

    public StoreClosedException(String message, Throwable cause) {
        super(message, cause);
    }
}
