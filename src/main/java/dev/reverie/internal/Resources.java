package dev.reverie.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The line-based tables shipped in the jar (word lists, word-to-key maps): one entry a line, blank
 * lines and lines starting with {@code #} ignored, entries trimmed. A table that cannot be read is a
 * broken jar, reported as an {@link IllegalStateException} naming the resource. Callers load each
 * table once (a static field). Stateless and thread-safe. Not API.
 */
public final class Resources {

    private Resources() {
    }

    /**
     * The entries of the table {@code name}, resolved next to {@code anchor} (its package's folder), in
     * file order.
     *
     * @throws IllegalStateException when the resource is missing or unreadable
     */
    public static List<String> entries(Class<?> anchor, String name) {
        String path = anchor.getPackageName().replace('.', '/') + "/" + name;
        try (InputStream in = anchor.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("table " + path + " is missing from the class path (is the jar complete?)");
            }
            List<String> out = new ArrayList<>();
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = reader.readLine()) != null; ) {
                String entry = line.strip();
                if (!entry.isEmpty() && !entry.startsWith("#")) {
                    out.add(entry);
                }
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("table " + path + " could not be read: " + e.getMessage(), e);
        }
    }

    /**
     * The {@code key=value} entries of the table {@code name} (see {@link #entries}), in file order.
     *
     * @throws IllegalStateException when the resource is missing or unreadable, or a line has no
     *                               {@code =}, an empty side or a key seen before (the message names
     *                               the resource and the line)
     */
    public static Map<String, String> pairs(Class<?> anchor, String name) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String entry : entries(anchor, name)) {
            int eq = entry.indexOf('=');
            if (eq <= 0 || eq == entry.length() - 1) {
                throw new IllegalStateException("table " + name + " next to " + anchor.getName()
                        + " has a line that is not key=value: '" + entry + "'");
            }
            String key = entry.substring(0, eq).strip();
            if (out.put(key, entry.substring(eq + 1).strip()) != null) {
                throw new IllegalStateException("table " + name + " next to " + anchor.getName()
                        + " names key '" + key + "' twice");
            }
        }
        return out;
    }
}
