package dev.reverie.store.lucene;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStoreProvider;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Serves the {@code lucene:} scheme: {@code lucene:<folder>} (one index directory per tenant,
 * durable: every write is in the tenant's fsynced translog before it returns),
 * {@code lucene:<folder>?commit=every} (durable, a Lucene commit per write), {@code lucene:<folder>?commit=group} or
 * {@code lucene:<folder>?commit=group&intervalMs=50} (commits in the background every interval; a
 * crash loses at most the writes of the last interval, see {@link LuceneMemoryStore}),
 * {@code lucene:<folder>?commit=durable}, and {@code lucene::memory:}. Stateless and thread-safe.
 */
public final class LuceneStoreProvider implements MemoryStoreProvider {

    private static final String SUPPORTED = "supported: commit=durable (default), commit=every, commit=group,"
            + " intervalMs=<milliseconds> (with commit=group)";

    @Override
    public String scheme() {
        return "lucene";
    }

    @Override
    public MemoryStore open(String location) {
        if (location == null || location.isBlank()) {
            throw new IllegalArgumentException("lucene location must name a folder, e.g. lucene:./reverie-index");
        }
        if (location.equals(":memory:")) {
            return LuceneMemoryStore.inMemory();
        }
        String path = location;
        Map<String, String> options = new HashMap<>();
        int q = location.indexOf('?');
        if (q >= 0) {
            path = location.substring(0, q);
            for (String pair : location.substring(q + 1).split("&", -1)) {
                int eq = pair.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("lucene option '" + pair + "' must look like key=value; "
                            + SUPPORTED);
                }
                String key = pair.substring(0, eq);
                if (!key.equals("commit") && !key.equals("intervalMs")) {
                    throw new IllegalArgumentException("unknown lucene option '" + key + "'; " + SUPPORTED);
                }
                if (options.put(key, pair.substring(eq + 1)) != null) {
                    throw new IllegalArgumentException("lucene option '" + key + "' is given twice");
                }
            }
        }
        if (path.isBlank()) {
            throw new IllegalArgumentException("lucene location must name a folder, e.g. lucene:./reverie-index");
        }
        if (path.equals(":memory:")) {
            throw new IllegalArgumentException("lucene::memory: takes no options (an in-memory index never commits),"
                    + " was '" + location + "'");
        }
        String commit = options.getOrDefault("commit", "durable");
        LuceneMemoryStore.Builder builder = LuceneMemoryStore.builder(Path.of(path));
        if (!commit.equals("group") && options.containsKey("intervalMs")) {
            throw new IllegalArgumentException("lucene option intervalMs needs commit=group");
        }
        switch (commit) {
            case "durable" -> builder.durable();
            case "every" -> builder.commitEveryWrite();
            case "group" -> builder.groupCommit(interval(options.get("intervalMs")));
            default -> throw new IllegalArgumentException("lucene option commit must be durable, every or group, was '"
                    + commit + "'");
        }
        return builder.build();
    }

    private static Duration interval(String value) {
        if (value == null) {
            return LuceneMemoryStore.DEFAULT_GROUP_COMMIT_INTERVAL;
        }
        try {
            return Duration.ofMillis(Long.parseLong(value));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("lucene option intervalMs must be a whole number of milliseconds, was '"
                    + value + "'", e);
        }
    }
}
