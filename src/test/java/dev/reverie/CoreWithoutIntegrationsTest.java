package dev.reverie;

import dev.reverie.dream.DreamListener;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The core jar works with none of the optional integrations (Spring AI, Spring Boot, Micrometer,
 * Reactor, LangChain4j) on the class path: a scenario runs in a class loader that sees only the
 * project's classes and the core's own dependencies.
 */
class CoreWithoutIntegrationsTest {

    /** The core's compile dependencies, as path fragments of their jars (versions may change, names not). */
    static final List<String> CORE = List.of("/com/fasterxml/jackson/", "/org/xerial/sqlite-jdbc/",
            "/org/apache/lucene/", "/org/slf4j/slf4j-api/", "/com/knuddels/jtokkit/",
            "/org/slf4j/slf4j-simple/"); // and the tests' log binding

    @Test
    void the_core_runs_with_no_spring_micrometer_reactor_or_langchain4j_on_the_class_path() throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String path = entry.replace('\\', '/');
            if (!path.endsWith(".jar") || CORE.stream().anyMatch(path::contains)) {
                urls.add(Path.of(entry).toUri().toURL()); // the classes folders and the core's jars
            }
        }
        assertThat(urls).noneMatch(u -> u.getPath().contains("springframework") || u.getPath().contains("micrometer")
                || u.getPath().contains("projectreactor") || u.getPath().contains("langchain4j"));
        java.sql.DriverManager.getDrivers(); // the JVM-wide driver scan happens here, as it would in a full run
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        try (URLClassLoader isolated = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            thread.setContextClassLoader(isolated);
            Runnable smoke = (Runnable) isolated.loadClass(Smoke.class.getName()).getDeclaredConstructor().newInstance();
            smoke.run();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** Runs inside the isolated class loader: core types and the JDK only. */
    public static final class Smoke implements Runnable {
        @Override
        public void run() {
            for (String absent : List.of("org.springframework.ai.chat.client.ChatClient",
                    "org.springframework.boot.autoconfigure.AutoConfiguration", "io.micrometer.core.instrument.MeterRegistry",
                    "reactor.core.publisher.Flux", "dev.langchain4j.model.chat.ChatModel")) {
                try {
                    Class.forName(absent, false, getClass().getClassLoader());
                    throw new AssertionError(absent + " should not be on the isolated class path");
                } catch (ClassNotFoundException expected) {
                    // as intended
                }
            }
            // DriverManager scans for drivers once per JVM, through the application class loader; an
            // earlier test has done so, so this loader's copy of the driver must register itself
            java.sql.Driver driver;
            try {
                Class.forName("org.sqlite.JDBC", true, getClass().getClassLoader());
                driver = java.util.Collections.list(java.sql.DriverManager.getDrivers()).stream()
                        .filter(d -> d.getClass().getClassLoader() == getClass().getClassLoader()).findFirst().orElseThrow();
            } catch (ClassNotFoundException e) {
                throw new AssertionError("the SQLite driver must be on the isolated class path", e);
            }
            Scope scope = Scope.of("clinic-42", "receptionist", "alice");
            try (ContextManager memory = ContextManager.builder().store("sqlite::memory:")
                    .immutable(ImmutableLayer.of("You are the clinic's receptionist.")).build()) {
                memory.recordTurn(scope, "s1", Turn.user("I'm allergic to dipyrone."), Turn.assistant("Noted."));
                memory.dream("clinic-42", "receptionist", DreamListener.NONE);
                AssembledContext context = memory.buildContext(ContextRequest.builder(scope, "s2")
                        .query("Can I take dipyrone?").build());
                String all = String.join("\n", context.messages().stream().map(ContextMessage::content).toList());
                if (!all.contains("dipyrone") || !all.contains("receptionist")) {
                    throw new AssertionError("the context lacks the recalled fact or the persona: " + all);
                }
                memory.health();
                memory.recallTool(scope).call("{\"query\":\"allergy\"}");
            } finally {
                try {
                    java.sql.DriverManager.deregisterDriver(driver);
                } catch (java.sql.SQLException e) {
                    throw new AssertionError(e);
                }
            }
        }
    }
}
