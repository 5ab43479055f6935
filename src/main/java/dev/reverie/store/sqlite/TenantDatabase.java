package dev.reverie.store.sqlite;

import dev.reverie.MemoryStoreException;
import dev.reverie.StoreClosedException;
import dev.reverie.internal.GroupCommit;
import dev.reverie.internal.Jdbc;
import org.sqlite.SQLiteConfig;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The connections to one tenant's database: one writer (serialized by a lock, transactions begin
 * IMMEDIATE) and, for files, a small pool of WAL readers so reads run concurrently with each other
 * and with the writer. An in-memory database has a single connection used under the lock.
 *
 * <p>A file database can be {@linkplain #closeIdle() closed while idle} (the store bounds how many
 * tenants keep connections open) and reopens its connections on the next use: every operation holds
 * the shared side of a lifecycle lock, and closing takes its exclusive side only when it is free.
 */
final class TenantDatabase implements AutoCloseable {

    /** Work against a connection that may throw {@link SQLException}. */
    interface SqlWork<T> {
        T apply(Connection c) throws SQLException;
    }

    private static final int READERS = 4;
    /** The most batches one shared transaction commits (see {@link #writeShared}). */
    private static final int MAX_GROUP = 128;
    static final int BUSY_TIMEOUT_MS = 10_000;

    private final String url;
    private final String label;
    /** SQLite's default automatic checkpoint, in log pages; the writer keeps it except inside {@link #writeUnsynced}. */
    static final int WAL_AUTOCHECKPOINT = 1000;
    /** Commits made by {@link #writeUnsynced} in the relaxed mode; written under the write lock. */
    private volatile long unsyncedCommits;
    private final AtomicLong passiveCheckpoints = new AtomicLong();
    private final boolean inMemory;
    private final SQLiteConfig.SynchronousMode sync;
    /** The writer connection; {@code null} while closed for idleness (reopened on the next write). */
    private Connection writer;
    /**
     * The writer's statements of shared (group-committed) writes, prepared once and kept across
     * transactions while the writer lives: sqlite-jdbc compiles the SQL on every
     * {@code prepareStatement}, and a recorded turn runs the same dozen statements. Dropped (closed)
     * after any failure, so no statement in an unknown state is reused. Guarded by the write lock.
     */
    private StatementCache sharedStatements;
    /**
     * The file's schema version when the vector triggers were last seen to exist ({@link
     * #ensureVectorTriggers}; reset when a transaction or batch that may have created them rolls
     * back), or {@link #NOT_CHECKED}. Set by the constructor, then guarded by the write lock.
     */
    private long vectorTriggersAt = NOT_CHECKED;
    private static final long NOT_CHECKED = Long.MIN_VALUE;
    private final ReentrantLock writeLock = new ReentrantLock();
    /** Shared by every operation; exclusive to close the connections (idle eviction, close). */
    private final java.util.concurrent.locks.ReentrantReadWriteLock lifecycle =
            new java.util.concurrent.locks.ReentrantReadWriteLock();
    private volatile boolean closed;
    private final BlockingQueue<Connection> idleReaders = new ArrayBlockingQueue<>(READERS);
    private final List<Connection> allReaders = new ArrayList<>();
    /** Each reader's prepared statements (see {@link #query}); a reader's map is used only by its borrower. */
    private final java.util.Map<Connection, Statements> readerStatements = new java.util.concurrent.ConcurrentHashMap<>();
    private int openedReaders;
    /**
     * Concurrent writers' batches in shared transactions; a leader gathers concurrent writers only
     * when a commit waits for the disk ({@code synchronous=FULL}), as one without fsync costs less
     * than the wait.
     */
    private final GroupCommit<SqlWork<?>> group;
    /** Write transactions this database committed (the change token of an in-memory database). */
    private final AtomicLong commits = new AtomicLong();
    /**
     * A connection of its own that only reads {@code PRAGMA data_version} ({@link #changeToken}), with
     * that statement; opened on first use, closed with the other connections. Guarded by {@link #watching}.
     */
    private Connection watcher;
    private PreparedStatement dataVersion;
    private final Object watching = new Object();

    /**
     * Opens (creating and migrating when needed) the database of {@code tenantId}, refusing a file that
     * records another tenant's id: a file copied or renamed under another tenant's name never serves
     * that tenant.
     */
    TenantDatabase(String url, String label, boolean inMemory, SQLiteConfig.SynchronousMode sync, String tenantId) {
        this.url = url;
        this.label = label;
        this.inMemory = inMemory;
        this.sync = sync;
        this.group = new GroupCommit<>(MAX_GROUP, this::commitGroup,
                sync == SQLiteConfig.SynchronousMode.FULL ? GroupCommit.GATHER : java.time.Duration.ZERO,
                GroupCommit.ACTIVE_WINDOW);
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(BUSY_TIMEOUT_MS);
        for (int attempt = 1; ; attempt++) {
            Connection c = null;
            try {
                c = connect(true);
                migrate(c, tenantId);
                writer = c;
                return;
            } catch (SQLException | RuntimeException e) {
                if (c != null) {
                    closeQuietly(c);
                }
                if (e instanceof SQLException sql) {
                    // two processes opening a new file at once: switching it to WAL can fail at once with
                    // SQLITE_BUSY, without waiting in the busy handler; the other opener finishes quickly
                    if (busy(sql) && System.nanoTime() < deadline) {
                        pause(attempt);
                        continue;
                    }
                    throw new MemoryStoreException("could not open SQLite database " + label + ": " + sql.getMessage(),
                            sql);
                }
                throw (RuntimeException) e;
            }
        }
    }

    /**
     * Fails, before any migration runs, when the SQLite library is older than the schema needs
     * ({@link SqliteSchema#MIN_SQLITE}: contentless FTS5 tables with deletes), naming both versions
     * (a host's dependency management may pin an older sqlite-jdbc than Reverie's).
     */
    private void requireSqlite(Statement st, int version) throws SQLException {
        String found;
        try (ResultSet rs = st.executeQuery("SELECT sqlite_version()")) {
            rs.next();
            found = rs.getString(1);
        }
        if (SqliteSchema.olderThan(found, SqliteSchema.MIN_SQLITE)) {
            throw new MemoryStoreException("could not open SQLite database " + label + ": its schema needs SQLite "
                    + SqliteSchema.MIN_SQLITE + " or newer, but the sqlite-jdbc on the class path runs " + found
                    + "; use the org.xerial:sqlite-jdbc version Reverie depends on (the file was left untouched at"
                    + " schema version " + version + ")");
        }
    }

    private static boolean busy(SQLException e) {
        return (e.getErrorCode() & 0xFF) == 5 || String.valueOf(e.getMessage()).contains("SQLITE_BUSY");
    }

    /** Waits a little before another attempt to open (5, 10, ... up to 100 ms); an interrupt ends the wait. */
    private static void pause(int attempt) {
        try {
            Thread.sleep(Math.min(100, 5L * attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MemoryStoreException("interrupted while waiting to open an SQLite database", e);
        }
    }

    private Connection connect(boolean write) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(BUSY_TIMEOUT_MS);
        config.enforceForeignKeys(true);
        // nothing here reads generated keys; left on, the driver matches every statement's SQL against an
        // INSERT pattern and runs an extra "SELECT last_insert_rowid()" statement after each INSERT
        config.setGetGeneratedKeys(false);
        if (!inMemory) {
            config.setJournalMode(SQLiteConfig.JournalMode.WAL);
            config.setSynchronous(sync);
        }
        // erased data must not linger in free pages (DESIGN §8: erase leaves no trace on disk)
        config.setPragma(SQLiteConfig.Pragma.SECURE_DELETE, "true");
        // statement and savepoint journals (every batch of a group has a savepoint) and sorts in memory:
        // on disk they were unlinked files in the temp folder, ~35 KB per recorded turn of page images
        // of tenant data that secure_delete never overwrites; recovery does not use them (the WAL does).
        // A statement that changes many pages (an erase, an FTS optimize, a migration) holds their old
        // images in memory meanwhile. VACUUM's copy of the file still goes to a temp file (scrub)
        config.setTempStore(SQLiteConfig.TempStore.MEMORY);
        return DriverManager.getConnection(url, config.toProperties());
    }

    /**
     * Brings the file to the latest schema in one transaction. A migration's statement journal (the
     * old images of every page it changes: a rebuilt index, a rewritten table) goes to a temp file
     * while it runs, as {@link #scrub}'s VACUUM copy does: with the connection's in-memory journals,
     * migrating a 9.6 GB file to schema version 7 held 1.8 GB of native memory in the process
     * (0.2 GB for a 0.8 GB file).
     */
    private void migrate(Connection writer, String tenantId) throws SQLException {
        boolean behind = storedVersion(writer) < SqliteSchema.latestVersion();
        if (behind) {
            execute(writer, "PRAGMA temp_store = FILE");
        }
        try {
            migrateNow(writer, tenantId);
        } catch (SQLException | RuntimeException e) {
            if (behind) {
                try {
                    execute(writer, "PRAGMA temp_store = MEMORY"); // the connection is closed next anyway
                } catch (SQLException restore) {
                    e.addSuppressed(restore);
                }
            }
            throw e;
        }
        if (behind) {
            execute(writer, "PRAGMA temp_store = MEMORY");
        }
    }

    /** The file's schema version as stored, read outside a transaction (0 for a new file); a hint only. */
    private static int storedVersion(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")) {
            if (!rs.next()) {
                return 0;
            }
        }
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT MAX(version) FROM schema_version")) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    /** Runs one statement that returns nothing on {@code c}. */
    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private void migrateNow(Connection writer, String tenantId) throws SQLException {
        try (Statement st = writer.createStatement()) {
            st.execute("BEGIN IMMEDIATE");
            st.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
            int version = 0;
            try (ResultSet rs = st.executeQuery("SELECT MAX(version) FROM schema_version")) {
                if (rs.next()) {
                    version = rs.getInt(1);
                }
            }
            int latest = SqliteSchema.latestVersion();
            if (version > latest) {
                throw new MemoryStoreException("SQLite database " + label + " has schema version " + version
                        + ", newer than the " + latest + " this Reverie version supports; upgrade Reverie to open it"
                        + " (the file was left untouched)");
            }
            requireSqlite(st, version); // also at the latest version: its indexes need it to be written
            for (int v = version; v < latest; v++) {
                try {
                    for (String sql : SqliteSchema.MIGRATIONS.get(v)) {
                        st.execute(sql);
                    }
                    if (v + 1 == SqliteSchema.ARCHIVE_SEARCH_VERSION) {
                        SqliteMemoryStore.backfillArchive(writer);
                    }
                } catch (SQLException e) {
                    if (busy(e)) {
                        throw e; // another opener holds the file: the constructor tries again
                    }
                    if (v + 1 == SqliteSchema.RECALL_COLUMNS_VERSION) {
                        throw MemoryRows.backfillFailed(writer, label, version, e);
                    }
                    throw new MemoryStoreException("could not open SQLite database " + label + ": the migration"
                            + " to schema version " + (v + 1) + " failed (" + e.getMessage() + "); the file was left"
                            + " untouched at schema version " + version + ": restore it from a backup, or repair what"
                            + " the message names, then open it again", e);
                }
                st.execute("INSERT INTO schema_version (version) VALUES (" + (v + 1) + ")");
            }
            for (String sql : SqliteSchema.INDEXES) {
                st.execute(sql);
            }
            st.execute(SqliteSchema.VECTOR_VERSIONS);
            if (version < latest) {
                st.execute(SqliteSchema.VECTOR_VERSIONS_MOVE);
            }
            // the vector triggers exist while a number does (SqliteSchema.VECTOR_TRIGGERS): kept or created
            // then, dropped when none is left (this transaction holds the write lock: no number can appear
            // in between); the next write of a vector creates them again
            boolean numbered;
            try (ResultSet rs = st.executeQuery("SELECT 1 FROM vector_versions LIMIT 1")) {
                numbered = rs.next();
            }
            if (numbered) {
                createVectorTriggers(st);
            } else {
                for (String name : SqliteSchema.VECTOR_TRIGGER_NAMES) {
                    st.execute("DROP TRIGGER IF EXISTS " + name);
                }
            }
            vectorTriggersAt = numbered ? schemaVersion(writer) : NOT_CHECKED;
            checkTenant(writer, tenantId);
            st.execute("COMMIT");
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly(writer);
            throw e;
        }
    }

    /**
     * Makes sure the vector triggers exist before a write that stores an embedding: call inside that
     * write's transaction, before its rows, under the write lock. Checked once per schema version of
     * the file (another process dropping them changes it); otherwise one {@code PRAGMA} read.
     */
    void ensureVectorTriggers(Connection c) throws SQLException {
        long cookie = schemaVersion(c);
        if (cookie == vectorTriggersAt) {
            return;
        }
        try (Statement st = c.createStatement()) {
            int present;
            try (ResultSet rs = st.executeQuery(COUNT_VECTOR_TRIGGERS)) {
                present = rs.next() ? rs.getInt(1) : 0;
            }
            if (present < SqliteSchema.VECTOR_TRIGGER_NAMES.size()) {
                createVectorTriggers(st);
                cookie = schemaVersion(c);
            }
        }
        vectorTriggersAt = cookie;
    }

    private static void createVectorTriggers(Statement st) throws SQLException {
        for (String sql : SqliteSchema.VECTOR_TRIGGERS) {
            st.execute(sql);
        }
    }

    private static final String COUNT_VECTOR_TRIGGERS = "SELECT count(*) FROM sqlite_master WHERE type = 'trigger'"
            + " AND name IN ('" + String.join("', '", SqliteSchema.VECTOR_TRIGGER_NAMES) + "')";

    /** How many of the vector triggers the file has now (tests). */
    int vectorTriggers() {
        return query(COUNT_VECTOR_TRIGGERS, rs -> rs.getInt(1)).get(0);
    }

    /**
     * The file's schema version, read through {@code c}'s {@code prepareStatement}: on a write's kept
     * statements ({@link StatementCache}) it is prepared once, not for every write of a vector.
     */
    private static long schemaVersion(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("PRAGMA schema_version"); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getLong(1) : NOT_CHECKED;
        }
    }

    /** Records the tenant id in a file that has none yet (new, or made before version 2); refuses another tenant's. */
    private void checkTenant(Connection writer, String tenantId) throws SQLException {
        try (PreparedStatement ps = writer.prepareStatement("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)")) {
            ps.setString(1, SqliteSchema.TENANT_KEY);
            ps.setString(2, tenantId);
            ps.executeUpdate();
        }
        String stored;
        try (PreparedStatement ps = writer.prepareStatement("SELECT value FROM meta WHERE key = ?")) {
            ps.setString(1, SqliteSchema.TENANT_KEY);
            try (ResultSet rs = ps.executeQuery()) {
                stored = rs.next() ? rs.getString(1) : null;
            }
        }
        if (!tenantId.equals(stored)) {
            throw new MemoryStoreException("SQLite database " + label + " belongs to tenant '" + stored
                    + "', not to tenant '" + tenantId + "' whose file name it has (was it copied or renamed?);"
                    + " refusing to open it (the file was left untouched)");
        }
    }

    /**
     * Waits, at most {@code maxNanos}, while other threads wait for this database's writer: background
     * work between two of its steps lets them go first (the writer lock is not fair, so the thread
     * that just released it would most often take it again at once).
     */
    void yieldToWriters(long maxNanos) {
        long deadline = System.nanoTime() + maxNanos;
        // an interrupted thread would not park: it only waits when it may
        while (writeLock.hasQueuedThreads() && System.nanoTime() < deadline && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(100_000);
        }
    }

    /** The file (or in-memory name) this database is, for messages. */
    String label() {
        return label;
    }

    /** Runs {@code work} in one IMMEDIATE transaction; commits on success, rolls back on any failure. */
    <T> T write(SqlWork<T> work) {
        lifecycle.readLock().lock();
        writeLock.lock();
        try {
            try {
                ensureWriter();
                onWriter("BEGIN IMMEDIATE");
                T result = work.apply(writer);
                onWriter("COMMIT");
                commits.incrementAndGet(); // after the commit: a token read before it is never newer than the data
                return result;
            } catch (SQLException | RuntimeException e) {
                dropSharedStatements();
                vectorTriggersAt = NOT_CHECKED; // triggers this transaction created are rolled back too
                rollbackQuietly();
                if (e instanceof SQLException sql) {
                    throw failed(sql);
                }
                throw (RuntimeException) e;
            }
        } finally {
            writeLock.unlock();
            lifecycle.readLock().unlock();
        }
    }

    /**
     * Runs {@code work} like {@link #write}, but without waiting for the disk: the transaction commits
     * with {@code synchronous=NORMAL} and without an automatic checkpoint (the configured mode and the
     * default checkpoint are set back right after; {@link #checkpointPassive} catches up). For maintenance
     * that carries no acknowledged data, such as index merges: in WAL mode such a commit is still
     * atomic and consistent, and the next synchronous commit of any writer makes it durable with its
     * own (the log is written in order), so a power loss can only undo the maintenance, never tear
     * it or lose a write acknowledged after it. Saves the commit's own fsync, which writers of the
     * tenant would otherwise wait behind, and the checkpoint the commit would otherwise run.
     */
    <T> T writeUnsynced(SqlWork<T> work) {
        if (inMemory) {
            return write(work);
        }
        // a store opened with synchronous=NORMAL commits that way anyway: only the checkpoint changes
        boolean relax = sync == SQLiteConfig.SynchronousMode.FULL;
        lifecycle.readLock().lock();
        writeLock.lock(); // held across the three steps, so no other write runs in the relaxed mode
        try {
            try {
                try {
                    ensureWriter();
                    if (relax) {
                        onWriter("PRAGMA synchronous = NORMAL"); // SQLite takes it only outside a transaction
                    }
                    // and no checkpoint inside this commit, under the write lock: see checkpointPassive
                    onWriter("PRAGMA wal_autocheckpoint = 0");
                } catch (SQLException e) {
                    throw failed(e);
                }
                T result = write(work);
                unsyncedCommits++;
                return result;
            } finally {
                try {
                    ensureWriter();
                    if (relax) {
                        onWriter("PRAGMA synchronous = FULL");
                    }
                    onWriter("PRAGMA wal_autocheckpoint = " + WAL_AUTOCHECKPOINT);
                } catch (SQLException | RuntimeException e) {
                    // the connection cannot take the pragma: drop it, so the next write reopens it in its mode
                    closeWriterQuietly();
                }
            }
        } finally {
            writeLock.unlock();
            lifecycle.readLock().unlock();
        }
    }

    /** How many {@link #writeUnsynced} transactions committed (tests and diagnostics). */
    long unsyncedCommits() {
        return unsyncedCommits;
    }

    /**
     * Copies what the write-ahead log holds into the database file, as far as readers allow, from a
     * reader connection and without the write lock ({@code PRAGMA wal_checkpoint(PASSIVE)}: writers
     * go on appending meanwhile). For maintenance written with {@link #writeUnsynced}, whose commits
     * leave the log to this instead of checkpointing inside the commit, and for the log the writers
     * fill, which the index upkeep checkpoints once per check so their own automatic checkpoint
     * seldom runs inside a commit: with the writer's automatic
     * checkpoint (every {@value #WAL_AUTOCHECKPOINT} log pages), the commit of an index merge step
     * held the write lock ten times as long as the step itself (333 vs 33 ms on the 1,000-user
     * benchmark tenant). In-memory databases have no log.
     */
    void checkpointPassive() {
        if (!inMemory) {
            query("PRAGMA wal_checkpoint(PASSIVE)", rs -> rs.getInt(1));
            passiveCheckpoints.incrementAndGet();
        }
    }

    /** How many {@link #checkpointPassive} calls ran (tests and diagnostics). */
    long passiveCheckpoints() {
        return passiveCheckpoints.get();
    }

    /** Runs one statement on the writer; called under the write lock. */
    private void onWriter(String sql) throws SQLException {
        execute(writer, sql);
    }

    /**
     * Runs {@code work} like {@link #write}, but in a transaction shared with the concurrent callers of
     * this method (group commit: one {@code COMMIT}, so one fsync, for all of them). Each work runs in
     * its own {@code SAVEPOINT}: a failing one is rolled back to it and fails only its own caller, the
     * others commit. Returns once the work is durable.
     */
    void writeShared(SqlWork<?> work) {
        group.submit(work);
    }

    /** Runs each work as {@link #writeShared} does; returns each one's failure ({@code null}: committed). */
    List<RuntimeException> writeAllShared(List<SqlWork<?>> works) {
        return group.submitAll(works);
    }

    private void commitGroup(List<GroupCommit.Entry<SqlWork<?>>> entries) {
        if (entries.size() == 1) {
            write(c -> entries.get(0).item().apply(sharedStatements(c)));
            return;
        }
        write(c -> {
            try (Statement st = c.createStatement()) {
                for (GroupCommit.Entry<SqlWork<?>> e : entries) {
                    st.execute("SAVEPOINT batch");
                    try {
                        e.item().apply(sharedStatements(c));
                    } catch (SQLException | RuntimeException failure) {
                        dropSharedStatements();
                        vectorTriggersAt = NOT_CHECKED; // triggers the batch created are rolled back too
                        // an error that ended the whole transaction makes this throw: then every batch fails
                        st.execute("ROLLBACK TO batch");
                        e.fail(failure instanceof SQLException sql ? failed(sql) : (RuntimeException) failure);
                    }
                    st.execute("RELEASE batch");
                }
            }
            return null;
        });
    }

    /** The writer {@code c} with {@link #sharedStatements}; called under the write lock. */
    private Connection sharedStatements(Connection c) {
        if (sharedStatements == null) {
            sharedStatements = new StatementCache(c);
        }
        return sharedStatements.connection();
    }

    /** Closes the writer (it reopens on the next write); called under the write lock. */
    private void closeWriterQuietly() {
        closeWatcher();
        if (writer != null) {
            dropSharedStatements();
            closeQuietly(writer);
            writer = null;
        }
    }

    /** Closes the kept statements (after a failure, or before the writer closes). */
    private void dropSharedStatements() {
        if (sharedStatements != null) {
            try {
                sharedStatements.close();
            } catch (SQLException ignored) {
                // closing a statement fails only when its connection is gone: nothing is left to free
            }
            sharedStatements = null;
        }
    }

    private MemoryStoreException failed(SQLException e) {
        return new MemoryStoreException("SQLite write failed on " + label + ": " + e.getMessage(), e);
    }

    /** Reopens the writer after an idle close; called under the write lock. */
    private void ensureWriter() throws SQLException {
        if (closed) {
            throw new StoreClosedException("SQLite database " + label + " is closed: open the store again");
        }
        if (writer == null) {
            writer = connect(true);
        }
    }

    /**
     * What {@link #changeToken} returns: equal tokens mean no connection committed to the database
     * between the two reads (for a file, the {@code watcher} connection and the {@code data_version}
     * it saw, which SQLite changes whenever any other connection commits, this process's writer or
     * another process's, whatever its version; for an in-memory database, which has no other
     * connection, this database's commit count).
     */
    record ChangeToken(Object watcher, long version) {
    }

    /**
     * A token that changes whenever anything is committed to the database; a cache built between two
     * reads that returned equal tokens holds what the database held at both (the lexical cache,
     * {@code LexicalCache}). Costs one {@code PRAGMA data_version} on a connection kept for it
     * (a few microseconds: SQLite reads the write-ahead log's header in shared memory); the tenant's
     * callers take turns on that one connection.
     */
    ChangeToken changeToken() {
        if (inMemory) {
            return new ChangeToken(this, commits.get());
        }
        lifecycle.readLock().lock();
        try {
            if (closed) {
                throw new StoreClosedException("SQLite database " + label + " is closed: open the store again");
            }
            synchronized (watching) {
                if (watcher == null) {
                    watcher = connect(false);
                    dataVersion = watcher.prepareStatement("PRAGMA data_version");
                }
                try (ResultSet rs = dataVersion.executeQuery()) {
                    rs.next();
                    return new ChangeToken(watcher, rs.getLong(1));
                }
            }
        } catch (SQLException e) {
            closeWatcher();
            throw new MemoryStoreException("SQLite read failed on " + label + ": " + e.getMessage(), e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    private void closeWatcher() {
        synchronized (watching) {
            if (watcher != null) {
                closeQuietly(watcher); // closes its statement too
                watcher = null;
                dataVersion = null;
            }
        }
    }

    /** Runs {@code work} on a reader connection (the writer, under its lock, for in-memory databases). */
    <T> T read(SqlWork<T> work) {
        lifecycle.readLock().lock();
        try {
            return readOpen(work);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /**
     * Runs one query on a reader connection, with a statement prepared once per reader and kept
     * (sqlite-jdbc compiles the SQL again on every {@code prepareStatement}: a tenth of the native time
     * of a {@code buildContext}). Closing the result set resets the statement, so a kept statement holds
     * no read snapshot between reads. In-memory databases prepare as {@link #read} does.
     */
    <T> List<T> query(String sql, Jdbc.RowMapper<T> mapper, Object... args) {
        return read(c -> {
            Statements cached = readerStatements.get(c);
            if (cached == null) {
                return Jdbc.query(c, sql, mapper, args);
            }
            PreparedStatement ps = cached.prepare(c, sql);
            try {
                Jdbc.bind(ps, args);
                List<T> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(mapper.map(rs));
                    }
                }
                ps.clearParameters();
                return out;
            } catch (SQLException | RuntimeException e) {
                cached.discard(sql); // never reuse a statement left in an unknown state
                throw e;
            }
        });
    }

    /**
     * A reader connection's prepared statements by SQL text, the least recently used closed beyond
     * {@value #MAX_STATEMENTS} (SQL texts vary with the length of IN lists). Not thread-safe: one
     * borrower at a time.
     */
    private static final class Statements {
        private static final int MAX_STATEMENTS = 64;
        private final java.util.LinkedHashMap<String, PreparedStatement> bySql =
                new java.util.LinkedHashMap<>(16, 0.75f, true);

        PreparedStatement prepare(Connection c, String sql) throws SQLException {
            PreparedStatement ps = bySql.get(sql);
            if (ps == null) {
                ps = c.prepareStatement(sql);
                bySql.put(sql, ps);
                if (bySql.size() > MAX_STATEMENTS) {
                    java.util.Iterator<PreparedStatement> eldest = bySql.values().iterator();
                    closeQuietly(eldest.next());
                    eldest.remove();
                }
            }
            return ps;
        }

        void discard(String sql) {
            PreparedStatement ps = bySql.remove(sql);
            if (ps != null) {
                closeQuietly(ps);
            }
        }

        void close() {
            bySql.values().forEach(Statements::closeQuietly);
            bySql.clear();
        }

        private static void closeQuietly(PreparedStatement ps) {
            try {
                ps.close();
            } catch (SQLException ignored) {
                // a statement that cannot close is dropped with its connection
            }
        }
    }

    private <T> T readOpen(SqlWork<T> work) {
        if (closed) {
            throw new StoreClosedException("SQLite database " + label + " is closed: open the store again");
        }
        if (inMemory) {
            writeLock.lock();
            try {
                onWriter("BEGIN IMMEDIATE");
                T result = work.apply(writer);
                onWriter("COMMIT");
                return result;
            } catch (SQLException e) {
                rollbackQuietly();
                throw new MemoryStoreException("SQLite read failed on " + label + ": " + e.getMessage(), e);
            } catch (RuntimeException e) {
                rollbackQuietly(); // the writer must not stay inside this read's transaction
                throw e;
            } finally {
                writeLock.unlock();
            }
        }
        Connection c = borrowReader();
        try {
            return work.apply(c);
        } catch (SQLException e) {
            throw new MemoryStoreException("SQLite read failed on " + label + ": " + e.getMessage(), e);
        } finally {
            idleReaders.offer(c);
        }
    }

    private Connection borrowReader() {
        Connection c = idleReaders.poll();
        if (c != null) {
            return c;
        }
        synchronized (allReaders) {
            if (openedReaders < READERS) {
                try {
                    Connection fresh = connect(false);
                    allReaders.add(fresh);
                    readerStatements.put(fresh, new Statements());
                    openedReaders++;
                    return fresh;
                } catch (SQLException e) {
                    throw new MemoryStoreException("could not open a reader on " + label + ": " + e.getMessage(), e);
                }
            }
        }
        try {
            return idleReaders.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MemoryStoreException("interrupted while waiting for a reader on " + label, e);
        }
    }

    private void rollbackQuietly() {
        if (writer != null) {
            rollbackQuietly(writer);
        }
    }

    private static void rollbackQuietly(Connection writer) {
        try (Statement st = writer.createStatement()) {
            st.execute("ROLLBACK");
        } catch (SQLException ignored) {
            // no transaction was open, or the original failure is reported
        }
    }

    /** Merges FTS segments and checkpoints the WAL so deleted content leaves the files. */
    void scrub() {
        write(c -> {
            try (Statement st = c.createStatement()) {
                st.execute("INSERT INTO memories_fts (memories_fts) VALUES ('optimize')");
                st.execute("INSERT INTO observations_fts (observations_fts) VALUES ('optimize')");
                st.execute("INSERT INTO archive_fts (archive_fts) VALUES ('optimize')");
            }
            return null;
        });
        if (!inMemory) {
            lifecycle.readLock().lock();
            writeLock.lock();
            try {
                ensureWriter();
                try (Statement st = writer.createStatement()) {
                    // the writer keeps its journals in memory; VACUUM's copy of the whole file would be
                    // held there too, so it goes to a temp file as it always did
                    st.execute("PRAGMA temp_store = FILE");
                    SQLException vacuum = null;
                    try {
                        st.execute("VACUUM");
                    } catch (SQLException e) {
                        vacuum = e;
                    }
                    try {
                        st.execute("PRAGMA temp_store = MEMORY");
                    } catch (SQLException e) {
                        if (vacuum == null) {
                            throw e;
                        }
                        vacuum.addSuppressed(e);
                    }
                    if (vacuum != null) {
                        throw vacuum;
                    }
                    st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
                }
            } catch (SQLException e) {
                throw new MemoryStoreException("could not scrub " + label + ": " + e.getMessage(), e);
            } finally {
                writeLock.unlock();
                lifecycle.readLock().unlock();
            }
        }
    }

    /**
     * Closes every connection if no operation is running (never waits); the next operation reopens
     * them. In-memory databases are never closed this way: their data lives in the connection.
     *
     * @return whether the connections were closed (or already were)
     */
    boolean closeIdle() {
        if (inMemory || !lifecycle.writeLock().tryLock()) {
            return false;
        }
        try {
            closeConnections();
            return true;
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    /** Whether the writer connection is open now (tests and diagnostics). */
    boolean hasOpenConnections() {
        return writer != null;
    }

    @Override
    public void close() {
        lifecycle.writeLock().lock();
        try {
            closed = true;
            closeConnections();
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    /** Closes the readers and the writer; called with the lifecycle lock held exclusively. */
    private void closeConnections() {
        synchronized (allReaders) {
            for (Connection c : allReaders) {
                Statements cached = readerStatements.remove(c);
                if (cached != null) {
                    cached.close();
                }
                closeQuietly(c);
            }
            allReaders.clear();
            idleReaders.clear();
            openedReaders = 0;
        }
        closeWatcher();
        if (writer != null) {
            dropSharedStatements();
            closeQuietly(writer);
            writer = null;
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // closing: nothing more to do
        }
    }
}
