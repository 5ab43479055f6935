package dev.reverie.docs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's quick start compiles and runs as pasted: the first {@code java} block of README.md
 * is extracted (its imports and its statements), wrapped in a method, compiled against the test
 * class path and run. The only change is the store folder, moved from {@code ./reverie-data} to a
 * temporary directory so the test leaves nothing in the working tree.
 */
class ReadmeQuickStartTest {

    private static final Pattern FIRST_JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

    @TempDir
    Path dir;

    @Test
    void the_readme_quick_start_compiles_and_runs_as_pasted() throws Exception {
        String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
        Matcher m = FIRST_JAVA_BLOCK.matcher(readme);
        assertThat(m.find()).as("README.md has a java code block").isTrue();
        List<String> imports = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        for (String line : m.group(1).split("\n")) {
            if (line.startsWith("import ")) {
                imports.add(line);
            } else {
                body.append(line).append('\n');
            }
        }
        assertThat(imports).as("the quick start shows its imports").isNotEmpty();
        String store = dir.resolve("reverie-data").toString().replace("\\", "/");
        String code = body.toString().replace("sqlite:./reverie-data", "sqlite:" + store);
        String source = String.join("\n", imports) + "\n\npublic class QuickStart {\n"
                + "    public static void run() throws Exception {\n" + code + "\n    }\n}\n";
        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(src.resolve("QuickStart.java"), source);
        Path classes = Files.createDirectories(dir.resolve("classes"));

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int rc = javac.run(null, null, errors, "-classpath", System.getProperty("java.class.path"),
                "-d", classes.toString(), src.resolve("QuickStart.java").toString());
        assertThat(rc).as("javac output:\n%s\nsource:\n%s", errors, source).isZero();

        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                getClass().getClassLoader())) {
            Method run = loader.loadClass("QuickStart").getMethod("run");
            run.invoke(null);
        }
        assertThat(Files.exists(dir.resolve("reverie-data"))).isTrue();
    }
}
