package dev.reverie.cli;

import dev.reverie.ConfigurationException;
import dev.reverie.ContextManager;
import dev.reverie.MemoryFormatException;
import dev.reverie.MemoryStoreException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * The operator's command line: inspect, edit, dream, export, import and erase what Reverie keeps,
 * on any store URI, without writing a program ({@code docs/operator.md}). Build the runnable jar
 * with {@code mvn -q -Pcli package -DskipTests}, then {@code java -jar target/reverie-cli.jar --help}.
 *
 * <p>Exit codes: {@value #OK} on success, {@value #USER_ERROR} on a user error (bad scope, unknown
 * id, unreadable file, bad option) with a one-line message on stderr, {@value #STORE_FAILURE} when
 * the store fails ({@link MemoryStoreException}). {@link #run} runs a command in-process with the
 * given streams, which is how the tests drive it. One instance runs one command at a time; not
 * thread-safe.
 */
@Command(name = "reverie-cli", mixinStandardHelpOptions = true, versionProvider = ReverieCli.Version.class,
        description = "Inspect and manage what Reverie remembers. Scopes are written tenant/agent/user"
                + " (tenant/agent where a command addresses every user); --store takes any store URI"
                + " (default: $REVERIE_STORE).",
        subcommands = {
                InspectCommands.Users.class,
                InspectCommands.Memories.class,
                InspectCommands.Observations.class,
                InspectCommands.Show.class,
                InspectCommands.History.class,
                ChangeCommands.Delete.class,
                ChangeCommands.Edit.class,
                InspectCommands.Conversation.class,
                DreamCommands.Dream.class,
                DreamCommands.Consolidate.class,
                ChangeCommands.Export.class,
                ChangeCommands.Import.class,
                ChangeCommands.Erase.class,
                InspectCommands.Health.class,
                ConsoleCommand.class,
                CommandLine.HelpCommand.class
        })
public final class ReverieCli implements Callable<Integer> {

    /** Success. */
    public static final int OK = 0;
    /** A user error: bad scope, unknown id, unreadable file, bad option. */
    public static final int USER_ERROR = 1;
    /** The store failed. */
    public static final int STORE_FAILURE = 2;

    private PrintStream out = System.out;
    private PrintStream err = System.err;
    private InputStream in = System.in;
    private Boolean terminal;
    private CountDownLatch stop = new CountDownLatch(1);

    /** Runs the command line and exits with its code. */
    public static void main(String[] args) {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        System.exit(new ReverieCli().run(args, System.out, System.err, System.in));
    }

    /**
     * Runs one command with the given streams and returns its exit code; never calls
     * {@code System.exit}. Progress bars are drawn when a console is attached
     * ({@code System.console() != null}), plain progress lines otherwise.
     */
    public int run(String[] args, PrintStream out, PrintStream err, InputStream in) {
        this.out = out;
        this.err = err;
        this.in = in;
        this.stop = new CountDownLatch(1);
        CommandLine cl = new CommandLine(this);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.setParameterExceptionHandler((ex, a) -> {
            err.println("error: " + ex.getMessage());
            err.println("Try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
            return USER_ERROR;
        });
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> failure(ex));
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /** Without a command: the usage, and a user error. */
    @Override
    public Integer call() {
        CommandLine.usage(this, err);
        return USER_ERROR;
    }

    private int failure(Exception ex) {
        if (ex instanceof CliException || ex instanceof IllegalArgumentException
                || ex instanceof IllegalStateException || ex instanceof MemoryFormatException
                || ex instanceof ConfigurationException) {
            err.println("error: " + oneLine(ex.getMessage()));
            return USER_ERROR;
        }
        if (ex instanceof MemoryStoreException) {
            Throwable cause = ex.getCause();
            err.println("store failure: " + oneLine(ex.getMessage())
                    + (cause == null ? "" : " (" + oneLine(cause.toString()) + ")"));
            return STORE_FAILURE;
        }
        err.println("failure: " + oneLine(ex.toString()));
        return STORE_FAILURE;
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s*\\R\\s*", " ").trim();
    }

    // ------------------------------------------------------------------ for the commands

    PrintStream out() {
        return out;
    }

    PrintStream err() {
        return err;
    }

    InputStream in() {
        return in;
    }

    boolean terminal() {
        return terminal != null ? terminal : System.console() != null;
    }

    /** Forces terminal (progress bar) or plain output, for tests. */
    ReverieCli terminal(boolean isTerminal) {
        this.terminal = isTerminal;
        return this;
    }

    /** Released to stop a running {@code console} command (the tests' Ctrl-C). */
    CountDownLatch stopSignal() {
        return stop;
    }

    /**
     * Opens a manager on {@code uri}. Unless {@code create}, a local store folder must already exist,
     * so a mistyped path fails instead of showing an empty new store.
     */
    ContextManager open(String uri, boolean create) {
        if (uri == null || uri.isBlank()) {
            throw new CliException("--store URI is required (or set REVERIE_STORE), e.g. --store sqlite:./reverie-data");
        }
        if (!create) {
            requireExisting(uri);
        }
        return ContextManager.builder().store(uri).build();
    }

    private static void requireExisting(String uri) {
        int colon = uri.indexOf(':');
        if (colon <= 0) {
            return; // MemoryStores names the rule
        }
        String scheme = uri.substring(0, colon).toLowerCase(Locale.ROOT);
        String location = uri.substring(colon + 1);
        if (!scheme.equals("sqlite") && !scheme.equals("lucene") || location.startsWith(":memory:")) {
            return;
        }
        int q = location.indexOf('?');
        String folder = q < 0 ? location : location.substring(0, q);
        try {
            if (!folder.isBlank() && !Files.isDirectory(Path.of(folder))) {
                throw new CliException("store " + uri + " not found: no folder " + folder
                        + " (only import creates a store)");
            }
        } catch (InvalidPathException e) {
            throw new CliException("store " + uri + ": bad path: " + e.getMessage());
        }
    }

    /** The version from the jar's manifest, when there is one. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = ReverieCli.class.getPackage().getImplementationVersion();
            return new String[] {"reverie-cli " + (v == null ? "(development build)" : v),
                    "Java " + System.getProperty("java.version")};
        }
    }
}
