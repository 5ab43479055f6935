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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps each tenant's FTS5 indexes merged while the store is written, so a search's cost stays
 * bounded without the nightly {@code maintain} of a dream run. FTS5 writes every transaction as a new
 * segment and merges only segments of similar size (its automerge), so a busy or bulk-loaded index
 * ends up in a dozen or more large segments, and every query term is looked up in each (and
 * {@code bm25()} looks it up again to count its rows): on the 1,000-user benchmark tenant a memory
 * search took three times as long in 16 segments as in one.
 *
 * <p>Rule: after the store has indexed, in a tenant, rows numbering an eighth of the tenant's
 * indexes' leaf pages (at least {@value #MIN_CHECK_ROWS}), a background thread counts each index's
 * leaf pages per segment ({@link #segmentPages}).
 * When the pages outside the largest segment reach {@link #GROWTH} of the largest, the index is
 * merged down to one segment: a full merge rewrites the index, so it runs once per quarter of
 * growth, never per write (about five times the index size written over its lifetime). Otherwise,
 * with more than two segments, the levels holding several small segments are merged into one each
 * ({@link #collapse}): the writes since the last full merge leave a dozen one- to four-page segments,
 * each of which costs every query term a lookup. Merges run in steps of at least
 * {@value #STEP_PAGES} pages, each its own short write transaction, so writers interleave; merging
 * changes no search result (BM25 statistics are the index's totals, whatever its segments).
 *
 * <p>One daemon thread per store, started with the first check. {@link #close} lets a running merge
 * finish (at most {@value #CLOSE_WAIT_SECONDS} s; after that it stops between two steps, which leaves a
 * valid index that a later merge completes) and starts no new check. Failures are logged, never
 * thrown: upkeep only ever affects speed. Thread-safe.
 */
final class IndexUpkeep implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(IndexUpkeep.class);

    /** The FTS5 indexes of a tenant database. */
    static final List<String> INDEXES = List.of("memories_fts", "observations_fts", "archive_fts");
    /** An index is merged when its pages outside the largest segment reach this share of the largest. */
    static final double GROWTH = 0.25;
    /** Fewest rows indexed between two checks of a tenant. */
    static final int MIN_CHECK_ROWS = 256;
    /** A tenant is checked again after indexing this share of its indexes' leaf pages in rows. */
    static final int CHECK_SHARE = 64;
    /** Pages one merge step writes at least (one write transaction). */
    static final int STEP_PAGES = 500;
    /** Most steps of one merge: a merge that has not converged by then continues at the next check. */
    static final int MAX_STEPS = 10_000;
    static final int CLOSE_WAIT_SECONDS = 30;

    private final Map<TenantDatabase, Tenant> tenants = new ConcurrentHashMap<>();
    private final ExecutorService executor;
    /** Set by {@link #close}: no new check starts, and a running one starts no new index. */
    private final AtomicBoolean closing = new AtomicBoolean();
    /** Set when {@link #close} gave up waiting: a running merge stops before its next step. */
    private final AtomicBoolean abort = new AtomicBoolean();
    private volatile int minCheckRows;
    /** The last task submitted, for {@link #awaitIdle} (tests and benchmarks). */
    private volatile CompletableFuture<Void> last = CompletableFuture.completedFuture(null);

    IndexUpkeep() {
        this.minCheckRows = MIN_CHECK_ROWS;
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "reverie-sqlite-index-upkeep");
                    t.setDaemon(true);
                    return t;
                });
        this.executor = pool;
    }

    /** What upkeep knows of one tenant database. */
    private static final class Tenant {
        final AtomicLong indexed = new AtomicLong();
        final AtomicBoolean queued = new AtomicBoolean();
        volatile long nextCheck;

        Tenant(long nextCheck) {
            this.nextCheck = nextCheck;
        }
    }

    /**
     * Notes that {@code rows} rows were indexed (written, replaced or deleted) in {@code db}'s FTS5
     * indexes by a committed write; queues a check of the tenant when enough were since its last one.
     */
    void indexed(TenantDatabase db, int rows) {
        if (rows <= 0 || closing.get()) {
            return;
        }
        Tenant t = tenants.computeIfAbsent(db, k -> new Tenant(minCheckRows));
        if (t.indexed.addAndGet(rows) < t.nextCheck || !t.queued.compareAndSet(false, true)) {
            return;
        }
        synchronized (this) {
            if (closing.get()) {
                t.queued.set(false);
                return;
            }
            last = CompletableFuture.runAsync(() -> check(db, t), executor);
        }
    }

    /** Runs a check of {@code db} on the calling thread (tests). */
    void checkNow(TenantDatabase db) {
        Tenant t = tenants.computeIfAbsent(db, k -> new Tenant(minCheckRows));
        t.queued.set(true);
        check(db, t);
    }

    /** Counts each index's pages per segment and merges the ones past {@link #GROWTH}. */
    private void check(TenantDatabase db, Tenant t) {
        try {
            t.indexed.set(0);
            long pages = 0;
            for (String index : INDEXES) {
                if (closing.get()) {
                    return;
                }
                List<Long> segments = segmentPages(db, index);
                pages += segments.stream().mapToLong(Long::longValue).sum();
                if (fragmented(segments)) {
                    merge(db, index, STEP_PAGES, MAX_STEPS, abort);
                } else if (segments.size() > 2) {
                    collapse(db, index, STEP_PAGES, MAX_STEPS, abort);
                }
            }
            // a check reads the segments' index rows (at most one per leaf page): checking after an eighth as
            // many rows indexed as there are pages keeps its cost per row written constant
            t.nextCheck = Math.max(minCheckRows, pages / CHECK_SHARE);
        } catch (StoreClosedException e) {
            // the store closed under the check: nothing to keep up any more
        } catch (RuntimeException e) {
            LOG.warn("index upkeep of {} failed (searches stay correct, only slower until the next merge): {}",
                    db.label(), e.toString());
        } finally {
            t.queued.set(false);
        }
    }

    /** Whether an index of these segment sizes (leaf pages) is worth a full merge. */
    static boolean fragmented(List<Long> segmentPages) {
        if (segmentPages.size() < 2) {
            return false;
        }
        long largest = 0;
        long total = 0;
        for (long p : segmentPages) {
            largest = Math.max(largest, p);
            total += p;
        }
        return total - largest >= GROWTH * largest;
    }

    /**
     * The leaf pages of each segment of {@code index}. The segments are the ones its {@code _idx}
     * table names (a segment's first leaf always starts a term, so each has a row there); a segment's
     * leaf count is the page number of its last leaf, read with one seek in the {@code _data} table,
     * whose row ids FTS5 lays out as (segment id, height, page number): {@code segid << 37} plus the
     * page for leaves (file format, stable since FTS5's first release). Counting {@code _idx} rows
     * instead would miss the pages of long doclists, which start no term.
     */
    static List<Long> segmentPages(TenantDatabase db, String index) {
        return db.query("SELECT (SELECT max(id) FROM " + index + "_data WHERE id BETWEEN s.segid << 37"
                        + " AND (s.segid << 37) + 2147483647) - (s.segid << 37)"
                        + " FROM (SELECT DISTINCT segid FROM " + index + "_idx) s",
                rs -> rs.getLong(1));
    }

    /**
     * Merges {@code index} towards one segment in steps of at least {@code pages} pages, each its own
     * write transaction, until FTS5 reports no more work, {@code steps} steps have run or {@code stop}
     * is set. Returns whether FTS5 reported the merge complete.
     */
    static boolean merge(TenantDatabase db, String index, int pages, int steps, AtomicBoolean stop) {
        for (int step = 0; step < steps; step++) {
            if (stop != null && stop.get()) {
                return false;
            }
            boolean more = db.write(c -> {
                long before = totalChanges(c);
                Jdbc.update(c, "INSERT INTO " + index + " (" + index + ", rank) VALUES ('merge', ?)", -pages);
                // FTS5: fewer than two changes means the merge found nothing left to do
                return totalChanges(c) - before >= 2;
            });
            if (!more) {
                return true;
            }
        }
        return false;
    }

    /**
     * Merges the segments of each level of {@code index} that holds two or more (FTS5's {@code merge}
     * with a positive page count and {@code usermerge} 2), in steps as {@link #merge} takes them: the
     * small segments that the writes since the last full merge left, level by level, become one per
     * level. It rewrites the largest segment only when a level of its size has filled up, as
     * automerge would, so it is cheap; each small segment costs every query term a lookup (on the
     * 1,000-user benchmark tenant after 5,000 exchanges, a dozen one- to four-page segments took an
     * observation search from 0.22 to 0.36 ms).
     */
    static boolean collapse(TenantDatabase db, String index, int pages, int steps, AtomicBoolean stop) {
        for (int step = 0; step < steps; step++) {
            if (stop != null && stop.get()) {
                return false;
            }
            boolean first = step == 0;
            boolean more = db.write(c -> {
                if (first) {
                    Jdbc.update(c, "INSERT INTO " + index + " (" + index + ", rank) VALUES ('usermerge', 2)");
                }
                long before = totalChanges(c);
                Jdbc.update(c, "INSERT INTO " + index + " (" + index + ", rank) VALUES ('merge', ?)", pages);
                return totalChanges(c) - before >= 2;
            });
            if (!more) {
                return true;
            }
        }
        return false;
    }

    private static long totalChanges(Connection c) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT total_changes()")) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    /**
     * Sets the fewest rows indexed between two checks, for tenants noted from now on (tests:
     * {@code Integer.MAX_VALUE} never checks, a load's exact size checks once, after its last write).
     */
    void checkEvery(int rows) {
        this.minCheckRows = rows;
    }

    /** Waits until every check queued so far has run (tests and benchmarks). */
    void awaitIdle() {
        CompletableFuture<Void> f;
        do {
            f = last;
            f.join();
        } while (f != last);
    }

    /** Lets a running merge finish (bounded), then stops the thread; later notes are ignored. */
    @Override
    public void close() {
        synchronized (this) {
            if (!closing.compareAndSet(false, true)) {
                return;
            }
        }
        executor.shutdown();
        try {
            if (!executor.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("index upkeep still merging after {} s at close: it stops after its current step",
                        CLOSE_WAIT_SECONDS);
                abort.set(true);
                executor.shutdownNow();
                executor.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            abort.set(true);
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
        tenants.clear();
    }
}
