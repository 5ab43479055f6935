package dev.reverie.store.lucene;

import dev.reverie.MemoryStoreException;
import dev.reverie.StoreClosedException;
import dev.reverie.internal.GroupCommit;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.DirectoryReader;
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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * the store restarts from the last commit (and, in the {@link CommitPolicy#TRANSLOG} policy, replays
 * the translog). In the commit-per-write policy a failed commit rolls the writer back, so the batch
 * that could not be made durable is never seen by anyone.
 *
 * <p>In the {@link CommitPolicy#TRANSLOG} policy, writes go through {@link #writeLogged}: concurrent
 * writers are grouped (one leader applies every queued write, appends their entries to the
 * {@link Translog} and fsyncs once, then refreshes), so a durable write costs a share of one append;
 * Lucene commits happen in the background ({@link #commitInBackground}), on erase and on close.
 *
 * <p>Thread-safe.
 */
final class TenantIndex implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TenantIndex.class);

    /** When writes are committed. */
    enum CommitPolicy {
        /**
         * Every write appended to the tenant's {@link Translog} and fsynced before it returns (group
         * commit), Lucene commits in the background and on close: acknowledged writes survive kill -9
         * and power loss. The default for folders.
         */
        TRANSLOG,
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

    /** A write in the {@link CommitPolicy#TRANSLOG} policy: applied, then logged by the group's leader. */
    interface LoggedWrite extends Writing {
        /**
         * Keys of the sessions it appends turns to: a later write of the same group that appends to one
         * of them is validated against a reader that sees this one.
         */
        Set<String> sessions();

        /** Its translog entry; called once it was applied. */
        byte[] entry();

        /**
         * Whether applying it reads stored records it changes (status-only changes re-index the
         * stored record): then it is validated against a reader that sees every earlier write of
         * its group.
         */
        default boolean readsStored() {
            return false;
        }
    }

    /** The commit user-data key of the translog generation whose entries a commit does not hold yet. */
    static final String TRANSLOG_KEY = "reverie.translog.generation";
    /** The most writes one translog append (and fsync) takes. */
    private static final int MAX_GROUP = 256;
    /** Sessions whose next seq is remembered. */
    private static final int MAX_SESSION_ENDS = 16_384;

    private final String label;
    private final Directory directory;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    private final CommitPolicy policy;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final AtomicLong nextOrd;
    /** The folder of the translog, or {@code null} unless the policy is {@link CommitPolicy#TRANSLOG}. */
    private final Path translogFolder;
    /** Open once {@link #recover} ran (TRANSLOG policy only); used under the write lock. */
    private Translog translog;
    private final GroupCommit<LoggedWrite> group = new GroupCommit<>(MAX_GROUP, this::commitGroup);
    /**
     * Session key → its next free seq, for the sessions most recently written (bounded, least recently
     * used dropped): a write appending at a session's end then needs no search for the last turn.
     * Exact because this process is the folder's only writer and turns are only ever appended (or
     * erased, which clears it). Used under the write lock.
     */
    private final Map<String, Long> sessionEnds = new java.util.LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > MAX_SESSION_ENDS;
        }
    };
    private volatile Throwable failure;
    private volatile boolean closed;

    private TenantIndex(String label, Directory directory, IndexWriter writer, SearcherManager searchers,
                        CommitPolicy policy, long firstOrd, Path translogFolder) {
        this.translogFolder = translogFolder;
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
        return open(label, directory, analyzer, policy, tenantId, null);
    }

    /**
     * As {@link #open(String, Directory, Analyzer, CommitPolicy, String)}; with the
     * {@link CommitPolicy#TRANSLOG} policy, {@code translogFolder} holds the translog, and
     * {@link #recover} must run before the first write.
     */
    static TenantIndex open(String label, Directory directory, Analyzer analyzer, CommitPolicy policy,
                            String tenantId, Path translogFolder) {
        if ((policy == CommitPolicy.TRANSLOG) != (translogFolder != null)) {
            throw new IllegalArgumentException("a translog folder goes with the TRANSLOG policy only");
        }
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
            return new TenantIndex(label, directory, writer, searchers, policy, firstOrd(searchers), translogFolder);
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

    /** The last commit's user data (with what was set since). */
    private static Map<String, String> commitData(IndexWriter writer) {
        Map<String, String> data = new HashMap<>();
        Iterable<Map.Entry<String, String>> live = writer.getLiveCommitData();
        if (live != null) {
            live.forEach(e -> data.put(e.getKey(), e.getValue()));
        }
        return data;
    }

    /** Sets one key of the user data the next commit records, keeping the others. */
    private static void commitData(IndexWriter writer, String key, String value) {
        Map<String, String> data = commitData(writer);
        data.put(key, value);
        writer.setLiveCommitData(Map.copyOf(data).entrySet());
    }

    /** Checks the tenant id in the last commit's user data, or records it (and commits) when there is none. */
    private static void claim(IndexWriter writer, String label, String tenantId) throws IOException {
        String stored = commitData(writer).get(TENANT_KEY);
        if (stored == null) {
            commitData(writer, TENANT_KEY, tenantId);
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

    /** The next free seq of a session written since open, or {@code null}; call it only inside a write. */
    Long knownSessionEnd(String sessionKey) {
        return sessionEnds.get(sessionKey);
    }

    /** Records the next free seq of sessions a write just appended to; call it only inside a write. */
    void sessionEnds(Map<String, Long> ends) {
        ends.forEach((key, next) -> sessionEnds.merge(key, next, Math::max));
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
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        writeLock.lock();
        try {
            checkUsable();
            IndexSearcher current = acquire();
            try {
                applyOrFail(work, current);
            } finally {
                release(current);
            }
            if (forceCommit || policy == CommitPolicy.EVERY_WRITE) {
                commitOrRollBack();
            }
            refresh();
        } finally {
            writeLock.unlock();
            restoreInterrupt(interrupted);
        }
    }

    /**
     * Gives back an interrupt that a write set aside. The index's file I/O goes through NIO channels,
     * which close themselves when the thread using them has its interrupt flag set; in IndexWriter that
     * is a tragic error that fails the whole tenant index until the store is reopened. So every write
     * path clears the flag before its I/O and sets it again when done: a caller that was interrupted
     * (a cancelled request, an executor shutting down) gets its write done and its interrupt back. An
     * interrupt that arrives during the I/O itself can still close a channel.
     */
    private static void restoreInterrupt(boolean interrupted) {
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Applies {@code work}; an I/O failure that broke the writer fails the index. */
    private void applyOrFail(Writing work, IndexSearcher current) {
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
        }
    }

    /**
     * Applies {@code work} and returns once it is in the translog (fsynced) and visible to reads
     * (TRANSLOG policy): concurrent callers share one append and one fsync (see {@link GroupCommit}).
     * A write that fails (validation, a document Lucene refuses) fails only its caller.
     */
    void writeLogged(LoggedWrite work) {
        group.submit(work);
    }

    /** Each write as {@link #writeLogged(LoggedWrite)} does; returns each one's failure ({@code null}: written). */
    List<RuntimeException> writeLogged(List<LoggedWrite> works) {
        return group.submitAll(works);
    }

    private void commitGroup(List<GroupCommit.Entry<LoggedWrite>> writes) {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        writeLock.lock();
        try {
            checkUsable();
            List<byte[]> entries = applyAll(writes);
            if (entries.isEmpty()) {
                return;
            }
            try {
                translog.append(entries);
            } catch (IOException | RuntimeException e) {
                // applied but not durable: never commit them; reopening replays what the log holds
                failure = e;
                throw new MemoryStoreException("could not append to the translog of Lucene index " + label + " ("
                        + e.getMessage() + "); the index accepts no more reads or writes: reopen the store", e);
            }
            refresh();
        } finally {
            writeLock.unlock();
            restoreInterrupt(interrupted);
        }
    }

    /**
     * Applies each write (marking the ones that fail) and returns the entries of those that applied.
     * A write appending to a session that an earlier one of the group appended to is validated against
     * a private reader that sees the group so far (never published: reads see the group only once
     * it is durable).
     */
    private List<byte[]> applyAll(List<GroupCommit.Entry<LoggedWrite>> writes) {
        List<byte[]> entries = new ArrayList<>(writes.size());
        Set<String> touched = new HashSet<>();
        IndexSearcher published = acquire();
        DirectoryReader latest = null;
        try {
            IndexSearcher current = published;
            boolean wroteSince = false;
            for (GroupCommit.Entry<LoggedWrite> e : writes) {
                LoggedWrite w = e.item();
                if (!Collections.disjoint(touched, w.sessions()) || (w.readsStored() && wroteSince)) {
                    DirectoryReader fresh = DirectoryReader.open(writer);
                    closeQuietly(latest);
                    latest = fresh;
                    current = new IndexSearcher(latest);
                    touched.clear();
                    wroteSince = false;
                }
                try {
                    applyOrFail(w, current);
                } catch (RuntimeException x) {
                    if (failure != null) {
                        throw x;
                    }
                    e.fail(x);
                    continue;
                }
                try {
                    entries.add(w.entry());
                } catch (RuntimeException x) {
                    // applied but impossible to log: it must never be committed
                    failure = x;
                    throw x;
                }
                touched.addAll(w.sessions());
                wroteSince = true;
            }
        } catch (IOException e) {
            failIfWriterBroke(e);
            throw new MemoryStoreException("Lucene write failed on " + label + ": " + e.getMessage(), e);
        } finally {
            closeQuietly(latest);
            release(published);
        }
        return entries;
    }

    /**
     * Replays the translog entries the last commit does not hold, then commits them (TRANSLOG policy;
     * call once, right after opening). {@code decode} turns an entry into its write.
     */
    void recover(TranslogReplay decode) {
        writeLock.lock();
        try {
            long committed = Long.parseLong(commitData(writer).getOrDefault(TRANSLOG_KEY, "0"));
            List<Long> pending = new ArrayList<>();
            for (long g : Translog.generations(translogFolder)) {
                if (g >= committed) {
                    pending.add(g);
                }
            }
            long replayed = 0;
            Set<String> touched = new HashSet<>();
            boolean wroteSince = false;
            for (long g : pending) {
                for (byte[] entry : Translog.read(translogFolder, g)) {
                    LoggedWrite w = decode.write(entry);
                    if (!Collections.disjoint(touched, w.sessions()) || (w.readsStored() && wroteSince)) {
                        refresh();
                        touched.clear();
                        wroteSince = false;
                    }
                    IndexSearcher current = acquire();
                    try {
                        applyOrFail(w, current);
                    } finally {
                        release(current);
                    }
                    touched.addAll(w.sessions());
                    wroteSince = true;
                    replayed++;
                }
            }
            long last = pending.isEmpty() ? committed : Math.max(committed, pending.get(pending.size() - 1));
            translog = Translog.open(translogFolder, last);
            if (replayed > 0 || translog.bytes() > 0) {
                // a torn tail may end the last file: never append after it, start the next generation
                LOG.info("Lucene index {}: replayed {} translog entries written after its last commit", label, replayed);
                commitOrRollBack();
            } else {
                Translog.deleteBefore(translogFolder, last);
            }
            refresh();
        } catch (IOException e) {
            failure = e;
            throw new MemoryStoreException("could not replay the translog of Lucene index " + label + ": "
                    + e.getMessage(), e);
        } finally {
            writeLock.unlock();
        }
    }

    /** Turns a translog entry back into its write. */
    interface TranslogReplay {
        LoggedWrite write(byte[] entry) throws IOException;
    }

    /** Commits now (under the write lock, so never half a write). */
    void commit() {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        writeLock.lock();
        try {
            checkUsable();
            commitOrRollBack();
        } finally {
            writeLock.unlock();
            restoreInterrupt(interrupted);
        }
    }

    /**
     * The group-commit tick: commits what was written since the last commit, without taking the write
     * lock (IndexWriter commits concurrently with indexing, and a batch is one atomic block, so a commit
     * never splits it). A failure is logged and fails the index, so later writes report it. In the
     * TRANSLOG policy the commit takes the write lock instead (the generation it records must match
     * exactly what it holds), and a failure loses nothing: the translog still has every write.
     */
    void commitInBackground() {
        if (closed || failure != null) {
            return;
        }
        if (policy == CommitPolicy.TRANSLOG) {
            writeLock.lock();
            try {
                if (!closed && failure == null && (writer.hasUncommittedChanges() || translog.bytes() > 0)) {
                    commitOrRollBack();
                }
            } catch (RuntimeException e) {
                LOG.error("background commit of Lucene index {} failed; acknowledged writes stay in its translog"
                        + " and are replayed when the store is reopened", label, e);
            } finally {
                writeLock.unlock();
            }
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
            if (policy == CommitPolicy.TRANSLOG) {
                // the commit holds every entry of the generations before the new one
                long next = translog.roll();
                commitData(writer, TRANSLOG_KEY, Long.toString(next));
                writer.commit();
                translog.deleteBefore(next);
            } else {
                writer.commit();
            }
        } catch (IOException | RuntimeException e) {
            failure = e;
            String what = switch (policy) {
                case EVERY_WRITE -> "the write was discarded and the index rolled back to its last commit";
                case TRANSLOG -> "acknowledged writes stay in the translog and are replayed on reopen";
                default -> "writes since the last commit may be lost";
            };
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
            if (translog != null && failure == null && writer.isOpen()) {
                try {
                    commitOrRollBack();
                } catch (RuntimeException e) {
                    first = e;
                }
            }
            try {
                searchers.close();
            } catch (IOException | RuntimeException e) {
                first = first == null ? e : first;
            }
            if (policy == CommitPolicy.TRANSLOG && (translog == null || failure != null) && writer.isOpen()) {
                // never commit what may not be in the translog (or a half-done replay): reopening replays the log
                try {
                    writer.rollback();
                } catch (IOException | RuntimeException e) {
                    first = first == null ? e : first;
                }
            }
            if (translog != null) {
                try {
                    translog.close();
                } catch (IOException e) {
                    first = first == null ? e : first;
                }
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
            sessionEnds.clear();
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
