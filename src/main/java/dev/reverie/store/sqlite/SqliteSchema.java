package dev.reverie.store.sqlite;

import java.util.List;

/**
 * The SQLite schema as forward migrations: migration {@code i} brings a file from version
 * {@code i} to {@code i + 1}. Never edit a released migration; append a new one.
 */
final class SqliteSchema {

    private SqliteSchema() {
    }

    /**
     * Text tokenizer for FTS5: Porter stemming over unicode61 with diacritics removed (English and
     * Portuguese), with '_' as a token character because every indexed word is stored prefixed by
     * its end user's scope token ({@code s1f3..._word}): each user's words then have their own
     * posting lists, so a search walks only that user's postings however large the tenant is.
     */
    static final String TOKENIZER = "porter unicode61 remove_diacritics 2 tokenchars ''_''";

    static final List<List<String>> MIGRATIONS = List.of(
            List.of(
                    """
                    CREATE TABLE observations (
                      rid INTEGER PRIMARY KEY AUTOINCREMENT,
                      agent TEXT NOT NULL, usr TEXT NOT NULL, id TEXT NOT NULL,
                      kind TEXT NOT NULL, status TEXT NOT NULL, session_id TEXT,
                      observed_at INTEGER NOT NULL, dim INTEGER, embedding BLOB,
                      data TEXT NOT NULL, text TEXT NOT NULL DEFAULT '',
                      UNIQUE (agent, usr, id))""",
                    "CREATE INDEX observations_by_time ON observations (agent, usr, observed_at, id)",
                    """
                    CREATE TABLE memories (
                      rid INTEGER PRIMARY KEY AUTOINCREMENT,
                      agent TEXT NOT NULL, usr TEXT NOT NULL, id TEXT NOT NULL,
                      kind TEXT NOT NULL, status TEXT NOT NULL, text TEXT NOT NULL,
                      created_at INTEGER NOT NULL, permanent INTEGER NOT NULL DEFAULT 0,
                      importance REAL NOT NULL DEFAULT 0, dim INTEGER, embedding BLOB,
                      data TEXT NOT NULL,
                      UNIQUE (agent, usr, id))""",
                    "CREATE INDEX memories_by_time ON memories (agent, usr, created_at, id)",
                    "CREATE INDEX memories_pinned ON memories (agent, usr, permanent, status)",
                    "CREATE VIRTUAL TABLE memories_fts USING fts5(text, tokenize = '" + TOKENIZER + "')",
                    "CREATE VIRTUAL TABLE observations_fts USING fts5(text, tokenize = '" + TOKENIZER + "')",
                    """
                    CREATE TABLE session_turns (
                      agent TEXT NOT NULL, usr TEXT NOT NULL, session_id TEXT NOT NULL, seq INTEGER NOT NULL,
                      data TEXT NOT NULL, first_at INTEGER NOT NULL,
                      PRIMARY KEY (agent, usr, session_id, seq))""",
                    """
                    CREATE TABLE archive_turns (
                      agent TEXT NOT NULL, usr TEXT NOT NULL, session_id TEXT NOT NULL, seq INTEGER NOT NULL,
                      data TEXT NOT NULL,
                      PRIMARY KEY (agent, usr, session_id, seq))""",
                    """
                    CREATE TABLE session_summaries (
                      agent TEXT NOT NULL, usr TEXT NOT NULL, session_id TEXT NOT NULL, data TEXT NOT NULL,
                      PRIMARY KEY (agent, usr, session_id))""",
                    """
                    CREATE TABLE style_profiles (
                      agent TEXT NOT NULL, usr TEXT NOT NULL, data TEXT NOT NULL,
                      PRIMARY KEY (agent, usr))""",
                    """
                    CREATE TABLE history (
                      rid INTEGER PRIMARY KEY AUTOINCREMENT,
                      agent TEXT NOT NULL, usr TEXT NOT NULL, memory_id TEXT NOT NULL, data TEXT NOT NULL)""",
                    "CREATE INDEX history_by_memory ON history (agent, usr, memory_id, rid)"),
            // 1 -> 2: the tenant id lives inside the file and is checked at open (TenantDatabase)
            List.of("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"),
            // 2 -> 3: episodic recall over the archive: searchable text, time, vector and an FTS5 index
            // keyed by an explicit INTEGER PRIMARY KEY (VACUUM may renumber implicit rowids, which would
            // detach the FTS entries); existing rows are copied, then filled in by
            // SqliteMemoryStore.backfillArchive in the same transaction
            List.of(
                    """
                    CREATE TABLE archive_turns_v3 (
                      rid INTEGER PRIMARY KEY AUTOINCREMENT,
                      agent TEXT NOT NULL, usr TEXT NOT NULL, session_id TEXT NOT NULL, seq INTEGER NOT NULL,
                      data TEXT NOT NULL, text TEXT NOT NULL DEFAULT '', at INTEGER NOT NULL DEFAULT 0,
                      dim INTEGER, embedding BLOB,
                      UNIQUE (agent, usr, session_id, seq))""",
                    "INSERT INTO archive_turns_v3 (agent, usr, session_id, seq, data)"
                            + " SELECT agent, usr, session_id, seq, data FROM archive_turns ORDER BY rowid",
                    "DROP TABLE archive_turns",
                    "ALTER TABLE archive_turns_v3 RENAME TO archive_turns",
                    "CREATE INDEX archive_by_time ON archive_turns (agent, usr, at)",
                    "CREATE VIRTUAL TABLE archive_fts USING fts5(text, tokenize = '" + TOKENIZER + "')"),
            // 3 -> 4: leases (the dream's per-user lease), seen by every process that opens the file
            List.of("""
                    CREATE TABLE leases (
                      agent TEXT NOT NULL, usr TEXT NOT NULL, name TEXT NOT NULL,
                      holder TEXT NOT NULL, until INTEGER NOT NULL,
                      PRIMARY KEY (agent, usr, name))"""),
            // 4 -> 5: an observation's status and consolidation time are authoritative in columns
            // (ObservationRows), so judging one rewrites two columns, not its JSON; both are filled from
            // the JSON, which until now was what every read returned
            List.of(
                    "ALTER TABLE observations ADD COLUMN consolidated_at TEXT",
                    "UPDATE observations SET status = json_extract(data, '$.status'),"
                            + " consolidated_at = json_extract(data, '$.consolidatedAt')"),
            // 5 -> 6: a memory's recall count and last recall time are authoritative in columns (MemoryRows),
            // so recording recalls rewrites two columns, not its JSON (which then stays the text the decode
            // cache knows); both are filled from the JSON, which until now was what every read returned (a
            // record whose JSON SQLite cannot parse fails the migration: json_extract raises an error)
            List.of(
                    "ALTER TABLE memories ADD COLUMN retrieval_count INTEGER NOT NULL DEFAULT 0",
                    "ALTER TABLE memories ADD COLUMN last_retrieved_at TEXT",
                    "UPDATE memories SET retrieval_count = COALESCE(json_extract(data, '$.retrievalCount'), 0),"
                            + " last_retrieved_at = json_extract(data, '$.lastRetrievedAt')"),
            // 6 -> 7: the FTS5 indexes keep no copy of the words they index (contentless, with deletes:
            // FTS5 since SQLite 3.43). Nothing reads an index's text: a search reads the index (bm25 needs
            // only it and the document sizes) and then the table's own row, and every write already says
            // which rowid to delete. The copy was 29 % of a file (JMH's 1,000-user data set generated anew:
            // 780 -> 555 MiB) and one more row written per indexed row. Each index is rebuilt from the words
            // it holds, in the opening transaction (about 6 s per 100,000 memories, 200,000 observations
            // and 200,000 archived turns); the pages the copies held are free pages of the file, reused
            // by later writes (VACUUM returns them to the disk)
            contentless("memories_fts", "observations_fts", "archive_fts"));

    /** The oldest SQLite the schema works with: contentless FTS5 tables with deletes (schema version 7). */
    static final String MIN_SQLITE = "3.43.0";

    /** Whether dotted version {@code found} is older than {@code min} ("3.42.9" < "3.43.0" < "3.43.1"). */
    static boolean olderThan(String found, String min) {
        String[] a = found.split("\\.");
        String[] b = min.split("\\.");
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            int x = i < a.length ? leadingNumber(a[i]) : 0;
            int y = i < b.length ? leadingNumber(b[i]) : 0;
            if (x != y) {
                return x < y;
            }
        }
        return false;
    }

    /** The digits a version part starts with ("1" of "1-beta"), 0 when none. */
    private static int leadingNumber(String part) {
        int end = 0;
        while (end < part.length() && end < 9 && Character.isDigit(part.charAt(end))) {
            end++;
        }
        return end == 0 ? 0 : Integer.parseInt(part.substring(0, end));
    }

    /** Migration 6 -> 7: each of {@code indexes} rebuilt contentless, under its own name. */
    private static List<String> contentless(String... indexes) {
        List<String> out = new java.util.ArrayList<>();
        for (String index : indexes) {
            out.addAll(List.of(
                    "CREATE VIRTUAL TABLE " + index + "_v7 USING fts5(text, tokenize = '" + TOKENIZER + "',"
                            + " content = '', contentless_delete = 1)",
                    "INSERT INTO " + index + "_v7 (rowid, text) SELECT rowid, text FROM " + index,
                    "DROP TABLE " + index,
                    "ALTER TABLE " + index + "_v7 RENAME TO " + index));
        }
        return List.copyOf(out);
    }

    /**
     * Indexes every file has, created when it is opened if missing. They change no table, so they are
     * not migrations: a file keeps its schema version, and an older Reverie (which does not know them)
     * still opens it, as processes sharing a folder during a rolling upgrade or a rollback must.
     * {@code observations_by_status} says whether an end user has observations in a status without
     * reading them all: after a dream nearly all are CONSOLIDATED (kept, and indexed for FTS, until
     * pruned), and a search for PENDING ones is skipped when there are none
     * ({@code SqliteMemoryStore.searchObservations}).
     */
    static final List<String> INDEXES = List.of(
            "CREATE INDEX IF NOT EXISTS observations_by_status ON observations (agent, usr, status)");

    /** Where a scope's {@code vector_versions} number starts: random, below 10^12 (never overflows counting up). */
    private static final String VERSION_START = "abs(random() % 1000000000000)";

    /** The tables whose rows carry embeddings searched by vector. */
    static final List<String> VECTOR_TABLES = List.of("archive_turns", "memories", "observations");

    /**
     * A per-scope, per-table number that changes whenever a row's embedding (or, for memories and
     * observations, status) is inserted, changed or deleted, kept by triggers ({@link #VECTOR_TRIGGERS}),
     * so every writer of the file keeps it, whichever process or Reverie version: a process caches a
     * scope's vectors and asks this one row whether they are still current ({@code VectorCache}). A
     * scope's row starts at a random value (a scope whose vectors were all deleted loses its row, so a
     * cache of the scope from before can never match its new number), then counts up. Created when a
     * file is opened, not a migration (like {@link #INDEXES}): an older Reverie still opens the file.
     * The vectors a file held before it had the table, or that were written while it had no triggers
     * (by an older Reverie, after this one dropped them), get no number (filling it would scan every
     * vector table of a large file while opening it): such a scope is searched by the scan until a
     * vector write made while the triggers exist creates its number, and from then on the cache reads
     * all of its vectors, old ones included.
     */
    static final String VECTOR_VERSIONS = "CREATE TABLE IF NOT EXISTS vector_versions (agent TEXT NOT NULL,"
            + " usr TEXT NOT NULL, tbl TEXT NOT NULL, version INTEGER NOT NULL, PRIMARY KEY (agent, usr, tbl))"
            + " WITHOUT ROWID";

    /**
     * The triggers that keep {@link #VECTOR_VERSIONS}. Only they create numbers, and they exist
     * whenever a number does (what the vector cache relies on): created when a file that has a number
     * is opened, or inside the transaction of a write that stores an embedding, before its rows
     * ({@code TenantDatabase.ensureVectorTriggers}); dropped when a file without any number is opened.
     * So a file that never held a vector has none (but for a Reverie before this rule, which creates
     * them whenever it opens a file, until this one opens it again): with any INSERT or UPDATE
     * trigger on a table, SQLite opens a statement savepoint for every statement on it (copying the
     * pages the statement changes that the transaction changed before), which made a memory's upsert
     * in a dream night 31 against 14 µs, whatever the trigger's condition or body.
     */
    static final List<String> VECTOR_TRIGGERS = vectorTriggers();

    /** The names of {@link #VECTOR_TRIGGERS}. */
    static final List<String> VECTOR_TRIGGER_NAMES = VECTOR_TABLES.stream()
            .flatMap(t -> java.util.stream.Stream.of(t + "_vectors_insert", t + "_vectors_update", t + "_vectors_delete"))
            .toList();

    /**
     * Moves every scope's number on, after migrations (same transaction; a migration that rebuilds a
     * table renumbers its rows and drops its triggers): any cache of any process reads its vectors again.
     */
    static final String VECTOR_VERSIONS_MOVE = "UPDATE vector_versions SET version = version + 1";

    private static List<String> vectorTriggers() {
        List<String> out = new java.util.ArrayList<>();
        for (String t : VECTOR_TABLES) {
            String columns = t.equals("archive_turns") ? "embedding, dim" : "embedding, dim, status";
            out.add("CREATE TRIGGER IF NOT EXISTS " + t + "_vectors_insert AFTER INSERT ON " + t
                    + " WHEN NEW.embedding IS NOT NULL BEGIN " + bump("NEW", t) + " END");
            out.add("CREATE TRIGGER IF NOT EXISTS " + t + "_vectors_update AFTER UPDATE OF " + columns + " ON " + t
                    + " WHEN NEW.embedding IS NOT NULL OR OLD.embedding IS NOT NULL BEGIN " + bump("NEW", t)
                    + dropWhenNone("NEW", t) + " END");
            // a deleted row's embedding counts as gone (OLD.embedding is not null here)
            out.add("CREATE TRIGGER IF NOT EXISTS " + t + "_vectors_delete AFTER DELETE ON " + t
                    + " WHEN OLD.embedding IS NOT NULL BEGIN " + bump("OLD", t)
                    + dropWhenNone("OLD", t).replace("OLD.embedding IS NULL AND ", "") + " END");
        }
        return List.copyOf(out);
    }

    /**
     * Counts up the scope's number, creating it when missing. Neither UPSERT (older SQLite tools could
     * not read the schema) nor {@code INSERT OR IGNORE} (inside a trigger the statement that fired it
     * imposes its own conflict policy, so an upsert of a memory would fail on the ignored conflict).
     */
    private static String bump(String row, String table) {
        String scope = "agent = " + row + ".agent AND usr = " + row + ".usr AND tbl = '" + table + "'";
        return "UPDATE vector_versions SET version = version + 1 WHERE " + scope + ";"
                + " INSERT INTO vector_versions (agent, usr, tbl, version) SELECT " + row + ".agent, " + row + ".usr, '"
                + table + "', " + VERSION_START + " WHERE NOT EXISTS (SELECT 1 FROM vector_versions WHERE " + scope + ");";
    }

    /** Drops the scope's number when the row just changed left it without any vector. */
    private static String dropWhenNone(String row, String table) {
        return " DELETE FROM vector_versions WHERE " + row + ".embedding IS NULL AND agent = " + row
                + ".agent AND usr = " + row + ".usr AND tbl = '" + table + "' AND NOT EXISTS (SELECT 1 FROM " + table
                + " WHERE agent = " + row + ".agent AND usr = " + row + ".usr AND embedding IS NOT NULL);";
    }

    /** The {@code meta} key of the tenant id the file belongs to, written when it is created or first migrated. */
    static final String TENANT_KEY = "tenant_id";

    /** The version whose migration added the archive's search columns. */
    static final int ARCHIVE_SEARCH_VERSION = 3;

    /** The version whose migration added a memory's recall columns, filled from the JSON records. */
    static final int RECALL_COLUMNS_VERSION = 6;

    /**
     * The value of a TEXT time column ({@code observations.consolidated_at}, {@code
     * memories.last_retrieved_at}): the instant's ISO-8601 text, the form the JSON records hold (so a
     * migration copies it from the JSON as is), read back exactly with {@link #time};
     * {@code null} for none.
     */
    static String timeText(java.time.Instant at) {
        return at == null ? null : at.toString();
    }

    /** The instant a TEXT time column holds ({@link #timeText}'s inverse; {@code null} for none). */
    static java.time.Instant time(String text) {
        return text == null ? null : dev.reverie.internal.Json.instant(text);
    }

    /** {@code columns} as a select list, each qualified by {@code alias} (none when it is empty). */
    static String columns(String alias, String... columns) {
        String p = alias.isEmpty() ? "" : alias + ".";
        StringBuilder sb = new StringBuilder();
        for (String c : columns) {
            sb.append(sb.isEmpty() ? "" : ", ").append(p).append(c);
        }
        return sb.toString();
    }

    static int latestVersion() {
        return MIGRATIONS.size();
    }
}
