package dev.reverie.store.sqlite;

import dev.reverie.Embedding;
import dev.reverie.Memory;
import dev.reverie.MemoryEvent;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryKind;
import dev.reverie.MemoryStatus;
import dev.reverie.MemoryStoreException;
import dev.reverie.Observation;
import dev.reverie.ObservationFilter;
import dev.reverie.ObservationStatus;
import dev.reverie.Scope;
import dev.reverie.StoreClosedException;
import dev.reverie.StyleProfile;
import dev.reverie.internal.Checks;
import dev.reverie.internal.DecodedRecords;
import dev.reverie.internal.GroupCommit;
import dev.reverie.internal.Jdbc.RowMapper;
import dev.reverie.internal.Json;
import dev.reverie.internal.NearestVectors;
import dev.reverie.internal.TenantNames;
import dev.reverie.internal.Terms;
import dev.reverie.internal.Vectors;
import dev.reverie.spi.SessionSummary;
import dev.reverie.spi.SessionTurn;
import static dev.reverie.internal.Jdbc.bind;
import static dev.reverie.internal.Jdbc.first;
import static dev.reverie.internal.Jdbc.query;
import static dev.reverie.internal.Jdbc.update;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.Scored;
import dev.reverie.spi.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The embedded default {@link MemoryStore}: one SQLite database file per tenant in a folder (or
 * in-memory databases for {@code :memory:}), WAL journal, {@code busy_timeout},
 * {@code BEGIN IMMEDIATE} write transactions, FTS5 with BM25 for lexical search, and embeddings as
 * little-endian float BLOBs searched exactly by cosine within the scope.
 *
 * <p>Lexical search is filtered by scope inside the FTS5 query: every indexed word is prefixed by a
 * token of its end user's scope ({@code s1f3..._word}), and the MATCH expression asks only for that
 * user's prefixed terms, so one end user's search reads only that user's postings and never ranks a
 * global top-k first. User text is reduced to quoted word terms; no FTS5 syntax can pass through.
 * A background thread keeps each tenant's FTS5 indexes merged as they grow (FTS5 writes every
 * transaction as a segment, and every query term is looked up in every segment); see
 * {@code IndexUpkeep}. {@link #close()} lets the merges already queued finish first: it may take up
 * to 30 s (60 s at worst) on a large tenant.
 *
 * <p>Thread-safe: concurrent readers (a pool of WAL connections per tenant), one serialized writer
 * per tenant. Durable by default ({@code synchronous=FULL}: an acknowledged write survives kill -9
 * and power loss); {@code ?sync=normal} trades power-loss durability for speed (still safe against
 * a process crash in WAL mode). Batches written concurrently to one tenant are group-committed: the
 * first writer to get the tenant's writer connection commits every batch queued meanwhile in one
 * transaction (one fsync), each batch in its own {@code SAVEPOINT}, so a failing batch fails only its
 * own caller; every caller returns once its batch is durable.
 *
 * <p>Open handles are bounded: at most {@link #DEFAULT_MAX_OPEN_TENANTS} tenants (or the
 * {@code maxOpenTenants} given) keep connections open (a writer and up to four WAL readers each);
 * when one more is used, the least recently used idle tenant's connections are closed, and reopened
 * on its next use. A process serving many tenants thus holds a bounded number of files.
 *
 * <p>Several processes may share a folder: turn seqs are assigned inside the {@code BEGIN IMMEDIATE}
 * write transaction ({@link WriteBatch#appendAtSessionEnd}) and leases live in the database
 * ({@link #tryLease}), so two application instances never collide on a session or dream one user at
 * once.
 */
public final class SqliteMemoryStore implements MemoryStore {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteMemoryStore.class);
    private static final int MAX_QUERY_TERMS = 32;
    /** Pages one {@link #maintain} merge step writes, about. */
    private static final int MERGE_PAGES = 2_000;
    /** Most merge steps per index in one {@link #maintain} call. */
    private static final int MERGE_STEPS = 64;

    private final Path folder;
    private final boolean inMemory;
    private final SQLiteConfig.SynchronousMode sync;
    private final String instanceId = UUID.randomUUID().toString();
    private final ConcurrentMap<String, TenantDatabase> tenants = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Object closeLock = new Object();
    /** Decoded vectors of recently searched scopes, checked against {@code vector_versions} on every search. */
    private final VectorCache vectorCache = new VectorCache(VectorCache.DEFAULT_MAX_BYTES);
    /** Full-text index rows of recently searched scopes, scored in memory (see {@link LexicalCache}). */
    private final LexicalCache lexicalCache = new LexicalCache(LexicalCache.DEFAULT_MAX_BYTES, LexicalCache.DEFAULT_MIN_ROWS);
    /** Query tokens as FTS5 stems them, for {@link #lexicalCache}. */
    private final FtsStems stems = new FtsStems();
    /** Searches the lexical cache failed to serve (the first is logged). */
    private final AtomicLong lexicalFailures = new AtomicLong();
    /** Reads of archived turns by range the lexical cache answered (tests). */
    private final AtomicLong keptTurnReads = new AtomicLong();
    /** Reads of pinned memories the lexical cache answered (tests). */
    private final AtomicLong keptPinnedReads = new AtomicLong();
    /** Whether lexical searches may be served by {@link #lexicalCache} (tests compare both ways). */
    private volatile boolean lexicalCaching = true;
    /** Merges a tenant's FTS5 indexes in the background as they grow (see {@link IndexUpkeep}). */
    private final IndexUpkeep upkeep = new IndexUpkeep(this::db, this::heldOpen);
    /** The tenants that may have open connections, least recently used first; guarded by itself. */
    private final java.util.LinkedHashMap<String, TenantDatabase> recent = new java.util.LinkedHashMap<>(16, 0.75f, true);
    private final int maxOpenTenants;

    /** How many tenants keep open connections by default. */
    public static final int DEFAULT_MAX_OPEN_TENANTS = 256;

    private SqliteMemoryStore(Path folder, boolean inMemory, SQLiteConfig.SynchronousMode sync, int maxOpenTenants) {
        this.folder = folder;
        this.inMemory = inMemory;
        this.sync = sync;
        this.maxOpenTenants = maxOpenTenants;
    }

    /** A store keeping one database file per tenant in {@code folder} (created when missing). */
    public static SqliteMemoryStore open(Path folder) {
        return open(folder, false);
    }

    /**
     * A store in {@code folder}; with {@code relaxedSync} the databases use {@code synchronous=NORMAL}
     * (an acknowledged write survives a process crash but may be lost on power failure).
     */
    public static SqliteMemoryStore open(Path folder, boolean relaxedSync) {
        return open(folder, relaxedSync, DEFAULT_MAX_OPEN_TENANTS);
    }

    /**
     * A store in {@code folder} keeping connections open for at most {@code maxOpenTenants} tenants at
     * once (the least recently used idle tenant is closed first, and reopened on its next use).
     */
    public static SqliteMemoryStore open(Path folder, boolean relaxedSync, int maxOpenTenants) {
        Checks.notNull("folder", folder);
        if (maxOpenTenants < 1) {
            throw new IllegalArgumentException("maxOpenTenants must be at least 1, was " + maxOpenTenants);
        }
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new MemoryStoreException("could not create the store folder " + folder + ": " + e.getMessage(), e);
        }
        return new SqliteMemoryStore(folder, false,
                relaxedSync ? SQLiteConfig.SynchronousMode.NORMAL : SQLiteConfig.SynchronousMode.FULL, maxOpenTenants);
    }

    /** A store whose tenant databases live in memory and vanish on close. */
    public static SqliteMemoryStore inMemory() {
        return new SqliteMemoryStore(null, true, SQLiteConfig.SynchronousMode.OFF, Integer.MAX_VALUE);
    }

    @Override
    public String describe() {
        return inMemory ? "sqlite::memory:" : "sqlite:" + folder;
    }

    /** The database file that holds {@code tenantId}'s data (never shared with another tenant). */
    public Path tenantFile(String tenantId) {
        if (inMemory) {
            throw new IllegalStateException("an in-memory store has no files");
        }
        return folder.resolve(fileName(Checks.id("tenantId", tenantId)));
    }

    /** The database file name of a tenant (see {@link TenantNames}). */
    static String fileName(String tenantId) {
        return TenantNames.of(tenantId) + ".db";
    }

    private TenantDatabase db(String tenantId) {
        ensureOpen();
        TenantDatabase db = tenants.computeIfAbsent(tenantId, t -> {
            String url = inMemory
                    ? "jdbc:sqlite:file:reverie-" + instanceId + "-" + fileName(t) + "?mode=memory&cache=private"
                    : "jdbc:sqlite:" + folder.resolve(fileName(t)).toAbsolutePath();
            return new TenantDatabase(url, inMemory ? "memory/" + t : folder.resolve(fileName(t)).toString(),
                    inMemory, sync, t);
        });
        if (!inMemory) {
            used(tenantId, db);
        }
        return db;
    }

    /**
     * Whether the tenant's connections are open now (among the most recently used, within the bound;
     * an in-memory tenant always is): what the index upkeep may check at close without reopening it.
     */
    private boolean heldOpen(String tenantId) {
        if (inMemory) {
            return tenants.containsKey(tenantId);
        }
        synchronized (recent) {
            return recent.containsKey(tenantId);
        }
    }

    /** Marks a tenant as just used and closes the least recently used idle ones beyond the bound. */
    private void used(String tenantId, TenantDatabase db) {
        synchronized (recent) {
            recent.put(tenantId, db);
            if (recent.size() <= maxOpenTenants) {
                return;
            }
            var it = recent.entrySet().iterator();
            while (recent.size() > maxOpenTenants && it.hasNext()) {
                var e = it.next();
                // a tenant in use right now is skipped (never waited for); the bound holds again once it is idle
                if (!e.getKey().equals(tenantId) && e.getValue().closeIdle()) {
                    lexicalCache.forgetTenant(e.getKey()); // its change tokens die with its connections
                    it.remove();
                }
            }
        }
    }

    /** How many tenants have open connections now (diagnostics and tests). */
    public int openTenantHandles() {
        int n = 0;
        for (TenantDatabase db : tenants.values()) {
            if (db.hasOpenConnections()) {
                n++;
            }
        }
        return n;
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new StoreClosedException("store " + describe() + " is closed: open it again with MemoryStores.open");
        }
    }

    // ---------------------------------------------------------------- writes

    @Override
    public boolean supportsStatusWrites() {
        return true;
    }

    /**
     * Only the memory's {@code retrieval_count} and {@code last_retrieved_at} columns change
     * ({@link MemoryRows}): its JSON, text and FTS entry stay as they are.
     */
    @Override
    public boolean supportsRecallWrites() {
        return true;
    }

    @Override
    public void write(WriteBatch batch) {
        Checks.notNull("batch", batch);
        ensureOpen();
        if (batch.isEmpty()) {
            return;
        }
        // group commit: concurrent writers of the tenant share one transaction and one fsync
        TenantDatabase db = db(batch.scope().tenantId());
        db.writeShared(work(db, batch));
        upkeep.indexed(batch.scope().tenantId(), indexedRows(batch));
    }

    /**
     * How many rows {@code batch} writes, replaces or deletes (purges count as one): the write
     * activity that paces the index upkeep. STYLE observations count although they have no FTS entry:
     * counting only indexed rows checked the indexes less often, and LoCoMo's harness ran 25–45 %
     * slower at 1,000–4,000 tokens (measured alternating with the count as it is; wave 2, session 22).
     */
    private static int indexedRows(WriteBatch batch) {
        int n = 0;
        for (WriteBatch.Op op : batch.ops()) {
            if (op instanceof WriteBatch.PutMemory || op instanceof WriteBatch.DeleteMemory
                    || op instanceof WriteBatch.PutObservation || op instanceof WriteBatch.DeleteObservation
                    || op instanceof WriteBatch.ArchiveTurn || op instanceof WriteBatch.PurgeArchive) {
                n++;
            }
        }
        return n;
    }

    /** One IMMEDIATE transaction (one commit) for all the batches, each statement prepared once. */
    @Override
    public boolean writeAll(List<WriteBatch> batches) {
        ensureOpen();
        String tenant = WriteBatch.tenantOf(batches);
        if (tenant != null) {
            TenantDatabase db = db(tenant);
            db.write(c -> {
                try (StatementCache statements = new StatementCache(c)) {
                    // the FTS writes of all the batches at the end: one segment per index for the transaction
                    FtsWrites fts = new FtsWrites();
                    for (WriteBatch batch : batches) {
                        work(db, batch, fts).apply(statements.connection());
                    }
                    fts.run(statements.connection());
                }
                return null;
            });
            upkeep.indexed(tenant, batches.stream().mapToInt(SqliteMemoryStore::indexedRows).sum());
        }
        return true;
    }

    /** One transaction per tenant for all of them (each batch in its own savepoint). */
    @Override
    public void writeEach(List<WriteBatch> batches) {
        Checks.notNull("batches", batches);
        ensureOpen();
        java.util.Map<String, List<WriteBatch>> byTenant = new java.util.LinkedHashMap<>();
        for (WriteBatch b : batches) {
            if (!Checks.notNull("batch", b).isEmpty()) {
                byTenant.computeIfAbsent(b.scope().tenantId(), k -> new ArrayList<>()).add(b);
            }
        }
        List<RuntimeException> failures = new ArrayList<>();
        byTenant.forEach((tenant, tenantBatches) -> {
            TenantDatabase db = db(tenant);
            List<RuntimeException> outcomes = db.writeAllShared(
                    tenantBatches.stream().<TenantDatabase.SqlWork<?>>map(b -> work(db, b)).toList());
            int indexed = 0;
            for (int i = 0; i < outcomes.size(); i++) {
                if (outcomes.get(i) == null) {
                    indexed += indexedRows(tenantBatches.get(i));
                }
            }
            upkeep.indexed(tenant, indexed);
            failures.addAll(outcomes);
        });
        GroupCommit.throwFirst(failures);
    }

    private TenantDatabase.SqlWork<Void> work(TenantDatabase db, WriteBatch batch) {
        return work(db, batch, null);
    }

    /**
     * The batch's writes: its table rows, then its FTS5 entries ({@link FtsWrites}), or, with {@code
     * shared}, its table rows only, its FTS5 entries queued there for the caller to run after the
     * transaction's other batches.
     */
    private TenantDatabase.SqlWork<Void> work(TenantDatabase db, WriteBatch batch, FtsWrites shared) {
        Scope scope = batch.scope();
        List<WriteBatch.Op> ops = batch.ops();
        Prepared prepared = new Prepared(scope, ops, shared == null ? new FtsWrites() : shared);
        return c -> {
            if (shared == null) {
                prepared.fts.clear(); // a work that failed before left its own
            }
            if (prepared.vectors) {
                db.ensureVectorTriggers(c); // before the rows: the triggers number the scope's vectors
            }
            // session → next free seq, read inside this IMMEDIATE transaction, which holds SQLite's write
            // lock: no other connection or process can append to the session until it commits
            java.util.Map<String, Long> ends = new java.util.HashMap<>();
            for (int i = 0; i < ops.size(); ) {
                int run = sameObservationStatus(ops, i);
                if (run > 1) {
                    setObservationStatuses(c, scope, ops.subList(i, i + run));
                    i += run;
                } else {
                    apply(c, scope, resolve(c, scope, ops.get(i), ends), prepared, i);
                    i++;
                }
            }
            if (shared == null) {
                prepared.fts.run(c);
            }
            ends.forEach(batch::seqAssigned);
            return null;
        };
    }

    /** Most observations one status statement changes: its SQL text has this many id parameters. */
    private static final int STATUS_CHUNK = 64;
    /** Only the columns: the JSON record keeps its last full write ({@link ObservationRows}). */
    private static final String SET_OBSERVATION_STATUSES = "UPDATE observations SET status = ?, consolidated_at = ?"
            + " WHERE agent = ? AND usr = ? AND id IN ("
            + String.join(", ", java.util.Collections.nCopies(STATUS_CHUNK, "?")) + ")";

    /**
     * How many ops from {@code from} on (at most {@value #STATUS_CHUNK}) set observations to one
     * status and consolidation time, as a dream night's judgements do: those are one statement.
     */
    private static int sameObservationStatus(List<WriteBatch.Op> ops, int from) {
        if (!(ops.get(from) instanceof WriteBatch.SetObservationStatus first)) {
            return 0;
        }
        int n = 1;
        while (from + n < ops.size() && n < STATUS_CHUNK
                && ops.get(from + n) instanceof WriteBatch.SetObservationStatus next
                && next.status() == first.status()
                && java.util.Objects.equals(next.consolidatedAt(), first.consolidatedAt())) {
            n++;
        }
        return n;
    }

    /**
     * Sets one status and consolidation time on several observations in one statement (the ids
     * padded to {@value #STATUS_CHUNK} by repeating the last, so the statement is prepared once);
     * the same rows and values as one {@code SetObservationStatus} statement each.
     */
    private static void setObservationStatuses(Connection c, Scope s, List<WriteBatch.Op> run) throws SQLException {
        WriteBatch.SetObservationStatus first = (WriteBatch.SetObservationStatus) run.get(0);
        Object[] args = new Object[4 + STATUS_CHUNK];
        args[0] = first.status().name();
        args[1] = SqliteSchema.timeText(first.consolidatedAt());
        args[2] = s.agentId();
        args[3] = s.endUserId();
        for (int k = 0; k < STATUS_CHUNK; k++) {
            args[4 + k] = ((WriteBatch.SetObservationStatus) run.get(Math.min(k, run.size() - 1))).id();
        }
        update(c, SET_OBSERVATION_STATUSES, args);
    }

    /**
     * Merges each of the tenant's FTS5 indexes down to one segment (a day's writes leave many, and
     * every search pays per segment: on the 1,000-user benchmark tenant a merged index answered the
     * same memory search in a third of the time), in steps of about {@value #MERGE_PAGES} pages, each
     * its own short write transaction that waiting writers go before and that commits without its own
     * fsync ({@link IndexUpkeep#merge}), until FTS5 reports no more work or {@value #MERGE_STEPS} steps
     * per index have run (the next night merges what is left). Between nights, {@link IndexUpkeep}
     * merges the indexes as they grow.
     */
    @Override
    public void maintain(String tenantId) {
        maintain(tenantId, MERGE_PAGES, MERGE_STEPS);
    }

    /** {@link #maintain(String)} with steps of {@code pages} pages, at most {@code steps} per index. */
    void maintain(String tenantId, int pages, int steps) {
        Checks.id("tenantId", tenantId);
        ensureOpen();
        TenantDatabase db = db(tenantId);
        for (String fts : IndexUpkeep.INDEXES) {
            IndexUpkeep.merge(() -> db, fts, pages, steps, null, null);
        }
    }

    /** An op whose seq is an offset from its session's end, turned into one with its final seq. */
    private static WriteBatch.Op resolve(Connection c, Scope s, WriteBatch.Op op, java.util.Map<String, Long> ends)
            throws SQLException {
        if (op instanceof WriteBatch.AppendTurn t && t.atSessionEnd()) {
            return new WriteBatch.AppendTurn(t.turn().withSeq(end(c, s, t.turn().sessionId(), ends) + t.turn().seq()));
        }
        if (op instanceof WriteBatch.ArchiveTurn t && t.atSessionEnd()) {
            return new WriteBatch.ArchiveTurn(t.turn().withSeq(end(c, s, t.turn().sessionId(), ends)
                    + t.turn().seq()), t.embedding());
        }
        return op;
    }

    private static long end(Connection c, Scope s, String sessionId, java.util.Map<String, Long> ends)
            throws SQLException {
        Long known = ends.get(sessionId);
        if (known != null) {
            return known;
        }
        long next = query(c, "SELECT COALESCE(MAX(seq) + 1, 0) FROM session_turns WHERE agent = ? AND usr = ?"
                + " AND session_id = ?", rs -> rs.getLong(1), s.agentId(), s.endUserId(), sessionId).get(0);
        ends.put(sessionId, next);
        return next;
    }

    /**
     * FTS5 writes (entry deletions and insertions by rowid) queued while a transaction writes its
     * table rows, run after them ({@link #run}): FTS5 keeps a transaction's new entries in memory and
     * writes them out as a new index segment whenever a savepoint opens (SQLite opens one for each
     * statement that may write several rows and may fail partway, which every statement on a table
     * with triggers is: the {@code vector_versions} triggers) and whenever an entry's rowid is lower
     * than the one before, or repeats after an insertion. Written between the rows, each row's entry
     * became a segment of its own (six rows, six segments per index: many more segments to merge and
     * to search; a lexical dream night a third slower). Run together, by index and then rowid (the
     * writes of one rowid keep their order), a transaction's entries make one segment per index, or
     * one per 1 MB of them, or one per batch under group commit (each batch's {@code SAVEPOINT}
     * writes out the one before). Nothing a batch does reads an FTS5 table, so nothing sees them late.
     */
    private static final class FtsWrites {
        private record Write(String index, long rowid, String text) {
        }

        private final List<Write> writes = new ArrayList<>();

        /** Queues the deletion of entry {@code rowid} of {@code index}. */
        void delete(String index, long rowid) {
            writes.add(new Write(index, rowid, null));
        }

        /** Queues entry {@code rowid} of {@code index} with {@code text} (FTS words). */
        void insert(String index, long rowid, String text) {
            writes.add(new Write(index, rowid, text));
        }

        void clear() {
            writes.clear();
        }

        /** Runs the queued writes, by index and rowid (stable: one rowid's in queue order), and forgets them. */
        void run(Connection c) throws SQLException {
            List<Write> ordered = new ArrayList<>(writes);
            ordered.sort(java.util.Comparator.comparing(Write::index).thenComparingLong(Write::rowid));
            for (Write w : ordered) {
                if (w.text() == null) {
                    update(c, "DELETE FROM " + w.index() + " WHERE rowid = ?", w.rowid());
                } else {
                    update(c, "INSERT INTO " + w.index() + " (rowid, text) VALUES (?, ?)", w.rowid(), w.text());
                }
            }
            writes.clear();
        }
    }

    /**
     * What a batch's statements need that does not depend on the transaction, made on the caller's
     * thread before the batch queues for its (group's) transaction: the scope's FTS token, the JSON of
     * its observations and memories, and the FTS words of rows that are new for sure (observations
     * with a new id) or almost always (turns archived at their session's end). It also keeps the JSON
     * of the last session turn written, so a turn appended to its session and archived in the same
     * batch is serialized once. Confined to the batch's work, as is {@link #fts}, the queue its FTS5
     * writes go to while it runs (rowids read in the transaction).
     */
    private static final class Prepared {
        private final String scopeToken;
        private final String[] json;
        private final String[] words;
        private final boolean[] newIds;
        private final Json.Last turns = new Json.Last();
        final FtsWrites fts;
        /** Whether an op stores an embedding (the vector triggers must exist first). */
        boolean vectors;

        Prepared(Scope scope, List<WriteBatch.Op> ops, FtsWrites fts) {
            this.fts = fts;
            scopeToken = scopeToken(scope);
            json = new String[ops.size()];
            words = new String[ops.size()];
            newIds = new boolean[ops.size()];
            for (int i = 0; i < ops.size(); i++) {
                WriteBatch.Op op = ops.get(i);
                if (op instanceof WriteBatch.PutObservation p) {
                    vectors |= p.observation().embedding() != null;
                    json[i] = Json.write(p.observation().withEmbedding(null));
                    if (p.newId()) {
                        newIds[i] = true;
                        if (MemoryStore.textSearchable(p.observation())) {
                            words[i] = scopedWords(scopeToken, p.observation().text());
                        }
                    }
                } else if (op instanceof WriteBatch.PutMemory p) {
                    vectors |= p.memory().embedding() != null;
                    json[i] = Json.write(p.memory().toBuilder().embedding(null).build());
                } else if (op instanceof WriteBatch.ArchiveTurn t) {
                    vectors |= t.embedding() != null;
                }
                if (op instanceof WriteBatch.ArchiveTurn t && t.atSessionEnd()) {
                    // the seq is not known yet, but the searched text does not depend on it
                    words[i] = scopedWords(scopeToken, t.turn().searchText());
                }
            }
        }

        String turnJson(SessionTurn t) {
            return turns.of(t);
        }

        /** Whether op {@code i} puts an observation whose id was generated for this write. */
        boolean newId(int i) {
            return newIds[i];
        }

        /** The FTS words of {@code text}, the words op {@code i} prepared for it when it did. */
        String words(int i, String text) {
            return words[i] != null ? words[i] : scopedWords(scopeToken, text);
        }
    }

    /** Applies op {@code i} of the batch ({@code op} is that op with its final seq). */
    private void apply(Connection c, Scope s, WriteBatch.Op op, Prepared prepared, int i) throws SQLException {
        if (op instanceof WriteBatch.PutObservation p) {
            putObservation(c, s, p.observation(), prepared, i);
        } else if (op instanceof WriteBatch.DeleteObservation d) {
            deleteRow(c, s, "observations", "observations_fts", d.id(), prepared);
        } else if (op instanceof WriteBatch.PutMemory p) {
            putMemory(c, s, p.memory(), prepared, i);
        } else if (op instanceof WriteBatch.DeleteMemory d) {
            deleteRow(c, s, "memories", "memories_fts", d.id(), prepared);
        } else if (op instanceof WriteBatch.SetObservationStatus u) {
            update(c, "UPDATE observations SET status = ?, consolidated_at = ? WHERE agent = ? AND usr = ? AND id = ?",
                    u.status().name(), SqliteSchema.timeText(u.consolidatedAt()), s.agentId(), s.endUserId(), u.id());
        } else if (op instanceof WriteBatch.SetMemoryStatus u) {
            update(c, "UPDATE memories SET status = ?, data = json_set(data, '$.status', ?, '$.supersededBy', json(?),"
                    + " '$.updatedAt', json(?)) WHERE agent = ? AND usr = ? AND id = ?", u.status().name(),
                    u.status().name(), Json.write(u.supersededBy()), Json.write(u.updatedAt()), s.agentId(),
                    s.endUserId(), u.id());
        } else if (op instanceof WriteBatch.AddRecalls r) {
            addRecalls(c, s, r);
        } else if (op instanceof WriteBatch.AppendHistory h) {
            update(c, "INSERT INTO history (agent, usr, memory_id, data) VALUES (?, ?, ?, ?)",
                    s.agentId(), s.endUserId(), h.event().memoryId(), Json.write(h.event()));
        } else if (op instanceof WriteBatch.AppendTurn t) {
            update(c, "INSERT INTO session_turns (agent, usr, session_id, seq, data, first_at) VALUES (?, ?, ?, ?, ?, ?)",
                    s.agentId(), s.endUserId(), t.turn().sessionId(), t.turn().seq(), prepared.turnJson(t.turn()),
                    t.turn().at().toEpochMilli());
        } else if (op instanceof WriteBatch.ArchiveTurn t) {
            putArchivedTurn(c, s, t.turn(), t.embedding(), prepared, i);
        } else if (op instanceof WriteBatch.PurgeArchive p) {
            Object[] k = {s.agentId(), s.endUserId(), p.before().toEpochMilli()};
            for (long rowid : query(c, "SELECT rowid FROM archive_turns WHERE agent = ? AND usr = ? AND at < ?"
                    + " ORDER BY rowid", rs -> rs.getLong(1), k)) {
                prepared.fts.delete("archive_fts", rowid);
            }
            update(c, "DELETE FROM archive_turns WHERE agent = ? AND usr = ? AND at < ?", k);
        } else if (op instanceof WriteBatch.PutSummary p) {
            update(c, "INSERT OR REPLACE INTO session_summaries (agent, usr, session_id, data) VALUES (?, ?, ?, ?)",
                    s.agentId(), s.endUserId(), p.summary().sessionId(), Json.write(p.summary()));
        } else if (op instanceof WriteBatch.PutStyle p) {
            update(c, "INSERT OR REPLACE INTO style_profiles (agent, usr, data) VALUES (?, ?, ?)",
                    s.agentId(), s.endUserId(), Json.write(p.profile()));
        } else if (op instanceof WriteBatch.DeleteStyle) {
            update(c, "DELETE FROM style_profiles WHERE agent = ? AND usr = ?", s.agentId(), s.endUserId());
        } else {
            throw new IllegalArgumentException("unknown write operation " + op);
        }
    }

    /**
     * Adds recalls to a stored memory's columns, from their values read in this write transaction
     * (the JSON record is left as it is: {@link MemoryRows}); nothing happens when the memory does not exist.
     */
    private static void addRecalls(Connection c, Scope s, WriteBatch.AddRecalls r) throws SQLException {
        int count;
        String at;
        try (PreparedStatement ps = c.prepareStatement("SELECT retrieval_count, last_retrieved_at FROM memories"
                + " WHERE agent = ? AND usr = ? AND id = ?")) {
            bind(ps, s.agentId(), s.endUserId(), r.id());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return;
                }
                count = rs.getInt(1);
                at = rs.getString(2);
            }
        }
        java.time.Instant last = SqliteSchema.time(at);
        update(c, "UPDATE memories SET retrieval_count = ?, last_retrieved_at = ? WHERE agent = ? AND usr = ? AND id = ?",
                r.countAfter(count), SqliteSchema.timeText(r.lastAfter(last)), s.agentId(), s.endUserId(), r.id());
    }

    private void putObservation(Connection c, Scope s, Observation o, Prepared prepared, int i) throws SQLException {
        Embedding e = o.embedding();
        // a STYLE observation has no FTS entry (MemoryStore#searchObservations never returns one); the
        // old row's indexed text reads as null for one, as for a row a STYLE observation replaces
        upsert(c, "observations", "observations_fts", s, o.id(),
                "CASE WHEN kind = '" + MemoryKind.STYLE.name() + "' THEN NULL ELSE text END",
                MemoryStore.textSearchable(o) ? o.text() : null, prepared, i,
                "INSERT INTO observations (agent, usr, id, kind, status, consolidated_at, session_id, observed_at, dim,"
                        + " embedding, data, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                        + " ON CONFLICT (agent, usr, id) DO UPDATE SET kind = excluded.kind, status = excluded.status,"
                        + " consolidated_at = excluded.consolidated_at, session_id = excluded.session_id,"
                        + " observed_at = excluded.observed_at, dim = excluded.dim,"
                        + " embedding = excluded.embedding, data = excluded.data, text = excluded.text",
                s.agentId(), s.endUserId(), o.id(), o.kind().name(), o.status().name(),
                SqliteSchema.timeText(o.consolidatedAt()), o.sessionId(),
                o.observedAt().toEpochMilli(), e == null ? null : e.dimension(),
                e == null ? null : Vectors.toBytes(e.toArray()), prepared.json[i], o.text());
    }

    private void putMemory(Connection c, Scope s, Memory m, Prepared prepared, int i) throws SQLException {
        Embedding e = m.embedding();
        upsert(c, "memories", "memories_fts", s, m.id(), "text", m.text(), prepared, i,
                "INSERT INTO memories (agent, usr, id, kind, status, text, created_at, permanent, importance, dim,"
                        + " embedding, data, retrieval_count, last_retrieved_at)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                        + " ON CONFLICT (agent, usr, id) DO UPDATE SET kind = excluded.kind, status = excluded.status,"
                        + " text = excluded.text, created_at = excluded.created_at, permanent = excluded.permanent,"
                        + " importance = excluded.importance, dim = excluded.dim,"
                        + " embedding = excluded.embedding, data = excluded.data,"
                        + " retrieval_count = excluded.retrieval_count, last_retrieved_at = excluded.last_retrieved_at",
                s.agentId(), s.endUserId(), m.id(), m.kind().name(), m.status().name(), m.text(),
                m.createdAt().toEpochMilli(), m.permanent() ? 1 : 0, m.importance(), e == null ? null : e.dimension(),
                e == null ? null : Vectors.toBytes(e.toArray()), prepared.json[i], m.retrievalCount(),
                SqliteSchema.timeText(m.lastRetrievedAt()));
    }

    /** Inserts or replaces an archived turn (same session and seq) and keeps its FTS entry in step. */
    private void putArchivedTurn(Connection c, Scope s, SessionTurn t, Embedding e, Prepared prepared, int i)
            throws SQLException {
        String text = t.searchText();
        Long rid = null;
        String oldText = null;
        try (PreparedStatement ps = c.prepareStatement("SELECT rowid, text FROM archive_turns"
                + " WHERE agent = ? AND usr = ? AND session_id = ? AND seq = ?")) {
            bind(ps, s.agentId(), s.endUserId(), t.sessionId(), t.seq());
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    rid = rs.getLong(1);
                    oldText = rs.getString(2);
                }
            }
        }
        update(c, "INSERT INTO archive_turns (agent, usr, session_id, seq, data, text, at, dim, embedding)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (agent, usr, session_id, seq) DO UPDATE SET"
                        + " data = excluded.data, text = excluded.text, at = excluded.at, dim = excluded.dim,"
                        + " embedding = excluded.embedding",
                s.agentId(), s.endUserId(), t.sessionId(), t.seq(), prepared.turnJson(t), text, t.at().toEpochMilli(),
                e == null ? null : e.dimension(), e == null ? null : Vectors.toBytes(e.toArray()));
        reindexIfChanged(c, "archive_fts", rid, oldText, text, prepared, i);
    }


    /**
     * Fills the archive's search columns and FTS index for rows written before schema version 3; runs
     * inside the migration's transaction.
     */
    static void backfillArchive(Connection c) throws SQLException {
        List<Object[]> rows = query(c, "SELECT rowid, agent, usr, data FROM archive_turns",
                rs -> new Object[] {rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4)});
        for (Object[] row : rows) {
            SessionTurn t = Json.read((String) row[3], SessionTurn.class);
            String text = t.searchText();
            update(c, "UPDATE archive_turns SET text = ?, at = ? WHERE rowid = ?", text, t.at().toEpochMilli(), row[0]);
            update(c, "INSERT INTO archive_fts (rowid, text) VALUES (?, ?)", row[0],
                    scopedWords(scopeToken((String) row[1], (String) row[2]), text));
        }
    }

    /**
     * Inserts or updates a row and keeps its FTS entry in step; the FTS entry is rewritten only when
     * the indexed text changed (the dream cycle mostly changes statuses, not text). {@code text} is
     * the text to index, {@code null} for a row without an FTS entry; {@code indexedColumn} the SQL
     * expression that reads an existing row's indexed text the same way.
     */
    private void upsert(Connection c, String table, String fts, Scope s, String id, String indexedColumn, String text,
                        Prepared prepared, int i, String sql, Object... args) throws SQLException {
        if (prepared.newId(i)) {
            // an id generated for this write (WriteBatch.putNew) has no stored row to look up: insert it
            // without the upsert clause, so a caller that broke that promise gets a constraint error
            // instead of a row whose FTS entry points elsewhere
            update(c, sql.substring(0, sql.indexOf(" ON CONFLICT")), args);
            reindexIfChanged(c, fts, null, null, text, prepared, i);
            return;
        }
        Long rid = null;
        String oldText = null;
        try (PreparedStatement ps = c.prepareStatement("SELECT rid, " + indexedColumn + " FROM " + table
                + " WHERE agent = ? AND usr = ? AND id = ?")) {
            bind(ps, s.agentId(), s.endUserId(), id);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    rid = rs.getLong(1);
                    oldText = rs.getString(2);
                }
            }
        }
        update(c, sql, args);
        reindexIfChanged(c, fts, rid, oldText, text, prepared, i);
    }

    /**
     * After an upsert: indexes a new row ({@code rid == null}: the row just inserted) or re-indexes an
     * existing one whose indexed text changed; {@code null} texts are rows without an FTS entry.
     */
    private void reindexIfChanged(Connection c, String fts, Long rid, String oldText, String text, Prepared prepared,
                                  int i) throws SQLException {
        boolean inserted = rid == null;
        if (inserted) {
            if (text == null) {
                return;
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT last_insert_rowid()");
                 ResultSet rs = ps.executeQuery()) {
                rs.next();
                rid = rs.getLong(1);
            }
        } else if (Objects.equals(text, oldText)) {
            return;
        }
        if (!inserted) {
            // a new row's rowid was never used (AUTOINCREMENT), so it has no old entry to delete; an old
            // row read as unindexed may still have one (a STYLE observation an older version
            // indexed): deleting a rowid the index lacks changes nothing in a contentless_delete index
            prepared.fts.delete(fts, rid);
        }
        if (text != null) {
            prepared.fts.insert(fts, rid, prepared.words(i, text));
        }
    }

    /** Deletes a row; the deletion of its FTS entry is queued ({@link FtsWrites}). */
    private void deleteRow(Connection c, Scope s, String table, String fts, String id, Prepared prepared)
            throws SQLException {
        for (long rid : query(c, "SELECT rid FROM " + table + " WHERE agent = ? AND usr = ? AND id = ?",
                rs -> rs.getLong(1), s.agentId(), s.endUserId(), id)) {
            prepared.fts.delete(fts, rid);
        }
        update(c, "DELETE FROM " + table + " WHERE agent = ? AND usr = ? AND id = ?", s.agentId(), s.endUserId(), id);
    }

    @Override
    public void erase(Scope scope) {
        Checks.notNull("scope", scope);
        TenantDatabase db = db(scope.tenantId());
        db.write(c -> {
            Object[] k = {scope.agentId(), scope.endUserId()};
            update(c, "DELETE FROM memories_fts WHERE rowid IN (SELECT rid FROM memories WHERE agent = ? AND usr = ?)", k);
            update(c, "DELETE FROM observations_fts WHERE rowid IN (SELECT rid FROM observations WHERE agent = ? AND usr = ?)", k);
            update(c, "DELETE FROM archive_fts WHERE rowid IN (SELECT rowid FROM archive_turns WHERE agent = ? AND usr = ?)", k);
            for (String table : List.of("memories", "observations", "session_turns", "archive_turns",
                    "session_summaries", "style_profiles", "history", "leases")) {
                update(c, "DELETE FROM " + table + " WHERE agent = ? AND usr = ?", k);
            }
            // last: the deletes above fire the triggers that keep it (which drop it when no vector is left)
            update(c, "DELETE FROM vector_versions WHERE agent = ? AND usr = ?", k);
            return null;
        });
        DecodedRecords.forget(scope);
        vectorCache.forget(scope.tenantId(), scope.agentId(), scope.endUserId());
        lexicalCache.forget(scope.tenantId(), scope.agentId(), scope.endUserId());
        db.scrub();
    }

    // ---------------------------------------------------------------- leases

    /** Decided inside an IMMEDIATE transaction, so two processes on one file never both win. */
    @Override
    public boolean tryLease(Scope scope, String name, String holder, java.time.Instant now, java.time.Instant until) {
        Checks.notNull("scope", scope);
        checkLease(name, holder, now, until);
        return db(scope.tenantId()).write(c -> lease(c, scope, name, holder, now, until));
    }

    /** One IMMEDIATE transaction (one sync) per tenant for all the scopes' leases. */
    @Override
    public java.util.Set<Scope> tryLeases(List<Scope> scopes, String name, String holder, java.time.Instant now,
                                          java.time.Instant until) {
        List<Scope> all = List.copyOf(scopes);
        checkLease(name, holder, now, until);
        ensureOpen();
        java.util.Set<Scope> held = new java.util.LinkedHashSet<>();
        for (var tenant : byTenant(all).entrySet()) {
            held.addAll(db(tenant.getKey()).write(c -> {
                List<Scope> won = new ArrayList<>();
                for (Scope scope : tenant.getValue()) {
                    if (lease(c, scope, name, holder, now, until)) {
                        won.add(scope);
                    }
                }
                return won;
            }));
        }
        java.util.Set<Scope> ordered = new java.util.LinkedHashSet<>();
        for (Scope scope : all) {
            if (held.contains(scope)) {
                ordered.add(scope);
            }
        }
        return java.util.Collections.unmodifiableSet(ordered);
    }

    private static void checkLease(String name, String holder, java.time.Instant now, java.time.Instant until) {
        Checks.id("name", name);
        Checks.id("holder", holder);
        Checks.notNull("now", now);
        Checks.notNull("until", until);
    }

    private static boolean lease(Connection c, Scope scope, String name, String holder, java.time.Instant now,
                                 java.time.Instant until) throws SQLException {
        List<Object[]> current = query(c, "SELECT holder, until FROM leases WHERE agent = ? AND usr = ? AND name = ?",
                rs -> new Object[] {rs.getString(1), rs.getLong(2)}, scope.agentId(), scope.endUserId(), name);
        if (!current.isEmpty() && !holder.equals(current.get(0)[0])
                && (Long) current.get(0)[1] > now.toEpochMilli()) {
            return false;
        }
        update(c, "INSERT OR REPLACE INTO leases (agent, usr, name, holder, until) VALUES (?, ?, ?, ?, ?)",
                scope.agentId(), scope.endUserId(), name, holder, until.toEpochMilli());
        return true;
    }

    @Override
    public void releaseLease(Scope scope, String name, String holder) {
        releaseLeases(List.of(Checks.notNull("scope", scope)), name, holder);
    }

    /** One IMMEDIATE transaction per tenant for all the scopes. */
    @Override
    public void releaseLeases(List<Scope> scopes, String name, String holder) {
        List<Scope> all = List.copyOf(scopes);
        Checks.id("name", name);
        Checks.id("holder", holder);
        ensureOpen();
        for (var tenant : byTenant(all).entrySet()) {
            db(tenant.getKey()).write(c -> {
                for (Scope scope : tenant.getValue()) {
                    update(c, "DELETE FROM leases WHERE agent = ? AND usr = ? AND name = ? AND holder = ?",
                            scope.agentId(), scope.endUserId(), name, holder);
                }
                return null;
            });
        }
    }

    private static java.util.Map<String, List<Scope>> byTenant(List<Scope> scopes) {
        java.util.Map<String, List<Scope>> out = new java.util.LinkedHashMap<>();
        for (Scope scope : scopes) {
            out.computeIfAbsent(scope.tenantId(), k -> new ArrayList<>()).add(scope);
        }
        return out;
    }

    // ---------------------------------------------------------------- reads

    @Override
    public Optional<Observation> observation(Scope scope, String id) {
        Checks.notNull("scope", scope);
        Checks.notNull("id", id);
        return first(db(scope.tenantId()).query(
                "SELECT " + ObservationRows.columns("") + " FROM observations WHERE agent = ? AND usr = ? AND id = ?",
                ObservationRows::row, scope.agentId(), scope.endUserId(), id));
    }

    @Override
    public List<Observation> observations(Scope scope, ObservationFilter f) {
        Checks.notNull("scope", scope);
        Checks.notNull("filter", f);
        StringBuilder sql = new StringBuilder("SELECT " + ObservationRows.columns("")
                + " FROM observations WHERE agent = ? AND usr = ?");
        List<Object> args = new ArrayList<>(List.of(scope.agentId(), scope.endUserId()));
        in(sql, args, "status", names(f.statuses()));
        in(sql, args, "kind", names(f.kinds()));
        if (f.sessionId() != null) {
            sql.append(" AND session_id = ?");
            args.add(f.sessionId());
        }
        sql.append(" ORDER BY observed_at, id LIMIT ? OFFSET ?");
        args.add(f.limit());
        args.add(f.offset());
        return db(scope.tenantId()).query(sql.toString(), ObservationRows::row, args.toArray());
    }

    @Override
    public Optional<Memory> memory(Scope scope, String id) {
        Checks.notNull("scope", scope);
        Checks.notNull("id", id);
        return first(db(scope.tenantId()).query(
                "SELECT " + MemoryRows.columns("") + " FROM memories WHERE agent = ? AND usr = ? AND id = ?",
                MemoryRows::row, scope.agentId(), scope.endUserId(), id));
    }

    @Override
    public List<Memory> memories(Scope scope, MemoryFilter f) {
        Checks.notNull("scope", scope);
        Checks.notNull("filter", f);
        StringBuilder sql = new StringBuilder("SELECT " + MemoryRows.columns("")
                + " FROM memories WHERE agent = ? AND usr = ?");
        List<Object> args = new ArrayList<>(List.of(scope.agentId(), scope.endUserId()));
        in(sql, args, "status", names(f.statuses()));
        in(sql, args, "kind", names(f.kinds()));
        String fragment = f.textContains() == null || f.textContains().isEmpty() ? null : f.textContains();
        // LIKE folds the case of ASCII letters only: a fragment with other letters is matched in Java, as Lucene does
        boolean asciiFragment = fragment == null || fragment.chars().allMatch(ch -> ch < 0x80);
        if (fragment != null && asciiFragment) {
            sql.append(" AND text LIKE ? ESCAPE '\\'");
            args.add("%" + fragment.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
        }
        if (f.createdFrom() != null) {
            sql.append(" AND created_at >= ?");
            args.add(f.createdFrom().toEpochMilli());
        }
        if (f.createdBefore() != null) {
            sql.append(" AND created_at < ?");
            args.add(f.createdBefore().toEpochMilli());
        }
        sql.append(" ORDER BY created_at, id");
        if (!asciiFragment) {
            String lower = fragment.toLowerCase(Locale.ROOT);
            List<Memory> all = db(scope.tenantId()).query(sql.toString(), MemoryRows::row, args.toArray());
            return all.stream().filter(m -> m.text().toLowerCase(Locale.ROOT).contains(lower))
                    .skip(f.offset()).limit(f.limit()).toList();
        }
        sql.append(" LIMIT ? OFFSET ?");
        args.add(f.limit());
        args.add(f.offset());
        return db(scope.tenantId()).query(sql.toString(), MemoryRows::row, args.toArray());
    }

    @Override
    public List<Memory> pinnedMemories(Scope scope, int limit) {
        Checks.notNull("scope", scope);
        Checks.positive("limit", limit);
        List<Memory> kept = keptPinned(scope, limit);
        if (kept != null) {
            return kept;
        }
        return db(scope.tenantId()).query(
                "SELECT " + MemoryRows.columns("") + " FROM memories WHERE agent = ? AND usr = ? AND permanent = 1"
                        + " AND status = 'ACTIVE' ORDER BY importance DESC, id LIMIT ?",
                MemoryRows::row, scope.agentId(), scope.endUserId(), limit);
    }

    @Override
    public long countMemories(Scope scope, Set<MemoryStatus> statuses) {
        Checks.notNull("scope", scope);
        StringBuilder sql = new StringBuilder("SELECT COUNT(*) FROM memories WHERE agent = ? AND usr = ?");
        List<Object> args = new ArrayList<>(List.of(scope.agentId(), scope.endUserId()));
        in(sql, args, "status", names(statuses));
        return db(scope.tenantId()).query(sql.toString(), rs -> rs.getLong(1), args.toArray()).get(0);
    }

    @Override
    public List<Scored<Memory>> searchMemories(Scope scope, String text, Set<MemoryStatus> statuses,
                                               Set<MemoryKind> kinds, int limit) {
        Checks.notNull("scope", scope);
        Checks.positive("limit", limit);
        ensureOpen();
        String match = matchExpression(scope, text);
        if (match == null || statuses.isEmpty() || kinds.isEmpty()) {
            return List.of();
        }
        TenantDatabase db = db(scope.tenantId());
        Lookup cached = cachedSearch(db, scope, "memories", text, Set.copyOf(names(statuses)),
                Set.copyOf(names(kinds)), limit);
        if (cached.hits() != null) {
            return cachedRows(cached.hits(), Memory.class);
        }
        // the MATCH terms carry the end user's prefix, so bm25() reads only that user's postings
        StringBuilder filter = new StringBuilder("m.agent = ? AND m.usr = ?");
        List<Object> args = new ArrayList<>(List.of(match, scope.agentId(), scope.endUserId()));
        in(filter, args, "m.status", names(statuses));
        in(filter, args, "m.kind", names(kinds));
        args.add(limit);
        return counted(cached, db.query(rankedSearch("memories", "memories_fts", MemoryRows.columns("m"),
                        filter.toString()),
                rs -> new Scored<>(MemoryRows.row(rs), -rs.getDouble(MemoryRows.COUNT + 1)), args.toArray()));
    }

    /** The kinds of observation a text search returns: all but STYLE ({@link MemoryStore#textSearchable}). */
    private static final Set<String> SEARCHED_OBSERVATION_KINDS = Set.copyOf(
            names(EnumSet.complementOf(EnumSet.of(MemoryKind.STYLE))));

    @Override
    public List<Scored<Observation>> searchObservations(Scope scope, String text, Set<ObservationStatus> statuses,
                                                        int limit) {
        Checks.notNull("scope", scope);
        Checks.positive("limit", limit);
        ensureOpen();
        String match = matchExpression(scope, text);
        if (match == null || statuses.isEmpty()) {
            return List.of();
        }
        TenantDatabase db = db(scope.tenantId());
        Lookup cached = cachedSearch(db, scope, "observations", text, Set.copyOf(names(statuses)),
                SEARCHED_OBSERVATION_KINDS, limit);
        if (cached.hits() != null) {
            return cachedRows(cached.hits(), Observation.class);
        }
        StringBuilder filter = new StringBuilder("o.agent = ? AND o.usr = ?");
        List<Object> args = new ArrayList<>(List.of(scope.agentId(), scope.endUserId()));
        in(filter, args, "o.status", names(statuses));
        // files written by older versions indexed STYLE observations too
        filter.append(" AND o.kind <> '").append(MemoryKind.STYLE.name()).append('\'');
        // the FTS index keeps consolidated observations until they are pruned, so after a dream a search
        // for PENDING ones would match and join them all to find none; one index probe says so first
        // (two reads, not one snapshot: a write between them makes the result what the search finds
        // just before or just after it, as any search racing a write returns)
        if (db.query("SELECT 1 FROM observations o WHERE " + filter + " LIMIT 1", rs -> 1, args.toArray()).isEmpty()) {
            return List.of();
        }
        args.add(0, match);
        args.add(limit);
        return counted(cached, db.query(rankedSearch("observations", "observations_fts", ObservationRows.columns("o"),
                        filter.toString()),
                rs -> new Scored<>(ObservationRows.row(rs), -rs.getDouble(ObservationRows.COUNT + 1)), args.toArray()));
    }

    @Override
    public List<Scored<Memory>> searchMemoriesByVector(Scope scope, float[] vector, Set<MemoryStatus> statuses,
                                                       int limit) {
        return vectorSearch(scope, "memories", vector, names(statuses), limit, NO_FLOOR, MEMORY_ROWS);
    }

    @Override
    public List<Scored<Memory>> searchMemoriesByVector(Scope scope, float[] vector, Set<MemoryStatus> statuses,
                                                       int limit, double minSimilarity) {
        return vectorSearch(scope, "memories", vector, names(statuses), limit, floor(minSimilarity), MEMORY_ROWS);
    }

    @Override
    public List<Scored<Observation>> searchObservationsByVector(Scope scope, float[] vector,
                                                                Set<ObservationStatus> statuses, int limit) {
        return vectorSearch(scope, "observations", vector, names(statuses), limit, NO_FLOOR, OBSERVATION_ROWS);
    }

    @Override
    public List<Scored<Observation>> searchObservationsByVector(Scope scope, float[] vector,
                                                                Set<ObservationStatus> statuses, int limit,
                                                                double minSimilarity) {
        return vectorSearch(scope, "observations", vector, names(statuses), limit, floor(minSimilarity),
                OBSERVATION_ROWS);
    }

    /** The columns a table's records are read from, how many, how a row of them is decoded, and their type. */
    private record RecordColumns<T>(String columns, int count, RowMapper<T> mapper, Class<T> type) {
    }

    private static final RecordColumns<Memory> MEMORY_ROWS =
            new RecordColumns<>(MemoryRows.columns(""), MemoryRows.COUNT, MemoryRows::row, Memory.class);
    private static final RecordColumns<Observation> OBSERVATION_ROWS = new RecordColumns<>(
            ObservationRows.columns(""), ObservationRows.COUNT, ObservationRows::row, Observation.class);

    /**
     * The records of a vector search's {@code hits} (row ids and cosines) from the scope's entry in the
     * {@link LexicalCache}, when it is kept at the database's current change token and holds every
     * one of them; else {@code null} (the caller reads them from the table). The token is read after
     * the vectors were scored, so these are the rows the table holds now, as reading them would give.
     */
    private <T> List<Scored<T>> keptRows(Scope scope, String table, List<NearestVectors.Hit<Long>> hits,
                                         Class<T> type) {
        if (hits.isEmpty()) {
            return null;
        }
        LexicalCache.Entry entry = keptEntry(scope, table);
        if (entry == null) {
            return null;
        }
        List<Long> rids = new ArrayList<>(hits.size());
        for (NearestVectors.Hit<Long> hit : hits) {
            rids.add(hit.key());
        }
        List<Object> found = entry.rowsOf(rids);
        if (found == null) {
            return null;
        }
        List<Scored<T>> out = new ArrayList<>(hits.size());
        for (int i = 0; i < hits.size(); i++) {
            out.add(new Scored<>(type.cast(found.get(i)), hits.get(i).score()));
        }
        return out;
    }

    private <T> List<Scored<T>> vectorSearch(Scope scope, String table, float[] vector, List<String> statuses,
                                             int limit, double floor, RecordColumns<T> rows) {
        Checks.notNull("scope", scope);
        Checks.notNull("vector", vector);
        Checks.positive("limit", limit);
        if (vector.length == 0) {
            throw new IllegalArgumentException("vector must have at least one dimension");
        }
        ensureOpen();
        if (statuses.isEmpty()) {
            return List.of();
        }
        TenantDatabase db = db(scope.tenantId());
        VectorVersion version = vectorVersion(db, scope, table);
        List<NearestVectors.Hit<Long>> best = db.read(c ->
                nearestCached(c, scope, table, version, statuses, vector, limit, floor));
        List<Scored<T>> kept = keptRows(scope, table, best, rows.type());
        if (kept != null) {
            return kept;
        }
        return db.read(c -> fetchByRid(c, "SELECT " + rows.columns() + ", rid FROM " + table + " WHERE rid IN ",
                rows.count() + 1, best, (rs, score) -> new Scored<>(rows.mapper().map(rs), score)));
    }

    /**
     * The rowids and cosines of the {@code limit} vectors of the scope's rows in {@code table} (with one
     * of {@code statuses}; {@code null} for archived turns, which have none) nearest to {@code vector},
     * from the {@link VectorCache} when the scope's {@code vector_versions} number says its entry is
     * current; else read whole and kept when the scope was searched at this number before, or scanned
     * (only the rows of the wanted statuses). The number is read before the rows, so an entry is
     * never older than the number it is kept under (a write in between makes the next search read the
     * rows again).
     */
    private List<NearestVectors.Hit<Long>> nearestCached(Connection c, Scope scope, String table, VectorVersion read,
                                                         List<String> statuses, float[] vector, int limit, double floor)
            throws SQLException {
        String rowKey = table.equals("archive_turns") ? "rowid" : "rid";
        VectorCache.Key key = new VectorCache.Key(scope.tenantId(), scope.agentId(), scope.endUserId(), table);
        long epoch = read.epoch();
        Long version = read.version();
        if (version == null) {
            // no number: no vector in the scope, or only vectors written while the file had no triggers
            // (before it had the table, or by an older Reverie after this one dropped them): nothing is
            // kept, and the scan reads the scope's current rows
            vectorCache.remove(key);
        } else {
            VectorCache.Scope vectors = vectorCache.get(key, version);
            if (vectors == null && vectorCache.worthReading(key, version)) {
                vectors = readVectors(c, scope, table, rowKey, version);
                vectorCache.put(key, vectors, epoch);
            }
            if (vectors != null) {
                NearestVectors<Long> nearest = new NearestVectors<>(vector, limit, floor, table + " of " + scope,
                        Comparator.naturalOrder());
                vectors.offerTo(nearest, statuses);
                return nearest.best();
            }
        }
        StringBuilder sql = new StringBuilder("SELECT " + rowKey + ", dim, embedding FROM " + table
                + " WHERE agent = ? AND usr = ? AND embedding IS NOT NULL");
        List<Object> args = new ArrayList<>(List.of(scope.agentId(), scope.endUserId()));
        if (statuses != null) {
            in(sql, args, "status", statuses);
        }
        return nearest(c, sql.toString(), args.toArray(), vector, limit, floor, table, scope);
    }

    /** The cache's erasure count, then the scope's {@code vector_versions} number ({@code null}: none), read in that order. */
    private record VectorVersion(long epoch, Long version) {
    }

    /**
     * Reads the scope's {@code vector_versions} number (a statement kept per reader connection), after
     * the cache's erasure count, before any row of the table.
     */
    private VectorVersion vectorVersion(TenantDatabase db, Scope scope, String table) {
        long epoch = vectorCache.epoch();
        List<Long> version = db.query("SELECT version FROM vector_versions WHERE agent = ? AND usr = ? AND tbl = ?",
                rs -> rs.getLong(1), scope.agentId(), scope.endUserId(), table);
        return new VectorVersion(epoch, version.isEmpty() ? null : version.get(0));
    }

    /** Every vector of the scope's rows in {@code table}, as {@link VectorCache} keeps them. */
    private static VectorCache.Scope readVectors(Connection c, Scope scope, String table, String rowKey, long version)
            throws SQLException {
        boolean withStatus = !table.equals("archive_turns");
        List<Long> rids = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        List<String> statuses = new ArrayList<>();
        Map<String, String> interned = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT " + rowKey + ", embedding"
                + (withStatus ? ", status" : "") + " FROM " + table
                + " WHERE agent = ? AND usr = ? AND embedding IS NOT NULL")) {
            bind(ps, new Object[] {scope.agentId(), scope.endUserId()});
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rids.add(rs.getLong(1));
                    vectors.add(Vectors.fromBytes(rs.getBytes(2)));
                    if (withStatus) {
                        statuses.add(interned.computeIfAbsent(rs.getString(3), k -> k));
                    }
                }
            }
        }
        long[] keys = new long[rids.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = rids.get(i);
        }
        return new VectorCache.Scope(version, keys, vectors.toArray(new float[0][]),
                withStatus ? statuses.toArray(new String[0]) : null);
    }

    /** No similarity floor: every vector hit counts. */
    private static final double NO_FLOOR = Double.NEGATIVE_INFINITY;

    private static double floor(double minSimilarity) {
        return Checks.similarityFloor("minSimilarity", minSimilarity);
    }

    /**
     * The rowids and cosines of the {@code limit} stored vectors nearest to {@code vector} among the
     * rows {@code sql} selects (rowid, dim, embedding), best first; rows under {@code floor} are left
     * out before any record is read.
     */
    private static List<NearestVectors.Hit<Long>> nearest(Connection c, String sql, Object[] args, float[] vector,
                                                          int limit, double floor, String table, Scope scope)
            throws SQLException {
        NearestVectors<Long> nearest = new NearestVectors<>(vector, limit, floor, table + " of " + scope,
                Comparator.naturalOrder());
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    nearest.offer(rs.getLong(1), rs.getInt(2), rs.getBytes(3));
                }
            }
        }
        return nearest.best();
    }

    /** A record read with the score its row got. */
    private interface ScoredRow<T> {
        Scored<T> map(ResultSet rs, double score) throws SQLException;
    }

    /**
     * The rows of {@code hits} (rowid, score) read in one statement per {@value #FETCH_CHUNK} rows
     * ({@code select} ends with {@code WHERE <rowid column> IN }; column {@code ridColumn} is the rowid),
     * returned in the order of {@code hits}; a row deleted since it was scored is left out.
     */
    private static <T> List<Scored<T>> fetchByRid(Connection c, String select, int ridColumn,
                                                  List<NearestVectors.Hit<Long>> hits, ScoredRow<T> mapper)
            throws SQLException {
        Map<Long, Scored<T>> byRid = new HashMap<>(hits.size() * 2);
        for (int from = 0; from < hits.size(); from += FETCH_CHUNK) {
            List<NearestVectors.Hit<Long>> chunk = hits.subList(from, Math.min(hits.size(), from + FETCH_CHUNK));
            Map<Long, Double> scores = new HashMap<>(chunk.size() * 2);
            StringBuilder sql = new StringBuilder(select).append('(');
            for (int k = 0; k < chunk.size(); k++) {
                sql.append(k == 0 ? "?" : ", ?");
                scores.put(chunk.get(k).key(), chunk.get(k).score());
            }
            sql.append(')');
            try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
                for (int k = 0; k < chunk.size(); k++) {
                    ps.setLong(k + 1, chunk.get(k).key());
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        long rid = rs.getLong(ridColumn);
                        byRid.put(rid, mapper.map(rs, scores.get(rid)));
                    }
                }
            }
        }
        List<Scored<T>> out = new ArrayList<>(byRid.size());
        for (NearestVectors.Hit<Long> hit : hits) {
            Scored<T> row = byRid.get(hit.key());
            if (row != null) {
                out.add(row);
            }
        }
        return out;
    }

    /** Rowids read per statement when fetching scored rows (well under SQLite's variable limit). */
    private static final int FETCH_CHUNK = 500;

    @Override
    public List<SessionTurn> sessionTurns(Scope scope, String sessionId, long fromSeq, int limit) {
        Checks.notNull("scope", scope);
        Checks.notNull("sessionId", sessionId);
        Checks.positive("limit", limit);
        return db(scope.tenantId()).query(
                "SELECT data FROM session_turns WHERE agent = ? AND usr = ? AND session_id = ? AND seq >= ?"
                        + " ORDER BY seq LIMIT ?",
                rs -> DecodedRecords.read(rs.getString(1), SessionTurn.class),
                scope.agentId(), scope.endUserId(), sessionId, fromSeq, limit);
    }

    @Override
    public List<SessionTurn> recentTurns(Scope scope, String sessionId, int count) {
        Checks.notNull("scope", scope);
        Checks.notNull("sessionId", sessionId);
        Checks.nonNegative("count", count);
        if (count == 0) {
            return List.of();
        }
        List<SessionTurn> turns = db(scope.tenantId()).query(
                "SELECT data FROM session_turns WHERE agent = ? AND usr = ? AND session_id = ?"
                        + " ORDER BY seq DESC LIMIT ?",
                rs -> DecodedRecords.read(rs.getString(1), SessionTurn.class),
                scope.agentId(), scope.endUserId(), sessionId, count);
        List<SessionTurn> ascending = new ArrayList<>(turns);
        java.util.Collections.reverse(ascending);
        return ascending;
    }

    @Override
    public long sessionLength(Scope scope, String sessionId) {
        Checks.notNull("scope", scope);
        Checks.notNull("sessionId", sessionId);
        return db(scope.tenantId()).query(
                "SELECT COALESCE(MAX(seq) + 1, 0) FROM session_turns WHERE agent = ? AND usr = ? AND session_id = ?",
                rs -> rs.getLong(1), scope.agentId(), scope.endUserId(), sessionId).get(0);
    }

    @Override
    public Optional<SessionSummary> sessionSummary(Scope scope, String sessionId) {
        Checks.notNull("scope", scope);
        Checks.notNull("sessionId", sessionId);
        return first(db(scope.tenantId()).query(
                "SELECT data FROM session_summaries WHERE agent = ? AND usr = ? AND session_id = ?",
                rs -> Json.read(rs.getString(1), SessionSummary.class), scope.agentId(), scope.endUserId(), sessionId));
    }

    @Override
    public List<String> sessions(Scope scope) {
        Checks.notNull("scope", scope);
        return db(scope.tenantId()).query(
                "SELECT session_id FROM session_turns WHERE agent = ? AND usr = ?"
                        + " GROUP BY session_id ORDER BY MIN(first_at), session_id",
                rs -> rs.getString(1), scope.agentId(), scope.endUserId());
    }

    @Override
    public List<SessionTurn> archivedTurns(Scope scope, String sessionId) {
        Checks.notNull("scope", scope);
        Checks.notNull("sessionId", sessionId);
        return db(scope.tenantId()).query(
                "SELECT data FROM archive_turns WHERE agent = ? AND usr = ? AND session_id = ? ORDER BY seq",
                rs -> DecodedRecords.read(rs.getString(1), SessionTurn.class), scope.agentId(), scope.endUserId(),
                sessionId);
    }

    @Override
    public List<SessionTurn> archivedTurns(Scope scope, String sessionId, long fromSeq, long toSeq) {
        Checks.notNull("scope", scope);
        Checks.notNull("sessionId", sessionId);
        return db(scope.tenantId()).query(
                "SELECT data FROM archive_turns WHERE agent = ? AND usr = ? AND session_id = ? AND seq >= ?"
                        + " AND seq <= ? ORDER BY seq",
                rs -> DecodedRecords.read(rs.getString(1), SessionTurn.class), scope.agentId(), scope.endUserId(),
                sessionId, fromSeq, toSeq);
    }

    @Override
    public List<SessionTurn> archivedTurns(Scope scope, List<dev.reverie.spi.TurnRange> ranges) {
        Checks.notNull("scope", scope);
        Checks.notNull("ranges", ranges);
        ensureOpen();
        if (ranges.isEmpty()) {
            return List.of();
        }
        // one index seek per range: written as one WHERE with ORs, SQLite walked every archived turn of
        // the end user instead (on LoCoMo 144 us for three windows, 43-50 us this way); the rid set drops
        // the rows that overlapping ranges share, as the ORs did, and a VALUES list has no compound-select
        // limit on the number of ranges
        for (int i = 0; i < ranges.size(); i++) {
            Checks.notNull("ranges[" + i + "]", ranges.get(i));
        }
        List<SessionTurn> kept = keptTurns(scope, ranges);
        if (kept != null) {
            return kept;
        }
        StringBuilder sql = new StringBuilder("WITH r (s, lo, hi) AS (VALUES ");
        List<Object> args = new ArrayList<>();
        for (int i = 0; i < ranges.size(); i++) {
            dev.reverie.spi.TurnRange r = ranges.get(i);
            sql.append(i == 0 ? "(?, ?, ?)" : ", (?, ?, ?)");
            args.addAll(List.of(r.sessionId(), r.fromSeq(), r.toSeq()));
        }
        sql.append(") SELECT a.data FROM archive_turns a WHERE a.rid IN (SELECT b.rid FROM r CROSS JOIN archive_turns b"
                + " ON b.agent = ? AND b.usr = ? AND b.session_id = r.s AND b.seq >= r.lo AND b.seq <= r.hi)"
                + " ORDER BY a.session_id, a.seq");
        args.addAll(List.of(scope.agentId(), scope.endUserId()));
        return db(scope.tenantId()).query(sql.toString(),
                rs -> DecodedRecords.read(rs.getString(1), SessionTurn.class), args.toArray());
    }

    /**
     * The turns of {@code ranges} from the scope's entry in the {@link LexicalCache} (which holds its
     * archived turns as searches read them), when it is kept at the database's current change token
     * and holds every archived turn of the scope: the rows a read would return, without the query and
     * the decoding of each turn's record (the neighbour windows of {@code buildContext}). Else
     * {@code null}, and the caller asks SQLite.
     */
    private List<SessionTurn> keptTurns(Scope scope, List<dev.reverie.spi.TurnRange> ranges) {
        LexicalCache.Entry entry = keptEntry(scope, "archive_turns");
        List<SessionTurn> turns = entry == null ? null : entry.turnsIn(ranges);
        if (turns != null) {
            keptTurnReads.incrementAndGet();
        }
        return turns;
    }

    /**
     * The pinned memories from the scope's memories entry in the {@link LexicalCache}, when it is kept
     * at the database's current change token and holds every memory of the scope (every
     * {@code buildContext} reads them; a scope searched often has them in memory already). Else
     * {@code null}, and the caller asks SQLite.
     */
    private List<Memory> keptPinned(Scope scope, int limit) {
        LexicalCache.Entry entry = keptEntry(scope, "memories");
        List<Memory> pinned = entry == null ? null : entry.pinned(limit);
        if (pinned != null) {
            keptPinnedReads.incrementAndGet();
        }
        return pinned;
    }

    /**
     * The scope's {@link LexicalCache} entry of {@code table} when caching is on and it is kept at the
     * database's current change token, else {@code null} (no change token is read when nothing is kept).
     */
    private LexicalCache.Entry keptEntry(Scope scope, String table) {
        if (!lexicalCaching) {
            return null;
        }
        LexicalCache.Key key = new LexicalCache.Key(scope.tenantId(), scope.agentId(), scope.endUserId(), table);
        if (!lexicalCache.holds(key)) {
            return null; // nothing kept: no change token to read (a query of its own)
        }
        TenantDatabase.ChangeToken token = changeTokenOrNull(db(scope.tenantId()), "a read of " + table);
        return token == null ? null : lexicalCache.get(key, token);
    }

    /**
     * The database's change token, or {@code null} when it cannot be read (then the caller asks SQLite:
     * the caches only save time; the first such failure of the store is logged). A closed store still
     * throws.
     */
    private TenantDatabase.ChangeToken changeTokenOrNull(TenantDatabase db, String what) {
        try {
            return db.changeToken();
        } catch (StoreClosedException e) {
            throw e;
        } catch (RuntimeException e) {
            cacheFailed(what, e);
            return null;
        }
    }

    /** Counts a failure of the caches (SQLite answers instead); the store's first is logged. */
    private void cacheFailed(String what, RuntimeException e) {
        if (lexicalFailures.getAndIncrement() == 0) {
            LOG.warn("the lexical cache could not serve {} (SQLite answers it, and will keep answering what the"
                    + " cache cannot): {}", what, e.toString());
        }
    }

    /** How many pinned-memory reads the lexical cache answered (tests). */
    long keptPinnedReads() {
        return keptPinnedReads.get();
    }

    /** How many reads of archived turns by range the lexical cache answered (tests). */
    long keptTurnReads() {
        return keptTurnReads.get();
    }

    @Override
    public boolean hasArchivedTurnsBefore(Scope scope, java.time.Instant before) {
        Checks.notNull("scope", scope);
        Checks.notNull("before", before);
        return !db(scope.tenantId()).query(
                "SELECT 1 FROM archive_turns WHERE agent = ? AND usr = ? AND at < ? LIMIT 1",
                rs -> 1, scope.agentId(), scope.endUserId(), before.toEpochMilli()).isEmpty();
    }

    @Override
    public List<Scored<SessionTurn>> searchTurns(Scope scope, String text, int limit) {
        Checks.notNull("scope", scope);
        Checks.positive("limit", limit);
        ensureOpen();
        String match = matchExpression(scope, text);
        if (match == null) {
            return List.of();
        }
        TenantDatabase db = db(scope.tenantId());
        Lookup cached = cachedSearch(db, scope, "archive_turns", text, null, null, limit);
        if (cached.hits() != null) {
            return cachedRows(cached.hits(), SessionTurn.class);
        }
        return counted(cached, db.query(rankedSearch("archive_turns", "archive_fts", "a.data",
                        "a.agent = ? AND a.usr = ?"),
                rs -> new Scored<>(DecodedRecords.read(rs.getString(1), SessionTurn.class), -rs.getDouble(2)),
                match, scope.agentId(), scope.endUserId(), limit));
    }

    @Override
    public List<Scored<SessionTurn>> searchTurnsByVector(Scope scope, float[] vector, int limit) {
        return turnsByVector(scope, vector, limit, NO_FLOOR);
    }

    @Override
    public List<Scored<SessionTurn>> searchTurnsByVector(Scope scope, float[] vector, int limit,
                                                         double minSimilarity) {
        return turnsByVector(scope, vector, limit, floor(minSimilarity));
    }

    private List<Scored<SessionTurn>> turnsByVector(Scope scope, float[] vector, int limit, double floor) {
        Checks.notNull("scope", scope);
        Checks.notNull("vector", vector);
        Checks.positive("limit", limit);
        if (vector.length == 0) {
            throw new IllegalArgumentException("vector must have at least one dimension");
        }
        ensureOpen();
        TenantDatabase db = db(scope.tenantId());
        VectorVersion version = vectorVersion(db, scope, "archive_turns");
        List<NearestVectors.Hit<Long>> best = db.read(c ->
                nearestCached(c, scope, "archive_turns", version, null, vector, limit, floor));
        List<Scored<SessionTurn>> kept = keptRows(scope, "archive_turns", best, SessionTurn.class);
        if (kept != null) {
            return kept;
        }
        return db.read(c -> fetchByRid(c, "SELECT data, rowid FROM archive_turns WHERE rowid IN ", 2, best,
                (rs, score) -> new Scored<>(DecodedRecords.read(rs.getString(1), SessionTurn.class), score)));
    }

    @Override
    public List<MemoryEvent> history(Scope scope, String memoryId) {
        Checks.notNull("scope", scope);
        Checks.notNull("memoryId", memoryId);
        return db(scope.tenantId()).query(
                "SELECT data FROM history WHERE agent = ? AND usr = ? AND memory_id = ? ORDER BY rid",
                rs -> Json.read(rs.getString(1), MemoryEvent.class), scope.agentId(), scope.endUserId(), memoryId);
    }

    @Override
    public List<MemoryEvent> history(Scope scope) {
        Checks.notNull("scope", scope);
        return db(scope.tenantId()).query(
                "SELECT data FROM history WHERE agent = ? AND usr = ? ORDER BY rid",
                rs -> Json.read(rs.getString(1), MemoryEvent.class), scope.agentId(), scope.endUserId());
    }

    @Override
    public Optional<StyleProfile> styleProfile(Scope scope) {
        Checks.notNull("scope", scope);
        TenantDatabase db = db(scope.tenantId());
        if (!lexicalCaching) {
            return readStyleProfile(db, scope);
        }
        // kept decoded while nothing commits to the file: read by every buildContext, changed by dreams
        LexicalCache.Key key = new LexicalCache.Key(scope.tenantId(), scope.agentId(), scope.endUserId(),
                "style_profiles");
        TenantDatabase.ChangeToken token = changeTokenOrNull(db, "a style profile");
        if (token == null) {
            return readStyleProfile(db, scope);
        }
        LexicalCache.KeptStyle kept = lexicalCache.style(key, token);
        if (kept != null) {
            return Optional.ofNullable(kept.profile());
        }
        long epoch = lexicalCache.epoch();
        // read after the token: what it finds is at least as new, and the token is current only while
        // nothing has committed since, when it finds exactly that
        Optional<StyleProfile> read = readStyleProfile(db, scope);
        lexicalCache.keepStyle(key, token, read.orElse(null), epoch);
        return read;
    }

    private static Optional<StyleProfile> readStyleProfile(TenantDatabase db, Scope scope) {
        return first(db.query("SELECT data FROM style_profiles WHERE agent = ? AND usr = ?",
                rs -> Json.read(rs.getString(1), StyleProfile.class), scope.agentId(), scope.endUserId()));
    }

    @Override
    public List<Scope> endUsers(String tenantId, String agentId) {
        Checks.id("tenantId", tenantId);
        Checks.id("agentId", agentId);
        ensureOpen();
        if (!inMemory && !tenants.containsKey(tenantId) && !Files.exists(folder.resolve(fileName(tenantId)))) {
            return List.of();
        }
        List<String> users = db(tenantId).read(c -> {
            Set<String> all = new TreeSet<>();
            for (String table : List.of("memories", "observations", "session_turns", "archive_turns",
                    "style_profiles", "session_summaries")) {
                all.addAll(query(c, "SELECT DISTINCT usr FROM " + table + " WHERE agent = ?",
                        rs -> rs.getString(1), agentId));
            }
            return new ArrayList<>(all);
        });
        List<Scope> out = new ArrayList<>(users.size());
        for (String u : users) {
            out.add(Scope.of(tenantId, agentId, u));
        }
        return out;
    }

    @Override
    public void close() {
        // one close at a time: a second caller waits for the first to finish
        synchronized (closeLock) {
            if (closed.get()) {
                return;
            }
            // the index upkeep queued so far runs first, while the tenants can still be opened (an
            // in-memory store's data goes with it: its upkeep just stops)
            upkeep.close(!inMemory);
            closed.set(true);
            for (TenantDatabase db : tenants.values()) {
                db.close();
            }
            tenants.clear();
            vectorCache.clear();
            lexicalCache.clear();
            stems.close();
        }
    }

    /** Sets the fewest rows a tenant indexes between two upkeep checks (tests; see {@link IndexUpkeep#checkEvery}). */
    void indexUpkeepEvery(int rows) {
        upkeep.checkEvery(rows);
    }

    /** Runs {@code action} between two steps of the index upkeep's merges (tests; see {@link IndexUpkeep#betweenSteps}). */
    void indexUpkeepBetweenSteps(Runnable action) {
        upkeep.betweenSteps(action);
    }

    /** Sets how long writers must pause before a collapse they cut short is finished (tests; see {@link IndexUpkeep}). */
    void indexUpkeepQuietAfter(java.time.Duration quiet) {
        upkeep.quietAfter(quiet.toNanos());
    }

    /** How many index upkeep checks ran (tests). */
    long indexUpkeepChecks() {
        return upkeep.checks();
    }

    /** The database of {@code tenantId} (tests). */
    TenantDatabase database(String tenantId) {
        return db(tenantId);
    }

    /** Runs an index upkeep check of {@code tenantId} on the calling thread (tests). */
    void indexUpkeepNow(String tenantId) {
        upkeep.checkNow(tenantId);
    }

    /** Waits until the index upkeep queued or due so far has run (tests and benchmarks; see {@link IndexUpkeep#awaitIdle}). */
    void awaitIndexUpkeep() {
        upkeep.awaitIdle();
    }

    /** The vector cache (tests). */
    VectorCache vectorCache() {
        return vectorCache;
    }

    // ---------------------------------------------------------------- helpers

    /**
     * The FTS5 MATCH expression for a scope and arbitrary text: any of the text's word terms, each
     * prefixed by the scope token and quoted (terms are letters and digits only, so there is no quote
     * to double), so no FTS5 operator can pass through and only the end user's own postings are read.
     */
    static String matchExpression(Scope scope, String text) {
        List<String> tokens = queryTokens(scope, text);
        if (tokens.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (String token : tokens) {
            if (!sb.isEmpty()) {
                sb.append(" OR ");
            }
            sb.append('"').append(token).append('"');
        }
        return sb.toString();
    }

    /**
     * The scope-prefixed tokens of a query, in order, one per phrase of its {@link #matchExpression}:
     * the text's word terms (letters and digits only, so nothing to quote), at most their first 40 chars.
     */
    static List<String> queryTokens(Scope scope, String text) {
        List<String> terms = Terms.of(text, MAX_QUERY_TERMS);
        String prefix = scopeToken(scope) + "_";
        List<String> out = new ArrayList<>(terms.size());
        for (String term : terms) {
            out.add(prefix + term.substring(0, Math.min(term.length(), 40)));
        }
        return out;
    }

    // ---------------------------------------------------------------- lexical cache

    /**
     * What the {@link LexicalCache} made of a lexical search: its ranked hits, or {@code null} when it
     * could not serve it; then, when the database's change token was read, the scope's key and that
     * token, to count the rows SQLite returns instead ({@link #counted}).
     */
    private record Lookup(List<LexicalCache.Entry.Hit> hits, LexicalCache.Key key, TenantDatabase.ChangeToken token) {
        static final Lookup NONE = new Lookup(null, null, null);
    }

    /**
     * A lexical search of {@code table} ({@code memories}, {@code observations} or {@code archive_turns})
     * as the {@link LexicalCache} serves it (caching off, the scope not kept at the database's current
     * change token, or a query token that is not one FTS5 token: no hits, and the caller asks SQLite).
     * {@code statuses} and {@code kinds} are names ({@code null}: no filter).
     */
    private Lookup cachedSearch(TenantDatabase db, Scope scope, String table, String text, Set<String> statuses,
                                Set<String> kinds, int limit) {
        if (!lexicalCaching) {
            return Lookup.NONE;
        }
        try {
            TenantDatabase.ChangeToken token = db.changeToken();
            LexicalCache.Key key = new LexicalCache.Key(scope.tenantId(), scope.agentId(), scope.endUserId(), table);
            LexicalCache.Entry entry = lexicalEntry(db, scope, key, token);
            // stemmed only for a kept scope: a store whose scopes are never kept never asks SQLite for stems
            List<String> phrases = entry == null ? null : stems.of(queryTokens(scope, text));
            return new Lookup(phrases == null ? null : entry.search(phrases, statuses, kinds, limit), key, token);
        } catch (StoreClosedException e) {
            throw e;
        } catch (RuntimeException e) {
            // the cache only saves time: SQLite answers this search as it did before the cache existed
            cacheFailed("a search of " + table, e);
            return Lookup.NONE;
        }
    }

    /** {@code rows}, which SQLite returned for a search the cache did not serve, after counting them for it. */
    private <T> List<T> counted(Lookup lookup, List<T> rows) {
        if (lookup.key() != null) {
            lexicalCache.searched(lookup.key(), lookup.token(), rows.size());
        }
        return rows;
    }

    private static <T> List<Scored<T>> cachedRows(List<LexicalCache.Entry.Hit> hits, Class<T> type) {
        List<Scored<T>> out = new ArrayList<>(hits.size());
        for (LexicalCache.Entry.Hit hit : hits) {
            out.add(new Scored<>(type.cast(hit.row()), hit.score()));
        }
        return out;
    }

    /**
     * The kept entry of {@code key} at {@code token}; else, when SQLite's searches of the scope at
     * this token returned enough rows ({@link LexicalCache#worthReading}), the scope read whole and
     * kept (unless anything committed while it was read); else {@code null}.
     */
    private LexicalCache.Entry lexicalEntry(TenantDatabase db, Scope scope, LexicalCache.Key key,
                                            TenantDatabase.ChangeToken token) {
        LexicalCache.Entry entry = lexicalCache.get(key, token);
        if (entry != null || !lexicalCache.worthReading(key, token)) {
            return entry;
        }
        String table = key.table();
        long epoch = lexicalCache.epoch();
        boolean settled = false;
        try {
            LexicalCache.Entry read = db.read(c -> LexicalReads.read(c, scope, table, token, lexicalCache));
            if (read == null) {
                lexicalCache.markTooLarge(key);
                settled = true;
                return null;
            }
            if (!db.changeToken().equals(token)) {
                return null; // something committed meanwhile: the reads may straddle it
            }
            lexicalCache.put(key, read, epoch);
            settled = true;
            return read;
        } finally {
            if (!settled) {
                lexicalCache.abandon(key); // whatever failed, the next search may read the scope again
            }
        }
    }

    /** Turns the lexical cache on or off (tests compare the two; on by default). */
    void lexicalCaching(boolean on) {
        lexicalCaching = on;
        if (!on) {
            lexicalCache.clear();
        }
    }

    /** The lexical cache (tests). */
    LexicalCache lexicalCache() {
        return lexicalCache;
    }

    /** How many searches the lexical cache failed to serve and left to SQLite (tests). */
    long lexicalFailures() {
        return lexicalFailures.get();
    }

    /**
     * A lexical search in two phases, in one statement: the inner query ranks the matching rows that
     * pass {@code filter} by {@code bm25()} and keeps the top {@code LIMIT ?} as (row id, score) pairs;
     * only then are {@code columns} read for those rows. Joining the table's wide rows (JSON, vector)
     * before the sort made SQLite carry them through its top-k sorter for every match (on LoCoMo a
     * memory search matches ~340 rows and keeps 200; the one-phase form took ~1.5 times as long for
     * memories and ~1.25 times for archived turns).
     *
     * <p>The order is the one-phase form's exactly, ties included: FTS5 yields its matches in
     * ascending rowid order and SQLite's top-k sort breaks ties by arrival, so that order was already
     * (score, rowid); here it is written out, and the outer query follows it. The filter is applied
     * before the limit, as before, so no filtered-out row takes a place in the top k. CROSS JOIN keeps
     * the FTS5 match as the outer loop whatever indexes the table has (the other way round would run
     * the MATCH once per row of the end user). The table's alias in {@code columns} and {@code filter}
     * is its first letter; parameters: the MATCH expression, the filter's, the limit. Selected columns
     * come first, the bm25 score (lower is better) last.
     */
    private static String rankedSearch(String table, String fts, String columns, String filter) {
        String a = table.substring(0, 1);
        return "SELECT " + columns + ", t.r FROM (SELECT " + a + ".rid AS k, bm25(" + fts + ") AS r"
                + " FROM " + fts + " CROSS JOIN " + table + " " + a + " ON " + a + ".rid = " + fts + ".rowid"
                + " WHERE " + fts + " MATCH ? AND " + filter + " ORDER BY r, k LIMIT ?) t"
                + " JOIN " + table + " " + a + " ON " + a + ".rid = t.k ORDER BY t.r, t.k";
    }

    /**
     * The text as FTS5 indexes it: every folded word (a run of letters and numbers, {@code [\p{L}\p{N}]+},
     * at most its first 40 chars) prefixed by the scope token. The words come from {@link Terms#foldedWords},
     * which scans code points by hand (the regex was a twentieth of a recorded turn's CPU).
     */
    static String scopedWords(String scopeToken, String text) {
        StringBuilder sb = new StringBuilder(text.length() * 2);
        for (String word : Terms.foldedWords(Terms.fold(text))) {
            if (!sb.isEmpty()) {
                sb.append(' ');
            }
            sb.append(scopeToken).append('_').append(word, 0, Math.min(word.length(), 40));
        }
        return sb.toString();
    }

    /** A word-like token unique (with overwhelming probability) to the agent and end user. */
    static String scopeToken(Scope scope) {
        return scopeToken(scope.agentId(), scope.endUserId());
    }

    static String scopeToken(String agentId, String endUserId) {
        return "s" + TenantNames.sha256(agentId + "\u0000" + endUserId).substring(0, 16);
    }


    private static List<String> names(Collection<? extends Enum<?>> values) {
        List<String> out = new ArrayList<>(values.size());
        for (Enum<?> v : values) {
            out.add(v.name());
        }
        return out;
    }

    private static void in(StringBuilder sql, List<Object> args, String column, List<String> values) {
        if (values.isEmpty()) {
            sql.append(" AND 0");
            return;
        }
        sql.append(" AND ").append(column).append(" IN (");
        for (int i = 0; i < values.size(); i++) {
            sql.append(i == 0 ? "?" : ", ?");
            args.add(values.get(i));
        }
        sql.append(')');
    }


}
