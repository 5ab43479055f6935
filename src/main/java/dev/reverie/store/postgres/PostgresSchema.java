package dev.reverie.store.postgres;

import java.util.List;

/**
 * The tenant schema as forward migrations: migration {@code i} brings a schema from version
 * {@code i} to {@code i + 1}; {@code ${s}} stands for the quoted schema name. Never edit a released
 * migration; append a new one.
 *
 * <p>Rows carry {@code agent} and {@code usr} columns; the schema is the tenant. Records are JSON in
 * {@code data} with the columns needed to filter and sort beside it. {@code tsv} holds the
 * full-text vector of the accent-folded text (built in Java, see {@link FullText}); embeddings are
 * little-endian float {@code bytea} searched exactly within the scope.
 */
final class PostgresSchema {

    private PostgresSchema() {
    }

    static final List<List<String>> MIGRATIONS = List.of(
            List.of(
                    "CREATE TABLE ${s}.meta (key text PRIMARY KEY, value text NOT NULL)",
                    """
                    CREATE TABLE ${s}.observations (
                      rid bigserial PRIMARY KEY,
                      agent text NOT NULL, usr text NOT NULL, id text NOT NULL,
                      kind text NOT NULL, status text NOT NULL, session_id text,
                      observed_at bigint NOT NULL, dim integer, embedding bytea,
                      data text NOT NULL, text text NOT NULL, tsv tsvector NOT NULL,
                      UNIQUE (agent, usr, id))""",
                    "CREATE INDEX observations_by_time ON ${s}.observations (agent, usr, observed_at, id)",
                    "CREATE INDEX observations_fts ON ${s}.observations USING gin (tsv)",
                    """
                    CREATE TABLE ${s}.memories (
                      rid bigserial PRIMARY KEY,
                      agent text NOT NULL, usr text NOT NULL, id text NOT NULL,
                      kind text NOT NULL, status text NOT NULL, text text NOT NULL,
                      created_at bigint NOT NULL, permanent boolean NOT NULL DEFAULT false,
                      importance double precision NOT NULL DEFAULT 0, dim integer, embedding bytea,
                      data text NOT NULL, tsv tsvector NOT NULL,
                      UNIQUE (agent, usr, id))""",
                    "CREATE INDEX memories_by_time ON ${s}.memories (agent, usr, created_at, id)",
                    "CREATE INDEX memories_pinned ON ${s}.memories (agent, usr, importance DESC, id)"
                            + " WHERE permanent AND status = 'ACTIVE'",
                    "CREATE INDEX memories_fts ON ${s}.memories USING gin (tsv)",
                    """
                    CREATE TABLE ${s}.session_turns (
                      agent text NOT NULL, usr text NOT NULL, session_id text NOT NULL, seq bigint NOT NULL,
                      data text NOT NULL, first_at bigint NOT NULL,
                      PRIMARY KEY (agent, usr, session_id, seq))""",
                    """
                    CREATE TABLE ${s}.archive_turns (
                      agent text NOT NULL, usr text NOT NULL, session_id text NOT NULL, seq bigint NOT NULL,
                      data text NOT NULL, text text NOT NULL, at bigint NOT NULL,
                      dim integer, embedding bytea, tsv tsvector NOT NULL,
                      PRIMARY KEY (agent, usr, session_id, seq))""",
                    "CREATE INDEX archive_by_time ON ${s}.archive_turns (agent, usr, at)",
                    "CREATE INDEX archive_fts ON ${s}.archive_turns USING gin (tsv)",
                    """
                    CREATE TABLE ${s}.session_summaries (
                      agent text NOT NULL, usr text NOT NULL, session_id text NOT NULL, data text NOT NULL,
                      PRIMARY KEY (agent, usr, session_id))""",
                    """
                    CREATE TABLE ${s}.style_profiles (
                      agent text NOT NULL, usr text NOT NULL, data text NOT NULL,
                      PRIMARY KEY (agent, usr))""",
                    """
                    CREATE TABLE ${s}.history (
                      rid bigserial PRIMARY KEY,
                      agent text NOT NULL, usr text NOT NULL, memory_id text NOT NULL, data text NOT NULL)""",
                    "CREATE INDEX history_by_memory ON ${s}.history (agent, usr, memory_id, rid)",
                    """
                    CREATE TABLE ${s}.leases (
                      agent text NOT NULL, usr text NOT NULL, name text NOT NULL, holder text NOT NULL,
                      until bigint NOT NULL,
                      PRIMARY KEY (agent, usr, name))"""),
            // version 2: full-text indexes with a small pending list. By default a GIN index queues new
            // entries in an unsorted list of up to 4 MB until a vacuum merges them, and every search that
            // uses the index reads the whole list: right after a load a search for one end user of 10,000
            // memories cost 15 ms where the merged index takes 1.2 ms (docs/postgres.md). With 64 kB the
            // queue is merged often and stays short; writes still append to it. Queued entries merged now.
            List.of(
                    "ALTER INDEX ${s}.observations_fts SET (gin_pending_list_limit = 64)",
                    "ALTER INDEX ${s}.memories_fts SET (gin_pending_list_limit = 64)",
                    "ALTER INDEX ${s}.archive_fts SET (gin_pending_list_limit = 64)",
                    "SELECT gin_clean_pending_list('${s}.observations_fts'::regclass)",
                    "SELECT gin_clean_pending_list('${s}.memories_fts'::regclass)",
                    "SELECT gin_clean_pending_list('${s}.archive_fts'::regclass)"));

    /** Every table that holds an end user's rows (erase empties and rewrites them all). */
    static final List<String> USER_TABLES = List.of("memories", "observations", "session_turns", "archive_turns",
            "session_summaries", "style_profiles", "history", "leases");

    /** The {@code meta} key of the tenant id the schema belongs to, written when it is created. */
    static final String TENANT_KEY = "tenant_id";

    static int latestVersion() {
        return MIGRATIONS.size();
    }
}
