package dev.reverie.store.sqlite;

import dev.reverie.StoreClosedException;
import dev.reverie.internal.Jdbc;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Keeps each tenant's FTS5 indexes merged while the store is written, so a search's cost stays
 * bounded without the nightly {@code maintain} of a dream run. FTS5 writes every transaction as a new
 * segment and merges only segments of similar size (its automerge), so a busy or bulk-loaded index
 * ends up in a dozen or more segments, and every query term is looked up in each (and {@code bm25()}
 * looks it up again to count its rows): on the 1,000-user benchmark tenant a memory search took 0.43
 * ms in nine segments and 0.18 ms in one, an observation search 0.36 ms with a dozen one- to
 * four-page segments beside its large one and 0.22 ms without them.
 *
 * <p>Rule: after a tenant has indexed {@value #MIN_CHECK_ROWS} rows, or a sixty-fourth of its
 * indexes' leaf pages in rows when that is more, a background thread reads each index's segment
 * sizes ({@link #segments}: a few index seeks per segment). When the pages outside the largest
 * segment reach {@link #GROWTH} of the largest, the index is merged down to one segment
 * ({@link #merge}): that rewrites the index, so it runs once per quarter of growth, never per write
 * (about five times the index size written over its lifetime). Otherwise, with more than
 * {@value #COLLAPSE_AT} segments, the levels holding several segments are merged into one each
 * ({@link #collapse}), which rewrites only small segments as a rule; while writers index rows, in no
 * more steps than the pages outside the largest segment need ({@link #collapseSteps}): they add a
 * segment with every transaction that indexes rows (the indexes are contentless since schema version
 * 7, so a deletion adds none: it is a tombstone kept with the segment holding the entry, which FTS5
 * merges away when it rewrites that segment, as its own automerge does once a tenth of a segment's
 * rows are deleted, and as every merge here and the erasure's {@code optimize} do), so a collapse
 * that went on until no level held two rarely ended while they wrote (on the 1,000-user benchmark tenant under four writers, checks took 2 to 34 steps
 * per index, 34 being the limit: a merge transaction every five {@code recordTurn} calls and about
 * 30 % more CPU per call); what they add meanwhile waits for the next check, and a collapse they cut
 * short is checked again once they have paused for a second ({@link #settle}; at once when the store
 * closes), which collapses to the end. Merges run in steps of about {@value #STEP_PAGES} pages, each
 * its own short write transaction committed without its own fsync ({@link
 * TenantDatabase#writeUnsynced}) or checkpoint (a passive checkpoint outside the write lock follows
 * once the steps changed about as many rows as SQLite's automatic checkpoint waits for log pages,
 * {@link #checkpoint}, and every check ends with one, which takes the writers' log too), and a step
 * waits (at most 50 ms) for writers already queued for the tenant, so they go first; merging changes
 * no search result (BM25 statistics are the index's totals, whatever its segments).
 *
 * <p>A tenant is looked up by id through the store before every read and step of a check, so each
 * counts as a use of the tenant and the store's bound on open tenants holds. One daemon thread per
 * store, started by the first check and ended after 30 s without work (it stays up while a tenant
 * waits to settle). {@link #close} runs the checks already queued (merges included), then checks, on
 * the closing thread, every tenant whose collapse was cut short, and every tenant the store holds
 * open that wrote more than {@value #COLLAPSE_AT} times since its last check (so the next open finds
 * its indexes collapsed), and then stops; {@value #CLOSE_WAIT_SECONDS} s after close began it stops a
 * merge between two steps (waiting up to as long again for that step), which leaves a valid index
 * that a later merge completes, and drops the checks not yet run. Failures are logged (the first of a
 * run of failures per tenant as a warning), never thrown: upkeep only ever affects speed. Thread-safe.
 */
final class IndexUpkeep implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(IndexUpkeep.class);

    /** The FTS5 indexes of a tenant database. */
    static final List<String> INDEXES = List.of("memories_fts", "observations_fts", "archive_fts");
    /** An index is merged when its pages outside the largest segment reach this share of the largest. */
    static final double GROWTH = 0.25;
    /** Fewest rows indexed between two checks of a tenant. */
    static final int MIN_CHECK_ROWS = 256;
    /** A tenant is checked again after indexing 1/{@code CHECK_SHARE} of its indexes' leaf pages in rows. */
    static final int CHECK_SHARE = 64;
    /** More segments than this (none of them past {@link #GROWTH}) get their levels collapsed. */
    static final int COLLAPSE_AT = 4;
    /** Pages one merge step writes, about (one write transaction; FTS5 ends a step at a term). */
    static final int STEP_PAGES = 500;
    /** How long {@link #close} waits for queued and running checks before stopping a merge. */
    static final int CLOSE_WAIT_SECONDS = 30;
    /** Longest a merge step waits for queued writers to go first. */
    private static final long YIELD_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final Function<String, TenantDatabase> databases;
    /** Whether the store holds a tenant open now (close checks no tenant it would have to reopen). */
    private final Predicate<String> open;
    private final Map<String, Tenant> tenants = new ConcurrentHashMap<>();
    private final ThreadPoolExecutor executor;
    /** Set by {@link #close}: no new check is queued. */
    private final AtomicBoolean closing = new AtomicBoolean();
    /** When {@link #settleAll} must stop ({@link System#nanoTime}), once {@link #closeTimed}. */
    private volatile long closeDeadline;
    private volatile boolean closeTimed;
    /** Set when {@link #close} gave up waiting: a running merge stops before its next step. */
    private final AtomicBoolean abort = new AtomicBoolean();
    /** What stops a check's merge before its next step: {@link #abort}, or the end of close's time. */
    private final BooleanSupplier stop = () -> abort.get() || (closeTimed && System.nanoTime() - closeDeadline >= 0);
    private volatile int minCheckRows = MIN_CHECK_ROWS;
    /** How long a tenant's writers must have paused before a collapse they cut short is finished. */
    static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(1);
    private volatile long quietNanos = QUIET_NANOS;
    private final AtomicLong checks = new AtomicLong();
    /** Tenants whose collapse writers cut short, until {@link #settle} checks them. */
    private final Set<String> unsettled = ConcurrentHashMap.newKeySet();
    /** Whether a {@link #settle} task is queued or running. */
    private final AtomicBoolean settleQueued = new AtomicBoolean();
    /** Runs between two steps of a check's merges (tests); {@code null}: nothing. */
    private volatile Runnable betweenSteps;

    /** Upkeep of the tenants {@code databases} opens (and marks used) by tenant id. */
    IndexUpkeep(Function<String, TenantDatabase> databases, Predicate<String> open) {
        this.databases = databases;
        this.open = open;
        ClassLoader loader = IndexUpkeep.class.getClassLoader();
        this.executor = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "reverie-sqlite-index-upkeep");
            t.setDaemon(true);
            t.setContextClassLoader(loader);
            return t;
        });
        executor.allowCoreThreadTimeOut(true);
    }

    /** What upkeep knows of one tenant. */
    private static final class Tenant {
        final AtomicLong indexed = new AtomicLong();
        final AtomicBoolean queued = new AtomicBoolean();
        /** {@link System#nanoTime} of the last rows indexed. */
        volatile long lastIndexed;
        /** Writes that indexed rows since the last check began (each adds a segment to an index or more). */
        final AtomicLong writes = new AtomicLong();
        volatile long nextCheck;
        volatile boolean warned;

        Tenant(long nextCheck) {
            this.nextCheck = nextCheck;
            this.lastIndexed = System.nanoTime();
        }
    }

    /** A segment of an FTS5 index: its id and its leaf pages. */
    record Segment(long id, long pages) {
    }

    /**
     * Notes that {@code rows} rows were indexed (written, replaced or deleted) in the FTS5 indexes of
     * {@code tenantId} by a committed write; queues a check of the tenant when enough were since its
     * last one.
     */
    void indexed(String tenantId, int rows) {
        if (rows <= 0) {
            return;
        }
        Tenant t = tenants.computeIfAbsent(tenantId, k -> new Tenant(minCheckRows));
        t.lastIndexed = System.nanoTime();
        t.writes.incrementAndGet();
        if (t.indexed.addAndGet(rows) >= t.nextCheck) {
            queue(tenantId, t);
        }
    }

    private void queue(String tenantId, Tenant t) {
        if (closing.get() || !t.queued.compareAndSet(false, true)) {
            return;
        }
        try {
            executor.execute(() -> check(tenantId, t));
        } catch (RejectedExecutionException e) {
            t.queued.set(false); // closed meanwhile
        }
    }

    /**
     * Reads each index's segments and merges the ones due; queues the tenant again when rows enough
     * for another check were indexed while it ran.
     */
    private void check(String tenantId, Tenant t) {
        boolean again = false;
        boolean cutShort = false;
        checks.incrementAndGet();
        try {
            t.indexed.set(0);
            t.writes.set(0);
            // the database is looked up through the store before every read and step: a look-up marks the
            // tenant used, so the store's bound on open tenants holds even when it was closed meanwhile
            Supplier<TenantDatabase> db = () -> databases.apply(tenantId);
            long pages = 0;
            for (String index : INDEXES) {
                List<Segment> segments = segments(db.get(), index);
                pages += segments.stream().mapToLong(Segment::pages).sum();
                if (fragmented(segments)) {
                    merge(db, index, STEP_PAGES, maxSteps(segments), stop, betweenSteps);
                } else if (segments.size() > COLLAPSE_AT && !collapse(db, index, STEP_PAGES, maxSteps(segments),
                        collapseSteps(segments), () -> !closing.get() && t.indexed.get() > 0, stop, betweenSteps)
                        && t.indexed.get() > 0) {
                    // writers of this process cut it short (not the step limit, nor another process's writes,
                    // which would make settle check it again at once, and again)
                    cutShort = true;
                }
            }
            // once per check, outside the write lock: the log the writers filled since the last one goes
            // to the file here, so their own automatic checkpoint, which runs inside a commit under the
            // lock (hundreds of milliseconds on a large tenant), seldom comes due
            checkpoint(db.get(), "the tenant");
            t.nextCheck = Math.max(minCheckRows, pages / CHECK_SHARE);
            t.warned = false;
            again = t.indexed.get() >= t.nextCheck;
        } catch (StoreClosedException e) {
            // the store closed under the check: nothing to keep up any more
        } catch (RuntimeException e) {
            // back off, so a tenant that keeps failing (a damaged index, a file another process locks)
            // is not retried every few writes
            t.nextCheck = Math.min(Long.MAX_VALUE / 4, Math.max(minCheckRows, t.nextCheck) * 4);
            if (!t.warned) {
                t.warned = true;
                LOG.warn("index upkeep of tenant '{}' failed (searches stay correct, only slower until a later"
                        + " merge; retried after more writes): {}", tenantId, e.toString());
            } else {
                LOG.debug("index upkeep of tenant '{}' failed again: {}", tenantId, e.toString());
            }
        } finally {
            // rows indexed while the check ran queue it again, decided before the flag is cleared, so a
            // waiter never sees the tenant idle between the two
            if (!again || !requeue(tenantId, t)) {
                if (cutShort) {
                    queueSettle(tenantId); // before the flag is cleared: a waiter never sees the tenant idle
                }
                t.queued.set(false);
            }
        }
    }

    /**
     * Notes a tenant whose collapse its writers cut short, for {@link #settle}, and queues the settle
     * task when none is and the store is not closing (then {@link #settleAll} checks it).
     */
    private void queueSettle(String tenantId) {
        unsettled.add(tenantId);
        if (!closing.get() && settleQueued.compareAndSet(false, true)) {
            try {
                executor.execute(this::settle);
            } catch (RejectedExecutionException e) {
                settleQueued.set(false); // closed meanwhile
            }
        }
    }

    /**
     * Checks each tenant of {@link #unsettled} whose writers have paused for the quiet time
     * ({@link #QUIET_NANOS} unless a test set another), so
     * the collapse they cut short goes on to the end: without it, a tenant whose writes stopped right
     * after a check would keep the small segments of the burst until its next check, which only more
     * writes bring. One task for all of them: while some are still being written, it goes to the back
     * of the queue, sleeping (at most 100 ms at a time) only when no other task is queued; the thread
     * stays up as long as a tenant waits to settle.
     */
    private void settle() {
        try {
            long now = System.nanoTime();
            for (String tenantId : unsettled) {
                if (closing.get()) {
                    break; // settleAll checks what is left, on the closing thread
                }
                Tenant t = tenants.get(tenantId);
                if (t == null) {
                    unsettled.remove(tenantId);
                } else if (now - t.lastIndexed >= quietNanos && t.queued.compareAndSet(false, true)) {
                    // flag first, so a waiter never sees the tenant idle in between (see awaitIdle); while a
                    // check holds the flag (the one that listed the tenant may not have cleared it yet, on
                    // another thread) the tenant stays listed for the next round
                    unsettled.remove(tenantId);
                    check(tenantId, t);
                }
            }
        } finally {
            settleQueued.set(false);
        }
        if (unsettled.isEmpty() || closing.get() || !settleQueued.compareAndSet(false, true)) {
            return;
        }
        if (executor.getQueue().isEmpty()) {
            try {
                TimeUnit.MILLISECONDS.sleep(Math.max(1, Math.min(100, TimeUnit.NANOSECONDS.toMillis(quietNanos))));
            } catch (InterruptedException e) {
                settleQueued.set(false); // closing without draining
                Thread.currentThread().interrupt();
                return;
            }
        }
        try {
            executor.execute(this::settle);
        } catch (RejectedExecutionException e) {
            settleQueued.set(false);
        }
    }

    /** Queues another check of a tenant whose flag is still set; false when closing. */
    private boolean requeue(String tenantId, Tenant t) {
        if (closing.get()) {
            return false;
        }
        try {
            executor.execute(() -> check(tenantId, t));
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** Most steps a merge of these segments may take: twice its pages in steps, and some. */
    private static int maxSteps(List<Segment> segments) {
        long pages = segments.stream().mapToLong(Segment::pages).sum();
        return (int) Math.min(Integer.MAX_VALUE, 2 * pages / STEP_PAGES + 16);
    }

    /**
     * Most steps a collapse of these segments takes: enough to write the pages outside the largest
     * segment once ({@value #STEP_PAGES} per step), and one more.
     */
    static int collapseSteps(List<Segment> segments) {
        long largest = 0;
        long total = 0;
        for (Segment s : segments) {
            largest = Math.max(largest, s.pages());
            total += s.pages();
        }
        return (int) Math.min(Integer.MAX_VALUE, (total - largest) / STEP_PAGES + 1);
    }

    /** Whether an index of these segments is worth a full merge. */
    static boolean fragmented(List<Segment> segments) {
        if (segments.size() < 2) {
            return false;
        }
        long largest = 0;
        long total = 0;
        for (Segment s : segments) {
            largest = Math.max(largest, s.pages());
            total += s.pages();
        }
        return total - largest >= GROWTH * largest;
    }

    /**
     * The segments of {@code index}, each with its leaf pages. The segment ids come from the
     * {@code _idx} table (a segment's first leaf always starts a term, so each has a row there), read
     * by skipping from one id to the next. A segment's leaves are the {@code _data} rows between ids
     * {@code segid << 37} and {@code (segid << 37) + 2^31 - 1} (FTS5 lays out a page's id as segment
     * id, doclist-index bit, height and page number, 16 + 1 + 5 + 31 bits; a file format, stable since
     * FTS5's first release); counted as last minus first plus one, since a segment that an unfinished
     * merge has partly consumed no longer starts at page 1. Counting {@code _idx} rows instead would
     * miss the pages of long doclists, which start no term.
     */
    static List<Segment> segments(TenantDatabase db, String index) {
        String idx = index + "_idx";
        String data = index + "_data";
        String leaves = " FROM " + data + " WHERE id BETWEEN s.id << 37 AND (s.id << 37) + 2147483647";
        return db.query("WITH RECURSIVE s(id) AS (SELECT min(segid) FROM " + idx
                        + " UNION ALL SELECT (SELECT min(segid) FROM " + idx + " WHERE segid > s.id) FROM s"
                        + " WHERE s.id IS NOT NULL)"
                        + " SELECT s.id, (SELECT max(id)" + leaves + ") - (SELECT min(id)" + leaves + ") + 1"
                        + " FROM s WHERE s.id IS NOT NULL",
                rs -> new Segment(rs.getLong(1), rs.getLong(2)));
    }

    /**
     * Merges {@code index} down to one segment in steps of about {@code pages} pages, each its own
     * write transaction: the first step starts the merge ({@code 'merge'} with a negative page count,
     * which gathers every segment into one merge at a new level) and sets {@code usermerge} to 2; the
     * later ones continue it ({@code 'merge'} with a positive count). A positive step merges the level
     * with the most segments, a merge in progress counting as its input segments (two or more), so
     * with {@code usermerge} 2 every step does work until the gathered merge is done: segments that
     * writers add meanwhile are merged on the way (they are small) and never make a step find nothing
     * (with the default {@code usermerge} 4, two writer segments could, leaving the merge half done),
     * and a negative step after the first would start over whenever a writer added a segment, never
     * finishing under steady writes. Before each step after the first, writers already waiting for
     * the tenant go first (at most 50 ms). Stops when FTS5 reports no more work, after {@code steps}
     * steps, or when {@code stop} is set; {@code between} (tests) runs between two steps.
     *
     * @param db the tenant's database, looked up again before each step
     * @return the steps taken when FTS5 reported the merge complete, or -1 when it was stopped first
     */
    static int merge(Supplier<TenantDatabase> db, String index, int pages, int steps, BooleanSupplier stop,
                     Runnable between) {
        return steps(db, index, -pages, pages, steps, steps, () -> false, stop, between);
    }

    /**
     * Merges the segments of each level of {@code index} that holds two or more into one ({@code 'merge'}
     * with a positive page count and {@code usermerge} 2), in steps as {@link #merge} takes them: the
     * small segments that the writes since the last full merge left become one per level. A level is
     * merged when it holds two segments (automerge waits for four), a merge in progress counting as its
     * inputs; the largest segment is rewritten only when a level of its size has two. Under steady
     * writes there is always a level with two more (every write transaction adds a segment), so after
     * {@code stepsUnderWrites} steps ({@link #collapseSteps}) a collapse stops as soon as {@code
     * written} says rows were indexed meanwhile (since its check began), and goes on to the end
     * otherwise (a tenant whose writers paused, or a store closing, is left with one segment per
     * level); {@code between} (tests) runs between two steps.
     *
     * @return whether FTS5 reported no more work before {@code steps} steps, the writes or {@code stop}
     */
    static boolean collapse(Supplier<TenantDatabase> db, String index, int pages, int steps, int stepsUnderWrites,
                            BooleanSupplier written, BooleanSupplier stop, Runnable between) {
        return steps(db, index, pages, pages, steps, stepsUnderWrites, written, stop, between) > 0;
    }

    /**
     * The step loop of {@link #merge} and {@link #collapse}: a first {@code 'merge'} of {@code first}
     * pages (with {@code usermerge} 2 set), then steps of {@code pages}, each after waiting writers,
     * no more than {@code stepsUnderWrites} while {@code written}; returns the steps taken when FTS5
     * reported no more work, or -1 when stopped first.
     */
    private static int steps(Supplier<TenantDatabase> db, String index, int first, int pages, int steps,
                             int stepsUnderWrites, BooleanSupplier written, BooleanSupplier stop, Runnable between) {
        long unCheckpointed = 0;
        for (int step = 0; step < steps; step++) {
            if (stop != null && stop.getAsBoolean()) {
                return -1;
            }
            TenantDatabase d = db.get();
            if (step > 0) {
                if (between != null) {
                    between.run();
                }
                d.yieldToWriters(YIELD_NANOS); // writers waiting now go first (their rows count once committed)
                if (step >= stepsUnderWrites && written.getAsBoolean()) {
                    return -1;
                }
            }
            long changes = mergeStep(d, index, step == 0 ? first : pages, step == 0);
            unCheckpointed += changes;
            if (unCheckpointed >= TenantDatabase.WAL_AUTOCHECKPOINT) {
                checkpoint(d, index);
                unCheckpointed = 0;
            }
            // FTS5: fewer than two changes means the merge found nothing left to do
            if (changes < 2) {
                return step + 1;
            }
        }
        return -1;
    }

    /**
     * One {@code 'merge'} command in its own write transaction, committed without its own fsync or a
     * checkpoint ({@link TenantDatabase#writeUnsynced}), with {@code usermerge} set to 2 first when asked
     * and not set already (a config write makes every reader reload the index's settings); returns the
     * rows it changed in the index's tables, about the pages it wrote and freed.
     */
    private static long mergeStep(TenantDatabase db, String index, int pages, boolean setUsermerge) {
        return db.writeUnsynced(c -> {
            if (setUsermerge && !usermergeIsTwo(c, index)) {
                Jdbc.update(c, "INSERT INTO " + index + " (" + index + ", rank) VALUES ('usermerge', 2)");
            }
            long before = totalChanges(c);
            Jdbc.update(c, "INSERT INTO " + index + " (" + index + ", rank) VALUES ('merge', ?)", pages);
            return totalChanges(c) - before;
        });
    }

    /**
     * A passive checkpoint outside the write lock, once the merge steps since the last one changed
     * {@value TenantDatabase#WAL_AUTOCHECKPOINT} rows of the index's tables (its pages written and
     * freed; SQLite's automatic checkpoint waits for as many log pages): a merge carries no acknowledged
     * data, so its commits neither wait for the disk nor checkpoint under the write lock, and the log
     * they leave is checkpointed here, as often as the writes of a client would have it checkpointed
     * and not more (after every step, the small steps of collapses under steady writes made a
     * checkpoint, and its fsync of the database file, every few {@code recordTurn} calls). What a few
     * small steps leave goes with the check's own checkpoint at its end.
     */
    private static void checkpoint(TenantDatabase db, String index) {
        try {
            db.checkpointPassive();
        } catch (StoreClosedException e) {
            throw e;
        } catch (RuntimeException e) {
            // the step is committed and the index fine; the writer's own checkpoint catches up
            LOG.debug("passive checkpoint after merge steps of {} failed: {}", index, e.toString());
        }
    }

    private static boolean usermergeIsTwo(Connection c, String index) throws SQLException {
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT v FROM " + index + "_config WHERE k = 'usermerge'")) {
            return rs.next() && rs.getLong(1) == 2;
        }
    }

    private static long totalChanges(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT total_changes()")) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    /** How many checks ran (tests and diagnostics). */
    long checks() {
        return checks.get();
    }

    /** Sets how long writers must pause before a collapse they cut short is finished (tests). */
    void quietAfter(long nanos) {
        this.quietNanos = nanos;
    }

    /** Runs {@code action} between two steps of every merge and collapse of a check ({@code null}: none; tests). */
    void betweenSteps(Runnable action) {
        this.betweenSteps = action;
    }

    /**
     * Sets the fewest rows indexed between two checks, for tenants noted from now on (tests:
     * {@code Integer.MAX_VALUE} never checks, not even at close; a load's exact size checks once, after
     * its last write).
     */
    void checkEvery(int rows) {
        this.minCheckRows = rows;
    }

    /** Runs a check of {@code tenantId} on the calling thread, once the queued ones have run (tests). */
    void checkNow(String tenantId) {
        Tenant t = tenants.computeIfAbsent(tenantId, k -> new Tenant(minCheckRows));
        do {
            awaitIdle();
            if (closing.get()) {
                return;
            }
        } while (!t.queued.compareAndSet(false, true));
        check(tenantId, t);
        awaitIdle(); // a check it queued again
    }

    /**
     * Waits until no check is queued, running or due, including the checks those queue again and the
     * settling checks of tenants quiet for long enough (tests and benchmarks; a tenant whose writers
     * paused for less is not waited for); returns at once after {@link #close}.
     */
    void awaitIdle() {
        while (!closing.get()) {
            CountDownLatch reached = new CountDownLatch(1);
            try {
                executor.execute(reached::countDown); // the queue is first in, first out: earlier checks ran
            } catch (RejectedExecutionException e) {
                return;
            }
            try {
                reached.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            // the due settles, the flags, the due settles again: settle sets a flag before it takes a tenant
            // off the list, and a check puts it back before it clears the flag, so no interleaving of
            // the two passes all three reads while a check is due, queued or running
            if (!settlesDue() && tenants.values().stream().noneMatch(t -> t.queued.get()) && !settlesDue()) {
                return;
            }
        }
    }

    /** Whether a tenant waits to settle and has been quiet long enough for it. */
    private boolean settlesDue() {
        long now = System.nanoTime();
        return unsettled.stream().map(tenants::get).anyMatch(t -> t != null && now - t.lastIndexed >= quietNanos);
    }

    /**
     * Runs the checks already queued (merges included), queues no new one, stops the thread, then
     * checks the tenants {@link #settleAll} names on the calling thread; after {@value
     * #CLOSE_WAIT_SECONDS} s a running merge stops between two steps (waiting up to as long again for
     * that step), no further check starts and the rest is dropped. Without {@code drain} (an in-memory
     * store, whose data goes with it) it stops at once.
     */
    void close(boolean drain) {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        long started = System.nanoTime();
        if (!drain) {
            abort.set(true);
            executor.shutdownNow();
        } else {
            executor.shutdown();
        }
        try {
            if (!executor.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("index upkeep was still merging {} s after close began: it stops after its current step"
                        + " (the index stays valid; a later merge completes it)", CLOSE_WAIT_SECONDS);
                abort.set(true);
                executor.shutdownNow();
                executor.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            abort.set(true);
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
        if (drain && !abort.get() && minCheckRows != Integer.MAX_VALUE) {
            closeDeadline = started + TimeUnit.SECONDS.toNanos(CLOSE_WAIT_SECONDS);
            closeTimed = true;
            settleAll();
        }
        tenants.clear();
    }

    /**
     * On the closing thread, once the queued checks ran: a check of every tenant whose collapse was cut
     * short, and of every tenant the store holds open that wrote more times since its last check began
     * than a collapse leaves segments (each write adds one), so the next open finds its indexes
     * collapsed (writes that still arrive while the store closes no longer cut a collapse short);
     * a merge stops between two steps, and no check starts, {@link #CLOSE_WAIT_SECONDS} s after
     * close began.
     */
    private void settleAll() {
        for (Map.Entry<String, Tenant> e : tenants.entrySet()) {
            if (stop.getAsBoolean()) {
                LOG.debug("index upkeep left some tenants unchecked at close after {} s", CLOSE_WAIT_SECONDS);
                return;
            }
            String tenantId = e.getKey();
            Tenant t = e.getValue();
            boolean due = unsettled.contains(tenantId) || (t.writes.get() > COLLAPSE_AT && open.test(tenantId));
            if (due && t.queued.compareAndSet(false, true)) {
                check(tenantId, t);
            }
        }
    }

    @Override
    public void close() {
        close(true);
    }
}
