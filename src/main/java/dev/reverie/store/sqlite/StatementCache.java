package dev.reverie.store.sqlite;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * Prepares each distinct SQL text once for the span of one transaction. SQLite's JDBC driver
 * prepares a statement anew on every {@code prepareStatement}, which cost a quarter of a dream
 * cycle's time (each write runs the same few statements hundreds of times). {@link #connection()}
 * is the transaction's connection with {@code prepareStatement(String)} answered from the cache; a
 * cached statement's {@code close()} only clears its parameters, and {@link #close()} closes them
 * all. Code written against a plain {@link Connection} (the {@link dev.reverie.internal.Jdbc} helpers) runs unchanged.
 *
 * <p>Not thread-safe: one per transaction, on the thread that runs it. Not API.
 */
final class StatementCache implements AutoCloseable {

    private final Connection connection;
    private final Connection proxy;
    private final Map<String, PreparedStatement> open = new HashMap<>();
    private final java.util.List<PreparedStatement> real = new java.util.ArrayList<>();

    /** A cache over {@code connection}; close it before the transaction's connection is handed back. */
    public StatementCache(Connection connection) {
        this.connection = connection;
        this.proxy = (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, this::onConnection);
    }

    /** The connection to run the transaction's work on. */
    public Connection connection() {
        return proxy;
    }

    private Object onConnection(Object self, Method method, Object[] args) throws Throwable {
        if (method.getName().equals("prepareStatement") && args != null && args.length == 1
                && args[0] instanceof String sql) {
            PreparedStatement ps = open.get(sql);
            if (ps == null) {
                PreparedStatement prepared = connection.prepareStatement(sql);
                real.add(prepared);
                ps = reusable(prepared);
                open.put(sql, ps);
            }
            return ps;
        }
        return invoke(connection, method, args);
    }

    private static PreparedStatement reusable(PreparedStatement real) {
        InvocationHandler handler = (self, method, args) -> {
            if (method.getName().equals("close") && (args == null || args.length == 0)) {
                real.clearParameters();
                return null;
            }
            return invoke(real, method, args);
        };
        return (PreparedStatement) Proxy.newProxyInstance(PreparedStatement.class.getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, handler);
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** Closes every cached statement; the first failure is thrown after all were tried. */
    @Override
    public void close() throws SQLException {
        SQLException first = null;
        for (PreparedStatement ps : real) {
            try {
                ps.close();
            } catch (SQLException e) {
                first = first == null ? e : first;
            }
        }
        open.clear();
        real.clear();
        if (first != null) {
            throw first;
        }
    }
}
