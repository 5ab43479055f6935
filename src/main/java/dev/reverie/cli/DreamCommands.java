package dev.reverie.cli;

import dev.reverie.ContextManager;
import dev.reverie.Scope;
import dev.reverie.console.OperatorJson;
import dev.reverie.dream.DreamReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.util.Map;

/** dream and consolidate: progress on stderr while they run, the report on stdout at the end. */
final class DreamCommands {

    private DreamCommands() {
    }

    static void printReport(StoreCommand command, DreamReport report, boolean json) {
        if (json) {
            command.printJson(report);
            return;
        }
        PrintStream out = command.out();
        @SuppressWarnings("unchecked")
        Map<String, Object> counters = OperatorJson.mapper().convertValue(report, Map.class);
        Table t = new Table("COUNTER", "VALUE");
        counters.forEach(t::row);
        t.print(out);
    }

    @Command(name = "dream", mixinStandardHelpOptions = true,
            description = "Run the dream cycle (light, deep, REM, prune) for one end user (tenant/agent/user) or"
                    + " for every end user of a tenant and agent (tenant/agent), with progress, then print the report.")
    static final class Dream extends StoreCommand {
        @Parameters(index = "0", paramLabel = "SCOPE", description = "tenant/agent or tenant/agent/user")
        String scope;
        @Option(names = "--json", description = "Print only the report, as JSON (progress still goes to stderr).")
        boolean json;

        @Override
        int run(ContextManager memory) {
            String[] parts = Scopes.agentOrUser(scope);
            boolean everyUser = parts.length == 2;
            DreamProgress progress = new DreamProgress(cli.err(), cli.terminal(), everyUser);
            DreamReport report;
            try {
                report = everyUser ? memory.dream(parts[0], parts[1], progress)
                        : memory.dream(Scope.of(parts[0], parts[1], parts[2]), progress);
            } finally {
                progress.finish();
            }
            printReport(this, report, json);
            return report.failed() > 0 ? ReverieCli.STORE_FAILURE : ReverieCli.OK;
        }
    }

    @Command(name = "consolidate", mixinStandardHelpOptions = true,
            description = "Reprocess an end user's whole L3 stack, consolidated observations included (idempotent),"
                    + " with progress, then print the report.")
    static final class Consolidate extends StoreCommand {
        @Parameters(index = "0", paramLabel = "SCOPE", description = "tenant/agent/user")
        String scope;
        @Option(names = "--json", description = "Print only the report, as JSON (progress still goes to stderr).")
        boolean json;

        @Override
        int run(ContextManager memory) {
            Scope s = Scopes.user(scope);
            DreamProgress progress = new DreamProgress(cli.err(), cli.terminal(), false);
            DreamReport report;
            try {
                report = memory.consolidate(s, progress);
            } finally {
                progress.finish();
            }
            printReport(this, report, json);
            return ReverieCli.OK;
        }
    }
}
