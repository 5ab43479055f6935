package dev.reverie.store.lucene;

import dev.reverie.MemoryStoreException;
import dev.reverie.StoreClosedException;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.PointValues;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.LockObtainFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One tenant's index directory: its single {@link IndexWriter}, a {@link SearcherManager} for
 * near-real-time reads, and the lock that serializes writers.
 *
 * <p>Reads acquire a searcher and release it in {@code finally}; they never block on writers. A
 * write runs under {@link #writeLock} (never by synchronizing on the writer, whose own monitors
 * Lucene uses internally), then, per the commit policy, commits and always refreshes before the lock
 * is released, so a write is visible to every read that starts after it returns, and the searcher a
 * writer sees under the lock is always current (which makes validate-then-apply sound).
 *
 * <p>After an I/O failure the index stops accepting reads and writes ({@link #failure}); reopening
 * the store restarts from the last commit. In the durable policy a failed commit rolls the writer
 * back, so the batch that could not be made durable is never seen by anyone.
 *
 * <p>Thread-safe.
 */
final class TenantIndex implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TenantIndex.class);

    /** When writes are committed. */
    enum CommitPolicy {
        /** {@code commit()} before every write returns: acknowledged writes survive kill -9 and power loss. */
        EVERY_WRITE,
        /** A background task commits every interval; see {@link LuceneMemoryStore} for the loss window. */
        GROUP,
        /** In-memory indexes: nothing to make durable. */
        NEVER
    }

    /** Work against a searcher. */
    interface Reading<T> {
        T read(IndexSearcher searcher) throws IOException;
    }

    /** Work against the writer, given a searcher that sees every write applied so far. */
    interface Writing {
        void apply(IndexWriter writer, IndexSearcher current) throws IOException;
    }

    private final String label;
    private final Directory directory;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    private final CommitPolicy policy;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final AtomicLong nextOrd;
    private volatile Throwable failure;
    private volatile boolean closed;

    private TenantIndex(String label, Directory directory, IndexWriter writer, SearcherManager searchers,
                        CommitPolicy policy, long firstOrd) {
        this.label = label;
        this.directory = directory;
        this.writer = writer;
        this.searchers = searchers;
        this.policy = policy;
        this.nextOrd = new AtomicLong(firstOrd);
    }

    /** The commit user-data key of the tenant id an index belongs to. */
    static final String TENANT_KEY = "reverie.tenant";

    /**
     * Opens (or creates) the index of {@code tenantId} in {@code directory}, taking over the directory:
     * it is closed with the index, or right away when opening fails. A new index (or one made before
     * the tenant id was recorded) gets the tenant id in its commit user data; an index recording
     * another tenant's id is refused, so a folder copied or renamed under another tenant's name never
     * serves that tenant.
     */
    static TenantIndex open(String label, Directory directory, Analyzer analyzer, CommitPolicy policy,
                            String tenantId) {
        IndexWriter writer = null;
        SearcherManager searchers = null;
        try {
            TieredMergePolicy merges = new TieredMergePolicy();
            // erase() must remove erased text from the files: forceMergeDeletes rewrites every segment with deletes
            merges.setForceMergeDeletesPctAllowed(0.0);
            IndexWriterConfig config = new IndexWriterConfig(analyzer)
                    .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
                    .setMergePolicy(merges)
                    .setCommitOnClose(true);
            writer = new IndexWriter(directory, config);
            claim(writer, label, tenantId);
            searchers = new SearcherManager(writer, true, false, null);
            return new TenantIndex(label, directory, writer, searchers, policy, firstOrd(searchers));
        } catch (LockObtainFailedException e) {
            closeQuietly(directory);
            throw new MemoryStoreException("Lucene index folder " + label + " is locked by another IndexWriter"
                    + " (another process, or another store instance in this JVM, has it open); a Lucene folder"
                    + " belongs to one process at a time: close that store first, use another folder, or share a"
                    + " SQLite folder (or PostgreSQL) between application instances", e);
        } catch (IOException | RuntimeException e) {
            closeQuietly(searchers);
            if (writer != null && writer.isOpen()) {
                try {
                    writer.rollback();
                } catch (IOException | RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            closeQuietly(directory);
            if (e instanceof MemoryStoreException refused) {
                throw refused;
            }
            throw new MemoryStoreException("could not open Lucene index " + label + ": " + e.getMessage(), e);
        }
    }

    /** Checks the tenant id in the last commit's user data, or records it (and commits) when there is none. */
    private static void claim(IndexWriter writer, String label, String tenantId) throws IOException {
        Map<String, String> data = new HashMap<>();
        Iterable<Map.Entry<String, String>> live = writer.getLiveCommitData();
        if (live != null) {
            live.forEach(e -> data.put(e.getKey(), e.getValue()));
        }
        String stored = data.get(TENANT_KEY);
        if (stored == null) {
            data.put(TENANT_KEY, tenantId);
            writer.setLiveCommitData(Map.copyOf(data).entrySet());
            writer.commit();
        } else if (!stored.equals(tenantId)) {
            throw new MemoryStoreException("Lucene index " + label + " belongs to tenant '" + stored
                    + "', not to tenant '" + tenantId + "' whose folder name it has (was it copied or renamed?);"
                    + " refusing to open it (the index was left untouched)");
        }
    }

    /** One past the largest history order ever written (points of deleted documents count too: gaps are fine). */
    private static long firstOrd(SearcherManager searchers) throws IOException {
        IndexSearcher s = searchers.acquire();
        try {
            byte[] max = PointValues.getMaxPackedValue(s.getIndexReader(), LuceneDocuments.ORD);
            return max == null ? 0 : LongPoint.decodeDimension(max, 0) + 1;
        } finally {
            searchers.release(s);
        }
    }

    String label() {
        return label;
    }

    /** The next history order number; call it only inside {@link #write}. */
    long nextOrd() {
        return nextOrd.getAndIncrement();
    }

    // ---------------------------------------------------------------- reads

    <T> T read(Reading<T> work) {
        checkUsable();
        IndexSearcher searcher = acquire();
        try {
            return work.read(searcher);
        } catch (IOException e) {
            throw new MemoryStoreException("Lucene read failed on " + label + ": " + e.getMessage(), e);
        } catch (AlreadyClosedException e) {
            throw closedOrFailed(e);
        } finally {
            release(searcher);
        }
    }

    // ---------------------------------------------------------------- writes

    /**
     * Runs {@code work} under the write lock, then commits (per the policy, or always when
     * {@code forceCommit}) and refreshes so that the next read sees it.
     */
    void write(Writing work, boolean forceCommit) {
        writeLock.lock();
        try {
            checkUsable();
            IndexSearcher current = acquire();
            try {
                work.apply(writer, current);
            } catch (IOException e) {
                failIfWriterBroke(e);
                throw new MemoryStoreException("Lucene write failed on " + label + ": " + e.getMessage(), e);
            } catch (AlreadyClosedException e) {
                failIfWriterBroke(e);
                throw closedOrFailed(e);
            } catch (RuntimeException e) {
                failIfWriterBroke(e);
                throw e;
            } finally {
                release(current);
            }
            if (forceCommit || policy == CommitPolicy.EVERY_WRITE) {
                commitOrRollBack();
            }
            refresh();
        } finally {
            writeLock.unlock();
        }
    }

    /** Commits now (under the write lock, so never half a write). */
    void commit() {
        writeLock.lock();
        try {
            checkUsable();
            commitOrRollBack();
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * The group-commit tick: commits what was written since the last commit, without taking the write
     * lock (IndexWriter commits concurrently with indexing, and a batch is one atomic block, so a commit
     * never splits it). A failure is logged and fails the index, so later writes report it.
     */
    void commitInBackground() {
        if (closed || failure != null) {
            return;
        }
        try {
            if (writer.hasUncommittedChanges()) {
                writer.commit();
            }
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                failure = e;
                LOG.error("group commit of Lucene index {} failed; writes since the last commit may be lost and the"
                        + " index accepts no more writes until the store is reopened", label, e);
            }
        }
    }

    private void commitOrRollBack() {
        try {
            writer.commit();
        } catch (IOException | RuntimeException e) {
            failure = e;
            String what = policy == CommitPolicy.EVERY_WRITE
                    ? "the write was discarded and the index rolled back to its last commit"
                    : "writes since the last commit may be lost";
            if (policy == CommitPolicy.EVERY_WRITE && writer.isOpen()) {
                try {
                    writer.rollback();
                } catch (IOException | RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw new MemoryStoreException("could not commit Lucene index " + label + " (" + e.getMessage() + "); "
                    + what + "; the index accepts no more reads or writes: reopen the store", e);
        }
    }

    private void refresh() {
        try {
            searchers.maybeRefreshBlocking();
        } catch (IOException | RuntimeException e) {
            failure = e;
            throw new MemoryStoreException("could not refresh Lucene index " + label + " after a write ("
                    + e.getMessage() + "); the index accepts no more reads or writes: reopen the store", e);
        }
    }

    private void failIfWriterBroke(Throwable e) {
        if (!writer.isOpen() || writer.getTragicException() != null) {
            failure = writer.getTragicException() != null ? writer.getTragicException() : e;
        }
    }

    // ---------------------------------------------------------------- lifecycle

    private void checkUsable() {
        if (closed) {
            throw new StoreClosedException("Lucene index " + label + " is closed: open the store again");
        }
        Throwable f = failure;
        if (f != null) {
            throw new MemoryStoreException("Lucene index " + label + " failed earlier (" + f
                    + ") and accepts no more reads or writes: reopen the store, which restarts from the last commit", f);
        }
    }

    private IndexSearcher acquire() {
        try {
            return searchers.acquire();
        } catch (AlreadyClosedException e) {
            throw closedOrFailed(e);
        } catch (IOException e) {
            throw new MemoryStoreException("could not open a searcher on Lucene index " + label + ": " + e.getMessage(), e);
        }
    }

    private void release(IndexSearcher searcher) {
        try {
            searchers.release(searcher);
        } catch (IOException e) {
            throw new MemoryStoreException("could not release a searcher of Lucene index " + label + ": "
                    + e.getMessage(), e);
        }
    }

    private RuntimeException closedOrFailed(AlreadyClosedException e) {
        if (closed) {
            return new StoreClosedException("Lucene index " + label + " is closed: open the store again", e);
        }
        return new MemoryStoreException("Lucene index " + label + " was closed after a failure: reopen the store", e);
    }

    /** Closes the searcher manager, then the writer (committing pending writes), then the directory. Safe twice. */
    @Override
    public void close() {
        writeLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            Throwable first = null;
            try {
                searchers.close();
            } catch (IOException | RuntimeException e) {
                first = e;
            }
            if (writer.isOpen()) {
                try {
                    writer.close();
                } catch (IOException | RuntimeException e) {
                    first = first == null ? e : first;
                    try {
                        writer.rollback();
                    } catch (IOException | RuntimeException suppressed) {
                        e.addSuppressed(suppressed);
                    }
                }
            }
            try {
                directory.close();
            } catch (IOException | RuntimeException e) {
                first = first == null ? e : first;
            }
            if (first != null) {
                throw new MemoryStoreException("could not close Lucene index " + label + ": " + first.getMessage(), first);
            }
        } finally {
            writeLock.unlock();
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception ignored) {
            // already failing: the original exception is what the caller needs
        }
    }

    /**
     * Deletes every document matching {@code query}, rewrites every segment with deleted documents,
     * commits, refreshes (so no searcher still holds the old segments) and deletes the files no commit
     * or reader references: when this returns, no index file holds the deleted documents' bytes.
     */
    void eraseAndPurge(Query query) {
        write((w, current) -> {
            w.deleteDocuments(query);
            purgeDeletes(w);
        }, true);
        writeLock.lock();
        try {
            checkUsable();
            writer.deleteUnusedFiles();
        } catch (IOException e) {
            throw new MemoryStoreException("could not delete the erased files of Lucene index " + label + ": "
                    + e.getMessage(), e);
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Merges away every deleted document. A background merge that started before the delete copies the
     * deleted documents into its output (marked deleted), so wait for running merges and repeat until
     * no segment has deletions.
     */
    private static void purgeDeletes(IndexWriter w) throws IOException {
        for (int round = 0; round < MAX_PURGE_ROUNDS; round++) {
            w.forceMergeDeletes(true);
            if (w.getConfig().getMergeScheduler() instanceof ConcurrentMergeScheduler merges) {
                merges.sync();
            }
            if (!w.hasDeletions()) {
                return;
            }
        }
        throw new IOException("deleted documents were still in the index after " + MAX_PURGE_ROUNDS
                + " merge rounds");
    }

    private static final int MAX_PURGE_ROUNDS = 10;
}
