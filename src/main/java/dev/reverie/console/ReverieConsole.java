package dev.reverie.console;

import com.sun.net.httpserver.HttpServer;
import dev.reverie.ContextManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local operator console for a {@link ContextManager}: one static page and a JSON API on the JDK's
 * built-in HTTP server, so a host application can embed it without a web framework. The page lists
 * an end user's style profile, memories and observations, opens a memory's history, edits or
 * deletes memories and observations, erases an end user, and runs a dream or a consolidation while
 * its phases stream in as server-sent events (see {@code docs/operator.md}).
 *
 * <p><b>Security model.</b> The console binds to a loopback address unless the caller explicitly
 * allows another ({@link #start(ContextManager, InetSocketAddress, String, boolean)}); every API
 * request must carry {@code Authorization: Bearer <token>}, compared in constant time; no CORS
 * header is ever sent, so another origin's page cannot read a response; responses are
 * {@code no-store} and {@code nosniff}, and the page runs under a Content-Security-Policy that
 * allows only its own script. The page and its script are static (they hold no data) and are the
 * only things served without the token; the page asks for the token once and keeps it in a
 * JavaScript variable, never in a cookie or web storage. User text is JSON-escaped by the API and
 * set with {@code textContent} by the page, never parsed as HTML.
 *
 * <pre>{@code
 * try (ReverieConsole console = ReverieConsole.start(memory,
 *         new InetSocketAddress(InetAddress.getLoopbackAddress(), 8080), ReverieConsole.newToken())) {
 *     System.out.println(console.url());
 *     ...
 * }
 * }</pre>
 *
 * <p>Thread-safe. {@link #close()} stops the server (safe twice) but never closes the manager, which
 * stays the caller's.
 */
public final class ReverieConsole implements AutoCloseable {

    /** The shortest token accepted, in characters. */
    public static final int MIN_TOKEN_LENGTH = 16;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final HttpServer server;
    private final ExecutorService executor;
    private final URI url;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ReverieConsole(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
        InetSocketAddress bound = server.getAddress();
        String host = bound.getAddress().getHostAddress();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        this.url = URI.create("http://" + host + ":" + bound.getPort() + "/");
    }

    /**
     * Starts the console on a loopback {@code address} (port 0 picks a free one). Fails with
     * {@link IllegalArgumentException} for a non-loopback address, a token shorter than
     * {@value #MIN_TOKEN_LENGTH} characters or one with whitespace, and {@link UncheckedIOException}
     * when the port cannot be bound.
     */
    public static ReverieConsole start(ContextManager memory, InetSocketAddress address, String token) {
        return start(memory, address, token, false);
    }

    /**
     * As {@link #start(ContextManager, InetSocketAddress, String)}; {@code allowNonLoopback} must be
     * true to bind any address other than a loopback one (for example behind a TLS reverse proxy):
     * the console speaks plain HTTP, so the token would cross the network in clear otherwise.
     */
    public static ReverieConsole start(ContextManager memory, InetSocketAddress address, String token,
                                       boolean allowNonLoopback) {
        if (memory == null) {
            throw new IllegalArgumentException("memory must not be null");
        }
        if (address == null) {
            throw new IllegalArgumentException("address must not be null (use 127.0.0.1 and port 0 for a free port)");
        }
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("address '" + address.getHostString() + "' could not be resolved");
        }
        if (!allowNonLoopback && !address.getAddress().isLoopbackAddress()) {
            throw new IllegalArgumentException("address " + address.getAddress().getHostAddress()
                    + " is not a loopback address; the console binds to 127.0.0.1 unless non-loopback"
                    + " binding is explicitly allowed");
        }
        checkToken(token);
        ExecutorService executor = Executors.newFixedThreadPool(4, daemonThreads());
        try {
            HttpServer server = HttpServer.create(address, 0);
            server.createContext("/", new ConsoleHandler(memory, token));
            server.setExecutor(executor);
            server.start();
            return new ReverieConsole(server, executor);
        } catch (IOException e) {
            executor.shutdownNow();
            throw new UncheckedIOException("could not bind the console to " + address + ": " + e.getMessage(), e);
        }
    }

    /** A fresh random token: 32 bytes from {@link SecureRandom}, URL-safe base64. */
    public static String newToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** The page's address, {@code http://127.0.0.1:PORT/}. */
    public URI url() {
        return url;
    }

    /** The bound socket address (the real port when 0 was asked). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** Stops the server; a dream already running finishes in the background. Safe to call twice. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        server.stop(0);
        executor.shutdown();
        try {
            executor.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void checkToken(String token) {
        if (token == null || token.length() < MIN_TOKEN_LENGTH) {
            throw new IllegalArgumentException("token must be at least " + MIN_TOKEN_LENGTH + " characters, was "
                    + (token == null ? "null" : token.length()));
        }
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c <= ' ' || c >= 127) {
                throw new IllegalArgumentException("token must be printable ASCII without spaces");
            }
        }
    }

    private static java.util.concurrent.ThreadFactory daemonThreads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "reverie-console-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
