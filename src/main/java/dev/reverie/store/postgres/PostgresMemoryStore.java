package dev.reverie.store.postgres;

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
import dev.reverie.internal.Jdbc.RowMapper;
import dev.reverie.internal.Jdbc;
import dev.reverie.internal.Json;
import dev.reverie.internal.NearestVectors;
import dev.reverie.internal.TenantNames;
import dev.reverie.internal.Vectors;
import dev.reverie.spi.SessionSummary;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.TurnRange;
import static dev.reverie.internal.Jdbc.bind;
import static dev.reverie.internal.Jdbc.first;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.Scored;
import dev.reverie.spi.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link MemoryStore} on PostgreSQL, for several application instances sharing one database: one
 * schema per tenant (created and migrated on first use, the tenant id stored inside and checked),
 * full-text search with {@code tsvector} and GIN indexes over accent-folded text, embeddings as
 * little-endian float {@code bytea} searched exactly by cosine within the scope, and every batch in
 * one transaction.
 *
 * <p>Several instances (processes or stores) may share the database. Each write transaction first
 * takes a transaction-scoped advisory lock on its end user ({@code pg_advisory_xact_lock}), so one
 * user's batches apply one at a time across all instances, and turns appended at a session's end
 * ({@link WriteBatch#appendAtSessionEnd}) are numbered inside that transaction, so two instances
 * appending to one session never collide; a turn whose (session, seq) is already taken fails its
 * whole batch on the primary key; memories and observations are upserts by id, so concurrent
 * writers of one id leave one row. Leases ({@link #tryLease}, the dream cycle's per-user lease) are
 * rows of the tenant's {@code leases} table, decided under the same lock, so two instances never
 * dream one user at once.
 *
 * <p>Two forms: {@link #open(String)} with the JDBC URL's part after {@code jdbc:} (this store owns
 * a HikariCP pool and closes it), and {@link #open(DataSource)} with the host's pool (never closed
 * here). Thread-safe.
 */
public final class PostgresMemoryStore implements MemoryStore {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresMemoryStore.class);
    private static final int POOL_SIZE = 8;

    /** How vectors are searched; chosen at open. */
    public enum VectorMode {
        /** An exact cosine scan over the scope's vectors, in Java. */
        EXACT_SCAN
    }

    private final DataSource dataSource;
    private final AutoCloseable ownedPool;
    private final String label;
    private final VectorMode vectorMode;
    private final ConcurrentMap<String, String> readySchemas = new ConcurrentHashMap<>();
    /** The scopes' BM25 collection statistics, read when a search needs them and no longer fresh. */
    private final Bm25Stats bm25Stats = new Bm25Stats();
    private final PlannerStatistics plannerStatistics = new PlannerStatistics();
    private final AtomicBoolean closed = new AtomicBoolean();

    private PostgresMemoryStore(DataSource dataSource, AutoCloseable ownedPool, String label) {
        this.dataSource = dataSource;
        this.ownedPool = ownedPool;
        this.label = label;
        this.vectorMode = probe();
    }

    /**
     * A store on the database named by {@code location}, the part of a JDBC URL after {@code jdbc:}
     * ({@code postgresql://host:5432/db?user=...&password=...}; every driver option works), with its
     * own HikariCP pool of {@value #POOL_SIZE} connections, closed with the store.
     */
    public static PostgresMemoryStore open(String location) {
        Checks.notBlank("location", location);
        if (!location.startsWith("postgresql:")) {
            throw new IllegalArgumentException("postgresql location '" + redact(location)
                    + "' must be what a JDBC URL holds after 'jdbc:', e.g. postgresql://localhost:5432/app?user=app");
        }
        // the driver takes no user:password@ in its URL (it would read them as the host): they go to the pool
        Matcher userinfo = USERINFO.matcher(location);
        String user = null;
        String password = null;
        String url = location;
        if (userinfo.lookingAt()) {
            String info = userinfo.group(1);
            int colon = info.indexOf(':');
            user = decode(colon < 0 ? info : info.substring(0, colon));
            password = colon < 0 ? null : decode(info.substring(colon + 1));
            url = "postgresql://" + location.substring(userinfo.end());
        }
        AutoCloseable pool;
        try {
            pool = Pools.hikari("jdbc:" + url, POOL_SIZE, user, password);
        } catch (dev.reverie.ConfigurationException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new MemoryStoreException("could not connect to PostgreSQL postgresql:" + redact(location) + ": "
                    + e.getMessage(), e);
        }
        try {
            return new PostgresMemoryStore((DataSource) pool, pool, "postgresql:" + redact(location));
        } catch (RuntimeException e) {
            closeQuietly(pool);
            throw e;
        }
    }

    /**
     * A store on the host's {@code dataSource} (its pool and credentials). The store never closes it;
     * connections must allow {@code setAutoCommit}, and the user needs {@code CREATE} on the database
     * to make tenant schemas (or the schemas must exist already, owned by it).
     */
    public static PostgresMemoryStore open(DataSource dataSource) {
        Checks.notNull("dataSource", dataSource);
        return new PostgresMemoryStore(dataSource, null, "postgresql:" + dataSource.getClass().getSimpleName());
    }

    /** The {@code user:password@} part of a location, up to the host. */
    private static final java.util.regex.Pattern USERINFO = java.util.regex.Pattern.compile("postgresql://([^/?#]*)@");

    private static String decode(String part) {
        try {
            return java.net.URLDecoder.decode(part.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return part; // a "%" that starts no escape ("50%off") is the character itself
        }
    }

    /** The URI without a password (a {@code password=} parameter's value, a {@code user:password@} part), for logs and errors. */
    static String redact(String location) {
        return Checks.withoutCredentials(location);
    }

    @Override
    public String describe() {
        return label;
    }

    /** How this store searches vectors (chosen at open and logged). */
    public VectorMode vectorMode() {
        return vectorMode;
    }

    /** The (unquoted) name of the schema that holds {@code tenantId}'s data (never shared with another tenant). */
    public String schemaName(String tenantId) {
        return SchemaNames.of(Checks.id("tenantId", tenantId));
    }

    private VectorMode probe() {
        try (Connection c = dataSource.getConnection();
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT current_setting('server_version'),"
                     + " (SELECT extversion FROM pg_extension WHERE extname = 'vector')")) {
            rs.next();
            String version = rs.getString(1);
            String pgvector = rs.getString(2);
            LOG.info("Reverie PostgreSQL store on {} (server {}): vector search by exact scan{}", label, version,
                    pgvector == null ? " (pgvector is not installed)"
                            : " (pgvector " + pgvector + " is installed; this version does not use it yet)");
            return VectorMode.EXACT_SCAN;
        } catch (SQLException e) {
            throw new MemoryStoreException("could not connect to PostgreSQL " + label + ": " + e.getMessage(), e);
        }
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new StoreClosedException("store " + describe() + " is closed: open it again with MemoryStores.open");
        }
    }

    // ---------------------------------------------------------------- connections and schemas

    /** Work against a connection and the tenant's quoted schema name; may throw {@link SQLException}. */
    interface SqlWork<T> {
        T apply(Connection c, String schema) throws SQLException;
    }

    /** The tenant's quoted schema, created, migrated and checked once per store. */
    private String schema(String tenantId) {
        ensureOpen();
        String ready = readySchemas.get(tenantId);
        if (ready != null) {
            return ready;
        }
        String name = SchemaNames.of(tenantId);
        try (Connection c = dataSource.getConnection()) {
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                TenantSchema.migrate(c, name, tenantId, label);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(c);
                throw e;
            } finally {
                c.setAutoCommit(auto);
            }
        } catch (SQLException e) {
            throw new MemoryStoreException("could not open schema " + name + " on " + label + ": " + e.getMessage(), e);
        }
        String quoted = SchemaNames.quoted(name);
        readySchemas.put(tenantId, quoted);
        analyseWhereMissing(tenantId, name, quoted);
        return quoted;
    }

    /**
     * Gives the planner statistics for those of the tenant's tables that have rows and none yet
     * ({@link PlannerStatistics}). Only plans depend on it, never results: a failure is logged, not
     * thrown, so the write or read that asked for it stands.
     */
    private void analyseWhereMissing(String tenantId, String name, String quoted) {
        if (plannerStatistics.checking(tenantId)) {
            return; // another thread is checking the tenant: no connection borrowed to find that out
        }
        try (Connection c = dataSource.getConnection()) {
            boolean auto = c.getAutoCommit();
            List<String> analysed;
            try {
                c.setAutoCommit(true);
                analysed = plannerStatistics.check(c, tenantId, name, quoted);
            } finally {
                c.setAutoCommit(auto);
            }
            if (!analysed.isEmpty()) {
                LOG.debug("analysed {} of schema {} on {}: they had rows and no planner statistics", analysed, name,
                        label);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("could not analyse the tables of schema {} on {} (searches stay correct; plans may be slow"
                    + " until autovacuum analyses them): {}", name, label, e.getMessage());
        }
    }

    private <T> T read(String tenantId, SqlWork<T> work) {
        String schema = schema(tenantId);
        try (Connection c = dataSource.getConnection()) {
            return work.apply(c, schema);
        } catch (SQLException e) {
            throw new MemoryStoreException("PostgreSQL read failed on " + label + " (" + schema + "): "
                    + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code work} in one transaction holding the scope's advisory lock (so one end user's
     * batches never interleave, across every instance); commits on success, rolls back on any failure.
     */
    private <T> T write(Scope scope, SqlWork<T> work) {
        return write(scope.tenantId(), List.of(scope), work);
    }

    /** One transaction holding the advisory locks of {@code scopes} (taken in key order, so two such never deadlock). */
    private <T> T write(String tenantId, java.util.Collection<Scope> scopes, SqlWork<T> work) {
        String schema = schema(tenantId);
        java.util.SortedSet<Long> keys = new java.util.TreeSet<>();
        for (Scope scope : scopes) {
            keys.add(lockKey("scope", schema, scope.agentId(), scope.endUserId()));
        }
        try (Connection c = dataSource.getConnection()) {
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
                    for (long key : keys) {
                        ps.setLong(1, key);
                        ps.execute();
                    }
                }
                T result = work.apply(c, schema);
                c.commit();
                scopes.forEach(bm25Stats::written);
                return result;
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(c);
                throw e;
            } finally {
                c.setAutoCommit(auto);
            }
        } catch (SQLException e) {
            throw new MemoryStoreException("PostgreSQL write failed on " + label + " (" + schema + "): "
                    + e.getMessage(), e);
        }
    }

    /** A 64-bit advisory-lock key for the parts (a collision only serializes two unrelated users). */
    static long lockKey(String... parts) {
        String digest = TenantNames.sha256(String.join("\u0000", parts));
        return HexFormat.fromHexDigitsToLong(digest, 0, 16);
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the connection is broken; the original failure is reported
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // closing after a failure: the failure is reported
        }
    }

    // ---------------------------------------------------------------- writes

    @Override
    public boolean supportsStatusWrites() {
        return true;
    }

    /** The memory's JSON is read (locked) and rewritten in the write transaction. */
    @Override
    public boolean supportsRecallWrites() {
        return true;
    }

    @Override
    public void write(WriteBatch batch) {
        writeAll(List.of(Checks.notNull("batch", batch)));
    }

    /** One transaction (one commit) for all the batches, holding each of their end users' advisory locks. */
    @Override
    public boolean writeAll(List<WriteBatch> batches) {
        ensureOpen();
        String tenant = WriteBatch.tenantOf(batches);
        if (tenant != null) {
            java.util.Set<Scope> scopes = new java.util.LinkedHashSet<>();
            batches.forEach(b -> scopes.add(b.scope()));
            write(tenant, scopes, (c, s) -> {
                for (WriteBatch batch : batches) {
                    // session -> next free seq, read inside this transaction, which holds the end user's advisory
                    // lock: no other instance can append to the user's sessions until it commits
                    Scope scope = batch.scope();
                    Map<String, Long> ends = new HashMap<>();
                    for (WriteBatch.Op op : batch.ops()) {
                        apply(c, s, scope, resolve(c, s, scope, op, ends));
                    }
                    ends.forEach(batch::seqAssigned);
                }
                return null;
            });
            long rows = 0;
            for (WriteBatch batch : batches) {
                rows += batch.ops().size();
            }
            if (plannerStatistics.written(tenant, rows)) {
                String name = SchemaNames.of(tenant);
                analyseWhereMissing(tenant, name, SchemaNames.quoted(name));
            }
        }
        return true;
    }

    /** Analyses the tenant's tables that have rows and no planner statistics yet ({@link PlannerStatistics}). */
    @Override
    public void maintain(String tenantId) {
        Checks.id("tenantId", tenantId);
        boolean opened = readySchemas.containsKey(tenantId);
        String quoted = schema(tenantId);
        if (opened) {
            analyseWhereMissing(tenantId, SchemaNames.of(tenantId), quoted); // else opening the schema just checked
        }
    }

    /** Whether every searched table of the tenant has had planner statistics at a check (tests). */
    boolean plannerStatisticsSettled(String tenantId) {
        return plannerStatistics.settled(tenantId);
    }

    /** An op whose seq is an offset from its session's end, turned into one with its final seq. */
    private static WriteBatch.Op resolve(Connection c, String schema, Scope s, WriteBatch.Op op,
                                         Map<String, Long> ends) throws SQLException {
        if (op instanceof WriteBatch.AppendTurn t && t.atSessionEnd()) {
            return new WriteBatch.AppendTurn(t.turn().withSeq(end(c, schema, s, t.turn().sessionId(), ends)
                    + t.turn().seq()));
        }
        if (op instanceof WriteBatch.ArchiveTurn t && t.atSessionEnd()) {
            return new WriteBatch.ArchiveTurn(t.turn().withSeq(end(c, schema, s, t.turn().sessionId(), ends)
                    + t.turn().seq()), t.embedding());
        }
        return op;
    }

    private static long end(Connection c, String schema, Scope s, String sessionId, Map<String, Long> ends)
            throws SQLException {
        Long known = ends.get(sessionId);
        if (known != null) {
            return known;
        }
        long next = query(c, schema, "SELECT COALESCE(MAX(seq) + 1, 0) FROM ${s}.session_turns WHERE agent = ?"
                + " AND usr = ? AND session_id = ?", rs -> rs.getLong(1), s.agentId(), s.endUserId(), sessionId).get(0);
        ends.put(sessionId, next);
        return next;
    }

    private void apply(Connection c, String schema, Scope s, WriteBatch.Op op) throws SQLException {
        String a = s.agentId();
        String u = s.endUserId();
        if (op instanceof WriteBatch.PutObservation p) {
            putObservation(c, schema, s, p.observation());
        } else if (op instanceof WriteBatch.DeleteObservation d) {
            update(c, schema, "DELETE FROM ${s}.observations WHERE agent = ? AND usr = ? AND id = ?", a, u, d.id());
        } else if (op instanceof WriteBatch.PutMemory p) {
            putMemory(c, schema, s, p.memory());
        } else if (op instanceof WriteBatch.DeleteMemory d) {
            update(c, schema, "DELETE FROM ${s}.memories WHERE agent = ? AND usr = ? AND id = ?", a, u, d.id());
        } else if (op instanceof WriteBatch.SetObservationStatus st) {
            update(c, schema, "UPDATE ${s}.observations SET status = ?, data = jsonb_set(jsonb_set(data::jsonb,"
                            + " '{status}', ?::jsonb), '{consolidatedAt}', ?::jsonb)::text"
                            + " WHERE agent = ? AND usr = ? AND id = ?", st.status().name(), Json.write(st.status()),
                    Json.write(st.consolidatedAt()), a, u, st.id());
        } else if (op instanceof WriteBatch.SetMemoryStatus st) {
            update(c, schema, "UPDATE ${s}.memories SET status = ?, data = jsonb_set(jsonb_set(jsonb_set(data::jsonb,"
                            + " '{status}', ?::jsonb), '{supersededBy}', ?::jsonb), '{updatedAt}', ?::jsonb)::text"
                            + " WHERE agent = ? AND usr = ? AND id = ?", st.status().name(), Json.write(st.status()),
                    Json.write(st.supersededBy()), Json.write(st.updatedAt()), a, u, st.id());
        } else if (op instanceof WriteBatch.AddRecalls r) {
            List<String> data = query(c, schema, "SELECT data FROM ${s}.memories WHERE agent = ? AND usr = ? AND id = ?"
                    + " FOR UPDATE", rs -> rs.getString(1), a, u, r.id());
            if (!data.isEmpty()) {
                update(c, schema, "UPDATE ${s}.memories SET data = ? WHERE agent = ? AND usr = ? AND id = ?",
                        Json.write(r.applyTo(Json.read(data.get(0), Memory.class))), a, u, r.id());
            }
        } else if (op instanceof WriteBatch.AppendHistory h) {
            update(c, schema, "INSERT INTO ${s}.history (agent, usr, memory_id, data) VALUES (?, ?, ?, ?)",
                    a, u, h.event().memoryId(), Json.write(h.event()));
        } else if (op instanceof WriteBatch.AppendTurn t) {
            // the primary key (agent, usr, session_id, seq) refuses a seq another writer took: the batch fails whole
            update(c, schema, "INSERT INTO ${s}.session_turns (agent, usr, session_id, seq, data, first_at)"
                            + " VALUES (?, ?, ?, ?, ?, ?)",
                    a, u, t.turn().sessionId(), t.turn().seq(), Json.write(t.turn()), t.turn().at().toEpochMilli());
        } else if (op instanceof WriteBatch.ArchiveTurn t) {
            putArchivedTurn(c, schema, s, t.turn(), t.embedding());
        } else if (op instanceof WriteBatch.PurgeArchive p) {
            update(c, schema, "DELETE FROM ${s}.archive_turns WHERE agent = ? AND usr = ? AND at < ?",
                    a, u, p.before().toEpochMilli());
        } else if (op instanceof WriteBatch.PutSummary p) {
            update(c, schema, "INSERT INTO ${s}.session_summaries (agent, usr, session_id, data) VALUES (?, ?, ?, ?)"
                            + " ON CONFLICT (agent, usr, session_id) DO UPDATE SET data = excluded.data",
                    a, u, p.summary().sessionId(), Json.write(p.summary()));
        } else if (op instanceof WriteBatch.PutStyle p) {
            update(c, schema, "INSERT INTO ${s}.style_profiles (agent, usr, data) VALUES (?, ?, ?)"
                    + " ON CONFLICT (agent, usr) DO UPDATE SET data = excluded.data", a, u, Json.write(p.profile()));
        } else if (op instanceof WriteBatch.DeleteStyle) {
            update(c, schema, "DELETE FROM ${s}.style_profiles WHERE agent = ? AND usr = ?", a, u);
        } else {
            throw new IllegalArgumentException("unknown write operation " + op);
        }
    }

    private void putObservation(Connection c, String schema, Scope s, Observation o) throws SQLException {
        Embedding e = o.embedding();
        // a STYLE observation is never searched by text (MemoryStore#searchObservations): an empty tsvector
        String indexed = MemoryStore.textSearchable(o) ? FullText.indexText(o.text()) : "";
        update(c, schema, "INSERT INTO ${s}.observations (agent, usr, id, kind, status, session_id, observed_at, dim,"
                        + " embedding, data, text, tsv) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, " + FullText.VECTOR_SQL + ")"
                        + " ON CONFLICT (agent, usr, id) DO UPDATE SET kind = excluded.kind, status = excluded.status,"
                        + " session_id = excluded.session_id, observed_at = excluded.observed_at, dim = excluded.dim,"
                        + " embedding = excluded.embedding, data = excluded.data, text = excluded.text,"
                        + " tsv = excluded.tsv",
                s.agentId(), s.endUserId(), o.id(), o.kind().name(), o.status().name(), o.sessionId(),
                o.observedAt().toEpochMilli(), e == null ? null : e.dimension(),
                e == null ? null : Vectors.toBytes(e.toArray()), Json.write(o.withEmbedding(null)), plain(o.text()),
                indexed, indexed);
    }

    private void putMemory(Connection c, String schema, Scope s, Memory m) throws SQLException {
        Embedding e = m.embedding();
        String indexed = FullText.indexText(m.text());
        update(c, schema, "INSERT INTO ${s}.memories (agent, usr, id, kind, status, text, created_at, permanent,"
                        + " importance, dim, embedding, data, tsv) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
                        + FullText.VECTOR_SQL + ")"
                        + " ON CONFLICT (agent, usr, id) DO UPDATE SET kind = excluded.kind, status = excluded.status,"
                        + " text = excluded.text, created_at = excluded.created_at, permanent = excluded.permanent,"
                        + " importance = excluded.importance, dim = excluded.dim, embedding = excluded.embedding,"
                        + " data = excluded.data, tsv = excluded.tsv",
                s.agentId(), s.endUserId(), m.id(), m.kind().name(), m.status().name(), plain(m.text()),
                m.createdAt().toEpochMilli(), m.permanent(), m.importance(), e == null ? null : e.dimension(),
                e == null ? null : Vectors.toBytes(e.toArray()), Json.write(m.toBuilder().embedding(null).build()),
                indexed, indexed);
    }

    private void putArchivedTurn(Connection c, String schema, Scope s, SessionTurn t, Embedding e) throws SQLException {
        String text = t.searchText();
        String indexed = FullText.indexText(text);
        update(c, schema, "INSERT INTO ${s}.archive_turns (agent, usr, session_id, seq, data, text, at, dim, embedding,"
                        + " tsv) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, " + FullText.VECTOR_SQL + ")"
                        + " ON CONFLICT (agent, usr, session_id, seq) DO UPDATE SET data = excluded.data,"
                        + " text = excluded.text, at = excluded.at, dim = excluded.dim, embedding = excluded.embedding,"
                        + " tsv = excluded.tsv",
                s.agentId(), s.endUserId(), t.sessionId(), t.seq(), Json.write(t), plain(text), t.at().toEpochMilli(),
                e == null ? null : e.dimension(), e == null ? null : Vectors.toBytes(e.toArray()), indexed, indexed);
    }


    /** PostgreSQL text cannot hold NUL; the search/filter columns drop it (the JSON keeps the exact text). */
    private static String plain(String text) {
        return text.indexOf('\u0000') < 0 ? text : text.replace("\u0000", "");
    }

    /**
     * Removes every row of the scope in one transaction, then rewrites the tenant's tables
     * ({@code VACUUM FULL}) so the deleted rows leave the table and index files. The rewrite locks
     * each table briefly; erasure is a rare operator action.
     */
    @Override
    public void erase(Scope scope) {
        Checks.notNull("scope", scope);
        ensureOpen();
        String schema = write(scope, (c, s) -> {
            for (String table : PostgresSchema.USER_TABLES) {
                update(c, s, "DELETE FROM ${s}." + table + " WHERE agent = ? AND usr = ?", scope.agentId(),
                        scope.endUserId());
            }
            return s;
        });
        DecodedRecords.forget(scope); // its rows were decoded through DecodedRecords
        bm25Stats.forget(scope);
        try (Connection c = dataSource.getConnection()) {
            boolean auto = c.getAutoCommit();
            c.setAutoCommit(true); // VACUUM runs outside a transaction block
            try (Statement st = c.createStatement()) {
                for (String table : PostgresSchema.USER_TABLES) {
                    st.execute("VACUUM FULL " + schema + "." + table);
                }
            } finally {
                c.setAutoCommit(auto);
            }
        } catch (SQLException e) {
            throw new MemoryStoreException("erased the rows of " + scope + " on " + label + " but could not rewrite"
                    + " the tables of " + schema + " (VACUUM FULL needs the tables' owner): " + e.getMessage(), e);
        }
    }

    // ---------------------------------------------------------------- leases

    /**
     * Decided inside a write transaction holding the end user's advisory lock, so two instances never
     * both win. Lease ends are the holders' clocks ({@code now}, {@code until}), as the SPI says.
     */
    @Override
    public boolean tryLease(Scope scope, String name, String holder, Instant now, Instant until) {
        Checks.notNull("scope", scope);
        Checks.id("name", name);
        Checks.id("holder", holder);
        Checks.notNull("now", now);
        Checks.notNull("until", until);
        ensureOpen();
        return write(scope, (c, s) -> !query(c, s,
                "INSERT INTO ${s}.leases (agent, usr, name, holder, until) VALUES (?, ?, ?, ?, ?)"
                        + " ON CONFLICT (agent, usr, name) DO UPDATE SET holder = excluded.holder, until = excluded.until"
                        + " WHERE ${s}.leases.holder = excluded.holder OR ${s}.leases.until <= ?"
                        + " RETURNING holder",
                rs -> rs.getString(1), scope.agentId(), scope.endUserId(), name, holder, until.toEpochMilli(),
                now.toEpochMilli()).isEmpty());
    }

    @Override
    public void releaseLease(Scope scope, String name, String holder) {
        Checks.notNull("scope", scope);
        Checks.id("name", name);
        Checks.id("holder", holder);
        ensureOpen();
        write(scope, (c, s) -> update(c, s, "DELETE FROM ${s}.leases WHERE agent = ? AND usr = ? AND name = ?"
                + " AND holder = ?", scope.agentId(), scope.endUserId(), name, holder));
    }

    // ---------------------------------------------------------------- reads

    @Override
    public Optional<Observation> observation(Scope scope, String id) {
        Checks.notNull("scope", scope);
        Checks.notNull("id", id);
        return read(scope.tenantId(), (c, s) -> first(query(c, s,
                "SELECT data, embedding FROM ${s}.observations WHERE agent = ? AND usr = ? AND id = ?",
                Jdbc::observationRow, scope.agentId(), scope.endUserId(), id)));
    }

    @Override
    public List<Observation> observations(Scope scope, ObservationFilter f) {
        Checks.notNull("scope", scope);
        Checks.notNull("filter", f);
        StringBuilder sql = new StringBuilder("SELECT data, embedding FROM ${s}.observations WHERE agent = ? AND usr = ?"
                + " AND status = ANY(?) AND kind = ANY(?)");
        List<Object> args = new ArrayList<>(List.of(scope.agentId(), scope.endUserId(), names(f.statuses()),
                names(f.kinds())));
        if (f.sessionId() != null) {
            sql.append(" AND session_id = ?");
            args.add(f.sessionId());
        }
        sql.append(" ORDER BY observed_at, id LIMIT ? OFFSET ?");
        args.add(f.limit());
        args.add(f.offset());
        return read(scope.tenantId(), (c, s) -> query(c, s, sql.toString(), Jdbc::observationRow,
                args.toArray()));
    }

    @Override
    public Optional<Memory> memory(Scope scope, String id) {
        Checks.notNull("scope", scope);
        Checks.notNull("id", id);
        return read(scope.tenantId(), (c, s) -> first(query(c, s,
                "SELECT data, embedding FROM ${s}.memories WHERE agent = ? AND usr = ? AND id = ?",
                Jdbc::memoryRow, scope.agentId(), scope.endUserId(), id)));
    }

    @Override
    public List<Memory> memories(Scope scope, MemoryFilter f) {
        Checks.notNull("scope", scope);
        Checks.notNull("filter", f);
        StringBuilder sql = new StringBuilder("SELECT data, embedding FROM ${s}.memories WHERE agent = ? AND usr = ?"
                + " AND status = ANY(?) AND kind = ANY(?)");
        List<Object> args = new ArrayList<>(List.of(scope.agentId(), scope.endUserId(), names(f.statuses()),
                names(f.kinds())));
        String fragment = f.textContains() == null || f.textContains().isEmpty() ? null : f.textContains();
        // the database's lower() depends on its locale: ASCII fragments are matched in SQL (ASCII case
        // folds alike everywhere), others in Java with Locale.ROOT, exactly as the other stores do
        boolean asciiFragment = fragment == null || fragment.chars().allMatch(ch -> ch < 0x80);
        if (fragment != null && asciiFragment) {
            sql.append(" AND strpos(lower(text), ?) > 0");
            args.add(fragment.toLowerCase(Locale.ROOT));
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
            List<Memory> all = read(scope.tenantId(), (c, s) -> query(c, s, sql.toString(),
                    Jdbc::memoryRow, args.toArray()));
            return all.stream().filter(m -> m.text().toLowerCase(Locale.ROOT).contains(lower))
                    .skip(f.offset()).limit(f.limit()).toList();
        }
        sql.append(" LIMIT ? OFFSET ?");
        args.add(f.limit());
        args.add(f.offset());
        return read(scope.tenantId(), (c, s) -> query(c, s, sql.toString(), Jdbc::memoryRow,
                args.toArray()));
    }

    @Override
    public List<Memory> pinnedMemories(Scope scope, int limit) {
        Checks.notNull("scope", scope);
        Checks.positive("limit", limit);
        return read(scope.tenantId(), (c, s) -> query(c, s,
                "SELECT data, embedding FROM ${s}.memories WHERE agent = ? AND usr = ? AND permanent"
                        + " AND status = 'ACTIVE' ORDER BY importance DESC, id LIMIT ?",
                Jdbc::memoryRow, scope.agentId(), scope.endUserId(), limit));
    }

    @Override
    public long countMemories(Scope scope, Set<MemoryStatus> statuses) {
        Checks.notNull("scope", scope);
        Checks.notNull("statuses", statuses);
        return read(scope.tenantId(), (c, s) -> query(c, s,
                "SELECT COUNT(*) FROM ${s}.memories WHERE agent = ? AND usr = ? AND status = ANY(?)",
                rs -> rs.getLong(1), scope.agentId(), scope.endUserId(), names(statuses)).get(0));
    }

    /**
     * Each query word's lexemes as the index holds them ({@code english}, then {@code simple}), kept per
     * word, at most {@value #LEXEME_CACHE}, least recently used dropped: a context's three searches share
     * them, and a question's words are mostly words of earlier questions, so a search usually asks the
     * server for none (kept per whole query until session 31, which asked for nearly every LoCoMo
     * question).
     */
    private final Map<String, String[][]> wordLexemes = java.util.Collections.synchronizedMap(
            new java.util.LinkedHashMap<>(256, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, String[][]> eldest) {
                    return size() > LEXEME_CACHE;
                }
            });
    private static final int LEXEME_CACHE = 4_096;

    /** Per query word, in order: its {@code english} lexemes and its {@code simple} ones. */
    private record WordLexemes(List<String[]> english, List<String[]> simple) {
    }

    private WordLexemes lexemes(Connection c, String schema, String words) throws SQLException {
        String[] split = words.split(" ");
        String[][][] per = new String[split.length][][];
        java.util.Set<String> missing = new java.util.LinkedHashSet<>();
        for (int i = 0; i < split.length; i++) {
            per[i] = wordLexemes.get(split[i]);
            if (per[i] == null) {
                missing.add(split[i]);
            }
        }
        if (!missing.isEmpty()) {
            Map<String, String[][]> read = new HashMap<>();
            query(c, schema, "SELECT u.w, tsvector_to_array(to_tsvector('pg_catalog.english', u.w)),"
                    + " tsvector_to_array(to_tsvector('pg_catalog.simple', u.w)) FROM unnest(?::text[]) AS u(w)", rs -> {
                        read.put(rs.getString(1), new String[][] {(String[]) rs.getArray(2).getArray(),
                                (String[]) rs.getArray(3).getArray()});
                        return null;
                    }, (Object) missing.toArray(String[]::new));
            for (int i = 0; i < split.length; i++) {
                if (per[i] == null) {
                    per[i] = Checks.notNull("lexemes of a query word", read.get(split[i]));
                }
            }
            wordLexemes.putAll(read);
        }
        List<String[]> english = new ArrayList<>(split.length);
        List<String[]> simple = new ArrayList<>(split.length);
        for (String[][] lexemes : per) {
            english.add(lexemes[0]);
            simple.add(lexemes[1]);
        }
        return new WordLexemes(List.copyOf(english), List.copyOf(simple));
    }

    /**
     * A BM25 search ({@link Bm25}) of {@code table}: the rows matching {@code query} (the
     * {@link FullText#queryText} of {@code text}; their key and vector, in key order; {@code match}
     * binds {@code matchArgs} after the query twice), scored in Java; the best {@code limit}, best first.
     */
    private List<Bm25.Ranked> bm25(Connection c, String s, Scope scope, String table, String text, String query,
                                   String match, boolean turns, int limit, Object... matchArgs) throws SQLException {
        WordLexemes words = lexemes(c, s, FullText.queryWords(text));
        Bm25 bm25 = new Bm25(words.english(), words.simple());
        Object[] args = new Object[matchArgs.length + 2];
        args[0] = query;
        args[1] = query;
        System.arraycopy(matchArgs, 0, args, 2, matchArgs.length);
        // the scope's size chooses the match (a row count cached even if stale will do; none: read them)
        double rows = bm25Stats.knownRows(scope, table);
        if (rows < 0) {
            rows = bm25Stats.of(c, s, scope, table).rows();
        }
        String matches = matchClause(rows);
        query(c, s, "SELECT " + (turns ? "t.session_id, t.seq" : "t.rid, NULL") + ", t.tsv::text FROM ${s}." + table
                + " t CROSS JOIN (SELECT " + FullText.QUERY_SQL + " AS q) q WHERE " + matches + " AND " + match
                + " ORDER BY " + (turns ? "t.session_id, t.seq" : "t.rid"), rs -> {
                    if (turns) {
                        bm25.add(0, rs.getString(1), rs.getLong(2), rs.getString(3));
                    } else {
                        bm25.add(rs.getLong(1), null, 0, rs.getString(3));
                    }
                    return null;
                }, args);
        if (bm25.isEmpty()) {
            return List.of(); // no current statistics needed
        }
        Bm25Stats.Figures f = bm25Stats.of(c, s, scope, table);
        return bm25.rank(f.rows(), f.meanLength(), limit);
    }

    /**
     * How a search of a scope's table of {@code scopeRows} rows matches a row against the query
     * {@code q.q}. Below {@link #GIN_FROM_ROWS} it calls {@code ts_match_vq}, the function behind
     * {@code @@}, which no index matches: PostgreSQL reads the end user's rows through their
     * {@code (agent, usr, ...)} index and tests each, where the tenant's full-text index would list
     * every end user's rows for a common word. From there on, {@code @@}, and the planner may use it.
     */
    static String matchClause(double scopeRows) {
        return scopeRows < GIN_FROM_ROWS ? "ts_match_vq(t.tsv, q.q)" : "t.tsv @@ q.q";
    }

    /**
     * From this many rows of a scope's table a text search may use the tenant's full-text index
     * ({@link #matchClause}). Measured at the two ends, not between (docs/postgres.md): for 1,000 end
     * users of 100 memories, a planner free to use the index chose it and put a search's p99 at 21 ms
     * against 1-3 ms; for one end user of 10,000 memories the index (with a short pending list) took
     * 1.1 ms at p50, where a walk of the user's rows took 9-15 ms in the plans examined.
     */
    static final int GIN_FROM_ROWS = 1_000;

    /**
     * The ranked memory or observation rows read whole, in rank order, each with its score; a row that
     * no longer passes {@code wanted} (its status changed since it matched) is left out.
     */
    private static <T> List<Scored<T>> readRanked(Connection c, String s, String table, Scope scope,
                                                  List<Bm25.Ranked> ranked, RowMapper<T> mapper,
                                                  java.util.function.Predicate<T> wanted) throws SQLException {
        if (ranked.isEmpty()) {
            return List.of();
        }
        String[] rids = new String[ranked.size()];
        for (int i = 0; i < rids.length; i++) {
            rids[i] = Long.toString(ranked.get(i).row().rid());
        }
        // by primary key alone (a scope condition here let the planner scan the scope for the keys); the
        // keys are the scope's, from the match, and a row never changes scope (agent and usr are checked anyway)
        Map<Long, T> byRid = new HashMap<>();
        query(c, s, "SELECT t.data, t.embedding, t.rid, t.agent, t.usr FROM ${s}." + table
                + " t WHERE t.rid = ANY(?::bigint[])", rs -> {
                    if (scope.agentId().equals(rs.getString(4)) && scope.endUserId().equals(rs.getString(5))) {
                        byRid.put(rs.getLong(3), mapper.map(rs));
                    }
                    return null;
                }, (Object) rids);
        List<Scored<T>> out = new ArrayList<>(ranked.size());
        for (Bm25.Ranked r : ranked) {
            T item = byRid.get(r.row().rid());
            if (item != null && wanted.test(item)) { // else deleted or changed since it matched
                out.add(new Scored<>(item, r.score()));
            }
        }
        return out;
    }

    @Override
    public List<Scored<Memory>> searchMemories(Scope scope, String text, Set<MemoryStatus> statuses,
                                               Set<MemoryKind> kinds, int limit) {
        Checks.notNull("scope", scope);
        Checks.positive("limit", limit);
        ensureOpen();
        String query = FullText.queryText(text);
        if (query == null || statuses.isEmpty() || kinds.isEmpty()) {
            return List.of();
        }
        String[] st = names(statuses);
        String[] kn = names(kinds);
        return read(scope.tenantId(), (c, s) -> readRanked(c, s, "memories", scope,
                bm25(c, s, scope, "memories", text, query, "t.agent = ? AND t.usr = ? AND t.status = ANY(?) AND t.kind = ANY(?)",
                        false, limit, scope.agentId(), scope.endUserId(), st, kn), Jdbc::memoryRow,
                m -> statuses.contains(m.status()) && kinds.contains(m.kind())));
    }

    @Override
    public List<Scored<Observation>> searchObservations(Scope scope, String text, Set<ObservationStatus> statuses,
                                                        int limit) {
        Checks.notNull("scope", scope);
        Checks.positive("limit", limit);
        ensureOpen();
        String query = FullText.queryText(text);
        if (query == null || statuses.isEmpty()) {
            return List.of();
        }
        String[] st = names(statuses);
        // a STYLE observation is never searched by text (MemoryStore#searchObservations)
        return read(scope.tenantId(), (c, s) -> readRanked(c, s, "observations", scope,
                bm25(c, s, scope, "observations", text, query, "t.agent = ? AND t.usr = ? AND t.status = ANY(?) AND t.kind <> '"
                        + MemoryKind.STYLE.name() + "'", false, limit, scope.agentId(), scope.endUserId(), st),
                Jdbc::observationRow, o -> statuses.contains(o.status()) && o.kind() != MemoryKind.STYLE));
    }

    @Override
    public List<Scored<Memory>> searchMemoriesByVector(Scope scope, float[] vector, Set<MemoryStatus> statuses,
                                                       int limit) {
        return memoriesByVector(scope, vector, statuses, limit, NO_FLOOR);
    }

    @Override
    public List<Scored<Memory>> searchMemoriesByVector(Scope scope, float[] vector, Set<MemoryStatus> statuses,
                                                       int limit, double minSimilarity) {
        return memoriesByVector(scope, vector, statuses, limit, floor(minSimilarity));
    }

    private List<Scored<Memory>> memoriesByVector(Scope scope, float[] vector, Set<MemoryStatus> statuses, int limit,
                                                  double floor) {
        Checks.notNull("statuses", statuses);
        return vectorSearch(scope, "memories", "rid", vector, names(statuses), limit, floor,
                "SELECT data, embedding, rid::text FROM ${s}.memories WHERE rid = ANY(?::bigint[])", 3,
                Jdbc::memoryRow);
    }

    @Override
    public List<Scored<Observation>> searchObservationsByVector(Scope scope, float[] vector,
                                                                Set<ObservationStatus> statuses, int limit) {
        return observationsByVector(scope, vector, statuses, limit, NO_FLOOR);
    }

    @Override
    public List<Scored<Observation>> searchObservationsByVector(Scope scope, float[] vector,
                                                                Set<ObservationStatus> statuses, int limit,
                                                                double minSimilarity) {
        return observationsByVector(scope, vector, statuses, limit, floor(minSimilarity));
    }

    private List<Scored<Observation>> observationsByVector(Scope scope, float[] vector,
                                                           Set<ObservationStatus> statuses, int limit, double floor) {
        Checks.notNull("statuses", statuses);
        return vectorSearch(scope, "observations", "rid", vector, names(statuses), limit, floor,
                "SELECT data, embedding, rid::text FROM ${s}.observations WHERE rid = ANY(?::bigint[])", 3,
                Jdbc::observationRow);
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
        return vectorSearch(scope, "archive_turns", "ctid", vector, null, limit, floor,
                "SELECT data, ctid::text FROM ${s}.archive_turns WHERE ctid = ANY(?::tid[])", 2,
                rs -> DecodedRecords.read(rs.getString(1), SessionTurn.class));
    }

    /** Orders two ctids ({@code (block,offset)}) by block, then offset: a total order of a snapshot's rows. */
    static int compareCtids(String a, String b) {
        long[] x = ctid(a);
        long[] y = ctid(b);
        int byBlock = Long.compare(x[0], y[0]);
        return byBlock != 0 ? byBlock : Long.compare(x[1], y[1]);
    }

    private static long[] ctid(String text) {
        int comma = text.indexOf(',');
        if (comma < 0 || !text.startsWith("(") || !text.endsWith(")")) {
            throw new IllegalStateException("unexpected ctid '" + text + "': expected (block,offset)");
        }
        return new long[] {Long.parseLong(text.substring(1, comma).trim()),
                Long.parseLong(text.substring(comma + 1, text.length() - 1).trim())};
    }

    /** No similarity floor: every vector hit counts. */
    private static final double NO_FLOOR = Double.NEGATIVE_INFINITY;

    private static double floor(double minSimilarity) {
        return Checks.similarityFloor("minSimilarity", minSimilarity);
    }

    /**
     * The exact scan: reads the scope's vectors (of the statuses, when given), keeps the best
     * {@code limit} by cosine at or above {@code floor}, then loads those rows with {@code load} (one
     * statement, whose parameter is the array of their keys and whose column {@code loadedKey} is a
     * row's key as the scan printed it; none under the floor is loaded). Runs in one repeatable-read
     * snapshot so the row keys found in the scan still name the same rows when loaded.
     */
    private <T> List<Scored<T>> vectorSearch(Scope scope, String table, String key, float[] vector,
                                             String[] statuses, int limit, double floor, String load,
                                             int loadedKey, RowMapper<T> mapper) {
        Checks.notNull("scope", scope);
        Checks.notNull("vector", vector);
        Checks.positive("limit", limit);
        if (vector.length == 0) {
            throw new IllegalArgumentException("vector must have at least one dimension");
        }
        ensureOpen();
        if (statuses != null && statuses.length == 0) {
            return List.of();
        }
        String scan = "SELECT " + key + "::text, dim, embedding FROM ${s}." + table
                + " WHERE agent = ? AND usr = ? AND embedding IS NOT NULL" + (statuses == null ? "" : " AND status = ANY(?)");
        Object[] args = statuses == null ? new Object[] {scope.agentId(), scope.endUserId()}
                : new Object[] {scope.agentId(), scope.endUserId(), statuses};
        return read(scope.tenantId(), (c, s) -> {
            boolean auto = c.getAutoCommit();
            int isolation = c.getTransactionIsolation();
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                Comparator<String> keys = key.equals("rid") ? Comparator.comparingLong(Long::parseLong)
                        : PostgresMemoryStore::compareCtids;
                NearestVectors<String> nearest = new NearestVectors<>(vector, limit, floor, table + " of " + scope, keys);
                try (PreparedStatement ps = c.prepareStatement(scan.replace("${s}", s))) {
                    bind(ps, args);
                    ps.setFetchSize(500);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            nearest.offer(rs.getString(1), rs.getInt(2), rs.getBytes(3));
                        }
                    }
                }
                List<NearestVectors.Hit<String>> best = nearest.best();
                List<Scored<T>> out = new ArrayList<>(best.size());
                if (!best.isEmpty()) {
                    // the best rows in one statement (one round trip per hit made a hybrid call on LoCoMo
                    // some 150 round trips), in the snapshot of the scan, then in the order of the ranking
                    String[] bestKeys = new String[best.size()];
                    for (int i = 0; i < bestKeys.length; i++) {
                        bestKeys[i] = best.get(i).key();
                    }
                    Map<String, T> loaded = new HashMap<>();
                    query(c, s, load, rs -> loaded.put(rs.getString(loadedKey), mapper.map(rs)), (Object) bestKeys);
                    for (NearestVectors.Hit<String> hit : best) {
                        T row = loaded.get(hit.key());
                        if (row != null) {
                            out.add(new Scored<>(row, hit.score()));
                        }
                    }
                }
                c.commit();
                return out;
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(c);
                throw e;
            } finally {
                c.setTransactionIsolation(isolation);
                c.setAutoCommit(auto);
            }
        });
    }

    @Override
    public List<SessionTurn> sessionTurns(Scope scope, String sessionId, long fromSeq, int limit) {
        Checks.notNull("scope", scope);
        Checks.notNull("sessionId", sessionId);
        Checks.positive("limit", limit);
        return read(scope.tenantId(), (c, s) -> query(c, s,
                "SELECT data FROM ${s}.session_turns WHERE agent = ? AND usr = ? AND session_id = ? AND seq >= ?"
                        + " ORDER BY seq LIMIT ?",
                rs -> DecodedRecords.read(rs.getString(1), SessionTurn.class),
                scope.agentId(), scope.endUserId(), sessionId, fromSeq, limit));
    }

    @Override
    public List<SessionTurn> recentTurns(Scope scope, String sessionId, int count) {
        Checks.notNull("scope", scope);
        Checks.notNull("sessionId", sessionId);
        Checks.nonNegative("count", count);
        if (count == 0) {
            ensureOpen();
            return List.of();
        }
        List<SessionTurn> turns = read(scope.tenantId(), (c, s) -> query(c, s,
                "SELECT data FROM ${s}.session_turns WHERE agent = ? AND usr = ? AND session_id = ?"
                        + " ORDER BY seq DESC LIMIT ?",
                rs -> DecodedRecords.read(rs.getString(1), SessionTurn.class),
                scope.agentId(), scope.endUserId(), sessionId, count));
        List<SessionTurn> ascending = new ArrayList<>(turns);
        java.util.Collections.reverse(ascending);
        return ascending;
    }

    @Override
    public long sessionLength(Scope scope, String sessionId) {
        Checks.notNull("scope", scope);
        Checks.notNull("sessionId", sessionId);
        return read(scope.tenantId(), (c, s) -> query(c, s,
                "SELECT COALESCE(MAX(seq) + 1, 0) FROM ${s}.session_turns WHERE agent = ? AND usr = ? AND session_id = ?",
                rs -> rs.getLong(1), scope.agentId(), scope.endUserId(), sessionId).get(0));
    }

    @Override
    public Optional<SessionSummary> sessionSummary(Scope scope, String sessionId) {
        Checks.notNull("scope", scope);
        Checks.notNull("sessionId", sessionId);
        return read(scope.tenantId(), (c, s) -> first(query(c, s,
                "SELECT data FROM ${s}.session_summaries WHERE agent = ? AND usr = ? AND session_id = ?",
                rs -> Json.read(rs.getString(1), SessionSummary.class), scope.agentId(), scope.endUserId(), sessionId)));
    }

    @Override
    public List<String> sessions(Scope scope) {
        Checks.notNull("scope", scope);
        return read(scope.tenantId(), (c, s) -> query(c, s,
                "SELECT session_id FROM ${s}.session_turns WHERE agent = ? AND usr = ?"
                        + " GROUP BY session_id ORDER BY MIN(first_at), session_id",
                rs -> rs.getString(1), scope.agentId(), scope.endUserId()));
    }

    @Override
    public List<SessionTurn> archivedTurns(Scope scope, String sessionId) {
        Checks.notNull("scope", scope);
        Checks.notNull("sessionId", sessionId);
        return read(scope.tenantId(), (c, s) -> query(c, s,
                "SELECT data FROM ${s}.archive_turns WHERE agent = ? AND usr = ? AND session_id = ? ORDER BY seq",
                rs -> DecodedRecords.read(rs.getString(1), SessionTurn.class), scope.agentId(), scope.endUserId(), sessionId));
    }

    @Override
    public List<SessionTurn> archivedTurns(Scope scope, String sessionId, long fromSeq, long toSeq) {
        Checks.notNull("scope", scope);
        Checks.notNull("sessionId", sessionId);
        return read(scope.tenantId(), (c, s) -> query(c, s,
                "SELECT data FROM ${s}.archive_turns WHERE agent = ? AND usr = ? AND session_id = ? AND seq >= ?"
                        + " AND seq <= ? ORDER BY seq",
                rs -> DecodedRecords.read(rs.getString(1), SessionTurn.class), scope.agentId(), scope.endUserId(), sessionId,
                fromSeq, toSeq));
    }

    /**
     * One statement for all the ranges (the neighbours of a call's anchor turns: the default asked once
     * per range, four round trips in a LoCoMo {@code buildContext}), each range read through the
     * primary key; ordered and deduplicated in Java, by session id as Java compares strings and then
     * seq, as the default orders them whatever the database's collation.
     */
    @Override
    public List<SessionTurn> archivedTurns(Scope scope, List<TurnRange> ranges) {
        Checks.notNull("scope", scope);
        Checks.notNull("ranges", ranges);
        if (ranges.isEmpty()) {
            return List.of();
        }
        String[] sessions = new String[ranges.size()];
        String[] from = new String[ranges.size()];
        String[] to = new String[ranges.size()];
        for (int i = 0; i < ranges.size(); i++) {
            TurnRange r = Checks.notNull("ranges[" + i + "]", ranges.get(i));
            sessions[i] = r.sessionId();
            from[i] = Long.toString(r.fromSeq());
            to[i] = Long.toString(r.toSeq());
        }
        java.util.TreeMap<String, java.util.TreeMap<Long, SessionTurn>> found = new java.util.TreeMap<>();
        read(scope.tenantId(), (c, s) -> {
            query(c, s, "SELECT t.data FROM unnest(?::text[], ?::bigint[], ?::bigint[]) AS r(sid, lo, hi)"
                    + " CROSS JOIN LATERAL (SELECT a.data FROM ${s}.archive_turns a WHERE a.agent = ? AND a.usr = ?"
                    + " AND a.session_id = r.sid AND a.seq >= r.lo AND a.seq <= r.hi) t", rs -> {
                        SessionTurn t = DecodedRecords.read(rs.getString(1), SessionTurn.class);
                        found.computeIfAbsent(t.sessionId(), k -> new java.util.TreeMap<>()).putIfAbsent(t.seq(), t);
                        return null;
                    }, sessions, from, to, scope.agentId(), scope.endUserId());
            return null;
        });
        List<SessionTurn> out = new ArrayList<>();
        found.values().forEach(bySeq -> out.addAll(bySeq.values()));
        return out;
    }

    @Override
    public boolean hasArchivedTurnsBefore(Scope scope, Instant before) {
        Checks.notNull("scope", scope);
        Checks.notNull("before", before);
        return read(scope.tenantId(), (c, s) -> !query(c, s,
                "SELECT 1 FROM ${s}.archive_turns WHERE agent = ? AND usr = ? AND at < ? LIMIT 1",
                rs -> 1, scope.agentId(), scope.endUserId(), before.toEpochMilli()).isEmpty());
    }

    @Override
    public List<Scored<SessionTurn>> searchTurns(Scope scope, String text, int limit) {
        Checks.notNull("scope", scope);
        Checks.positive("limit", limit);
        ensureOpen();
        String query = FullText.queryText(text);
        if (query == null) {
            return List.of();
        }
        return read(scope.tenantId(), (c, s) -> {
            List<Bm25.Ranked> ranked = bm25(c, s, scope, "archive_turns", text, query, "t.agent = ? AND t.usr = ?", true,
                    limit, scope.agentId(), scope.endUserId());
            if (ranked.isEmpty()) {
                return List.<Scored<SessionTurn>>of();
            }
            String[] sessions = new String[ranked.size()];
            String[] seqs = new String[ranked.size()];
            for (int i = 0; i < sessions.length; i++) {
                sessions[i] = ranked.get(i).row().session();
                seqs[i] = Long.toString(ranked.get(i).row().seq());
            }
            Map<String, SessionTurn> byKey = new HashMap<>();
            // one primary-key lookup per ranked turn (a join on the keys let the planner scan the scope); on a
            // table without statistics the planner may answer each key from the scope's (agent, usr, at) index
            // instead, about 0.1 ms a key on a LoCoMo conversation, which is why tables with rows are analysed
            // as soon as the store sees they have none (PlannerStatistics)
            query(c, s, "SELECT t.data, t.session_id, t.seq FROM unnest(?::text[], ?::bigint[]) AS k(sid, sq)"
                    + " CROSS JOIN LATERAL (SELECT a.data, a.session_id, a.seq FROM ${s}.archive_turns a"
                    + " WHERE a.agent = ? AND a.usr = ? AND a.session_id = k.sid AND a.seq = k.sq) t",
                    rs -> byKey.put(rs.getString(2) + '\u0000' + rs.getLong(3), DecodedRecords.read(rs.getString(1), SessionTurn.class)),
                    sessions, seqs, scope.agentId(), scope.endUserId());
            List<Scored<SessionTurn>> out = new ArrayList<>(ranked.size());
            for (Bm25.Ranked r : ranked) {
                SessionTurn turn = byKey.get(r.row().session() + '\u0000' + r.row().seq());
                if (turn != null) {
                    out.add(new Scored<>(turn, r.score()));
                }
            }
            return out;
        });
    }

    @Override
    public List<MemoryEvent> history(Scope scope, String memoryId) {
        Checks.notNull("scope", scope);
        Checks.notNull("memoryId", memoryId);
        return read(scope.tenantId(), (c, s) -> query(c, s,
                "SELECT data FROM ${s}.history WHERE agent = ? AND usr = ? AND memory_id = ? ORDER BY rid",
                rs -> Json.read(rs.getString(1), MemoryEvent.class), scope.agentId(), scope.endUserId(), memoryId));
    }

    @Override
    public List<MemoryEvent> history(Scope scope) {
        Checks.notNull("scope", scope);
        return read(scope.tenantId(), (c, s) -> query(c, s,
                "SELECT data FROM ${s}.history WHERE agent = ? AND usr = ? ORDER BY rid",
                rs -> Json.read(rs.getString(1), MemoryEvent.class), scope.agentId(), scope.endUserId()));
    }

    @Override
    public Optional<StyleProfile> styleProfile(Scope scope) {
        Checks.notNull("scope", scope);
        return read(scope.tenantId(), (c, s) -> first(query(c, s,
                "SELECT data FROM ${s}.style_profiles WHERE agent = ? AND usr = ?",
                rs -> Json.read(rs.getString(1), StyleProfile.class), scope.agentId(), scope.endUserId())));
    }

    @Override
    public List<Scope> endUsers(String tenantId, String agentId) {
        Checks.id("tenantId", tenantId);
        Checks.id("agentId", agentId);
        ensureOpen();
        if (!readySchemas.containsKey(tenantId) && !schemaExists(SchemaNames.of(tenantId))) {
            return List.of();
        }
        StringBuilder union = new StringBuilder();
        List<Object> args = new ArrayList<>();
        for (String table : List.of("memories", "observations", "session_turns", "archive_turns", "style_profiles",
                "session_summaries")) {
            union.append(union.isEmpty() ? "" : " UNION ").append("SELECT usr FROM ${s}.").append(table)
                    .append(" WHERE agent = ?");
            args.add(agentId);
        }
        List<String> users = read(tenantId, (c, s) -> query(c, s, union.toString(),
                rs -> rs.getString(1), args.toArray()));
        List<String> sorted = new ArrayList<>(users);
        sorted.sort(null); // the SPI sorts by Java's String order
        List<Scope> out = new ArrayList<>(sorted.size());
        for (String u : sorted) {
            out.add(Scope.of(tenantId, agentId, u));
        }
        return out;
    }

    private boolean schemaExists(String name) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT 1 FROM pg_namespace WHERE nspname = ?")) {
            ps.setString(1, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        } catch (SQLException e) {
            throw new MemoryStoreException("PostgreSQL read failed on " + label + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        readySchemas.clear();
        if (ownedPool != null) {
            closeQuietly(ownedPool);
        }
    }

    // ---------------------------------------------------------------- helpers

    private static String[] names(Collection<? extends Enum<?>> values) {
        String[] out = new String[values.size()];
        int i = 0;
        for (Enum<?> v : values) {
            out[i++] = v.name();
        }
        return out;
    }

    static <T> List<T> query(Connection c, String schema, String sql, RowMapper<T> mapper, Object... args)
            throws SQLException {
        return Jdbc.query(c, sql.replace("${s}", schema), mapper, args);
    }

    static int update(Connection c, String schema, String sql, Object... args) throws SQLException {
        return Jdbc.update(c, sql.replace("${s}", schema), args);
    }
}
