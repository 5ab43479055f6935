package dev.reverie;

import dev.reverie.internal.Checks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The IMMUTABLE layer: system prompt, specs, rules and persona (AGENTS.md-style files), joined in
 * a fixed order and rendered first in every context, byte-identical between calls so providers can
 * cache the prefix. Build it from strings, files or classpath resources; sources are read once, at
 * creation. Immutable and thread-safe.
 */
public final class ImmutableLayer {

    private static final ImmutableLayer EMPTY = new ImmutableLayer("");
    private final String text;

    private ImmutableLayer(String text) {
        this.text = text;
    }

    /** A layer holding {@code parts} joined by blank lines, in order. */
    public static ImmutableLayer of(String... parts) {
        List<String> list = new ArrayList<>();
        for (String p : Checks.notNull("parts", parts)) {
            list.add(Checks.notNull("part", p).strip());
        }
        return new ImmutableLayer(String.join("\n\n", list.stream().filter(s -> !s.isEmpty()).toList()));
    }

    /**
     * A layer made of the files' contents (UTF-8), in the given order.
     *
     * @throws ConfigurationException when a file cannot be read, with the I/O error as its cause
     */
    public static ImmutableLayer fromFiles(Path... files) {
        List<String> parts = new ArrayList<>();
        for (Path f : Checks.notNull("files", files)) {
            try {
                parts.add(Files.readString(Checks.notNull("file", f), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new ConfigurationException("could not read immutable layer file " + f + " (" + e
                        + "): check that the path exists and is readable, or pass the text with ImmutableLayer.of", e);
            }
        }
        return of(parts.toArray(String[]::new));
    }

    /**
     * A layer made of classpath resources (UTF-8), in the given order.
     *
     * @throws ConfigurationException when a resource is missing or cannot be read
     */
    public static ImmutableLayer fromResources(String... resources) {
        List<String> parts = new ArrayList<>();
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = ImmutableLayer.class.getClassLoader();
        }
        for (String r : Checks.notNull("resources", resources)) {
            String name = r.startsWith("/") ? r.substring(1) : r;
            try (InputStream in = loader.getResourceAsStream(name)) {
                if (in == null) {
                    throw new ConfigurationException("immutable layer resource '" + r + "' was not found on the class "
                            + "path: check its name (a path inside the jar, such as prompts/system.md) and that it is packaged");
                }
                parts.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new ConfigurationException("could not read immutable layer resource '" + r + "' (" + e
                        + "): check that it is packaged intact, or pass the text with ImmutableLayer.of", e);
            }
        }
        return of(parts.toArray(String[]::new));
    }

    /** An empty layer (no system prompt). */
    public static ImmutableLayer empty() {
        return EMPTY;
    }

    /** This layer followed by {@code other}. */
    public ImmutableLayer then(ImmutableLayer other) {
        return of(text, other.text);
    }

    /** The rendered text. */
    public String text() {
        return text;
    }

    public boolean isEmpty() {
        return text.isEmpty();
    }
}
