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
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.index.PointValues;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.StringHelper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ObjIntConsumer;

/**
 * One tenant's index directory: its single {@link IndexWriter}, a {@link SearcherManager} for
 * near-real-time reads, and the lock that serializes writers.
 *
 * <p>Reads acquire a searcher and release it in {@code finally}. A write runs under
 * {@link #writeLock} (never by synchronizing on the writer, whose own monitors Lucene uses
 * internally) and, per the commit policy, commits before it returns; it does not refresh the searcher:
 * it counts itself {@linkplain #written written}, and the next read that finds the searcher older than
 * the last write refreshes it first ({@link #publishIfStale}). So a write is visible to every read that
 * starts after it returns, a burst of writes without reads flushes no segment per write, and a read
 * after a write pays the refresh the write used to pay. Refreshing takes {@link #publishLock}, which a
 * writer holds while the writer has changes that are not acknowledged yet (applied but not yet in the
 * translog, or not yet committed in the commit-per-write policy): a refresh never shows a write that
 * could still fail. A read that finds the searcher current never waits for a writer; one that must
 * refresh may wait for the write group in progress.
 *
 * <p>Validate-then-apply reads under the write lock: the last turn of a session, whether a turn
 * exists, the stored version of a record whose status changes. A batch reads them from the published
 * searcher when none of them was written since it was refreshed ({@link WrittenSince}); otherwise the
 * index refreshes first (or, inside a write group whose earlier writes are not durable yet, opens a
 * private reader that is never published).
 *
 * <p>After an I/O failure the index stops accepting reads and writes ({@link #failure}); reopening
 * the store restarts from the last commit (and, in the {@link CommitPolicy#TRANSLOG} policy, replays
 * the translog). In the commit-per-write policy a failed commit rolls the writer back, so the batch
 * that could not be made durable is never seen by anyone.
 *
 * <p>In the {@link CommitPolicy#TRANSLOG} policy, writes go through {@link #writeLogged}: concurrent
 * writers are grouped (one leader applies every queued write, appends their entries to the
 * {@link Translog} and fsyncs once), so a durable write costs a share of one append;
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
        void apply(IndexWriter writer, View current) throws IOException;
    }

    /**
     * What a batch reads under the write lock: a searcher, which may be older than the last writes,
     * and what was written since it was opened. The index hands out an older searcher only when the
     * batch's {@link LoggedWrite#sessions() sessions} and {@link LoggedWrite#storedReads() stored
     * reads} were not written since, so the searcher answers those reads exactly.
     */
    static final class View {
        private final IndexSearcher searcher;
        private final WrittenSince since;
        /** The index's acknowledged recall statistics not folded into the documents yet. */
        private final Map<String, LuceneDocuments.Recalls> unfolded;
        /**
         * What the writes of this group (before this one) and this write change in {@link #unfolded}:
         * uid → new value, or {@code null} for an entry to drop (its document was rewritten or deleted).
         */
        private final Map<String, LuceneDocuments.Recalls> staged;
        private final boolean deferRecalls;
        /** Per segment, its uid terms ({@link TermsEnum#EMPTY}: none); opened on the first lookup. */
        private TermsEnum[] uids;
        private PostingsEnum postings;

        private View(IndexSearcher searcher, WrittenSince since, Map<String, LuceneDocuments.Recalls> unfolded,
                     Map<String, LuceneDocuments.Recalls> staged, boolean deferRecalls) {
            this.searcher = searcher;
            this.since = since;
            this.unfolded = unfolded;
            this.staged = staged;
            this.deferRecalls = deferRecalls;
        }

        IndexSearcher searcher() {
            return searcher;
        }

        /**
         * Whether a write leaves recall statistics ({@link dev.reverie.spi.WriteBatch#addRecalls}) to
         * {@link #stage} instead of updating doc values: in the {@link CommitPolicy#TRANSLOG} policy
         * they are folded into the index at its next commit.
         */
        boolean defersRecalls() {
            return deferRecalls;
        }

        /**
         * The recall statistics of a memory acknowledged (or staged by an earlier write of the group)
         * but not yet in its document's doc values, or {@code null}: then the document's are current.
         */
        LuceneDocuments.Recalls unfoldedRecalls(String uid) {
            if (staged.containsKey(uid)) {
                return staged.get(uid);
            }
            return unfolded.get(uid);
        }

        /**
         * Records what an applied write changes in the unfolded recalls: the uids it put or deleted lose
         * theirs (the new document, or none, is what counts), then {@code deferred} are the new values.
         */
        void stage(java.util.Collection<String> written, Map<String, LuceneDocuments.Recalls> deferred) {
            for (String uid : written) {
                if (staged.containsKey(uid) || unfolded.containsKey(uid)) {
                    staged.put(uid, null);
                }
            }
            staged.putAll(deferred);
        }

        /**
         * Whether a document with this uid may exist: exact for a uid not written since the searcher
         * was opened, and for a session turn (turns are never deleted but by erasing, which refreshes);
         * {@code true} for any other uid written since.
         */
        boolean mayExist(String uid) throws IOException {
            if (since.wrote(uid)) {
                return true;
            }
            // one seek per segment, reusing each segment's terms enum: a TermQuery would build its
            // weight (a seek per segment) and then seek again to count
            List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
            if (uids == null) {
                uids = new TermsEnum[leaves.size()];
            }
            BytesRef term = new BytesRef(uid);
            for (int i = 0; i < leaves.size(); i++) {
                LeafReader leaf = leaves.get(i).reader();
                if (uids[i] == null) {
                    Terms terms = leaf.terms(LuceneDocuments.UID);
                    uids[i] = terms == null ? TermsEnum.EMPTY : terms.iterator();
                }
                if (uids[i] != TermsEnum.EMPTY && uids[i].seekExact(term)) {
                    Bits live = leaf.getLiveDocs();
                    if (live == null) {
                        return true;
                    }
                    postings = uids[i].postings(postings, PostingsEnum.NONE);
                    for (int d = postings.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = postings.nextDoc()) {
                        if (live.get(d)) {
                            return true;
                        }
                    }
                }
            }
            return false;
        }

        /**
         * Whether the searcher holds a uid that starts with {@code prefix} (deleted documents count:
         * {@code true} may be wrong, {@code false} never is). It ignores what was written since the
         * searcher was opened: call it only where {@link WrittenSince#affects} made the searcher exact,
         * as for a session's end.
         */
        boolean mayHaveUidPrefix(String prefix) throws IOException {
            BytesRef start = new BytesRef(prefix);
            for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
                Terms terms = leaf.reader().terms(LuceneDocuments.UID);
                if (terms == null) {
                    continue;
                }
                TermsEnum e = terms.iterator();
                if (e.seekCeil(start) != TermsEnum.SeekStatus.END && StringHelper.startsWith(e.term(), start)) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * A batch: applied under the write lock (in the {@link CommitPolicy#TRANSLOG} policy then logged by
     * its group's leader). Besides applying itself it says what it reads and writes, so the index
     * refreshes before it only when it reads something written since the last refresh.
     */
    interface LoggedWrite {
        /** Applies it; what it reads through {@code current} is exact (see {@link View}). */
        void apply(IndexWriter writer, View current) throws IOException;

        /** Keys of the sessions it appends turns to or looks up the end of. */
        Set<String> sessions();

        /** Uids of the stored records it reads (status-only changes re-index the stored record). */
        default Set<String> storedReads() {
            return Set.of();
        }

        /** Uids of the documents it put or deleted; called once it was applied. */
        Set<String> uidsWritten();

        /** Its translog entry; called once it was applied (TRANSLOG policy only). */
        byte[] entry();

        /**
         * Whether applying it changed the index ({@code false}: it had nothing to do there, as a batch
         * of recall statistics left to the unfolded recalls); called once it was applied. A write that
         * did not change the index does not make the next read refresh.
         */
        default boolean changedIndex() {
            return true;
        }
    }

    /** The commit user-data key of the translog generation whose entries a commit does not hold yet. */
    static final String TRANSLOG_KEY = "reverie.translog.generation";
    /**
     * The commit user-data key of the translog generation from which the recall statistics are not in
     * the commit's doc values (the commit did not fold them, see {@link #unfolded}): recovery replays
     * the recalls of the generations from it to {@link #TRANSLOG_KEY}. Absent: the same as that key
     * (see {@link #foldedGeneration}).
     */
    static final String FOLDED_KEY = "reverie.translog.folded";
    /**
     * The most memories with unfolded recall statistics before a background commit folds them, however
     * recent the last fold (an entry is a uid, two small objects and a map node: about 10 MiB at most).
     */
    private static final int MAX_UNFOLDED = 1 << 16;

    /** The most writes one translog append (and fsync) takes. */
    private static final int MAX_GROUP = 256;
    /** Sessions whose next seq is remembered. */
    private static final int MAX_SESSION_ENDS = 16_384;
    /** The most keys {@link #sincePublished} holds before a write refreshes (bounds its memory). */
    private static final int MAX_UNPUBLISHED = 4_096;

    private final String label;
    private final Directory directory;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    private final CommitPolicy policy;
    private final ReentrantLock writeLock = new ReentrantLock();
    /**
     * Held to refresh the searcher, and by a writer from applying a write until it is acknowledged
     * (durable per the policy): a refresh never publishes a write that could still fail. Taken after
     * {@link #writeLock} when both are needed. Fair, so a reader waiting to refresh gets it before the
     * next write group of a steady stream of writers.
     */
    private final ReentrantLock publishLock = new ReentrantLock(true);
    /** Writes acknowledged (or being acknowledged); only grows, and only under {@link #publishLock}. */
    private volatile long written;
    /** The value of {@link #written} when the published searcher was opened: it sees those writes. */
    private volatile long published;
    /** What was written since the published searcher was opened; guarded by {@link #publishLock}. */
    private final WrittenSince sincePublished = new WrittenSince();
    /** Refreshes that opened a new searcher or found it current (tests). */
    private final AtomicLong refreshes = new AtomicLong();
    /**
     * Memory uid → its recall statistics, acknowledged (in the translog) but not yet written into the
     * memory's doc values ({@link CommitPolicy#TRANSLOG} policy; empty otherwise). Reads lay them over
     * the documents ({@link #withUnfoldedRecalls}); folding commits write them into the doc values
     * first ({@link #foldRecalls}). Why not update the doc values at once: Lucene rewrites a segment's whole
     * doc-values field for each refresh that follows an in-place update, so on a large tenant every
     * read after a recall flush waited 150–465 ms for that rewrite; folded once per commit, the rewrite
     * runs on the committing thread and reads never wait for it. Written under the write lock; read by
     * anyone. A memory's entry goes when a write that rewrote or deleted it is acknowledged: a read
     * that acquired its searcher before that write (one running concurrently with it) may then see the
     * old document's statistics.
     */
    private final java.util.concurrent.ConcurrentHashMap<String, LuceneDocuments.Recalls> unfolded =
            new java.util.concurrent.ConcurrentHashMap<>();
    /** What the last commit folded, dropped from {@link #unfolded} once a searcher opened after it was published. */
    private final java.util.ArrayDeque<Folded> folds = new java.util.ArrayDeque<>();
    /**
     * Uid → the value of it a commit folded whose batch is not retired yet (the latest), so a later
     * fold does not write it again. Under the write lock.
     */
    private final Map<String, LuceneDocuments.Recalls> inDocValues = new HashMap<>();
    /**
     * The translog generation from which recall statistics are not in the last commit's doc values;
     * the translog keeps it and every later one. Under the write lock.
     */
    private long foldedGeneration;
    /** When the last fold was committed ({@link System#nanoTime}); under the write lock. */
    private long lastFoldNanos = System.nanoTime();
    /** How long background commits may leave the recall statistics unfolded. */
    private volatile long foldEveryNanos = java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    /** How long folded entries stay in {@link #unfolded} at least, for reads still on an older searcher. */
    private volatile long retireAfterNanos = java.util.concurrent.TimeUnit.SECONDS.toNanos(1);
    /** Whether {@link #unfolded} holds a value no commit folded yet; under the write lock. */
    private boolean toFold;
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
                    // found by name, as Lucene finds it when it reads the segments: never write what cannot be opened
                    .setCodec(ReverieCodec.find())
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
        publishIfStale();
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
     * Runs {@code work} under the write lock, given a searcher that sees every earlier write, then
     * commits (per the policy, or always when {@code forceCommit}) and refreshes: work of this kind
     * (reindexing, joint writes, erasing) does not say what it changed, so the next batch could not
     * tell whether an older searcher still answers its reads.
     */
    void write(Writing work, boolean forceCommit) {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        writeLock.lock();
        publishLock.lock();
        try {
            checkUsable();
            if (published != written) {
                publish();
            }
            IndexSearcher current = acquire();
            Map<String, LuceneDocuments.Recalls> staged = new HashMap<>();
            try {
                View view = new View(current, new WrittenSince(), unfolded, staged, false);
                applyOrWrap(() -> work.apply(writer, view));
            } finally {
                release(current);
            }
            if (forceCommit || policy == CommitPolicy.EVERY_WRITE) {
                // always folding: this write is not in the translog, so a recovery could not tell what it rewrote
                commitOrRollBack(staged, true);
            }
            written++;
            publish();
            unfold(staged);
        } finally {
            publishLock.unlock();
            writeLock.unlock();
            restoreInterrupt(interrupted);
        }
    }

    /**
     * Applies one batch under the write lock and commits it per the policy (policies other than
     * {@link CommitPolicy#TRANSLOG}); visible to every read that starts after it returns.
     */
    void write(LoggedWrite work) {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        writeLock.lock();
        publishLock.lock();
        try {
            checkUsable();
            Map<String, LuceneDocuments.Recalls> staged = new HashMap<>();
            applyAll(List.of(work), false, staged, (x, i) -> {
                throw x;
            });
            if (policy == CommitPolicy.EVERY_WRITE) {
                commitOrRollBack();
            }
            unfold(staged);
            acknowledged();
        } finally {
            publishLock.unlock();
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

    /** Work against the writer. */
    private interface Applying {
        void run() throws IOException;
    }

    /** Runs {@code work}; an I/O failure that broke the writer fails the index. */
    private void applyOrWrap(Applying work) {
        try {
            work.run();
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
        publishLock.lock();
        try {
            checkUsable();
            List<LoggedWrite> items = new ArrayList<>(writes.size());
            writes.forEach(e -> items.add(e.item()));
            Map<String, LuceneDocuments.Recalls> staged = new HashMap<>();
            List<byte[]> entries = applyAll(items, true, staged, (x, i) -> writes.get(i).fail(x));
            if (entries.isEmpty()) {
                return;
            }
            boolean changedIndex = false;
            for (int i = 0; i < items.size(); i++) {
                changedIndex |= !writes.get(i).failed() && items.get(i).changedIndex();
            }
            try {
                translog.append(entries);
            } catch (IOException | RuntimeException e) {
                // applied but not durable: never commit them; reopening replays what the log holds
                failure = e;
                throw new MemoryStoreException("could not append to the translog of Lucene index " + label + " ("
                        + e.getMessage() + "); the index accepts no more reads or writes: reopen the store", e);
            }
            // counted as written first: a read that starts after this refreshes (waiting for the
            // publish lock held here) and so never meets a rewritten memory's old document without
            // its dropped entry, nor, after a publish, its new document with its old entry
            if (changedIndex) {
                written++;
            }
            unfold(staged);
            if (changedIndex && sincePublished.size() > MAX_UNPUBLISHED) {
                publish();
            }
        } finally {
            publishLock.unlock();
            writeLock.unlock();
            restoreInterrupt(interrupted);
        }
    }

    /**
     * Counts the writes just applied as acknowledged, so the next read refreshes first; refreshes now
     * when what was written since the last refresh grew too large to track. Under {@link #publishLock}.
     */
    private void acknowledged() {
        written++;
        if (sincePublished.size() > MAX_UNPUBLISHED) {
            publish();
        }
    }

    /**
     * Applies each write and returns the translog entries of those that applied ({@code log}; else
     * none); {@code failed} gets each failure with the position of its write. A write reads from the
     * published searcher unless it reads something written since that searcher was opened: then,
     * before anything of the group was applied, the index refreshes (the writer holds only
     * acknowledged writes); after, it opens a private reader that sees the group so far (never
     * published: reads see the group only once it is acknowledged). Under both locks.
     */
    private List<byte[]> applyAll(List<LoggedWrite> writes, boolean log, Map<String, LuceneDocuments.Recalls> staged,
                                  ObjIntConsumer<RuntimeException> failed) {
        List<byte[]> entries = new ArrayList<>(writes.size());
        IndexSearcher published = null;
        DirectoryReader latest = null;
        IndexSearcher privateSearcher = null;
        WrittenSince sincePrivate = null;
        boolean applied = false;
        try {
            for (int i = 0; i < writes.size(); i++) {
                LoggedWrite w = writes.get(i);
                WrittenSince since = latest == null ? sincePublished : sincePrivate;
                if (since.affects(w, sessionEnds::containsKey)) {
                    if (!applied) {
                        if (published != null) {
                            release(published);
                            published = null;
                        }
                        publish();
                    } else {
                        DirectoryReader fresh = latest == null ? DirectoryReader.open(writer)
                                : DirectoryReader.openIfChanged(latest, writer);
                        if (fresh != null) {
                            closeQuietly(latest);
                            latest = fresh;
                            privateSearcher = new IndexSearcher(latest);
                        }
                        sincePrivate = new WrittenSince();
                        since = sincePrivate;
                    }
                }
                IndexSearcher current;
                if (latest != null) {
                    current = privateSearcher;
                } else {
                    if (published == null) {
                        published = acquire();
                    }
                    current = published;
                }
                // a write that fails leaves nothing staged: it stages only after its last change to the writer
                View view = new View(current, since, unfolded, staged, log);
                try {
                    applyOrWrap(() -> w.apply(writer, view));
                } catch (RuntimeException x) {
                    if (failure != null) {
                        throw x;
                    }
                    failed.accept(x, i);
                    continue;
                }
                applied = true;
                sincePublished.add(w);
                if (sincePrivate != null) {
                    sincePrivate.add(w);
                }
                if (log) {
                    try {
                        entries.add(w.entry());
                    } catch (RuntimeException x) {
                        // applied but impossible to log: it must never be committed
                        failure = x;
                        throw x;
                    }
                }
            }
        } catch (IOException e) {
            failIfWriterBroke(e);
            throw new MemoryStoreException("Lucene write failed on " + label + ": " + e.getMessage(), e);
        } finally {
            closeQuietly(latest);
            if (published != null) {
                release(published);
            }
        }
        return entries;
    }

    /**
     * Replays the translog entries the last commit does not hold, then commits them (TRANSLOG policy;
     * call once, right after opening). {@code decode} turns an entry into its write.
     */
    void recover(TranslogReplay decode) {
        writeLock.lock();
        publishLock.lock();
        try {
            Map<String, String> data = commitData(writer);
            long committed = Long.parseLong(data.getOrDefault(TRANSLOG_KEY, "0"));
            long folded = foldedGeneration(data.get(FOLDED_KEY), committed);
            foldedGeneration = folded;
            List<Long> pending = new ArrayList<>();
            RecallDeltas deltas = new RecallDeltas();
            for (long g : Translog.generations(translogFolder)) {
                if (g >= committed) {
                    pending.add(g);
                } else if (g >= folded) {
                    // committed, but not their recalls: those are added to what the commit's doc values hold
                    for (byte[] entry : Translog.read(translogFolder, g)) {
                        decode.recalls(entry, deltas);
                    }
                }
            }
            int recalled = unfoldDeltas(deltas);
            long replayed = 0;
            for (long g : pending) {
                for (byte[] entry : Translog.read(translogFolder, g)) {
                    LoggedWrite w = decode.write(entry);
                    // every entry replayed is durable: publishing it is safe
                    if (sincePublished.affects(w, sessionEnds::containsKey)) {
                        publish();
                    }
                    IndexSearcher current = acquire();
                    Map<String, LuceneDocuments.Recalls> staged = new HashMap<>();
                    try {
                        View view = new View(current, sincePublished, unfolded, staged, true);
                        applyOrWrap(() -> w.apply(writer, view));
                    } finally {
                        release(current);
                    }
                    unfold(staged);
                    sincePublished.add(w);
                    written++;
                    replayed++;
                }
            }
            long last = pending.isEmpty() ? committed : Math.max(committed, pending.get(pending.size() - 1));
            translog = Translog.open(translogFolder, last);
            if (replayed > 0 || recalled > 0 || translog.bytes() > 0) {
                // a torn tail may end the last file: never append after it, start the next generation
                LOG.info("Lucene index {}: replayed {} translog entries written after its last commit and the"
                        + " recall statistics of {} memories", label, replayed, recalled);
                commitOrRollBack();
            } else {
                Translog.deleteBefore(translogFolder, last);
            }
            publish();
        } catch (IOException e) {
            failure = e;
            throw new MemoryStoreException("could not replay the translog of Lucene index " + label + ": "
                    + e.getMessage(), e);
        } finally {
            publishLock.unlock();
            writeLock.unlock();
        }
    }

    /**
     * The generation from which a commit's recalls are unfolded, from its {@link #FOLDED_KEY} value
     * {@code <generation>@<translog generation>}: {@code committed} (none unfolded) when the key is
     * absent, or was written with another translog generation (a later commit by a Reverie that does
     * not know it left it behind), or cannot be read.
     */
    static long foldedGeneration(String value, long committed) {
        if (value == null) {
            return committed;
        }
        int at = value.indexOf('@');
        try {
            if (at < 0 || Long.parseLong(value.substring(at + 1)) != committed) {
                return committed;
            }
            return Math.min(committed, Long.parseLong(value.substring(0, at)));
        } catch (NumberFormatException e) {
            return committed;
        }
    }

    /** Turns a translog entry back into its write. */
    interface TranslogReplay {
        LoggedWrite write(byte[] entry) throws IOException;

        /** Adds the recall statistics of an entry the last commit holds but did not fold to {@code deltas}. */
        void recalls(byte[] entry, RecallDeltas deltas) throws IOException;
    }

    /**
     * The recalls of committed but unfolded translog entries, in log order, per memory uid: added to
     * what the committed document holds. A write that rewrote or deleted the memory since resets it
     * (the committed document is that write's or a later one, with the statistics it then had).
     */
    static final class RecallDeltas {
        private final Map<String, LuceneDocuments.Recalls> byUid = new HashMap<>();

        void add(String uid, int count, java.time.Instant at) {
            byUid.merge(uid, new LuceneDocuments.Recalls(count, at), TenantIndex::sum);
        }

        void reset(String uid) {
            byUid.remove(uid);
        }
    }

    /**
     * Makes each memory's committed recall statistics plus its deltas unfolded recalls (during
     * recovery, under both locks); returns how many. A memory no longer in the index is skipped.
     */
    private int unfoldDeltas(RecallDeltas deltas) throws IOException {
        if (deltas.byUid.isEmpty()) {
            return 0;
        }
        int n = 0;
        IndexSearcher current = acquire();
        try {
            List<LeafReaderContext> leaves = current.getIndexReader().leaves();
            for (Map.Entry<String, LuceneDocuments.Recalls> e : deltas.byUid.entrySet()) {
                org.apache.lucene.search.ScoreDoc[] hits =
                        current.search(LuceneDocuments.term(LuceneDocuments.UID, e.getKey()), 1).scoreDocs;
                if (hits.length == 0) {
                    continue;
                }
                LeafReaderContext leaf = leaves.get(org.apache.lucene.index.ReaderUtil.subIndex(hits[0].doc, leaves));
                LuceneDocuments.Recalls stored = LuceneDocuments.recalls(leaf.reader(), hits[0].doc - leaf.docBase);
                if (stored == null) {
                    continue; // written before the recall doc values: reopening rewrites it (reindexOldMemories)
                }
                unfolded.put(e.getKey(), sum(stored, e.getValue()));
                n++;
            }
        } finally {
            release(current);
        }
        return n;
    }

    /** Recall statistics added up: the counts (saturating, as {@code AddRecalls} does) and the later time. */
    private static LuceneDocuments.Recalls sum(LuceneDocuments.Recalls a, LuceneDocuments.Recalls b) {
        java.time.Instant at = a.at() == null || b.at() != null && b.at().isAfter(a.at()) ? b.at() : a.at();
        return new LuceneDocuments.Recalls((int) Math.min(Integer.MAX_VALUE, (long) a.count() + b.count()), at);
    }

    /**
     * How long background commits may leave recall statistics unfolded, and how long folded ones stay
     * in memory at least (tests shorten or lengthen them).
     */
    void foldEvery(java.time.Duration interval, java.time.Duration retireAfter) {
        foldEveryNanos = interval.toNanos();
        retireAfterNanos = retireAfter.toNanos();
    }

    /** Commits now (under the write lock, so never half a write). */
    void commit() {
        boolean interrupted = Thread.interrupted(); // see restoreInterrupt
        writeLock.lock();
        try {
            checkUsable();
            if (commitOrRollBack()) {
                publishFolded();
            }
        } finally {
            writeLock.unlock();
            restoreInterrupt(interrupted);
        }
    }

    /**
     * Publishes a searcher that sees the recall statistics a commit just folded, so the next commit
     * can drop them from the unfolded recalls; the refresh is cheap, the commit having written the doc
     * values already. Under the write lock (so no write group is in progress).
     */
    private void publishFolded() {
        publishLock.lock();
        try {
            publish();
        } finally {
            publishLock.unlock();
        }
    }

    /**
     * The group-commit tick: commits what was written since the last commit, under the write lock (a
     * batch may be more than one IndexWriter call, its document block and then in-place doc-values
     * updates of recalled memories, so a commit between them would make half of it durable). A failure
     * is logged and fails the index, so later writes report it. In the TRANSLOG policy the generation
     * the commit records must also match exactly what it holds, and a failure loses nothing: the
     * translog still has every write.
     */
    void commitInBackground() {
        if (closed || failure != null) {
            return;
        }
        if (policy == CommitPolicy.TRANSLOG) {
            writeLock.lock();
            try {
                boolean fold = toFold && (System.nanoTime() - lastFoldNanos >= foldEveryNanos
                        || unfolded.size() >= MAX_UNFOLDED);
                if (!closed && failure == null && (writer.hasUncommittedChanges() || translog.bytes() > 0 || fold)) {
                    // a due fold commits even when nothing else was written since the last commit
                    if (commitOrRollBack(Map.of(), fold)) {
                        publishFolded();
                    }
                } else if (!closed && failure == null) {
                    retireFolded();
                }
            } catch (RuntimeException e) {
                LOG.error("background commit of Lucene index {} failed; acknowledged writes stay in its translog"
                        + " and are replayed when the store is reopened", label, e);
            } finally {
                writeLock.unlock();
            }
            return;
        }
        writeLock.lock();
        try {
            if (!closed && failure == null && writer.hasUncommittedChanges()) {
                writer.commit();
            }
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                failure = e;
                LOG.error("group commit of Lucene index {} failed; writes since the last commit may be lost and the"
                        + " index accepts no more writes until the store is reopened", label, e);
            }
        } finally {
            writeLock.unlock();
        }
    }

    private boolean commitOrRollBack() {
        return commitOrRollBack(Map.of(), true);
    }

    /**
     * As {@link #commitOrRollBack()}; inside a write that is not acknowledged yet and staged
     * {@code staged}, the unfolded recalls of the memories it rewrote or deleted are not folded (the new
     * document's are the current ones). Unless {@code fold}, the unfolded recall statistics stay out of
     * the doc values (in the TRANSLOG policy), and the translog keeps the generations whose recalls they
     * are: folding rewrites the recall doc values of every segment holding a recalled memory, on a large
     * tenant a tenth of a second of CPU, which background commits pay only every
     * {@link #foldEveryNanos}. Returns whether it folded anything.
     */
    private boolean commitOrRollBack(Map<String, LuceneDocuments.Recalls> staged, boolean fold) {
        try {
            if (policy == CommitPolicy.TRANSLOG) {
                retireFolded();
                fold |= unfolded.isEmpty();
                Map<String, LuceneDocuments.Recalls> folded = fold ? foldRecalls(staged) : Map.of();
                // the commit holds every entry of the generations before the new one, and, when it folds,
                // every recall of them in its doc values
                long next = translog.roll();
                long keepFrom = fold ? next : foldedGeneration;
                commitData(writer, TRANSLOG_KEY, Long.toString(next));
                // with the generation it belongs to: a commit by an older Reverie (which keeps unknown
                // keys but moves the translog key) makes it stale, and recovery then ignores it
                commitData(writer, FOLDED_KEY, keepFrom + "@" + next);
                writer.commit();
                translog.deleteBefore(keepFrom);
                if (fold) {
                    foldedGeneration = next;
                    lastFoldNanos = System.nanoTime();
                    toFold = false;
                }
                if (!folded.isEmpty()) {
                    folds.add(new Folded(folded, System.nanoTime(), refreshes.get()));
                    inDocValues.putAll(folded);
                    return true;
                }
            } else {
                writer.commit();
            }
            return false;
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

    /**
     * Writes the unfolded recall statistics into their memories' doc values, before a commit (under the
     * write lock): the commit then holds them, so the translog entries it drops lose nothing. They stay
     * in the unfolded recalls until {@link #retireFolded} (a read on a searcher opened before the commit
     * still needs them). Those of {@code staged} uids are left out. Returns what it folded.
     */
    private Map<String, LuceneDocuments.Recalls> foldRecalls(Map<String, LuceneDocuments.Recalls> staged)
            throws IOException {
        if (unfolded.isEmpty()) {
            return Map.of();
        }
        Map<String, LuceneDocuments.Recalls> folding = new HashMap<>(unfolded);
        folding.keySet().removeAll(staged.keySet());
        // a value an earlier fold wrote (the same object) is in the doc values already
        folding.entrySet().removeIf(e -> inDocValues.get(e.getKey()) == e.getValue());
        for (Map.Entry<String, LuceneDocuments.Recalls> e : folding.entrySet()) {
            // a memory deleted since matches no document: nothing happens
            writer.updateDocValues(new org.apache.lucene.index.Term(LuceneDocuments.UID, e.getKey()),
                    e.getValue().fields().toArray(new org.apache.lucene.document.Field[0]));
        }
        return folding;
    }

    /**
     * Drops from the unfolded recalls what each commit folded, once a searcher opened after that
     * commit was published and at least a second has passed since that commit (each fold on its own
     * clock, so folds in quick succession, a dream's joint writes, do not keep each other's values): reads then find the same values in the
     * documents, and a read that acquired a searcher before the fold has long finished (one holding
     * its searcher that long would see the folded memories' recall statistics as the commit before
     * found them). Runs at the next commit or commit tick. Under the write lock.
     */
    private void retireFolded() {
        long now = System.nanoTime();
        while (!folds.isEmpty()) {
            Folded f = folds.peek();
            if (refreshes.get() <= f.refreshes() || now - f.nanos() < retireAfterNanos) {
                return;
            }
            folds.poll();
            // by identity: a value staged again since (even an equal one) is not in a document yet
            f.values().forEach((uid, r) -> {
                unfolded.computeIfPresent(uid, (k, current) -> current == r ? null : current);
                inDocValues.computeIfPresent(uid, (k, current) -> current == r ? null : current);
            });
        }
    }

    /** The values one commit folded, when, and {@link #refreshes} then. */
    private record Folded(Map<String, LuceneDocuments.Recalls> values, long nanos, long refreshes) {
    }

    /**
     * Makes what a write staged the index's unfolded recalls, once the write is acknowledged (durable
     * per the policy): from then on reads see them. Under the write lock.
     */
    private void unfold(Map<String, LuceneDocuments.Recalls> staged) {
        staged.forEach((uid, r) -> {
            if (r == null) {
                unfolded.remove(uid);
            } else {
                unfolded.put(uid, r);
                toFold = true;
            }
        });
    }

    /** {@code m} with its unfolded recall statistics, if it has any. */
    dev.reverie.Memory withUnfoldedRecalls(dev.reverie.Memory m) {
        if (unfolded.isEmpty()) {
            return m;
        }
        LuceneDocuments.Recalls r = unfolded.get(LuceneDocuments.uid(LuceneDocuments.Type.MEMORY, m.scope(), m.id()));
        return r == null ? m : LuceneDocuments.withRecalls(m, r);
    }

    /** How many memories have recall statistics not folded into the index yet (tests). */
    int unfoldedRecalls() {
        return unfolded.size();
    }

    /**
     * Refreshes the searcher when a write was acknowledged since it was opened, so a read that starts
     * after a write returned sees it. Waits for the write group in progress, if any (see
     * {@link #publishLock}).
     */
    private void publishIfStale() {
        if (published == written) {
            return;
        }
        publishLock.lock();
        try {
            checkUsable();
            if (published != written) {
                publishUninterruptibly();
            }
        } finally {
            publishLock.unlock();
        }
    }

    /**
     * Runs {@link #publish} on {@link #REFRESHER} and waits for it (under {@link #publishLock}, held by
     * this thread): a refresh flushes segment files through NIO channels, which close themselves when
     * their thread is interrupted, and a failed refresh fails the index. A read is cancelled far more
     * often than a write (a host's request timeout), so the read that finds the searcher stale never
     * refreshes on its own thread; an interrupt meanwhile is kept for the caller.
     */
    private void publishUninterruptibly() {
        Throwable failed = dev.reverie.internal.Await.uninterruptibly(REFRESHER.submit(this::publish));
        if (failed instanceof RuntimeException r) {
            throw r;
        }
        if (failed instanceof Error err) {
            throw err;
        }
        if (failed != null) {
            throw new MemoryStoreException("could not refresh Lucene index " + label + ": " + failed, failed);
        }
    }

    /** The threads that refresh for reads: daemons, never interrupted by a caller. */
    private static final java.util.concurrent.ExecutorService REFRESHER =
            java.util.concurrent.Executors.newCachedThreadPool(task -> {
                Thread t = new Thread(task, "reverie-lucene-refresh");
                t.setDaemon(true);
                return t;
            });

    /** Opens a searcher that sees every write applied so far and publishes it; under {@link #publishLock}. */
    private void publish() {
        long seen = written;
        try {
            searchers.maybeRefreshBlocking();
        } catch (IOException | RuntimeException e) {
            failure = e;
            throw new MemoryStoreException("could not refresh Lucene index " + label + " (" + e.getMessage()
                    + "); the index accepts no more reads or writes: reopen the store", e);
        }
        refreshes.incrementAndGet();
        sincePublished.clear();
        published = seen;
    }

    /** How many times the searcher was refreshed (tests). */
    long refreshes() {
        return refreshes.get();
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
        publishLock.lock();
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
            publishLock.unlock();
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
    void eraseAndPurge(Query query, String uidPrefix) {
        write((w, current) -> {
            sessionEnds.clear();
            w.deleteDocuments(query);
            purgeDeletes(w);
            // and the erased memories' recall statistics not folded yet
            current.stage(unfolded.keySet().stream().filter(uid -> uid.startsWith(uidPrefix)).toList(), Map.of());
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
