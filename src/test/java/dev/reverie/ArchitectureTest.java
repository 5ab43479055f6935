package dev.reverie;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Holds the package rules of docs/architecture.md on the compiled classes: {@code jdeps} (the JDK's
 * class-dependency tool) lists every class-to-class reference in {@code target/classes}, and each
 * reference between two Reverie packages must be one the table allows. A new arrow is a design
 * decision: add it to the table and to docs/architecture.md together.
 */
class ArchitectureTest {

    private static final String API = "dev.reverie";
    private static final String SPI = "dev.reverie.spi";
    private static final String INTERNAL = "dev.reverie.internal";
    private static final String EXTRACT = "dev.reverie.extract";
    private static final String DREAM = "dev.reverie.dream";
    private static final String MICROMETER = "dev.reverie.micrometer";
    private static final String SPRINGAI = "dev.reverie.springai";
    private static final String CONSOLE = "dev.reverie.console";

    /** Which Reverie packages each package may reference (besides itself); docs/architecture.md draws it. */
    private static final Map<String, Set<String>> MAY_USE = Map.ofEntries(
            entry(API, Set.of(SPI, INTERNAL, EXTRACT, DREAM)),
            entry(SPI, Set.of(API, INTERNAL)),
            entry(INTERNAL, Set.of(API)),
            entry(EXTRACT, Set.of(API, SPI, INTERNAL)),
            entry(DREAM, Set.of(API, SPI, INTERNAL)),
            entry("dev.reverie.store.sqlite", Set.of(API, SPI, INTERNAL)),
            entry("dev.reverie.store.lucene", Set.of(API, SPI, INTERNAL)),
            entry("dev.reverie.store.postgres", Set.of(API, SPI, INTERNAL)),
            entry("dev.reverie.langchain4j", Set.of(API, SPI, INTERNAL)),
            entry(SPRINGAI, Set.of(API, SPI, INTERNAL)),
            entry(MICROMETER, Set.of(API, INTERNAL, DREAM)),
            entry("dev.reverie.springboot", Set.of(API, SPI, INTERNAL, DREAM, MICROMETER, SPRINGAI)),
            entry(CONSOLE, Set.of(API, SPI, DREAM)),
            entry("dev.reverie.cli", Set.of(API, SPI, DREAM, CONSOLE)));

    /**
     * The public classes of the packages whose implementation sits beside public types. In the API
     * package, the assembler, retriever, write pipeline, export codec, health monitor and secret
     * redactor are package-private next to {@code ContextManager}, which drives them (Caffeine's
     * discipline), so its list is the API itself; the SPI's list is what implementors write or use,
     * with the store-facing records ({@code SessionTurn}, {@code SessionSummary}); {@code extract} is
     * exported for its two extractors only; the classes of {@code internal} and of the stores are public only because another
     * Reverie package (or {@code ServiceLoader}, or a host opening a store) needs them.
     * docs/architecture.md lists them with their users. Making one public is a design decision: add
     * it here and there together.
     */
    private static final Map<String, Set<String>> PUBLIC_CLASSES = Map.of(
            API, Set.of("AssembledContext", "Cardinality", "ConfigurationException", "ContextBudgetException",
                    "ContextManager", "ContextMessage", "ContextRequest", "Embedding", "HealthAlert",
                    "ImmutableLayer", "ImportanceSignals", "Layer", "LayerHealth", "Memory", "MemoryAdmin",
                    "MemoryDraft", "MemoryEvent", "MemoryEventType", "MemoryFilter", "MemoryFormatException",
                    "MemoryKind", "MemoryPolicy", "MemoryStatus", "MemoryStoreException", "MemoryTool",
                    "MemoryTransferException", "Observation", "ObservationFilter", "ObservationStatus", "Outcome",
                    "Polarity", "Provenance", "RecallMode", "RecalledMemory", "ReverieException", "Role", "Scope",
                    "Source", "StoreClosedException", "StyleProfile", "TokenUsage", "Trust", "Turn", "TurnReceipt"),
            SPI, Set.of("Embedder", "ExtractedFact", "Extractor", "LanguageModel", "MemoryStore",
                    "MemoryStoreProvider", "MemoryStores", "ReferenceValidator", "Scored", "SessionSummary",
                    "SessionTurn", "Subjects", "Summarizer", "TokenCounter", "TurnInput", "TurnRange", "WriteBatch"),
            EXTRACT, Set.of("LlmExtractor", "RuleBasedExtractor"),
            INTERNAL, Set.of("Await", "Checks", "DecodedRecords", "GroupCommit", "Ids", "Jdbc", "Json", "NearestVectors",
                    "PastedContent", "Resources", "RoleNames", "ScopeLocks", "TenantNames", "Terms", "Vectors"),
            "dev.reverie.store.sqlite", Set.of("SqliteMemoryStore", "SqliteStoreProvider"),
            "dev.reverie.store.lucene", Set.of("LuceneMemoryStore", "LuceneStoreProvider", "ReverieCodec"),
            "dev.reverie.store.postgres", Set.of("PostgresMemoryStore", "PostgresStoreProvider"));

    /** The one helper of {@code internal} the SPI may use: it must not lean on implementation code. */
    private static final Set<String> SPI_MAY_USE_FROM_INTERNAL = Set.of("dev.reverie.internal.Checks");

    /** Optional libraries: only their integration package (and the PostgreSQL store) may reference them. */
    private static final Map<String, Set<String>> OPTIONAL_LIBRARIES = Map.of(
            "dev.langchain4j.", Set.of("dev.reverie.langchain4j"),
            "org.springframework.", Set.of(SPRINGAI, "dev.reverie.springboot"),
            "reactor.", Set.of(SPRINGAI),
            "io.micrometer.", Set.of(MICROMETER, "dev.reverie.springboot"),
            "picocli.", Set.of("dev.reverie.cli"),
            "org.postgresql.", Set.of("dev.reverie.store.postgres"),
            "com.zaxxer.hikari.", Set.of("dev.reverie.store.postgres"));

    private static final Pattern EDGE = Pattern.compile("^\\s+(dev\\.reverie\\.[\\w.$]+)\\s+->\\s+([\\w.$]+)\\s");

    /** Every reference from a Reverie class: {from class, to class}. */
    private static List<String[]> edges;

    @BeforeAll
    static void readClasses() throws URISyntaxException {
        Path classes = Path.of(ContextManager.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = jdeps.run(new PrintWriter(out), new PrintWriter(err), "-verbose:class", "-filter:none",
                classes.toString());
        assertThat(exit).as("jdeps: %s", err).isZero();
        edges = new ArrayList<>();
        for (String line : out.toString().split("\n")) {
            Matcher m = EDGE.matcher(line);
            if (m.find()) {
                edges.add(new String[] {m.group(1), m.group(2)});
            }
        }
        assertThat(edges).as("jdeps found the references of the main classes").hasSizeGreaterThan(1_000);
    }

    private static String packageOf(String className) {
        return className.substring(0, className.lastIndexOf('.'));
    }

    @Test
    void every_package_references_only_the_packages_the_architecture_allows() {
        Set<String> violations = new TreeSet<>();
        for (String[] e : edges) {
            String from = packageOf(e[0]);
            String to = e[1].contains(".") ? packageOf(e[1]) : "";
            if (!to.startsWith(API) || from.equals(to)) {
                continue;
            }
            Set<String> allowed = MAY_USE.get(from);
            if (allowed == null || !allowed.contains(to)) {
                violations.add(from + " -> " + to + " (" + e[0] + " -> " + e[1] + ")");
            }
        }
        assertThat(violations).as("references docs/architecture.md does not allow").isEmpty();
    }

    @Test
    void the_spi_uses_no_implementation_code() {
        Set<String> violations = new TreeSet<>();
        for (String[] e : edges) {
            if (packageOf(e[0]).equals(SPI) && e[1].startsWith(INTERNAL + ".")
                    && !SPI_MAY_USE_FROM_INTERNAL.contains(e[1].replaceAll("\\$.*", ""))) {
                violations.add(e[0] + " -> " + e[1]);
            }
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void internal_never_uses_the_spi() {
        // spi uses internal.Checks, so an internal -> spi reference would make the two a package cycle
        Set<String> users = new TreeSet<>();
        for (String[] e : edges) {
            if (packageOf(e[0]).equals(INTERNAL) && e[1].startsWith(SPI + ".")) {
                users.add(e[0].replaceAll("\\$.*", ""));
            }
        }
        assertThat(users).isEmpty();
    }

    @Test
    void the_core_references_no_optional_library() {
        Set<String> violations = new TreeSet<>();
        for (String[] e : edges) {
            String from = packageOf(e[0]);
            OPTIONAL_LIBRARIES.forEach((prefix, owners) -> {
                if (e[1].startsWith(prefix) && !owners.contains(from)) {
                    violations.add(e[0] + " -> " + e[1]);
                }
            });
        }
        assertThat(violations).as("optional libraries used outside their integration package").isEmpty();
    }

    @Test
    void packages_make_public_only_the_listed_classes() throws Exception {
        Path classes = Path.of(ContextManager.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        for (Map.Entry<String, Set<String>> e : PUBLIC_CLASSES.entrySet()) {
            Set<String> found = new TreeSet<>();
            Path folder = classes.resolve(e.getKey().replace('.', '/'));
            try (var files = java.nio.file.Files.list(folder)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    String file = f.getFileName().toString();
                    if (file.endsWith(".class") && !file.contains("$")) {
                        String name = file.substring(0, file.length() - ".class".length());
                        Class<?> c = Class.forName(e.getKey() + "." + name, false, getClass().getClassLoader());
                        if (java.lang.reflect.Modifier.isPublic(c.getModifiers())) {
                            found.add(name);
                        }
                    }
                }
            }
            assertThat(found).as("public classes of %s", e.getKey()).isEqualTo(new TreeSet<>(e.getValue()));
        }
    }

    @Test
    void every_package_of_the_jar_has_its_rule() {
        Set<String> packages = new TreeSet<>();
        for (String[] e : edges) {
            packages.add(packageOf(e[0]));
        }
        assertThat(MAY_USE.keySet()).containsAll(packages);
    }
}
