package dev.reverie.store.postgres;

import dev.reverie.ConfigurationException;

/**
 * The connection pool of the {@code postgresql:} URI form: HikariCP, an optional dependency, loaded
 * only here so that a host passing its own {@code DataSource} needs only the JDBC driver. Stateless
 * and thread-safe.
 */
final class Pools {

    private Pools() {
    }

    /** A HikariCP pool (a {@code DataSource} that is also {@code AutoCloseable}) for {@code jdbcUrl}. */
    static AutoCloseable hikari(String jdbcUrl, int size, String user, String password) {
        try {
            Class.forName("com.zaxxer.hikari.HikariDataSource", false, Pools.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new ConfigurationException("the postgresql: store URI needs HikariCP (com.zaxxer:HikariCP) on the"
                    + " class path for its connection pool; add it, or pass your own DataSource to"
                    + " PostgresMemoryStore.open(DataSource)", e);
        }
        return Hikari.create(jdbcUrl, size, user, password);
    }

    /** Kept in its own class so HikariCP is linked only when present. */
    private static final class Hikari {
        static AutoCloseable create(String jdbcUrl, int size, String user, String password) {
            com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
            config.setJdbcUrl(jdbcUrl);
            if (user != null) {
                config.setUsername(user);
            }
            if (password != null) {
                config.setPassword(password); // HikariCP masks it in its logged configuration
            }
            config.setMaximumPoolSize(size);
            config.setMinimumIdle(1);
            config.setPoolName("reverie-postgres");
            config.setAutoCommit(true);
            // fail fast and clearly when the server is unreachable, instead of inside the first call
            config.setInitializationFailTimeout(10_000);
            return new com.zaxxer.hikari.HikariDataSource(config);
        }
    }
}
