package dev.reverie.eval;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/**
 * The PostgreSQL server of a {@code --store postgresql} run: an embedded server (io.zonky.test, its
 * binaries from the Maven repository) with its data under {@code OUT/stores/postgresql}, started on
 * first use, stopped by {@link #close()} or the JVM's shutdown hook. Each system run gets a fresh
 * database, so a run's systems never see each other's data. Durable ({@code fsync} on), as a
 * host's server would be. Not thread-safe: the harness runs its systems one after another.
 */
final class EvalPostgres implements AutoCloseable {

    private final EmbeddedPostgres server;

    private EvalPostgres(EmbeddedPostgres server) {
        this.server = server;
    }

    /** Starts a server whose data directory is {@code folder} (emptied first). */
    static EvalPostgres start(Path folder) {
        try {
            Files.createDirectories(folder);
            Path log = folder.resolve("postgres.log");
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setDataDirectory(folder.resolve("data"))
                    .setCleanDataDirectory(true)
                    .setServerConfig("fsync", "on")
                    .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            return new EvalPostgres(pg);
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL under " + folder.toAbsolutePath()
                    + " (its log is postgres.log there)", e);
        }
    }

    /**
     * A store URI (for {@link dev.reverie.spi.MemoryStores#open}) of a new, empty database for
     * {@code system}; a database of that name from an earlier system run is dropped first.
     */
    String freshStoreUri(String system) {
        String db = "locomo_" + system.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "_");
        try (Connection c = server.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + db);
            st.execute("CREATE DATABASE " + db);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database " + db + " on the embedded PostgreSQL", e);
        }
        return String.format(Locale.ROOT, "postgresql://localhost:%d/%s?user=postgres", server.getPort(), db);
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not stop the embedded PostgreSQL", e);
        }
    }
}
