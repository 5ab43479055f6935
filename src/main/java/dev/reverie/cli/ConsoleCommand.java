package dev.reverie.cli;

import dev.reverie.ContextManager;
import dev.reverie.console.ReverieConsole;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Serves the operator console page on the store until interrupted (Ctrl-C). */
@Command(name = "console", mixinStandardHelpOptions = true,
        description = "Serve the operator console page (http://127.0.0.1:PORT/) on the store until Ctrl-C."
                + " Prints the URL and the bearer token the page asks for.")
final class ConsoleCommand extends StoreCommand {

    @Option(names = "--port", paramLabel = "N", defaultValue = "8080", description = "Port (default 8080; 0 picks a free one).")
    int port;
    @Option(names = "--token", paramLabel = "T", defaultValue = "${env:REVERIE_CONSOLE_TOKEN}",
            description = "Bearer token, at least 16 characters (default: $REVERIE_CONSOLE_TOKEN, else a random one).")
    String token;
    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "Address to bind (default 127.0.0.1). A non-loopback address needs --allow-remote.")
    String bind;
    @Option(names = "--allow-remote", description = "Allow a non-loopback --bind (plain HTTP: put TLS in front).")
    boolean allowRemote;

    @Override
    int run(ContextManager memory) throws InterruptedException {
        if (port < 0 || port > 65_535) {
            throw new CliException("--port must be between 0 and 65535, was " + port);
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new CliException("--bind address '" + bind + "' could not be resolved");
        }
        if (!allowRemote && !address.isLoopbackAddress()) {
            throw new CliException("--bind " + bind + " is not a loopback address; add --allow-remote to serve"
                    + " the console beyond this machine (plain HTTP: put TLS in front of it)");
        }
        String t = token == null || token.isBlank() ? ReverieConsole.newToken() : token;
        CountDownLatch closed = new CountDownLatch(1);
        // On Ctrl-C the JVM halts once the hooks return: this one waits until the store is closed,
        // so a Lucene store's last writes are committed.
        Thread hook = new Thread(() -> {
            cli.stopSignal().countDown();
            try {
                closed.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "reverie-console-stop");
        try (ReverieConsole console = ReverieConsole.start(memory, new InetSocketAddress(address, port), t, allowRemote)) {
            Runtime.getRuntime().addShutdownHook(hook);
            out().println("Reverie console: " + console.url());
            out().println("Token: " + t);
            out().println("Press Ctrl-C to stop.");
            out().flush();
            cli.stopSignal().await();
        } finally {
            memory.close(); // safe twice: the command closes it again
            closed.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException | IllegalArgumentException shuttingDownOrNeverAdded) {
                // the JVM is exiting (the hook is running), or start() failed before it was added
            }
        }
        return ReverieCli.OK;
    }
}
