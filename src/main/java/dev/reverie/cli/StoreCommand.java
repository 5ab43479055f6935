package dev.reverie.cli;

import dev.reverie.ContextManager;
import dev.reverie.console.OperatorJson;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/**
 * What every command shares: {@code --store URI} (default {@code $REVERIE_STORE}), a manager opened
 * on it for the command and closed after, and the streams. Not thread-safe.
 */
abstract class StoreCommand implements Callable<Integer> {

    @ParentCommand
    ReverieCli cli;

    @Option(names = "--store", paramLabel = "URI", defaultValue = "${env:REVERIE_STORE}",
            description = "Store URI, e.g. sqlite:./reverie-data or lucene:./reverie-index (default: $REVERIE_STORE).")
    String store;

    @Override
    public final Integer call() throws Exception {
        try (ContextManager memory = cli.open(store, createsStore())) {
            return run(memory);
        }
    }

    /** Whether the command may create a store that does not exist yet. */
    boolean createsStore() {
        return false;
    }

    abstract int run(ContextManager memory) throws Exception;

    PrintStream out() {
        return cli.out();
    }

    void printJson(Object value) {
        out().println(OperatorJson.writePretty(value));
    }

    /**
     * Prints a listing: {@code empty} when the table has no row, else the table and, when
     * {@code noun} is given ({@code "memory/memories"}), a count line.
     */
    void printListing(Table t, String empty, int count, String noun) {
        if (t.isEmpty()) {
            out().println(empty);
            return;
        }
        t.print(out());
        if (noun != null) {
            String[] forms = noun.split("/");
            out().println(count + " " + (count == 1 ? forms[0] : forms[1]));
        }
    }
}
