package dev.reverie.store.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One embedded PostgreSQL (io.zonky.test, binaries from the Maven repository) for the whole test
 * run, started on first use and stopped by the JVM's shutdown hook. Each test folder gets its own
 * database, so tests never see each other's data while reopening the same folder reaches the same
 * database again. (PostgreSQL refuses to run as root; when the build runs as root, as CI does, the embedded server
 * starts it in a user namespace with {@code unshare -U}.) Thread-safe.
 */
public final class EmbeddedPostgresServer {

    private static final Map<Path, String> DATABASES = new ConcurrentHashMap<>();
    private static final AtomicInteger COUNTER = new AtomicInteger();

    private EmbeddedPostgresServer() {
    }

    /** Started on first use (class initialisation is thread-safe and happens once). */
    private static final class Holder {
        static final Path DATA = dataFolder();
        static final EmbeddedPostgres PG = start(DATA);
    }

    private static Path dataFolder() {
        try {
            Path parent = Files.createTempDirectory("reverie-pg");
            return parent.resolve("data");
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a folder for the embedded PostgreSQL", e);
        }
    }

    private static EmbeddedPostgres start(Path data) {
        Path log = data.resolveSibling("postgres.log"); // initdb's and the server's output, kept for failures
        try {
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(data)
                    .setCleanDataDirectory(true)
                    .setServerConfig("max_connections", "300")
                    .setServerConfig("fsync", "on")
                    .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()));
            return builder.start();
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("could not start the embedded PostgreSQL; its log is " + log, e);
        }
    }

    /** The running server. */
    public static EmbeddedPostgres server() {
        return Holder.PG;
    }

    /** The server's data directory (the files that erase must leave clean). */
    public static Path dataDirectory() {
        server();
        return Holder.DATA;
    }

    /** The name of the database that belongs to {@code folder}, created on first use. */
    public static String database(Path folder) {
        return DATABASES.computeIfAbsent(folder.toAbsolutePath(), f -> {
            String name = "reverie_test_" + COUNTER.incrementAndGet();
            try (Connection c = server().getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
                st.execute("CREATE DATABASE " + name);
            } catch (SQLException e) {
                throw new IllegalStateException("could not create test database " + name, e);
            }
            return name;
        });
    }

    /** The JDBC URL (after {@code jdbc:}) of the database that belongs to {@code folder}. */
    public static String url(Path folder) {
        return String.format(Locale.ROOT, "postgresql://localhost:%d/%s?user=postgres", server().getPort(),
                database(folder));
    }

    /** A connection as the superuser to the database of {@code folder}. */
    public static Connection connect(Path folder) throws SQLException {
        return server().getDatabase("postgres", database(folder)).getConnection();
    }
}
