package dev.reverie.store.sqlite;

import dev.reverie.MemoryStoreException;
import dev.reverie.StoreClosedException;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What SQLite's FTS5 tokenizer ({@link SqliteSchema#TOKENIZER}, Porter stemming over unicode61)
 * makes of a query token, asked of SQLite itself: an FTS5 table with that tokenizer in a private
 * in-memory database, into which the tokens are written inside a transaction that is rolled back
 * after {@code fts5vocab} has listed their terms. The stem of a scope-prefixed token depends on the
 * prefix too (Porter's measure counts its letters), so tokens are stemmed whole, exactly as a MATCH
 * phrase is. Answers are remembered (up to {@value #MAX_REMEMBERED} tokens, then forgotten all at
 * once), so a token costs one round trip the first time only. Thread-safe. Not API.
 */
final class FtsStems implements AutoCloseable {

    /** A token that is not exactly one FTS5 token (split or dropped by the tokenizer). */
    private static final String NOT_ONE = "\u0000";
    private static final int MAX_REMEMBERED = 16_384;

    private final Map<String, String> remembered = new ConcurrentHashMap<>();
    private Connection connection;
    private PreparedStatement insert;
    private PreparedStatement terms;
    private boolean closed;

    /**
     * The stem of each token, in order; {@code null} when any token is not exactly one FTS5 token (a
     * MATCH phrase of it would then be a phrase of several tokens, or of none).
     */
    List<String> of(List<String> tokens) {
        String[] out = new String[tokens.size()];
        List<Integer> missing = null;
        for (int i = 0; i < out.length; i++) {
            out[i] = remembered.get(tokens.get(i));
            if (out[i] == null) {
                if (missing == null) {
                    missing = new ArrayList<>();
                }
                missing.add(i);
            }
        }
        if (missing != null) {
            List<String> asked = new ArrayList<>(missing.size());
            for (int i : missing) {
                asked.add(tokens.get(i));
            }
            List<String> answers = ask(asked);
            if (remembered.size() + answers.size() > MAX_REMEMBERED) {
                remembered.clear();
            }
            for (int k = 0; k < missing.size(); k++) {
                out[missing.get(k)] = answers.get(k);
                remembered.put(asked.get(k), answers.get(k));
            }
        }
        List<String> stems = new ArrayList<>(out.length);
        for (String s : out) {
            if (s.equals(NOT_ONE)) {
                return null;
            }
            stems.add(s);
        }
        return stems;
    }

    private synchronized List<String> ask(List<String> tokens) {
        if (closed) {
            throw new StoreClosedException("the store is closed: open it again");
        }
        try {
            if (connection == null) {
                connection = DriverManager.getConnection("jdbc:sqlite::memory:");
                try (Statement st = connection.createStatement()) {
                    st.execute("CREATE VIRTUAL TABLE stems USING fts5(t, tokenize = '"
                            + SqliteSchema.TOKENIZER + "')");
                    st.execute("CREATE VIRTUAL TABLE stem_terms USING fts5vocab(stems, instance)");
                }
                insert = connection.prepareStatement("INSERT INTO stems (rowid, t) VALUES (?, ?)");
                terms = connection.prepareStatement("SELECT doc, term, offset FROM stem_terms");
            }
            // one row of all the tokens, space-separated: when the tokenizer keeps each one whole, its
            // term sits at its own offset; otherwise each token is asked again as a row of its own
            String[] byOffset = new String[tokens.size()];
            int found = 0;
            try (Statement st = connection.createStatement()) {
                st.execute("BEGIN");
                try {
                    insert.setLong(1, 1L);
                    insert.setString(2, String.join(" ", tokens));
                    insert.executeUpdate();
                    try (ResultSet rs = terms.executeQuery()) {
                        while (rs.next()) {
                            int offset = rs.getInt(3);
                            if (offset >= 0 && offset < byOffset.length && byOffset[offset] == null) {
                                byOffset[offset] = rs.getString(2);
                            }
                            found++;
                        }
                    }
                } finally {
                    st.execute("ROLLBACK"); // the table stays empty: nothing is ever kept in it
                }
            }
            if (found == tokens.size() && wholeTokens(tokens, byOffset)) {
                return List.of(byOffset);
            }
            return oneByOne(tokens);
        } catch (SQLException e) {
            closeQuietly();
            throw new MemoryStoreException("SQLite could not stem a query's words: " + e.getMessage(), e);
        }
    }

    /**
     * Whether each offset holds the term of its own token. A token starts with a scope prefix
     * ({@code s}, hex digits, {@code _}: characters the tokenizer keeps), so it yields at least one
     * term; with exactly as many terms as tokens, none was split and term {@code i} is token
     * {@code i}'s (the caller checks the count). A token without that prefix is asked on its own.
     */
    private static boolean wholeTokens(List<String> tokens, String[] byOffset) {
        for (int i = 0; i < byOffset.length; i++) {
            if (byOffset[i] == null || tokens.get(i).indexOf('_') < 1) {
                return false;
            }
        }
        return true;
    }

    /** Each token as a row of its own: a token the tokenizer splits or drops gets {@link #NOT_ONE}. */
    private List<String> oneByOne(List<String> tokens) throws SQLException {
        Map<Long, List<String>> byDoc = new HashMap<>();
        try (Statement st = connection.createStatement()) {
            st.execute("BEGIN");
            try {
                for (int i = 0; i < tokens.size(); i++) {
                    insert.setLong(1, i + 1L);
                    insert.setString(2, tokens.get(i));
                    insert.executeUpdate();
                }
                try (ResultSet rs = terms.executeQuery()) {
                    while (rs.next()) {
                        byDoc.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>()).add(rs.getString(2));
                    }
                }
            } finally {
                st.execute("ROLLBACK");
            }
        }
        List<String> out = new ArrayList<>(tokens.size());
        for (int i = 0; i < tokens.size(); i++) {
            List<String> found = byDoc.get(i + 1L);
            out.add(found != null && found.size() == 1 ? found.get(0) : NOT_ONE);
        }
        return out;
    }

    private void closeQuietly() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // closing after a failure: the failure is reported
            }
            connection = null;
            insert = null;
            terms = null;
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        remembered.clear();
        closeQuietly();
    }
}
