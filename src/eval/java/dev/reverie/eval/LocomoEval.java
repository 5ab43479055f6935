package dev.reverie.eval;

import dev.reverie.ReverieException;
import dev.reverie.spi.TokenCounter;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The LoCoMo evidence-recall harness: feeds each conversation of a LoCoMo file to every chosen
 * system, asks each scorable question under each token budget, and scores whether the context
 * holds the evidence turns, exactly as {@code shared/eval/locomo/README.md} describes. Writes
 * {@code results.json} and {@code results.md} to the output folder. See {@code docs/locomo.md}.
 *
 * <p>Run with {@code mvn -q -Peval compile exec:java -Dexec.args="--data FILE ..."}; {@code --help}
 * lists the options. A command-line tool, not thread-safe.
 */
public final class LocomoEval {

    /** Questions run untimed on the first sample before measuring, so latency excludes JIT warm-up. */
    private static final int WARM_UP_QUESTIONS = 20;

    private final EvalOptions options;
    private final PrintStream console;
    private final TokenCounter counter = TokenCounter.o200k();
    private final TurnPacker packer = new TurnPacker(counter);
    private final ContentTerms terms = new ContentTerms();
    private final List<LocomoData.Sample> samples;
    private CachingEmbedder embedder;
    private ContextLog contextLog;
    /** The embedded server of a {@code --store postgresql} run, started with its first Reverie system. */
    private EvalPostgres postgres;
    private double questionEmbeddingSeconds;

    private LocomoEval(EvalOptions options, List<LocomoData.Sample> samples, PrintStream console) {
        this.options = options;
        this.samples = List.copyOf(samples);
        this.console = console;
    }

    /** Entry point; exits 2 on bad options or data, 1 when a system fails. */
    public static void main(String[] args) {
        EvalOptions options;
        try {
            options = EvalOptions.parse(args);
        } catch (EvalOptions.HelpRequested help) {
            System.out.println(EvalOptions.USAGE);
            return;
        } catch (IllegalArgumentException e) {
            System.err.println("LocomoEval: " + e.getMessage());
            System.err.println(EvalOptions.USAGE);
            System.exit(2);
            return;
        }
        List<LocomoData.Sample> samples;
        try {
            samples = LocomoData.load(options.data());
        } catch (IllegalArgumentException e) {
            System.err.println("LocomoEval: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (!options.samples().isEmpty()) {
            Set<String> known = new HashSet<>();
            samples.forEach(sample -> known.add(sample.id()));
            List<String> unknown = options.samples().stream().filter(id -> !known.contains(id)).sorted().toList();
            if (!unknown.isEmpty()) {
                System.err.println("LocomoEval: --samples names " + unknown + ", not in " + options.data()
                        + "; it holds " + samples.stream().map(LocomoData.Sample::id).toList());
                System.exit(2);
                return;
            }
            samples = samples.stream().filter(sample -> options.samples().contains(sample.id())).toList();
        }
        if (options.limitSamples() > 0 && samples.size() > options.limitSamples()) {
            samples = samples.subList(0, options.limitSamples());
        }
        try {
            new LocomoEval(options, samples, System.out).run();
        } catch (SystemFailure e) {
            System.err.println("LocomoEval: " + e.getMessage());
            if (!(e.getCause() instanceof ReverieException) && !(e.getCause() instanceof IllegalArgumentException)) {
                e.getCause().printStackTrace();
            }
            System.exit(1);
        }
        // the ONNX runtime leaves non-daemon threads behind
        System.exit(0);
    }

    /** A system failed to start, ingest, answer or close; the message names it. */
    private static final class SystemFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SystemFailure(String system, Exception cause) {
            super("system '" + system + "' failed: " + cause.getMessage(), cause);
        }
    }

    private void run() {
        long start = System.nanoTime();
        Map<String, Object> data = describe();
        console.printf(Locale.ROOT, "LoCoMo: %s samples, %s turns, %s questions in categories 1-4, %s in 5%n",
                data.get("samples"), data.get("turns"), data.get("questionsCategories1to4"),
                data.get("questionsCategory5"));
        Map<String, Map<String, EvidenceMatcher>> matchers = new HashMap<>();
        for (LocomoData.Sample sample : samples) {
            Map<String, EvidenceMatcher> bySample = new HashMap<>();
            sample.turns().forEach(t -> bySample.put(t.diaId(), EvidenceMatcher.of(t.text())));
            matchers.put(sample.id(), bySample);
        }
        Scoreboard board = new Scoreboard();
        List<ReportWriter.SystemResult> results = new ArrayList<>();
        contextLog = options.contexts() == null ? null : new ContextLog(options.contexts());
        try {
            for (String name : options.systems()) {
                try (EvalSystem system = create(name)) {
                    results.add(evaluate(system, matchers, board));
                } catch (Exception e) {
                    throw new SystemFailure(name, e);
                }
            }
        } finally {
            if (contextLog != null) {
                contextLog.close();
            }
            if (postgres != null) {
                postgres.close();
            }
        }
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        run.put("cores", Runtime.getRuntime().availableProcessors());
        run.put("java", System.getProperty("java.version"));
        run.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        run.put("budgets", options.budgets());
        run.put("tokenizer", "o200k_base (JTokkit), each message counted with its overhead");
        run.put("captions", "appended to the turn text as" + LocomoData.CAPTION_FORMAT.replace("%s", "<blip_caption>"));
        run.put("store", options.store());
        run.put("split", split());
        if (embedder != null) {
            run.put("embedder", "all-MiniLM-L6-v2 (LangChain4j, ONNX, local), cached by text for the run");
            run.put("embeddedTexts", embedder.embeddedCount());
            run.put("embeddingModelSeconds", round1(embedder.modelSeconds()));
            run.put("questionEmbeddingSeconds", round1(questionEmbeddingSeconds));
            run.put("questionEmbeddingMsEach", round1(1000 * questionEmbeddingSeconds
                    / Math.max(1, (int) data.get("questionsCategories1to4") + (int) data.get("questionsCategory5"))));
        }
        run.put("seconds", Math.round((System.nanoTime() - start) / 1e9));
        ReportWriter.RunResult result = new ReportWriter.RunResult("LoCoMo evidence recall", data, run, results);
        ReportWriter.write(options.out(), result);
        console.println();
        console.print(ReportWriter.markdown(result));
        console.printf(Locale.ROOT, "%nwrote %s and results.md%n",
                options.out().resolve("results.json").toAbsolutePath());
        if (contextLog != null) {
            console.printf(Locale.ROOT, "wrote %d contexts to %s%n", contextLog.written(),
                    contextLog.file().toAbsolutePath());
        }
    }

    /** The samples of this run in the tuning set and the held-out set. */
    private Map<String, List<String>> split() {
        Map<String, List<String>> split = new LinkedHashMap<>();
        split.put(ReportWriter.TUNE, samples.stream().map(LocomoData.Sample::id).filter(this::tuned).toList());
        split.put(ReportWriter.HELD_OUT, samples.stream().map(LocomoData.Sample::id)
                .filter(id -> !tuned(id)).toList());
        return split;
    }

    private boolean tuned(String sampleId) {
        return options.tuneSamples().contains(sampleId);
    }

    private ReportWriter.SystemResult evaluate(EvalSystem system, Map<String, Map<String, EvidenceMatcher>> matchers,
                                               Scoreboard board) {
        console.printf(Locale.ROOT, "%n== %s: %s%n", system.name(), system.description());
        boolean traced = options.budgets().stream().anyMatch(b -> options.traces(system.name(), b));
        MissTracer tracer = traced ? tracer(system.name()) : null;
        long ingestNanos = 0;
        boolean warmedUp = false;
        try {
            for (LocomoData.Sample sample : samples) {
                long t0 = System.nanoTime();
                system.ingest(sample);
                long took = System.nanoTime() - t0;
                ingestNanos += took;
                List<LocomoData.QaItem> questions = sample.questions().stream()
                        .filter(LocomoData.QaItem::usable).toList();
                if (!warmedUp) {
                    for (LocomoData.QaItem qa : questions.subList(0, Math.min(WARM_UP_QUESTIONS, questions.size()))) {
                        system.context(qa.question(), options.budgets().get(0));
                    }
                    warmedUp = true;
                }
                Map<String, LocomoData.DialogTurn> turns = sample.turnsById();
                double[] recallSum = new double[options.budgets().size()];
                double[] answerSum = new double[options.budgets().size()];
                int[] answered = new int[options.budgets().size()];
                long scored = questions.stream().filter(qa -> qa.category() <= 4).count();
                for (int b = 0; b < options.budgets().size(); b++) {
                    int budget = options.budgets().get(b);
                    MissTracer budgetTracer = options.traces(system.name(), budget) ? tracer : null;
                    for (LocomoData.QaItem qa : questions) {
                        long q0 = System.nanoTime();
                        RetrievedContext context = system.context(qa.question(), budget);
                        long latency = System.nanoTime() - q0;
                        Scoreboard.Outcome outcome = score(sample, qa, context, latency,
                                matchers.get(sample.id()), budgetTracer, system, budget, turns);
                        if (contextLog != null) {
                            contextLog.write(system.name(), budget, sample.id(), qa, context, outcome);
                        }
                        board.add(system.name(), budget, outcome);
                        if (qa.category() <= 4) {
                            recallSum[b] += outcome.recall();
                        }
                        if (outcome.hasAnswerTerms()) {
                            answerSum[b] += outcome.answerCoverage();
                            answered[b]++;
                        }
                    }
                }
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                        "  %-8s ingest %6.1f s, recall 1-4 / answer coverage:", sample.id(), took / 1e9));
                for (int b = 0; b < recallSum.length; b++) {
                    line.append(String.format(Locale.ROOT, " %d=%.1f%%/%.1f%%", options.budgets().get(b),
                            100 * recallSum[b] / Math.max(1, scored), 100 * answerSum[b] / Math.max(1, answered[b])));
                }
                console.println(line);
            }
        } finally {
            if (tracer != null) {
                tracer.close();
            }
        }
        Map<String, List<Scoreboard.BudgetSummary>> bySet = new LinkedHashMap<>();
        bySet.put(ReportWriter.TUNE, board.summarize(system.name(), this::tuned));
        bySet.put(ReportWriter.HELD_OUT, board.summarize(system.name(), id -> !tuned(id)));
        return new ReportWriter.SystemResult(system.name(), system.description(), ingestNanos / 1e9,
                board.summarize(system.name()), bySet, system.notes());
    }

    private MissTracer tracer(String system) {
        String suffix = options.traceBudget() == 0 ? "" : "-" + options.traceBudget();
        return new MissTracer(options.out().resolve("trace-" + system + suffix + ".txt"), console);
    }

    private Scoreboard.Outcome score(LocomoData.Sample sample, LocomoData.QaItem qa, RetrievedContext context,
                                     long latency, Map<String, EvidenceMatcher> matchers, MissTracer tracer,
                                     EvalSystem system, int budget, Map<String, LocomoData.DialogTurn> turns) {
        String normalized = EvidenceMatcher.normalize(context.text());
        Set<String> names = new HashSet<>(terms.of(sample.speakerA() + " " + sample.speakerB()));
        Set<String> found = new HashSet<>();
        int byProvenanceOnly = 0;
        int byTextOnly = 0;
        int refused = 0;
        double covered = 0;
        for (String id : qa.evidence()) {
            boolean byText = matchers.get(id).foundIn(normalized);
            boolean cited = false;
            List<String> citing = new ArrayList<>();
            for (RetrievedContext.Recalled item : context.recalled()) {
                if (item.sourceTurnIds().contains(id)) {
                    cited = true;
                    if (terms.share(item.text(), turns.get(id).text(), names)) {
                        citing.add(item.text());
                    }
                }
            }
            boolean byProvenance = !citing.isEmpty();
            if (byText || byProvenance) {
                found.add(id);
                byProvenanceOnly += byText ? 0 : 1;
                byTextOnly += byProvenance ? 0 : 1;
                covered += byText ? 1 : terms.coverage(turns.get(id).text(), citing, names);
            } else if (cited) {
                refused++;
            }
        }
        if (tracer != null && found.size() < qa.evidence().size()) {
            tracer.miss(system, sample, qa, budget, context, found, turns);
        }
        ContentTerms.Overlap answer = qa.category() <= 4
                ? terms.overlap(qa.answer(), withoutPromptAndQuestion(context.text(), qa.question()), names)
                : new ContentTerms.Overlap(0, 0);
        return new Scoreboard.Outcome(sample.id(), qa.index(), qa.category(), qa.evidence().size(),
                found.size(), covered, byProvenanceOnly, byTextOnly, refused, answer.wanted(), answer.present(),
                context.tokens(), latency);
    }

    /**
     * The context without the fixed prompt and the question, which every system's context carries:
     * an answer word counts as held only when the context brought it, not when the question did.
     */
    static String withoutPromptAndQuestion(String context, String question) {
        String text = context;
        int prompt = text.indexOf(TurnPacker.SYSTEM_PROMPT);
        if (prompt >= 0) {
            text = text.substring(0, prompt) + text.substring(prompt + TurnPacker.SYSTEM_PROMPT.length());
        }
        int asked = question.isEmpty() ? -1 : text.lastIndexOf(question);
        if (asked >= 0) {
            text = text.substring(0, asked) + text.substring(asked + question.length());
        }
        return text;
    }

    private EvalSystem create(String name) {
        return switch (name) {
            case "window" -> new SlidingWindowSystem(packer);
            case "bm25" -> new Bm25System(packer);
            case "dense" -> new DenseSystem(packer, embedder());
            case "reverie-lexical", "reverie-lexical-nodream", "reverie-hybrid", "reverie-hybrid-nodream" ->
                    new ReverieSystem(name, options.store(), freshStoreUri(name),
                            name.startsWith("reverie-hybrid") ? embedder() : null, !name.endsWith("-nodream"));
            default -> throw new IllegalArgumentException("unknown system '" + name + "'");
        };
    }

    /**
     * A store URI for a new, empty store of {@code system}: a fresh folder under {@code OUT/stores}
     * (SQLite, Lucene) or a fresh database on the run's embedded PostgreSQL.
     */
    private String freshStoreUri(String system) {
        if (options.store().equals("postgresql")) {
            if (postgres == null) {
                postgres = EvalPostgres.start(options.out().resolve("stores").resolve("postgresql"));
            }
            return postgres.freshStoreUri(system);
        }
        return options.store() + ":" + ReverieSystem.freshFolder(options.out(), system).toAbsolutePath();
    }

    /**
     * The run's shared, caching MiniLM embedder. Every question is embedded up front, in batches, so
     * that query latency measures retrieval alone; that cost is reported apart.
     */
    private CachingEmbedder embedder() {
        if (embedder == null) {
            embedder = CachingEmbedder.miniLm();
            List<String> questions = new ArrayList<>();
            for (LocomoData.Sample sample : samples) {
                sample.questions().stream().filter(LocomoData.QaItem::usable)
                        .forEach(qa -> questions.add(qa.question()));
            }
            long t0 = System.nanoTime();
            embedder.embedAll(questions);
            questionEmbeddingSeconds = (System.nanoTime() - t0) / 1e9;
            console.printf(Locale.ROOT, "embedded %d questions in %.1f s (reported apart from query latency)%n",
                    questions.size(), questionEmbeddingSeconds);
        }
        return embedder;
    }

    private Map<String, Object> describe() {
        int sessions = 0;
        int turns = 0;
        int[] perCategory = new int[6];
        Map<String, Integer> conversationTokens = new LinkedHashMap<>();
        for (LocomoData.Sample sample : samples) {
            sessions += sample.sessions().size();
            int tokens = 0;
            for (LocomoData.DialogTurn turn : sample.turns()) {
                turns++;
                tokens += counter.countMessage(TurnPacker.render(turn));
            }
            conversationTokens.put(sample.id(), tokens);
            for (LocomoData.QaItem qa : sample.questions()) {
                if (qa.usable()) {
                    perCategory[qa.category()]++;
                }
            }
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("path", options.data().toString());
        data.put("sha256", sha256(options.data()));
        data.put("samples", samples.size());
        data.put("sessions", sessions);
        data.put("turns", turns);
        data.put("questionsCategories1to4", perCategory[1] + perCategory[2] + perCategory[3] + perCategory[4]);
        data.put("questionsCategory5", perCategory[5]);
        Map<String, Integer> byCategory = new LinkedHashMap<>();
        for (int c = 1; c <= 5; c++) {
            byCategory.put(String.valueOf(c), perCategory[c]);
        }
        data.put("questionsByCategory", byCategory);
        data.put("conversationTokens", conversationTokens);
        data.put("meanConversationTokens", Math.round(conversationTokens.values().stream()
                .mapToInt(Integer::intValue).average().orElse(0)));
        return data;
    }

    private static double round1(double value) {
        return Math.round(value * 10) / 10.0;
    }

    private static String sha256(Path path) {
        try (InputStream in = Files.newInputStream(path)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path.toAbsolutePath(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
