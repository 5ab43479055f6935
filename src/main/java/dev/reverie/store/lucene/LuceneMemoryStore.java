package dev.reverie.store.lucene;

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
import dev.reverie.internal.GroupCommit;
import dev.reverie.internal.TenantNames;
import dev.reverie.internal.Vectors;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.Scored;
import dev.reverie.spi.SessionSummary;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;
import dev.reverie.store.lucene.LuceneDocuments.Type;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SimpleCollector;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.NRTCachingDirectory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.StringHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * A {@link MemoryStore} on Apache Lucene: one index directory per tenant under a folder (or
 * in-memory {@link ByteBuffersDirectory} indexes for {@code lucene::memory:}), every record type in
 * that index as a document with a {@code type} field, BM25 lexical search, HNSW vector search, and
 * near-real-time reads through a {@code SearcherManager}.
 *
 * <p><b>Search.</b> Lexical search analyzes the user text with the same chain as the index
 * (NFKC without invisible format characters, StandardTokenizer, lower case, ASCII folding, Porter
 * stemming; English and Portuguese stop words
 * dropped from queries) and ORs one {@link TermQuery} per term; scope, type, status and kind are
 * FILTER clauses of the same {@link BooleanQuery}, so the top-k is computed inside the end user's
 * documents, never by post-filtering a global top-k. No query parser ever sees user text. Vector
 * search runs a {@link KnnFloatVectorQuery} (cosine) with the scope and status filter as its
 * pre-filter; the score returned is the cosine itself. Because Lucene fixes a vector field's
 * dimension per index, each dimension gets its own field, so end users embedded with different models
 * can share a tenant; a query whose dimension differs from an embedding stored in the searched scope
 * fails with {@link IllegalArgumentException}. Vectors longer than the codec's limit (1024 in Lucene
 * 9) are stored and searched exactly, by scanning the scope's stored vectors. Zero vectors are stored
 * but never ranked (cosine is undefined for them); a zero query vector returns no candidates.
 *
 * <p><b>Writes and atomicity.</b> Writers of one tenant are serialized by a lock (never by
 * synchronizing on the {@code IndexWriter}). A batch is validated first (a session turn's seq must be
 * new), then applied with a single {@code IndexWriter.updateDocuments} call, which Lucene indexes as
 * one block, followed by the in-place doc-values updates of memories whose only change is recalls
 * ({@code WriteBatch.addRecalls}); readers refresh and commits run only between batches (under the
 * same lock), so all of a batch becomes visible and durable together, or none of it. See
 * {@code BatchPlan}. In the translog mode (the default) recalls are not even applied to the index
 * when written: they are logged, kept in memory per memory ({@code TenantIndex.unfolded}, laid over
 * every read at once) and folded into the doc values by a background commit about every 30 seconds (and by
 * erasing, {@link #commit()}, {@link #close()} and every joint write), because Lucene rewrites a
 * segment's whole doc-values field at the refresh or commit after an in-place update: on a tenant of
 * 10,000 end users, reads that refreshed after each recall flush waited 150–465 ms. The log keeps the
 * generations whose recalls are not folded; on open their recalls are added to the committed doc
 * values.
 *
 * <p><b>Commit modes.</b> By default (the translog mode) every write is appended to the tenant's
 * write-ahead log ({@code translog-<generation>.tlog} beside the index files) and fsynced before it
 * returns: an acknowledged write survives {@code kill -9} and power loss, and is visible to every read
 * that starts afterwards. Writes do not refresh the searcher: the first read after a write does (so a
 * burst of writes without reads flushes no segment per write, and that read pays one refresh; it may
 * wait for the write group in progress, and for a background commit's flush, which shares
 * {@code IndexWriter}'s flush lock; it runs on a thread of its own, so an interrupted reader cannot fail the index). Concurrent writers of a tenant are
 * group-committed: the first to arrive applies every queued batch, appends all their entries and
 * fsyncs once; a batch that fails fails only its own caller. A background task commits each index
 * every second (the commit's user data records the log generation it holds, and older log files are
 * deleted); on open, the entries the last commit does not hold are replayed. Erasing, {@link #commit()}
 * and {@link #close()} commit too. {@link Builder#commitEveryWrite()} ({@code lucene:<dir>?commit=every})
 * instead commits Lucene on every write, without a log (tens of writes per second, kept for
 * comparison). In group-commit mode ({@link Builder#groupCommit(Duration)} or
 * {@code lucene:<dir>?commit=group&intervalMs=50}) a write is visible at once (to every read that
 * starts after it returns) but committed by a background task every interval, with no log: <em>a crash loses the writes
 * acknowledged in the last interval plus the duration of one commit</em> (about 50 ms plus an fsync
 * with the default interval); a clean {@link #close()} or {@link #commit()} loses nothing. In the
 * translog and group-commit modes small uncommitted segments are kept in RAM
 * ({@code NRTCachingDirectory}, at most 32 MB per tenant) until the next commit writes them out. Why
 * the log: a Lucene commit writes and fsyncs new segment files (three or four per write, each a
 * journal commit on ext4 and the like), so a commit per write bounds a single writer to tens of small
 * writes per second, while an append to one file costs one fsync shared by every concurrent writer.
 * Every mode fsyncs an index file only once (Lucene itself would re-sync every file of the index on
 * every commit).
 *
 * <p><b>Lifecycle.</b> A tenant's index is opened on its first write, or on a read when it exists on
 * disk; reads of a tenant that has no index return empty answers without creating one. The
 * {@code IndexWriter} holds the folder's {@code write.lock}: a second store (in this or another
 * process) opening the same tenant fails with a {@link MemoryStoreException} naming the folder.
 * {@link #close()} closes each tenant's SearcherManager, then IndexWriter (committing), then
 * Directory; it is safe to call twice, and every other method then throws
 * {@link IllegalStateException}. After an I/O failure a tenant's index refuses further use until the
 * store is reopened, which restarts from the last commit.
 *
 * <p>Thread-safe: any number of concurrent readers and writers.
 */
public final class LuceneMemoryStore implements MemoryStore {

    /** The group-commit interval used by {@code lucene:<dir>?commit=group} when none is given. */
    public static final Duration DEFAULT_GROUP_COMMIT_INTERVAL = Duration.ofMillis(50);
    /** The longest group-commit interval accepted. */
    public static final Duration MAX_GROUP_COMMIT_INTERVAL = Duration.ofMinutes(10);

    private static final Logger LOG = LoggerFactory.getLogger(LuceneMemoryStore.class);
    /** Translog mode: how often the background task commits the indexes (and so truncates their logs). */
    private static final Duration TRANSLOG_COMMIT_INTERVAL = Duration.ofSeconds(1);
    /** Translog mode: the longest time background commits leave recall statistics out of the doc values. */
    private static final Duration RECALL_FOLD_INTERVAL = Duration.ofSeconds(30);
    /** Translog mode: the least time folded recall statistics stay in memory (for reads on older searchers). */
    private static final Duration RECALL_RETIRE_DELAY = Duration.ofSeconds(1);
    /** Group commit: newly flushed or merged segments up to this size stay in RAM until committed. */
    private static final double NRT_CACHE_MAX_MERGE_MB = 4;
    /** Threads that fsync the new files of a commit concurrently (a commit has three or four). */
    private static final int FSYNC_THREADS = 4;
    /** Group commit: at most this much RAM per tenant for not-yet-committed segments. */
    private static final double NRT_CACHE_MAX_MB = 32;
    private static final Sort BY_TIME_THEN_ID = new Sort(new SortField(LuceneDocuments.TIME, SortField.Type.LONG),
            new SortField(LuceneDocuments.ID, SortField.Type.STRING));
    private static final Sort BY_SEQ = new Sort(new SortField(LuceneDocuments.SEQ, SortField.Type.LONG));
    private static final Sort BY_SEQ_DESCENDING = new Sort(new SortField(LuceneDocuments.SEQ, SortField.Type.LONG, true));
    private static final Sort BY_ORD = new Sort(new SortField(LuceneDocuments.ORD, SortField.Type.LONG));

    private final Path folder;
    private final Duration groupCommit;
    private final TenantIndex.CommitPolicy policy;
    private final TextAnalysis analysis = new TextAnalysis();
    private final ConcurrentMap<String, TenantIndex> tenants = new ConcurrentHashMap<>();
    /**
     * Memories as reads see them: the stored record, its recall doc values, and the recall statistics
     * its tenant index has acknowledged but not folded into the doc values yet.
     */
    private final Decoder<Memory> memoryDecoder = new Decoder<>() {
        @Override
        public Memory decode(StoredFields fields, int doc) throws IOException {
            return LuceneDocuments.MEMORY.decode(fields, doc);
        }

        @Override
        public Overlay<Memory> overlay(org.apache.lucene.index.LeafReader leaf) throws IOException {
            Overlay<Memory> docValues = LuceneDocuments.MEMORY.overlay(leaf);
            return (decoded, localDoc) -> {
                Memory m = docValues.current(decoded, localDoc);
                TenantIndex t = tenants.get(m.scope().tenantId());
                return t == null ? m : t.withUnfoldedRecalls(m);
            };
        }
    };
    private final ConcurrentMap<List<Object>, Lease> leases = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ScheduledExecutorService committer;
    /** Translog mode: see {@link Builder#recallFoldInterval}. */
    private final Duration recallFold;
    /** Translog mode: see {@link Builder#recallRetireDelay}. */
    private final Duration recallRetire;
    /** Runs the fsyncs of one commit in parallel (see SyncOnceDirectory); null for in-memory stores. */
    private final ExecutorService fsyncs;

    private LuceneMemoryStore(Path folder, Duration groupCommit, boolean commitEveryWrite, Duration translogCommit,
                              Duration recallFold, Duration recallRetire) {
        this.folder = folder;
        this.groupCommit = groupCommit;
        this.recallFold = recallFold;
        this.recallRetire = recallRetire;
        if (folder == null) {
            policy = TenantIndex.CommitPolicy.NEVER;
        } else if (groupCommit != null) {
            policy = TenantIndex.CommitPolicy.GROUP;
        } else {
            policy = commitEveryWrite ? TenantIndex.CommitPolicy.EVERY_WRITE : TenantIndex.CommitPolicy.TRANSLOG;
        }
        fsyncs = folder == null ? null : Executors.newFixedThreadPool(FSYNC_THREADS, daemon("reverie-lucene-fsync"));
        if (policy == TenantIndex.CommitPolicy.GROUP || policy == TenantIndex.CommitPolicy.TRANSLOG) {
            committer = Executors.newSingleThreadScheduledExecutor(daemon("reverie-lucene-group-commit"));
            long ms = (policy == TenantIndex.CommitPolicy.GROUP ? groupCommit : translogCommit).toMillis();
            committer.scheduleWithFixedDelay(this::commitTick, ms, ms, TimeUnit.MILLISECONDS);
        } else {
            committer = null;
        }
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** A durable store keeping one index directory per tenant under {@code folder} (created when missing). */
    public static LuceneMemoryStore open(Path folder) {
        return builder(folder).build();
    }

    /** A store whose tenant indexes live in memory and vanish on close. */
    public static LuceneMemoryStore inMemory() {
        return new LuceneMemoryStore(null, null, false, null, RECALL_FOLD_INTERVAL, RECALL_RETIRE_DELAY);
    }

    /** A builder for a store under {@code folder}; durable unless {@link Builder#groupCommit} is set. */
    public static Builder builder(Path folder) {
        return new Builder(Checks.notNull("folder", folder));
    }

    /**
     * Configures a folder-backed {@link LuceneMemoryStore}: durable (translog, the default; or a Lucene
     * commit per write) or group commit. Not thread-safe; the store it builds is.
     */
    public static final class Builder {
        private final Path folder;
        private Duration groupCommit;
        private boolean commitEveryWrite;
        private Duration translogCommit = TRANSLOG_COMMIT_INTERVAL;
        private Duration recallFold = RECALL_FOLD_INTERVAL;
        private Duration recallRetire = RECALL_RETIRE_DELAY;

        private Builder(Path folder) {
            this.folder = folder;
        }

        /**
         * Commits in the background every {@code interval} instead of on every write: much faster small
         * writes, at the price of losing the writes of the last interval on a crash (see the class comment).
         */
        public Builder groupCommit(Duration interval) {
            Checks.notNull("interval", interval);
            if (interval.toMillis() < 1) {
                throw new IllegalArgumentException("group commit interval must be at least 1 ms, was " + interval);
            }
            if (interval.compareTo(MAX_GROUP_COMMIT_INTERVAL) > 0) {
                throw new IllegalArgumentException("group commit interval must be at most "
                        + MAX_GROUP_COMMIT_INTERVAL + ", was " + interval);
            }
            this.groupCommit = interval;
            this.commitEveryWrite = false;
            return this;
        }

        /**
         * Makes every write durable before it returns through the tenant's translog, with Lucene commits
         * in the background (the default).
         */
        public Builder durable() {
            this.groupCommit = null;
            this.commitEveryWrite = false;
            return this;
        }

        /**
         * Makes every write durable before it returns with a Lucene commit of its own and no translog
         * (what the durable mode did before the translog: tens of writes per second; kept to compare).
         */
        public Builder commitEveryWrite() {
            this.groupCommit = null;
            this.commitEveryWrite = true;
            return this;
        }

        /** Translog mode: how often the background task commits (tests set it long to control commits). */
        Builder translogCommitInterval(Duration interval) {
            this.translogCommit = Checks.notNull("interval", interval);
            return this;
        }

        /**
         * Translog mode: how long background commits may leave recall statistics out of the doc values
         * (see {@code TenantIndex.unfolded}; tests set it long to control folds).
         */
        Builder recallFoldInterval(Duration interval) {
            this.recallFold = Checks.notNull("interval", interval);
            return this;
        }

        /** Translog mode: how long folded recall statistics stay in memory at least (tests set it to zero). */
        Builder recallRetireDelay(Duration delay) {
            this.recallRetire = Checks.notNull("delay", delay);
            return this;
        }

        /** Opens the store, creating the folder when missing. */
        public LuceneMemoryStore build() {
            try {
                Files.createDirectories(folder);
            } catch (IOException e) {
                throw new MemoryStoreException("could not create the store folder " + folder + ": " + e.getMessage(), e);
            }
            return new LuceneMemoryStore(folder, groupCommit, commitEveryWrite, translogCommit, recallFold, recallRetire);
        }
    }

    @Override
    public String describe() {
        if (folder == null) {
            return "lucene::memory:";
        }
        return "lucene:" + folder + switch (policy) {
            case GROUP -> "?commit=group&intervalMs=" + groupCommit.toMillis();
            case EVERY_WRITE -> "?commit=every";
            default -> "";
        };
    }

    /** The index directory that holds {@code tenantId}'s data (never shared with another tenant). */
    public Path tenantFolder(String tenantId) {
        if (folder == null) {
            throw new IllegalStateException("an in-memory store has no folders");
        }
        return folder.resolve(folderName(Checks.id("tenantId", tenantId)));
    }

    /** The folder name of a tenant's index (see {@link TenantNames}). */
    static String folderName(String tenantId) {
        return TenantNames.of(tenantId);
    }

    /**
     * Commits every open tenant index now. In group-commit mode this makes every acknowledged write
     * durable at once (closing the loss window); in durable mode everything already is.
     */
    public void commit() {
        ensureOpen();
        for (TenantIndex t : tenants.values()) {
            t.commit();
        }
    }

    /** How many times the searcher of the tenant's open index was refreshed (tests). */
    long refreshes(String tenantId) {
        TenantIndex t = tenants.get(tenantId);
        return t == null ? 0 : t.refreshes();
    }

    /** Changes how often the tenant's open index folds recall statistics and how long it keeps folded ones (tests). */
    void foldEvery(String tenantId, Duration fold, Duration retire) {
        TenantIndex t = tenants.get(tenantId);
        if (t != null) {
            t.foldEvery(fold, retire);
        }
    }

    /** How many memories of the tenant's open index have recall statistics not folded into it yet (tests). */
    int unfoldedRecalls(String tenantId) {
        TenantIndex t = tenants.get(tenantId);
        return t == null ? 0 : t.unfoldedRecalls();
    }

    /** One group-commit tick (what the background task runs; in the translog mode, a Lucene commit). */
    void commitTick() {
        for (TenantIndex t : tenants.values()) {
            try {
                t.commitInBackground();
            } catch (RuntimeException e) {
                // never let an exception cancel the periodic task
                LOG.error("group commit of {} failed", t.label(), e);
            }
        }
    }

    // ---------------------------------------------------------------- tenants

    private void ensureOpen() {
        if (closed.get()) {
            throw new StoreClosedException("store " + describe() + " is closed: open it again with MemoryStores.open");
        }
    }

    /** The tenant's index, opened (and created when missing) on first use. */
    private TenantIndex index(String tenantId) {
        ensureOpen();
        TenantIndex t = tenants.get(tenantId);
        if (t == null) {
            // opening writes (a commit, the translog's replay) through NIO channels, which an interrupted
            // thread would close: set the caller's interrupt aside meanwhile (see TenantIndex.restoreInterrupt)
            boolean interrupted = Thread.interrupted();
            try {
                t = tenants.computeIfAbsent(tenantId, this::openTenant);
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        if (closed.get()) {
            // close() may have run while this index was being opened: do not leak its writer
            t.close();
            ensureOpen();
        }
        return t;
    }

    /** The tenant's index if it is open or exists on disk; never creates one. */
    private Optional<TenantIndex> existingIndex(String tenantId) {
        ensureOpen();
        TenantIndex t = tenants.get(tenantId);
        if (t != null) {
            return Optional.of(t);
        }
        if (folder == null || !hasCommit(folder.resolve(folderName(tenantId)))) {
            return Optional.empty();
        }
        return Optional.of(index(tenantId));
    }

    private static boolean hasCommit(Path dir) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(p -> p.getFileName().toString().startsWith("segments_"));
        } catch (IOException e) {
            throw new MemoryStoreException("could not list Lucene index folder " + dir + ": " + e.getMessage(), e);
        }
    }

    private TenantIndex openTenant(String tenantId) {
        if (folder == null) {
            return TenantIndex.open("memory/" + tenantId, new ByteBuffersDirectory(), analysis.indexAnalyzer(), policy,
                    tenantId);
        }
        Path dir = folder.resolve(folderName(tenantId));
        Directory directory;
        try {
            Files.createDirectories(dir);
            directory = new SyncOnceDirectory(FSDirectory.open(dir), fsyncs);
            if (policy == TenantIndex.CommitPolicy.GROUP || policy == TenantIndex.CommitPolicy.TRANSLOG) {
                // a refresh (on the first read after writes) flushes a small segment: keep those in RAM
                // until the next commit syncs them, instead of creating (and later merging) real files
                directory = new NRTCachingDirectory(directory, NRT_CACHE_MAX_MERGE_MB, NRT_CACHE_MAX_MB);
            }
        } catch (IOException e) {
            throw new MemoryStoreException("could not open Lucene index folder " + dir + ": " + e.getMessage(), e);
        }
        TenantIndex index = TenantIndex.open(dir.toString(), directory, analysis.indexAnalyzer(), policy, tenantId,
                policy == TenantIndex.CommitPolicy.TRANSLOG ? dir : null);
        index.foldEvery(recallFold, recallRetire);
        try {
            if (policy == TenantIndex.CommitPolicy.TRANSLOG) {
                index.recover(new TenantIndex.TranslogReplay() {
                    @Override
                    public TenantIndex.LoggedWrite write(byte[] entry) throws IOException {
                        return logged(index, BatchCodec.decode(entry), null);
                    }

                    @Override
                    public void recalls(byte[] entry, TenantIndex.RecallDeltas deltas) throws IOException {
                        BatchPlan.recalls(BatchCodec.decode(entry), deltas);
                    }
                });
            }
            reindexOldArchive(index);
            reindexOldMemories(index);
        } catch (RuntimeException e) {
            index.close();
            throw e;
        }
        return index;
    }

    /**
     * Archived turns written before episodic recall have no search text or time fields: rewrite them
     * from their stored JSON once, at open, so they are searchable and subject to retention (the
     * Lucene counterpart of the SQLite archive-search migration).
     */
    private static void reindexOldArchive(TenantIndex index) {
        reindexLacking(index, Type.ARCHIVE, LuceneDocuments.ARCHIVE_AT, (fields, doc) -> {
            SessionTurn t = LuceneDocuments.sessionTurnOf(fields, doc);
            return Map.entry(LuceneDocuments.turnUid(Type.ARCHIVE, t.scope(), t.sessionId(), t.seq()),
                    LuceneDocuments.archivedTurn(t, null));
        });
    }

    /**
     * Memories written before the permanent flag was indexed lack it, and those written before the
     * recall doc values lack those: rewrite them from their stored JSON once, at open, so
     * {@link #pinnedMemories} finds them from the index and every memory's recalls are counted in its
     * doc values (recovery adds unfolded recalls to those: a memory without them, rewritten whole on
     * its first recall, would have that recall counted twice by a recovery).
     */
    private static void reindexOldMemories(TenantIndex index) {
        for (String field : List.of(LuceneDocuments.PERMANENT, LuceneDocuments.RECALLS)) {
            reindexLacking(index, Type.MEMORY, field, (fields, doc) -> {
                Memory m = LuceneDocuments.memory(fields, doc); // its JSON holds its recalls: no doc values yet
                return Map.entry(LuceneDocuments.uid(Type.MEMORY, m.scope(), m.id()), LuceneDocuments.memory(m));
            });
        }
    }

    /** Rewrites, in one committed write, the documents of {@code type} that lack {@code field}: uid and new document. */
    private static void reindexLacking(TenantIndex index, Type type, String field,
                                       Decoder<Map.Entry<String, org.apache.lucene.document.Document>> rewrite) {
        Query old = new BooleanQuery.Builder()
                .add(LuceneDocuments.term(LuceneDocuments.TYPE, type.term), BooleanClause.Occur.FILTER)
                .add(new org.apache.lucene.search.FieldExistsQuery(field), BooleanClause.Occur.MUST_NOT)
                .build();
        if (index.read(s -> s.count(old)) == 0) {
            return;
        }
        index.write((writer, view) -> {
            IndexSearcher current = view.searcher();
            StoredFields fields = current.storedFields();
            for (ScoreDoc hit : current.search(old, Integer.MAX_VALUE).scoreDocs) {
                Map.Entry<String, org.apache.lucene.document.Document> next = rewrite.decode(fields, hit.doc);
                writer.updateDocument(new org.apache.lucene.index.Term(LuceneDocuments.UID, next.getKey()),
                        next.getValue());
            }
        }, true);
    }

    private <T> T read(Scope scope, T empty, TenantIndex.Reading<T> work) {
        Checks.notNull("scope", scope);
        Optional<TenantIndex> t = existingIndex(scope.tenantId());
        return t.isEmpty() ? empty : t.get().read(work);
    }

    // ---------------------------------------------------------------- writes

    /**
     * Recall statistics update three doc values ({@link LuceneDocuments#RECALLS} and the time), deferred to
     * the next folding commit in the translog mode; no re-indexing.
     */
    @Override
    public boolean supportsRecallWrites() {
        return true;
    }

    @Override
    public boolean supportsStatusWrites() {
        return true;
    }

    @Override
    public void write(WriteBatch batch) {
        Checks.notNull("batch", batch);
        ensureOpen();
        if (batch.isEmpty()) {
            return;
        }
        TenantIndex t = index(batch.scope().tenantId());
        if (policy == TenantIndex.CommitPolicy.TRANSLOG) {
            // the JSON of the log entry is written here, outside the tenant's lock
            t.writeLogged(logged(t, batch, BatchCodec.encode(batch)));
            return;
        }
        t.write(logged(t, batch, null));
    }

    /** In the translog mode, one append and fsync per tenant for all of them. */
    @Override
    public void writeEach(List<WriteBatch> batches) {
        Checks.notNull("batches", batches);
        if (policy != TenantIndex.CommitPolicy.TRANSLOG) {
            MemoryStore.super.writeEach(batches);
            return;
        }
        ensureOpen();
        Map<String, List<WriteBatch>> byTenant = new java.util.LinkedHashMap<>();
        for (WriteBatch b : batches) {
            if (!Checks.notNull("batch", b).isEmpty()) {
                byTenant.computeIfAbsent(b.scope().tenantId(), k -> new ArrayList<>()).add(b);
            }
        }
        List<RuntimeException> failures = new ArrayList<>();
        byTenant.forEach((tenant, list) -> {
            TenantIndex t = index(tenant);
            List<TenantIndex.LoggedWrite> writes = new ArrayList<>(list.size());
            for (WriteBatch b : list) {
                writes.add(logged(t, b, BatchCodec.encode(b)));
            }
            failures.addAll(t.writeLogged(writes));
        });
        GroupCommit.throwFirst(failures);
    }

    /** The write of a batch; {@code encoded} gives its translog entry ({@code null}: never logged). */
    private TenantIndex.LoggedWrite logged(TenantIndex t, WriteBatch batch, BatchCodec.Encoded encoded) {
        BatchPlan plan = BatchPlan.of(batch);
        Scope scope = batch.scope();
        String prefix = LuceneDocuments.scopeKey(scope) + "\n";
        Set<String> sessions = new java.util.HashSet<>();
        for (WriteBatch.Op op : batch.ops()) {
            if (op instanceof WriteBatch.AppendTurn a) {
                sessions.add(prefix + a.turn().sessionId());
            } else if (op instanceof WriteBatch.ArchiveTurn a && a.atSessionEnd()) {
                sessions.add(prefix + a.turn().sessionId());
            }
        }
        Set<String> storedReads = plan.storedReads();
        return new TenantIndex.LoggedWrite() {
            @Override
            public Set<String> storedReads() {
                return storedReads;
            }

            @Override
            public Set<String> uidsWritten() {
                return plan.uidsWritten();
            }

            @Override
            public boolean changedIndex() {
                return plan.changedIndex();
            }

            @Override
            public void apply(org.apache.lucene.index.IndexWriter writer, TenantIndex.View current) throws IOException {
                plan.apply(writer, current, t::nextOrd, (view, sessionId) -> {
                    Long known = t.knownSessionEnd(prefix + sessionId);
                    if (known != null) {
                        return known;
                    }
                    // a new session (the usual miss) is told by the terms dictionary, without a search
                    if (!view.mayHaveUidPrefix(LuceneDocuments.turnUidPrefix(Type.TURN, scope, sessionId))) {
                        return 0;
                    }
                    List<SessionTurn> last = sorted(view.searcher(), ofSession(Type.TURN, scope, sessionId).build(),
                            BY_SEQ_DESCENDING, 0, 1, LuceneDocuments::sessionTurnOf);
                    return last.isEmpty() ? 0 : last.get(0).seq() + 1;
                });
                Map<String, Long> ends = new HashMap<>();
                plan.sessionEnds().forEach((sessionId, next) -> ends.put(prefix + sessionId, next));
                t.sessionEnds(ends);
            }

            @Override
            public Set<String> sessions() {
                return sessions;
            }

            @Override
            public byte[] entry() {
                return BatchCodec.entry(encoded);
            }
        };
    }

    /**
     * All the batches as one block of documents and one commit; {@code false} (nothing written) when a
     * batch appends or archives session turns.
     */
    @Override
    public boolean writeAll(List<WriteBatch> batches) {
        ensureOpen();
        String tenant = WriteBatch.tenantOf(batches);
        if (tenant == null) {
            return true;
        }
        BatchPlan plan = BatchPlan.ofAll(batches.stream().filter(b -> !b.isEmpty()).toList());
        if (plan == null) {
            return false;
        }
        TenantIndex t = index(tenant);
        // a joint write bypasses the translog, so in that (default, durable) mode it is made durable by
        // a Lucene commit of its own: one for the whole group of end users
        t.write((writer, current) -> plan.apply(writer, current, t::nextOrd, (searcher, sessionId) -> {
            throw new IllegalStateException("no session turn in a writeAll plan");
        }), policy == TenantIndex.CommitPolicy.TRANSLOG);
        return true;
    }

    /**
     * Deletes every document of the scope, then rewrites the segments that held them
     * ({@code forceMergeDeletes}, waiting for merges already running and repeating until no segment
     * has deletions), commits, refreshes the searchers and deletes unreferenced files, so when it
     * returns the erased text no longer exists in any index file (not even as deleted documents). This rewrites every segment with deleted documents, so on a
     * large tenant it costs about as much as rewriting the index; it is meant for rare operator
     * erasures, not routine deletes.
     */
    @Override
    public void erase(Scope scope) {
        Checks.notNull("scope", scope);
        Optional<TenantIndex> t = existingIndex(scope.tenantId());
        t.ifPresent(index -> index.eraseAndPurge(LuceneDocuments.term(LuceneDocuments.SCOPE,
                LuceneDocuments.scopeKey(scope)), LuceneDocuments.uid(Type.MEMORY, scope, "")));
        leases.keySet().removeIf(k -> k.get(0).equals(scope));
        dev.reverie.internal.DecodedRecords.forget(scope);
        DecodedDocs.clear(); // the hits decoded by segment and document: nothing of the user may linger
        SegmentTermStates.clear(); // remembered term lookups hold query words
    }

    // ---------------------------------------------------------------- leases

    /** A lease on one scope: who holds it and until when. */
    private record Lease(String holder, java.time.Instant until) {
    }

    /**
     * In memory: a Lucene folder belongs to one process (the {@code write.lock}), so only this store's
     * users can compete for a lease.
     */
    @Override
    public boolean tryLease(Scope scope, String name, String holder, java.time.Instant now, java.time.Instant until) {
        Checks.notNull("scope", scope);
        Checks.id("name", name);
        Checks.id("holder", holder);
        Checks.notNull("now", now);
        Checks.notNull("until", until);
        ensureOpen();
        Lease mine = new Lease(holder, until);
        Lease after = leases.compute(List.of(scope, name), (k, current) ->
                current == null || current.holder().equals(holder) || !current.until().isAfter(now) ? mine : current);
        return after == mine;
    }

    @Override
    public void releaseLease(Scope scope, String name, String holder) {
        Checks.notNull("scope", scope);
        Checks.id("name", name);
        Checks.id("holder", holder);
        ensureOpen();
        leases.computeIfPresent(List.of(scope, name), (k, current) -> current.holder().equals(holder) ? null : current);
    }

    // ---------------------------------------------------------------- single lookups

    @Override
    public Optional<Observation> observation(Scope scope, String id) {
        Checks.notNull("scope", scope);
        Checks.notNull("id", id);
        return read(scope, Optional.empty(), s -> first(s,
                LuceneDocuments.term(LuceneDocuments.UID, LuceneDocuments.uid(Type.OBSERVATION, scope, id)),
                LuceneDocuments::observation));
    }

    @Override
    public Optional<Memory> memory(Scope scope, String id) {
        Checks.notNull("scope", scope);
        Checks.notNull("id", id);
        return read(scope, Optional.empty(), s -> first(s,
                LuceneDocuments.term(LuceneDocuments.UID, LuceneDocuments.uid(Type.MEMORY, scope, id)),
                memoryDecoder));
    }

    @Override
    public Optional<SessionSummary> sessionSummary(Scope scope, String sessionId) {
        Checks.notNull("scope", scope);
        Checks.notNull("sessionId", sessionId);
        return read(scope, Optional.empty(), s -> first(s,
                LuceneDocuments.term(LuceneDocuments.UID, LuceneDocuments.uid(Type.SUMMARY, scope, sessionId)),
                (f, doc) -> LuceneDocuments.json(f, doc, SessionSummary.class)));
    }

    @Override
    public Optional<StyleProfile> styleProfile(Scope scope) {
        Checks.notNull("scope", scope);
        return read(scope, Optional.empty(), s -> first(s,
                LuceneDocuments.term(LuceneDocuments.UID, LuceneDocuments.styleUid(scope)),
                (f, doc) -> LuceneDocuments.json(f, doc, StyleProfile.class)));
    }

    // ---------------------------------------------------------------- listings

    @Override
    public List<Observation> observations(Scope scope, ObservationFilter f) {
        Checks.notNull("scope", scope);
        Checks.notNull("filter", f);
        BooleanQuery.Builder q = LuceneDocuments.ofScope(Type.OBSERVATION, scope);
        LuceneDocuments.anyOf(q, LuceneDocuments.STATUS, f.statuses(), ObservationStatus.class);
        LuceneDocuments.anyOf(q, LuceneDocuments.KIND, f.kinds(), MemoryKind.class);
        if (f.sessionId() != null) {
            q.add(LuceneDocuments.term(LuceneDocuments.SESSION, f.sessionId()), BooleanClause.Occur.FILTER);
        }
        Query query = q.build();
        return read(scope, List.of(), s -> sorted(s, query, BY_TIME_THEN_ID, f.offset(), f.limit(),
                LuceneDocuments::observation));
    }

    @Override
    public List<Memory> memories(Scope scope, MemoryFilter f) {
        Checks.notNull("scope", scope);
        Checks.notNull("filter", f);
        BooleanQuery.Builder q = LuceneDocuments.ofScope(Type.MEMORY, scope);
        LuceneDocuments.anyOf(q, LuceneDocuments.STATUS, f.statuses(), MemoryStatus.class);
        LuceneDocuments.anyOf(q, LuceneDocuments.KIND, f.kinds(), MemoryKind.class);
        if (f.createdFrom() != null || f.createdBefore() != null) {
            long from = f.createdFrom() == null ? Long.MIN_VALUE : LuceneDocuments.micros(f.createdFrom());
            long upper = Long.MAX_VALUE;
            if (f.createdBefore() != null) {
                long before = LuceneDocuments.micros(f.createdBefore());
                if (before == Long.MIN_VALUE) {
                    ensureOpen();
                    return List.of();
                }
                upper = before - 1; // createdBefore is exclusive
            }
            if (from > upper) {
                ensureOpen();
                return List.of();
            }
            q.add(LuceneDocuments.longRange(LuceneDocuments.TIME, from, upper), BooleanClause.Occur.FILTER);
        }
        Query query = q.build();
        String fragment = f.textContains() == null || f.textContains().isEmpty() ? null
                : f.textContains().toLowerCase(Locale.ROOT);
        if (fragment == null) {
            return read(scope, List.of(), s -> sorted(s, query, BY_TIME_THEN_ID, f.offset(), f.limit(),
                    memoryDecoder));
        }
        // a substring is not a term: filter the scope's sorted memories, then page
        return read(scope, List.of(), s -> {
            List<Memory> all = sorted(s, query, BY_TIME_THEN_ID, 0, Integer.MAX_VALUE, memoryDecoder);
            List<Memory> out = new ArrayList<>();
            int skipped = 0;
            for (Memory m : all) {
                if (!m.text().toLowerCase(Locale.ROOT).contains(fragment)) {
                    continue;
                }
                if (skipped < f.offset()) {
                    skipped++;
                } else if (out.size() < f.limit()) {
                    out.add(m);
                } else {
                    break;
                }
            }
            return out;
        });
    }

    /** From the index: the scope's ACTIVE memories flagged permanent, a handful, not all its memories. */
    @Override
    public List<Memory> pinnedMemories(Scope scope, int limit) {
        Checks.notNull("scope", scope);
        Checks.positive("limit", limit);
        ensureOpen();
        Query q = LuceneDocuments.ofScope(Type.MEMORY, scope)
                .add(LuceneDocuments.term(LuceneDocuments.STATUS, MemoryStatus.ACTIVE.name()), BooleanClause.Occur.FILTER)
                .add(org.apache.lucene.document.NumericDocValuesField.newSlowExactQuery(LuceneDocuments.PERMANENT, 1),
                        BooleanClause.Occur.FILTER)
                .build();
        // the order comes from importance, after decoding: the matches are gathered in doc-id order
        // (stored-fields blocks read once each), with no count query and no sort by time first
        List<Memory> found = read(scope, List.of(), s -> {
            List<ScoreDoc> docs = new ArrayList<>();
            forEachMatch(s, q, leaf -> doc -> docs.add(new ScoreDoc(leaf.docBase + doc, 0)));
            return decodeAll(s, docs, memoryDecoder);
        });
        return found.stream()
                .sorted(java.util.Comparator.comparingDouble(Memory::importance).reversed().thenComparing(Memory::id))
                .limit(limit)
                .toList();
    }

    @Override
    public long countMemories(Scope scope, Set<MemoryStatus> statuses) {
        Checks.notNull("scope", scope);
        Checks.notNull("statuses", statuses);
        if (statuses.isEmpty()) {
            ensureOpen();
            return 0;
        }
        BooleanQuery.Builder q = LuceneDocuments.ofScope(Type.MEMORY, scope);
        LuceneDocuments.anyOf(q, LuceneDocuments.STATUS, statuses, MemoryStatus.class);
        Query query = q.build();
        return read(scope, 0L, s -> (long) s.count(query));
    }

    // ---------------------------------------------------------------- lexical search

    @Override
    public List<Scored<Memory>> searchMemories(Scope scope, String text, Set<MemoryStatus> statuses,
                                               Set<MemoryKind> kinds, int limit) {
        Checks.notNull("scope", scope);
        Checks.notNull("statuses", statuses);
        Checks.notNull("kinds", kinds);
        Checks.positive("limit", limit);
        ensureOpen();
        if (statuses.isEmpty() || kinds.isEmpty()) {
            return List.of();
        }
        BooleanQuery.Builder filters = LuceneDocuments.ofScope(Type.MEMORY, scope);
        LuceneDocuments.anyOf(filters, LuceneDocuments.STATUS, statuses, MemoryStatus.class);
        LuceneDocuments.anyOf(filters, LuceneDocuments.KIND, kinds, MemoryKind.class);
        return lexical(scope, LuceneDocuments.MEMORY_TEXT, text, filters, limit, memoryDecoder);
    }

    @Override
    public List<Scored<Observation>> searchObservations(Scope scope, String text, Set<ObservationStatus> statuses,
                                                        int limit) {
        Checks.notNull("scope", scope);
        Checks.notNull("statuses", statuses);
        Checks.positive("limit", limit);
        ensureOpen();
        if (statuses.isEmpty()) {
            return List.of();
        }
        BooleanQuery.Builder filters = LuceneDocuments.ofScope(Type.OBSERVATION, scope);
        LuceneDocuments.anyOf(filters, LuceneDocuments.STATUS, statuses, ObservationStatus.class);
        // indexes written by older versions hold the text of STYLE observations too
        filters.add(LuceneDocuments.term(LuceneDocuments.KIND, MemoryKind.STYLE.name()), BooleanClause.Occur.MUST_NOT);
        return lexical(scope, LuceneDocuments.OBSERVATION_TEXT, text, filters, limit, LuceneDocuments::observation);
    }

    /** BM25 over {@code field}: any analyzed term of the text must match; the filters restrict, never score. */
    private <T> List<Scored<T>> lexical(Scope scope, String field, String text, BooleanQuery.Builder filters,
                                        int limit, Decoder<T> decoder) {
        List<String> terms;
        try {
            terms = analysis.queryTerms(text);
        } catch (AlreadyClosedException e) {
            ensureOpen();
            throw e;
        }
        if (terms.isEmpty()) {
            return List.of();
        }
        BooleanQuery filter = filters.build();
        return read(scope, List.of(), s -> {
            // each term's per-segment lookups come from SegmentTermStates where a segment met it before
            BooleanQuery.Builder anyTerm = new BooleanQuery.Builder();
            for (String term : terms) {
                anyTerm.add(SegmentTermStates.query(s, new org.apache.lucene.index.Term(field, term)),
                        BooleanClause.Occur.SHOULD);
            }
            BooleanQuery.Builder all = new BooleanQuery.Builder();
            filter.clauses().forEach(all::add);
            Query query = all.add(anyTerm.build(), BooleanClause.Occur.MUST).build();
            ScoreDoc[] hits = s.search(query, limit).scoreDocs;
            return scored(s, java.util.Arrays.asList(hits), decoder);
        });
    }

    // ---------------------------------------------------------------- vector search

    @Override
    public List<Scored<Memory>> searchMemoriesByVector(Scope scope, float[] vector, Set<MemoryStatus> statuses,
                                                       int limit) {
        Checks.notNull("statuses", statuses);
        BooleanQuery.Builder filter = LuceneDocuments.ofScope(Type.MEMORY, checkVectorSearch(scope, vector, limit));
        LuceneDocuments.anyOf(filter, LuceneDocuments.STATUS, statuses, MemoryStatus.class);
        return statuses.isEmpty() ? List.of()
                : nearest(scope, Type.MEMORY, vector, filter.build(), limit, memoryDecoder);
    }

    @Override
    public List<Scored<Observation>> searchObservationsByVector(Scope scope, float[] vector,
                                                                Set<ObservationStatus> statuses, int limit) {
        Checks.notNull("statuses", statuses);
        BooleanQuery.Builder filter = LuceneDocuments.ofScope(Type.OBSERVATION,
                checkVectorSearch(scope, vector, limit));
        LuceneDocuments.anyOf(filter, LuceneDocuments.STATUS, statuses, ObservationStatus.class);
        return statuses.isEmpty() ? List.of()
                : nearest(scope, Type.OBSERVATION, vector, filter.build(), limit, LuceneDocuments::observation);
    }

    private Scope checkVectorSearch(Scope scope, float[] vector, int limit) {
        Checks.notNull("scope", scope);
        Checks.notNull("vector", vector);
        Checks.positive("limit", limit);
        if (vector.length == 0) {
            throw new IllegalArgumentException("vector must have at least one dimension");
        }
        for (int i = 0; i < vector.length; i++) {
            if (!Float.isFinite(vector[i])) {
                throw new IllegalArgumentException("vector component " + i + " is not finite: " + vector[i]);
            }
        }
        ensureOpen();
        return scope;
    }

    private <T> List<Scored<T>> nearest(Scope scope, Type type, float[] vector, Query filter, int limit,
                                        Decoder<T> decoder) {
        int dim = vector.length;
        double norm = Vectors.norm(vector);
        return read(scope, List.of(), s -> {
            Query otherDimension = new BooleanQuery.Builder()
                    .add(filter, BooleanClause.Occur.FILTER)
                    .add(IntPoint.newRangeQuery(LuceneDocuments.VECTOR_DIMENSION, 1, Integer.MAX_VALUE),
                            BooleanClause.Occur.FILTER)
                    .add(IntPoint.newExactQuery(LuceneDocuments.VECTOR_DIMENSION, dim), BooleanClause.Occur.MUST_NOT)
                    .build();
            ScoreDoc[] mismatch = s.search(otherDimension, 1).scoreDocs;
            if (mismatch.length > 0) {
                float[] stored = LuceneDocuments.vector(s.storedFields(), mismatch[0].doc);
                throw new IllegalArgumentException("vector dimension " + dim + " does not match the dimension "
                        + (stored == null ? "?" : String.valueOf(stored.length)) + " of the embeddings stored for "
                        + type.plural + " of " + scope);
            }
            Query sameDimension = new BooleanQuery.Builder()
                    .add(filter, BooleanClause.Occur.FILTER)
                    .add(IntPoint.newExactQuery(LuceneDocuments.VECTOR_DIMENSION, dim), BooleanClause.Occur.FILTER)
                    .build();
            int candidates = s.count(sameDimension);
            if (candidates == 0 || norm == 0) {
                return List.of();
            }
            int k = Math.min(limit, candidates);
            List<ScoreDoc> hits = LuceneDocuments.knnIndexable(type, dim)
                    ? knn(s, LuceneDocuments.knnField(type, dim), vector, k, filter)
                    : exactNearest(s, sameDimension, vector, norm, k);
            return scored(s, hits, decoder);
        });
    }

    /** HNSW search pre-filtered by scope and status; Lucene's cosine score (1 + cos) / 2 mapped back to cos. */
    private static List<ScoreDoc> knn(IndexSearcher s, String field, float[] vector, int k, Query filter)
            throws IOException {
        ScoreDoc[] hits = s.search(new KnnFloatVectorQuery(field, vector, k, filter), k).scoreDocs;
        List<ScoreDoc> out = new ArrayList<>(hits.length);
        for (ScoreDoc hit : hits) {
            out.add(new ScoreDoc(hit.doc, Math.max(-1f, Math.min(1f, 2 * hit.score - 1))));
        }
        return out;
    }

    /** Exact cosine over the stored vectors of the filtered documents (dimensions the codec cannot index). */
    private static List<ScoreDoc> exactNearest(IndexSearcher s, Query q, float[] vector, double norm, int k)
            throws IOException {
        PriorityQueue<ScoreDoc> top = new PriorityQueue<>((a, b) -> Float.compare(a.score, b.score));
        forEachMatch(s, q, leaf -> {
            StoredFields fields = leaf.reader().storedFields();
            int base = leaf.docBase;
            return doc -> {
                float[] stored = LuceneDocuments.vector(fields, doc);
                if (stored != null && stored.length == vector.length) {
                    top.add(new ScoreDoc(base + doc, (float) Vectors.cosine(vector, stored, norm)));
                    if (top.size() > k) {
                        top.poll();
                    }
                }
            };
        });
        List<ScoreDoc> best = new ArrayList<>(top);
        best.sort((a, b) -> Float.compare(b.score, a.score));
        return best;
    }

    // ---------------------------------------------------------------- sessions

    @Override
    public List<SessionTurn> sessionTurns(Scope scope, String sessionId, long fromSeq, int limit) {
        Checks.notNull("scope", scope);
        Checks.notNull("sessionId", sessionId);
        Checks.positive("limit", limit);
        Query q = ofSession(Type.TURN, scope, sessionId)
                .add(LuceneDocuments.longRange(LuceneDocuments.SEQ, fromSeq, Long.MAX_VALUE), BooleanClause.Occur.FILTER)
                .build();
        return read(scope, List.of(), s -> sorted(s, q, BY_SEQ, 0, limit, LuceneDocuments::sessionTurnOf));
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
        Query q = ofSession(Type.TURN, scope, sessionId).build();
        List<SessionTurn> newestFirst = read(scope, List.of(),
                s -> sorted(s, q, BY_SEQ_DESCENDING, 0, count, LuceneDocuments::sessionTurnOf));
        List<SessionTurn> ascending = new ArrayList<>(newestFirst);
        Collections.reverse(ascending);
        return ascending;
    }

    @Override
    public long sessionLength(Scope scope, String sessionId) {
        Checks.notNull("scope", scope);
        Checks.notNull("sessionId", sessionId);
        Query q = ofSession(Type.TURN, scope, sessionId).build();
        return read(scope, 0L, s -> (long) s.count(q));
    }

    @Override
    public List<String> sessions(Scope scope) {
        Checks.notNull("scope", scope);
        Query q = LuceneDocuments.ofScope(Type.TURN, scope).build();
        return read(scope, List.of(), s -> {
            Map<String, Long> firstActivity = new HashMap<>();
            forEachMatch(s, q, leaf -> {
                SortedDocValues session = DocValues.getSorted(leaf.reader(), LuceneDocuments.TURN_SESSION);
                NumericDocValues at = DocValues.getNumeric(leaf.reader(), LuceneDocuments.AT);
                return doc -> {
                    if (session.advanceExact(doc) && at.advanceExact(doc)) {
                        firstActivity.merge(session.lookupOrd(session.ordValue()).utf8ToString(), at.longValue(),
                                Math::min);
                    }
                };
            });
            List<Map.Entry<String, Long>> entries = new ArrayList<>(firstActivity.entrySet());
            entries.sort(Map.Entry.<String, Long>comparingByValue().thenComparing(Map.Entry.comparingByKey()));
            List<String> out = new ArrayList<>(entries.size());
            entries.forEach(e -> out.add(e.getKey()));
            return out;
        });
    }

    @Override
    public List<SessionTurn> archivedTurns(Scope scope, String sessionId) {
        Checks.notNull("scope", scope);
        Checks.notNull("sessionId", sessionId);
        Query q = ofSession(Type.ARCHIVE, scope, sessionId).build();
        return read(scope, List.of(), s -> sorted(s, q, BY_SEQ, 0, Integer.MAX_VALUE, LuceneDocuments::sessionTurnOf));
    }

    @Override
    public List<SessionTurn> archivedTurns(Scope scope, String sessionId, long fromSeq, long toSeq) {
        Checks.notNull("scope", scope);
        Checks.notNull("sessionId", sessionId);
        if (toSeq < fromSeq) {
            ensureOpen();
            return List.of();
        }
        Query q = ofSession(Type.ARCHIVE, scope, sessionId)
                .add(LuceneDocuments.longRange(LuceneDocuments.SEQ, fromSeq, toSeq), BooleanClause.Occur.FILTER)
                .build();
        // seqs are unique within a session: the range bounds the matches
        int most = (int) Math.min(Integer.MAX_VALUE, toSeq - fromSeq + 1);
        return read(scope, List.of(), s -> sorted(s, q, BY_SEQ, 0, most, LuceneDocuments::sessionTurnOf));
    }

    /** Most ranges per query: each is a nested clause of three, and Lucene refuses over 1,024 clauses. */
    static final int RANGES_PER_QUERY = 256;

    @Override
    public List<SessionTurn> archivedTurns(Scope scope, List<dev.reverie.spi.TurnRange> ranges) {
        Checks.notNull("scope", scope);
        Checks.notNull("ranges", ranges);
        ensureOpen();
        if (ranges.isEmpty()) {
            return List.of();
        }
        if (ranges.size() > RANGES_PER_QUERY) {
            // one query per group of ranges; a turn in two groups' ranges is returned once
            Map<String, SessionTurn> found = new java.util.HashMap<>();
            for (int from = 0; from < ranges.size(); from += RANGES_PER_QUERY) {
                List<dev.reverie.spi.TurnRange> group = ranges.subList(from, Math.min(ranges.size(), from + RANGES_PER_QUERY));
                for (int i = 0; i < group.size(); i++) {
                    Checks.notNull("ranges[" + (from + i) + "]", group.get(i));
                }
                for (SessionTurn t : archivedTurns(scope, group)) {
                    found.putIfAbsent(t.sessionId() + "\u0000" + t.seq(), t);
                }
            }
            return found.values().stream()
                    .sorted(java.util.Comparator.comparing(SessionTurn::sessionId).thenComparingLong(SessionTurn::seq))
                    .toList();
        }
        BooleanQuery.Builder any = new BooleanQuery.Builder();
        long most = 0;
        for (int i = 0; i < ranges.size(); i++) {
            dev.reverie.spi.TurnRange r = Checks.notNull("ranges[" + i + "]", ranges.get(i));
            if (r.toSeq() < r.fromSeq()) {
                continue;
            }
            any.add(new BooleanQuery.Builder()
                    .add(LuceneDocuments.term(LuceneDocuments.SESSION, r.sessionId()), BooleanClause.Occur.FILTER)
                    .add(LuceneDocuments.longRange(LuceneDocuments.SEQ, r.fromSeq(), r.toSeq()),
                            BooleanClause.Occur.FILTER)
                    .build(), BooleanClause.Occur.SHOULD);
            most += r.toSeq() - r.fromSeq() + 1;
        }
        if (most == 0) {
            return List.of();
        }
        Query q = LuceneDocuments.ofScope(Type.ARCHIVE, scope).add(any.build(), BooleanClause.Occur.FILTER).build();
        int limit = (int) Math.min(Integer.MAX_VALUE, most);
        List<SessionTurn> found = read(scope, List.of(), s -> sorted(s, q, BY_SEQ, 0, limit,
                LuceneDocuments::sessionTurnOf));
        return found.stream()
                .sorted(java.util.Comparator.comparing(SessionTurn::sessionId).thenComparingLong(SessionTurn::seq))
                .toList();
    }

    @Override
    public boolean hasArchivedTurnsBefore(Scope scope, java.time.Instant before) {
        Checks.notNull("scope", scope);
        Checks.notNull("before", before);
        Query q = LuceneDocuments.ofScope(Type.ARCHIVE, scope)
                .add(LuceneDocuments.longRange(LuceneDocuments.ARCHIVE_AT, Long.MIN_VALUE,
                        LuceneDocuments.before(before)), BooleanClause.Occur.FILTER)
                .build();
        return read(scope, 0, s -> s.count(q)) > 0;
    }

    @Override
    public List<Scored<SessionTurn>> searchTurns(Scope scope, String text, int limit) {
        Checks.notNull("scope", scope);
        Checks.positive("limit", limit);
        ensureOpen();
        return lexical(scope, LuceneDocuments.ARCHIVE_TEXT, text, LuceneDocuments.ofScope(Type.ARCHIVE, scope), limit,
                LuceneDocuments::sessionTurnOf);
    }

    @Override
    public List<Scored<SessionTurn>> searchTurnsByVector(Scope scope, float[] vector, int limit) {
        BooleanQuery.Builder filter = LuceneDocuments.ofScope(Type.ARCHIVE, checkVectorSearch(scope, vector, limit));
        return nearest(scope, Type.ARCHIVE, vector, filter.build(), limit, LuceneDocuments::sessionTurnOf);
    }

    @Override
    public List<MemoryEvent> history(Scope scope, String memoryId) {
        Checks.notNull("scope", scope);
        Checks.notNull("memoryId", memoryId);
        Query q = LuceneDocuments.ofScope(Type.HISTORY, scope)
                .add(LuceneDocuments.term(LuceneDocuments.MEMORY_ID, memoryId), BooleanClause.Occur.FILTER)
                .build();
        return read(scope, List.of(), s -> sorted(s, q, BY_ORD, 0, Integer.MAX_VALUE,
                (f, doc) -> LuceneDocuments.json(f, doc, MemoryEvent.class)));
    }

    @Override
    public List<MemoryEvent> history(Scope scope) {
        Checks.notNull("scope", scope);
        Query q = LuceneDocuments.ofScope(Type.HISTORY, scope).build();
        return read(scope, List.of(), s -> sorted(s, q, BY_ORD, 0, Integer.MAX_VALUE,
                (f, doc) -> LuceneDocuments.json(f, doc, MemoryEvent.class)));
    }

    private static BooleanQuery.Builder ofSession(Type type, Scope scope, String sessionId) {
        return LuceneDocuments.ofScope(type, scope)
                .add(LuceneDocuments.term(LuceneDocuments.SESSION, sessionId), BooleanClause.Occur.FILTER);
    }

    // ---------------------------------------------------------------- end users

    /**
     * Walks the {@code scope} terms ({@code agent/user}) that start with the agent, keeping those with
     * a live document, so deleted data that is still in a segment never resurrects an erased user.
     */
    @Override
    public List<Scope> endUsers(String tenantId, String agentId) {
        Checks.id("tenantId", tenantId);
        Checks.id("agentId", agentId);
        Optional<TenantIndex> t = existingIndex(tenantId);
        if (t.isEmpty()) {
            return List.of();
        }
        String prefix = agentId + "/";
        BytesRef prefixBytes = new BytesRef(prefix);
        Set<String> users = t.get().read(s -> {
            Set<String> found = new TreeSet<>();
            for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
                Terms terms = leaf.reader().terms(LuceneDocuments.SCOPE);
                if (terms == null) {
                    continue;
                }
                Bits live = leaf.reader().getLiveDocs();
                TermsEnum te = terms.iterator();
                if (te.seekCeil(prefixBytes) == TermsEnum.SeekStatus.END) {
                    continue;
                }
                PostingsEnum postings = null;
                do {
                    BytesRef term = te.term();
                    if (!StringHelper.startsWith(term, prefixBytes)) {
                        break;
                    }
                    postings = te.postings(postings, PostingsEnum.NONE);
                    if (hasLiveDoc(postings, live)) {
                        found.add(term.utf8ToString().substring(prefix.length()));
                    }
                } while (te.next() != null);
            }
            return found;
        });
        List<Scope> out = new ArrayList<>(users.size());
        for (String u : users) {
            out.add(Scope.of(tenantId, agentId, u));
        }
        return out;
    }

    private static boolean hasLiveDoc(PostingsEnum postings, Bits live) throws IOException {
        for (int doc = postings.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = postings.nextDoc()) {
            if (live == null || live.get(doc)) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- close

    /**
     * Stops the group-commit task, then closes every tenant index (SearcherManager, then IndexWriter,
     * which commits what is pending, then Directory). Safe to call twice.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        DecodedDocs.clear(); // a closed store's records are not kept in memory
        if (committer != null) {
            committer.shutdown();
            try {
                if (!committer.awaitTermination(1, TimeUnit.MINUTES)) {
                    LOG.warn("the group commit of {} did not finish within a minute; closing anyway", describe());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        RuntimeException failure = null;
        for (TenantIndex t : tenants.values()) {
            try {
                t.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        tenants.clear();
        if (fsyncs != null) {
            fsyncs.shutdown();
        }
        analysis.close();
        if (failure != null) {
            throw failure;
        }
    }

    // ---------------------------------------------------------------- helpers

    /** Stored document to record. */
    interface Decoder<T> {
        /** The record as the segment stores it (never changes while the segment lives: may be cached). */
        T decode(StoredFields fields, int doc) throws IOException;

        /**
         * What a segment holds of this record type beyond what {@link #decode} reads (doc values
         * updated in place: a memory's recall statistics), to lay over the decoded records of that
         * segment's documents. One per segment and read: it reuses its doc-values iterators, so it
         * must be asked about documents in increasing order.
         */
        default Overlay<T> overlay(org.apache.lucene.index.LeafReader leaf) throws IOException {
            return Overlay.none();
        }
    }

    /** The in-place updates of one segment, laid over its decoded records (see {@link Decoder#overlay}). */
    interface Overlay<T> {
        /**
         * The record as it reads now, given what {@link Decoder#decode} made of segment-local document
         * {@code localDoc}; documents in increasing order.
         */
        T current(T decoded, int localDoc) throws IOException;

        /** The overlay of a record type nothing updates in place. */
        @SuppressWarnings("unchecked")
        static <T> Overlay<T> none() {
            return (Overlay<T>) NONE;
        }

        Overlay<Object> NONE = (decoded, localDoc) -> decoded;
    }

    /** Called once per segment; returns what to do with each matching (live) document of it. */
    private interface LeafVisitor {
        DocVisitor leaf(LeafReaderContext leaf) throws IOException;
    }

    private interface DocVisitor {
        void visit(int doc) throws IOException;
    }

    /**
     * Visits every live document matching {@code q}, segment by segment, in doc-id order. The
     * searchers have no executor, so segments are visited one after another on this thread.
     */
    private static void forEachMatch(IndexSearcher s, Query q, LeafVisitor visitor) throws IOException {
        s.search(q, new CollectorManager<Collector, Void>() {
            @Override
            public Collector newCollector() {
                return new SimpleCollector() {
                    private DocVisitor docs;

                    @Override
                    protected void doSetNextReader(LeafReaderContext context) throws IOException {
                        docs = visitor.leaf(context);
                    }

                    @Override
                    public void collect(int doc) throws IOException {
                        docs.visit(doc);
                    }

                    @Override
                    public ScoreMode scoreMode() {
                        return ScoreMode.COMPLETE_NO_SCORES;
                    }
                };
            }

            @Override
            public Void reduce(Collection<Collector> collectors) {
                return null;
            }
        });
    }

    /** Document {@code doc} (top-level id) of {@code s} as it reads now, not cached. */
    static <T> T decodeOne(IndexSearcher s, StoredFields fields, int doc, Decoder<T> decoder) throws IOException {
        List<LeafReaderContext> leaves = s.getIndexReader().leaves();
        LeafReaderContext leaf = leaves.get(org.apache.lucene.index.ReaderUtil.subIndex(doc, leaves));
        return decoder.overlay(leaf.reader()).current(decoder.decode(fields, doc), doc - leaf.docBase);
    }

    private static <T> Optional<T> first(IndexSearcher s, Query q, Decoder<T> decoder) throws IOException {
        ScoreDoc[] hits = s.search(q, 1).scoreDocs;
        return hits.length == 0 ? Optional.empty() : Optional.of(decodeOne(s, s.storedFields(), hits[0].doc, decoder));
    }

    /** Pages up to this size are collected directly; larger ones count the matches first to size the queue. */
    private static final int SMALL_PAGE = 1024;

    /** The matches in sort order, skipping {@code offset}, at most {@code limit}. */
    private static <T> List<T> sorted(IndexSearcher s, Query q, Sort sort, int offset, int limit, Decoder<T> decoder)
            throws IOException {
        long wanted = (long) offset + limit;
        ScoreDoc[] hits;
        if (wanted <= SMALL_PAGE) {
            hits = s.search(q, (int) wanted, sort).scoreDocs; // a small page: no count to size the queue
        } else {
            // most listings (a session's turns, an empty new session) hold fewer matches than a small
            // page: that page is then all of them, and only a full one needs the count
            hits = s.search(q, SMALL_PAGE, sort).scoreDocs;
            if (hits.length == SMALL_PAGE) {
                int total = s.count(q);
                if (total == 0 || offset >= total) {
                    return List.of();
                }
                hits = s.search(q, (int) Math.min(wanted, total), sort).scoreDocs;
            }
        }
        if (offset >= hits.length) {
            return List.of();
        }
        return decodeAll(s, java.util.Arrays.asList(hits).subList(offset, hits.length), decoder);
    }

    /** The hits decoded, with their scores, in the hits' order. */
    private static <T> List<Scored<T>> scored(IndexSearcher s, List<ScoreDoc> hits, Decoder<T> decoder)
            throws IOException {
        List<T> items = decodeAll(s, hits, decoder);
        List<Scored<T>> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            out.add(new Scored<>(items.get(i), hits.get(i).score));
        }
        return out;
    }

    /**
     * The hits' documents decoded in the hits' order, read in doc-id order: a stored-fields block is
     * decompressed once for all its hits instead of once per hit (an end user's documents sit in a
     * few neighbouring blocks, but a ranking visits them in score order).
     */
    private static <T> List<T> decodeAll(IndexSearcher s, List<ScoreDoc> hits, Decoder<T> decoder) throws IOException {
        int n = hits.size();
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, java.util.Comparator.comparingInt(i -> hits.get(i).doc));
        StoredFields fields = s.storedFields();
        @SuppressWarnings("unchecked")
        T[] items = (T[]) new Object[n];
        List<LeafReaderContext> leaves = s.getIndexReader().leaves();
        LeafReaderContext leaf = null;
        int leafEnd = -1;
        Overlay<T> overlay = null;
        // in doc-id order, so each segment's overlay walks its doc values forward once
        for (int i : order) {
            int doc = hits.get(i).doc;
            if (doc >= leafEnd) {
                leaf = leaves.get(org.apache.lucene.index.ReaderUtil.subIndex(doc, leaves));
                leafEnd = leaf.docBase + leaf.reader().maxDoc();
                overlay = decoder.overlay(leaf.reader());
            }
            items[i] = overlay.current(DecodedDocs.decoded(leaf, doc, decoder, fields), doc - leaf.docBase);
        }
        return java.util.Arrays.asList(items);
    }

}
