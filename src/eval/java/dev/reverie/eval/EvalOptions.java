package dev.reverie.eval;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The harness's command-line options, parsed and checked. Immutable and thread-safe.
 *
 * @param data          the LoCoMo JSON file
 * @param budgets       token budgets, ascending, each at least {@value #MIN_BUDGET}
 * @param systems       system names, in run order
 * @param store         the Reverie store backend: {@code sqlite} or {@code lucene}
 * @param limitSamples  how many samples to run from the start of the file, or 0 for all
 * @param out           the folder for results and traces
 * @param traceSystem   the system whose misses are traced, or {@code null}
 * @param traceBudget   the budget to trace, or 0 for every budget
 * @param samples       the sample ids to run, in no particular order, or empty for every sample
 * @param tuneSamples   the samples the defaults were tuned on; every other sample is held out
 * @param contexts      the JSON-lines file every assembled context is written to, or {@code null}
 */
public record EvalOptions(Path data, List<Integer> budgets, List<String> systems, String store,
                          int limitSamples, Path out, String traceSystem, int traceBudget,
                          Set<String> samples, Set<String> tuneSamples, Path contexts) {

    /**
     * The conversations of {@code locomo-dev.json} that Reverie's defaults were tuned on; conv-42 and
     * conv-43 are held back to show whether a change generalises.
     */
    static final Set<String> DEFAULT_TUNE_SAMPLES = Set.of("conv-26", "conv-30", "conv-41");

    /** Smallest accepted budget: the fixed prompt and a question must fit with room to spare. */
    static final int MIN_BUDGET = 128;

    /** Every system name, in the order {@code all} runs them. */
    static final List<String> ALL_SYSTEMS = List.of("window", "bm25", "dense",
            "reverie-lexical", "reverie-lexical-nodream", "reverie-hybrid", "reverie-hybrid-nodream");

    static final String USAGE = String.join("\n",
            "usage: LocomoEval --data FILE [options]",
            "  --data FILE          LoCoMo JSON file (format of locomo10.json); required",
            "  --budgets LIST       token budgets, comma-separated (default 512,1000,2000,4000)",
            "  --systems LIST       comma list of " + String.join(",", ALL_SYSTEMS),
            "                       or all (default all)",
            "  --store KIND         Reverie store backend: sqlite, lucene or postgresql (an embedded server; default sqlite)",
            "  --samples IDS        run only these samples, e.g. conv-26,conv-30 (default: all)",
            "  --limit-samples N    run only the first N samples (after --samples; default: all)",
            "  --split tune=IDS     the samples the defaults were tuned on; the others are held out and",
            "                       reported apart (default tune=" + String.join(",", new java.util.TreeSet<>(DEFAULT_TUNE_SAMPLES)) + ")",
            "  --contexts FILE      write every assembled context as one JSON object a line to FILE",
            "  --out DIR            output folder for results.json, results.md, traces (default target/locomo)",
            "  --trace SYS[:BUDGET] list SYS's missed questions (all budgets, or one) and write",
            "                       the evidence missed and the context held to DIR/trace-SYS[-BUDGET].txt",
            "  --help               this text");

    public EvalOptions {
        budgets = List.copyOf(budgets);
        systems = List.copyOf(systems);
        samples = Set.copyOf(samples);
        tuneSamples = Set.copyOf(tuneSamples);
    }

    /**
     * Parses the arguments.
     *
     * @throws IllegalArgumentException naming the bad option and value
     */
    public static EvalOptions parse(String[] args) {
        Path data = null;
        List<Integer> budgets = List.of(512, 1000, 2000, 4000);
        List<String> systems = ALL_SYSTEMS;
        String store = "sqlite";
        int limit = 0;
        Path out = Path.of("target", "locomo");
        String traceSystem = null;
        int traceBudget = 0;
        Set<String> samples = Set.of();
        Set<String> tune = DEFAULT_TUNE_SAMPLES;
        Path contexts = null;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--help") || option.equals("-h")) {
                throw new HelpRequested();
            }
            if (!option.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + option + "'");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            String value = args[++i];
            switch (option) {
                case "--data" -> data = Path.of(value);
                case "--budgets" -> budgets = budgets(value);
                case "--systems" -> systems = systems(value);
                case "--store" -> store = store(value);
                case "--limit-samples" -> limit = positive(option, value);
                case "--out" -> out = Path.of(value);
                case "--samples" -> samples = ids(option, value);
                case "--split" -> {
                    if (!value.startsWith("tune=")) {
                        throw new IllegalArgumentException("--split must be tune=ID[,ID...], was '" + value + "'");
                    }
                    tune = ids(option, value.substring("tune=".length()));
                }
                case "--contexts" -> contexts = Path.of(value);
                case "--trace" -> {
                    int colon = value.indexOf(':');
                    traceSystem = colon < 0 ? value : value.substring(0, colon);
                    traceBudget = colon < 0 ? 0 : positive(option, value.substring(colon + 1));
                    if (!ALL_SYSTEMS.contains(traceSystem)) {
                        throw new IllegalArgumentException("--trace names unknown system '" + traceSystem
                                + "'; known: " + String.join(",", ALL_SYSTEMS));
                    }
                }
                default -> throw new IllegalArgumentException("unknown option '" + option + "'");
            }
        }
        if (data == null) {
            throw new IllegalArgumentException("--data is required");
        }
        if (traceSystem != null && !systems.contains(traceSystem)) {
            throw new IllegalArgumentException("--trace " + traceSystem + " is not among --systems "
                    + String.join(",", systems));
        }
        if (traceBudget != 0 && !budgets.contains(traceBudget)) {
            throw new IllegalArgumentException("--trace budget " + traceBudget + " is not among --budgets "
                    + budgets);
        }
        return new EvalOptions(data, budgets, systems, store, limit, out, traceSystem, traceBudget,
                samples, tune, contexts);
    }

    /** Whether misses of {@code system} at {@code budget} are traced. */
    boolean traces(String system, int budget) {
        return system.equals(traceSystem) && (traceBudget == 0 || traceBudget == budget);
    }

    private static List<Integer> budgets(String value) {
        Set<Integer> out = new java.util.TreeSet<>();
        for (String part : value.split(",")) {
            int budget = positive("--budgets", part.strip());
            if (budget < MIN_BUDGET) {
                throw new IllegalArgumentException("--budgets: each budget must be at least " + MIN_BUDGET
                        + " tokens, was " + budget);
            }
            out.add(budget);
        }
        return new ArrayList<>(out);
    }

    private static List<String> systems(String value) {
        Set<String> out = new LinkedHashSet<>();
        for (String part : value.split(",")) {
            String name = part.strip().toLowerCase(Locale.ROOT);
            if (name.equals("all")) {
                out.addAll(ALL_SYSTEMS);
            } else if (ALL_SYSTEMS.contains(name)) {
                out.add(name);
            } else {
                throw new IllegalArgumentException("--systems: unknown system '" + name + "'; known: "
                        + String.join(",", ALL_SYSTEMS) + ", all");
            }
        }
        return new ArrayList<>(out);
    }

    private static Set<String> ids(String option, String value) {
        Set<String> out = new LinkedHashSet<>();
        for (String part : value.split(",")) {
            if (!part.isBlank()) {
                out.add(part.strip());
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(option + " needs at least one sample id, was '" + value + "'");
        }
        return out;
    }

    private static String store(String value) {
        String kind = value.strip().toLowerCase(Locale.ROOT);
        if (!kind.equals("sqlite") && !kind.equals("lucene") && !kind.equals("postgresql")) {
            throw new IllegalArgumentException("--store must be sqlite, lucene or postgresql (an embedded server),"
                    + " was '" + value + "'");
        }
        return kind;
    }

    private static int positive(String option, String value) {
        try {
            int n = Integer.parseInt(value.strip());
            if (n <= 0) {
                throw new IllegalArgumentException(option + " must be a positive integer, was " + value);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a positive integer, was '" + value + "'");
        }
    }

    /** Thrown by {@link #parse} for {@code --help}; the caller prints {@link #USAGE}. */
    static final class HelpRequested extends RuntimeException {
        private static final long serialVersionUID = 1L;

        HelpRequested() {
            super("help requested", null, false, false);
        }
    }
}
