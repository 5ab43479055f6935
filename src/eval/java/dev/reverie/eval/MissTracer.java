package dev.reverie.eval;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code --trace} tool: for each question a system missed evidence on, one line on the console
 * and a full record in a file: the evidence turns missed (with the system's own
 * {@linkplain EvalSystem#diagnose diagnosis} of each, where it has one), the ones found, the items
 * it recalled with their source turns, and the whole context it built. Reading it shows at which
 * stage a turn was lost: never stored, stored but not ranked, ranked but not packed.
 *
 * <p>Not thread-safe; one per traced system.
 */
final class MissTracer implements AutoCloseable {
    private final BufferedWriter file;
    private final PrintStream console;
    private final Path path;
    private int misses;

    MissTracer(Path path, PrintStream console) {
        this.path = path;
        this.console = console;
        try {
            Files.createDirectories(path.toAbsolutePath().getParent());
            this.file = Files.newBufferedWriter(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open trace file " + path.toAbsolutePath(), e);
        }
    }

    void miss(EvalSystem system, LocomoData.Sample sample, LocomoData.QaItem qa, int budget,
              RetrievedContext context, Set<String> found, Map<String, LocomoData.DialogTurn> turns) {
        misses++;
        List<String> missed = qa.evidence().stream().filter(id -> !found.contains(id)).toList();
        console.printf(Locale.ROOT, "MISS %s %s q%d cat%d @%d found %d/%d missed %s: %s%n", system.name(),
                sample.id(), qa.index(), qa.category(), budget, found.size(), qa.evidence().size(), missed,
                qa.question());
        StringBuilder out = new StringBuilder();
        out.append("=== ").append(system.name()).append(" @").append(budget).append(" | ").append(sample.id())
                .append(" q").append(qa.index()).append(" cat ").append(qa.category())
                .append(" | found ").append(found.size()).append('/').append(qa.evidence().size())
                .append(" | ").append(context.tokens()).append(" tokens\n");
        out.append("Q: ").append(qa.question()).append("\nA: ").append(qa.answer()).append('\n');
        for (String id : missed) {
            LocomoData.DialogTurn turn = turns.get(id);
            out.append("  MISSED ").append(id).append(" (").append(turn.speaker()).append(", ")
                    .append(turn.at().toString(), 0, 10).append("): ").append(turn.text()).append('\n');
            String diagnosis = system.diagnose(id);
            if (!diagnosis.isBlank()) {
                out.append("         ").append(diagnosis.replace("\n", "\n         ")).append('\n');
            }
        }
        for (String id : qa.evidence()) {
            if (found.contains(id)) {
                out.append("  found  ").append(id).append(": ").append(turns.get(id).text()).append('\n');
            }
        }
        out.append("  recalled (").append(context.recalled().size()).append("):\n");
        for (RetrievedContext.Recalled item : context.recalled()) {
            out.append(String.format(Locale.ROOT, "    %-14s %.4f %s %s%n", item.label(), item.score(),
                    item.sourceTurnIds(), abbreviate(item.text())));
        }
        out.append("  context:\n    ").append(context.text().replace("\n", "\n    ")).append("\n\n");
        try {
            file.write(out.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write trace file " + path.toAbsolutePath(), e);
        }
    }

    private static String abbreviate(String text) {
        String line = text.replace('\n', ' ');
        return line.length() <= 160 ? line : line.substring(0, 157) + "...";
    }

    @Override
    public void close() {
        try {
            file.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close trace file " + path.toAbsolutePath(), e);
        }
        console.printf(Locale.ROOT, "trace: %d missed questions written to %s%n", misses, path.toAbsolutePath());
    }
}
