package dev.reverie.store.postgres;

import dev.reverie.Scope;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/** The statistics cache on a real PostgreSQL: kept between writes of others, read again after own writes and erasure. */
class Bm25StatsTest {

    private static final Scope ALICE = Scope.of("t1", "agent", "alice");
    private static final Scope BOB = Scope.of("t1", "agent", "bob");

    private static void insert(Connection c, Scope scope, String text) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO stats_test.memories (agent, usr, tsv) VALUES (?, ?, to_tsvector('simple', ?))")) {
            ps.setString(1, scope.agentId());
            ps.setString(2, scope.endUserId());
            ps.setString(3, text);
            ps.executeUpdate();
        }
    }

    @Test
    void figures_are_kept_until_this_instance_writes_to_the_scope_or_erases_it(@TempDir Path folder) throws Exception {
        try (Connection c = EmbeddedPostgresServer.connect(folder); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA stats_test");
            st.execute("CREATE TABLE stats_test.memories (agent text NOT NULL, usr text NOT NULL, tsv tsvector NOT NULL)");
            insert(c, ALICE, "one two");
            insert(c, ALICE, "three four five six");
            insert(c, BOB, "seven");
            Bm25Stats stats = new Bm25Stats();

            assertThat(stats.knownRows(ALICE, "memories")).isEqualTo(-1);
            assertThat(stats.of(c, "stats_test", ALICE, "memories")).isEqualTo(new Bm25Stats.Figures(2, 3));
            assertThat(stats.of(c, "stats_test", BOB, "memories")).isEqualTo(new Bm25Stats.Figures(1, 1));
            assertThat(stats.knownRows(ALICE, "memories")).isEqualTo(2);
            assertThat(stats.knownRows(ALICE, "observations")).isEqualTo(-1);

            // another instance's write is not seen until the figures age; this instance's write is
            insert(c, ALICE, "eight nine ten eleven twelve thirteen");
            assertThat(stats.of(c, "stats_test", ALICE, "memories").rows()).isEqualTo(2);
            stats.written(ALICE);
            assertThat(stats.knownRows(ALICE, "memories")).isEqualTo(2); // stale, still known
            assertThat(stats.of(c, "stats_test", ALICE, "memories")).isEqualTo(new Bm25Stats.Figures(3, 4));
            assertThat(stats.of(c, "stats_test", BOB, "memories").rows()).isEqualTo(1); // Bob's kept

            st.execute("DELETE FROM stats_test.memories WHERE usr = 'alice'");
            stats.forget(ALICE);
            assertThat(stats.knownRows(ALICE, "memories")).isEqualTo(-1);
            assertThat(stats.of(c, "stats_test", ALICE, "memories")).isEqualTo(new Bm25Stats.Figures(0, 0));
        }
    }
}
