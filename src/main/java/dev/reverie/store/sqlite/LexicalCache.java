package dev.reverie.store.sqlite;

import dev.reverie.Memory;
import dev.reverie.MemoryStatus;
import dev.reverie.StyleProfile;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.TurnRange;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The full-text index of recently searched scopes, held in memory, one entry per (tenant, agent, end
 * user, table): a lexical search of a kept scope scores its documents here, with FTS5's own
 * {@code bm25()} formula over FTS5's own tokens, instead of asking SQLite, which scores every
 * matching row (on LoCoMo a memory search matches about 340 rows to keep 200) and then reads the
 * 200 rows again (the two searches were three fifths of {@code buildContext}).
 *
 * <p><b>Same results.</b> An entry holds, for every FTS5 row of the scope (every row carrying one of
 * the scope's prefixed tokens), its stemmed tokens as the index holds them (read through
 * {@code fts5vocab}, so stemming and tokenizing are SQLite's), its token count (from the index's
 * {@code docsize} table), and the table's row (record columns, status and kind), plus the index-wide
 * row count and token total (the index's averages record) that {@code bm25()} uses for IDF and the
 * average length. A search stems the query's phrases through SQLite too ({@link FtsStems}) and adds
 * each phrase's term in phrase order, with FTS5's constants and operations, so every row gets the
 * score {@code bm25()} gives it, and rows tie exactly where they tie in SQLite (ties go by row id, as
 * in the SQL). On x86-64 with glibc the scores are identical to the last bit (the tests compare them
 * as text); where the C compiler fuses multiply-adds or the C library rounds {@code log} differently
 * from Java, a score may differ in its last bit, and only rows whose scores differ by no more could
 * change places. A query
 * with a phrase that is not exactly one token (a word SQLite's tokenizer splits) is left to SQLite.
 *
 * <p><b>Never stale.</b> An entry is tagged with the database's {@link TenantDatabase.ChangeToken},
 * read before and after the entry's reads (an entry read while anything committed is not kept) and
 * again before every use: any commit to the file, by this process or another, whatever its Reverie
 * version, changes it, so a kept entry is used only while the database still holds exactly what it
 * was read from. The price is that any write to a tenant retires all of that tenant's entries
 * (recall statistics included, which a busy tenant commits every few seconds), and reading a scope
 * whole costs several SQLite searches of it. So a scope is read only once the searches SQLite
 * answered for it at one token returned {@value #DEFAULT_MIN_ROWS} rows in all: a hot scope with
 * many matches per search (on LoCoMo a conversation's fourth search of a table), not one searched a few
 * times between writes (on the JMH data set, where each user is searched a few times between two
 * commits of recall statistics, reading at a scope's second search put a read into one call in ten:
 * p90 12 against 3 ms).
 *
 * <p>Bounded by an estimate of the bytes it holds ({@link #maxBytes}), least recently used entries
 * dropped first; a scope larger than a quarter of the bound is not kept (nor read again), nor a table row without a
 * token in the index (no search finds it). While one search reads a scope, the others of that scope
 * ask SQLite. Erasing an end user drops
 * the user's entries, and an entry read before an erasure is never kept. Thread-safe (one lock
 * around the maps; searches run outside it on entries that never change). Not API.
 *
 * <p>It also keeps the decoded style profile of recently assembled scopes ({@link #style}), under
 * the same rules: used only at the token it was read at, dropped with the end user's entries, never
 * kept when an erasure happened while it was read ({@code buildContext} read and decoded it from
 * SQLite on every call).
 */
final class LexicalCache {

    /** The bound when none is given. */
    static final long DEFAULT_MAX_BYTES = 64L << 20;
    /** {@link #minRows} when none is given. */
    static final long DEFAULT_MIN_ROWS = 500;
    /** FTS5's {@code bm25()} defaults. */
    private static final double K1 = 1.2;
    private static final double B = 0.75;
    /** Scopes remembered as searched without an entry, with the token they were searched at. */
    private static final int MAX_SEEN = 16_384;

    record Key(String tenant, String agent, String user, String table) {
    }

    /**
     * One scope's rows of one FTS5 index, as the database held them at {@code token}: documents in
     * ascending row id, their token counts, table rows ({@code null} where the index has a row the
     * table has not), and postings (stemmed token to document positions and frequencies).
     */
    static final class Entry {
        final TenantDatabase.ChangeToken token;
        final long indexRows;
        final long indexTokens;
        final long[] rids;
        final int[] sizes;
        final Object[] rows;
        /** Per document: the row's status and kind names; {@code null} for a table without (turns have neither). */
        final String[] statusOf;
        final String[] kindOf;
        /** Stemmed token to (document, frequency) pairs, documents ascending. */
        final Map<String, int[]> postings;
        /**
         * Whether every row the scope has in the table is kept (else some had no token in the index:
         * searches never find those, but a read of rows by position must ask SQLite).
         */
        final boolean allRows;
        /**
         * For a table of archived turns: the documents in (session id, seq) order, as SQLite orders
         * them; else {@code null}.
         */
        private final int[] bySessionSeq;
        final long bytes;

        Entry(TenantDatabase.ChangeToken token, long indexRows, long indexTokens, long[] rids, int[] sizes,
              Object[] rows, String[] statuses, String[] kinds, Map<String, int[]> postings, long bytes,
              boolean allRows) {
            this.token = token;
            this.indexRows = indexRows;
            this.indexTokens = indexTokens;
            this.rids = rids;
            this.sizes = sizes;
            this.rows = rows;
            this.statusOf = statuses;
            this.kindOf = kinds;
            this.postings = postings;
            this.allRows = allRows;
            this.bySessionSeq = turnOrder(rows);
            this.bytes = bytes + (bySessionSeq == null ? 0 : 4L * bySessionSeq.length);
        }

        /** The positions of {@code rows} in (session, seq) order when they are all archived turns, else {@code null}. */
        private static int[] turnOrder(Object[] rows) {
            if (rows.length == 0) {
                return null;
            }
            for (Object row : rows) {
                if (!(row instanceof SessionTurn)) {
                    return null;
                }
            }
            Integer[] order = new Integer[rows.length];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> compare((SessionTurn) rows[a], (SessionTurn) rows[b]));
            int[] out = new int[order.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = order[i];
            }
            return out;
        }

        /** By session id, then seq: session ids are ASCII ({@code Checks.id}), so this is SQLite's BINARY order. */
        private static int compare(SessionTurn a, SessionTurn b) {
            int bySession = a.sessionId().compareTo(b.sessionId());
            return bySession != 0 ? bySession : Long.compare(a.seq(), b.seq());
        }

        /**
         * The archived turns kept here that lie in any of {@code ranges} (each once), ordered by
         * session id then seq, as {@code MemoryStore.archivedTurns(Scope, List)} returns them; {@code null}
         * when this entry cannot say (not a table of turns, or not every row of the scope is kept).
         */
        List<SessionTurn> turnsIn(List<TurnRange> ranges) {
            if (bySessionSeq == null || !allRows) {
                return null;
            }
            int n = bySessionSeq.length;
            java.util.BitSet chosen = new java.util.BitSet(n);
            for (TurnRange r : ranges) {
                // the first position at or after (session, fromSeq)
                int lo = 0;
                int hi = n;
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    SessionTurn t = (SessionTurn) rows[bySessionSeq[mid]];
                    int c = t.sessionId().compareTo(r.sessionId());
                    if (c < 0 || (c == 0 && t.seq() < r.fromSeq())) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                // from there on, the range's turns come first
                for (int p = lo; p < n; p++) {
                    SessionTurn t = (SessionTurn) rows[bySessionSeq[p]];
                    if (!r.contains(t.sessionId(), t.seq())) {
                        break;
                    }
                    chosen.set(p);
                }
            }
            List<SessionTurn> out = new ArrayList<>(chosen.cardinality());
            for (int p = chosen.nextSetBit(0); p >= 0; p = chosen.nextSetBit(p + 1)) {
                out.add((SessionTurn) rows[bySessionSeq[p]]);
            }
            return out;
        }

        /**
         * The permanent ACTIVE memories kept here, most important first, then by id (the order of
         * {@code MemoryStore.pinnedMemories}: ids are ASCII, so this is SQLite's BINARY order, and an
         * importance of -0.0 ties with 0.0 as in SQL), at most {@code limit}; {@code null} when this
         * entry cannot say (not a table of memories, or not every row of the scope is kept).
         */
        List<Memory> pinned(int limit) {
            if (!allRows) {
                return null;
            }
            List<Memory> all = pinned;
            if (all == null) {
                // found once per entry (an entry never changes; scanning every row on each call cost more
                // than SQL's index), filtered on the status column as the SQL and the searches are
                List<Memory> out = new ArrayList<>();
                for (int doc = 0; doc < rows.length; doc++) {
                    if (!(rows[doc] instanceof Memory m) || statusOf == null) {
                        return null;
                    }
                    if (m.permanent() && ACTIVE.equals(statusOf[doc])) {
                        out.add(m);
                    }
                }
                out.sort((a, b) -> a.importance() == b.importance() ? a.id().compareTo(b.id())
                        : Double.compare(b.importance(), a.importance()));
                all = List.copyOf(out);
                pinned = all;
            }
            return new ArrayList<>(all.subList(0, Math.min(limit, all.size())));
        }

        /** The entry's pinned memories in order, once {@link #pinned} has found them. */
        private volatile List<Memory> pinned;

        private static final String ACTIVE = MemoryStatus.ACTIVE.name();

        /**
         * The table rows of {@code rids} kept here, in the same order, or {@code null} when one is not
         * (a row deleted since, or one without a token in the index).
         */
        List<Object> rowsOf(List<Long> wanted) {
            List<Object> out = new ArrayList<>(wanted.size());
            for (long rid : wanted) {
                int doc = Arrays.binarySearch(rids, rid);
                if (doc < 0 || rows[doc] == null) {
                    return null;
                }
                out.add(rows[doc]);
            }
            return out;
        }

        /** A ranked hit: the document's position, its table row and its score ({@code bm25()} negated: higher is better). */
        record Hit(int doc, Object row, double score) {
        }

        /**
         * The {@code limit} best documents for the phrases {@code stems} (one stemmed token each, in
         * the query's order, repeats kept as FTS5 keeps them) among those with a row whose status is in
         * {@code statuses} and kind in {@code kinds} ({@code null}: no such filter), as the SQL search
         * ranks them: by {@code bm25()}, then by row id.
         */
        List<Hit> search(List<String> stems, Set<String> statuses, Set<String> kinds, int limit) {
            double avgdl = (double) indexTokens / (double) indexRows;
            double[] score = new double[rids.length];
            int[] touched = new int[rids.length];
            int matched = 0;
            for (String stem : stems) {
                int[] p = postings.get(stem);
                long rowsWithIt = p == null ? 0 : p.length / 2;
                // fts5Bm25Function: IDF = log((N - nHit + 0.5) / (nHit + 0.5)), at least 1e-6
                double idf = Math.log(((double) (indexRows - rowsWithIt) + 0.5) / ((double) rowsWithIt + 0.5));
                if (idf <= 0.0) {
                    idf = 1e-6;
                }
                if (p == null) {
                    continue; // adds 0.0 to every row's score, which changes none
                }
                for (int i = 0; i < p.length; i += 2) {
                    int doc = p[i];
                    double freq = p[i + 1];
                    double d = sizes[doc];
                    if (score[doc] == 0.0) {
                        touched[matched++] = doc;
                    }
                    score[doc] += idf * ((freq * (K1 + 1.0)) / (freq + K1 * (1 - B + B * d / avgdl)));
                }
            }
            // the SQL orders by bm25() = -1.0 * score, then row id; only the best {@code limit} are
            // ordered (a bounded heap whose head is the worst kept), not every matching document
            Comparator<Hit> order = (a, c) -> {
                int byScore = Double.compare(-1.0 * a.score(), -1.0 * c.score());
                return byScore != 0 ? byScore : Long.compare(rids[a.doc()], rids[c.doc()]);
            };
            if (limit <= 0) {
                return List.of();
            }
            PriorityQueue<Hit> best = new PriorityQueue<>(Math.min(limit, Math.max(1, matched)) + 1, order.reversed());
            for (int k = 0; k < matched; k++) {
                int doc = touched[k];
                if (rows[doc] != null && (statuses == null || statuses.contains(statusOf[doc]))
                        && (kinds == null || kinds.contains(kindOf[doc]))) {
                    Hit hit = new Hit(doc, rows[doc], score[doc]); // the SQL returns -bm25(), which is this
                    if (best.size() < limit) {
                        best.add(hit);
                    } else if (order.compare(hit, best.peek()) < 0) {
                        best.poll();
                        best.add(hit);
                    }
                }
            }
            Hit[] out = best.toArray(new Hit[0]);
            Arrays.sort(out, order);
            return Arrays.asList(out);
        }
    }

    /** Builds an {@link Entry} from one index's rows of a scope, in any order. */
    static final class Builder {
        private final Map<Long, Integer> docOf = new HashMap<>();
        private final List<Long> docRids = new ArrayList<>();
        /** Per stemmed token: document, frequency pairs as read (documents in any order). */
        private final Map<String, List<int[]>> counts = new HashMap<>();
        private long bytes = 256;

        /** One occurrence of {@code stem} in the index's row {@code rid}. */
        void occurrence(String stem, long rid) {
            Integer doc = docOf.get(rid);
            if (doc == null) {
                doc = docRids.size();
                docOf.put(rid, doc);
                docRids.add(rid);
                bytes += 64;
            }
            List<int[]> list = counts.get(stem);
            if (list == null) {
                list = new ArrayList<>();
                counts.put(stem, list);
                bytes += 64 + 2L * stem.length();
            }
            int[] last = list.isEmpty() ? null : list.get(list.size() - 1);
            if (last != null && last[0] == doc) {
                last[1]++;
            } else {
                list.add(new int[] {doc, 1});
                bytes += 8;
            }
        }

        /** Whether the index has a row {@code rid} among those seen so far. */
        boolean indexed(long rid) {
            return docOf.containsKey(rid);
        }

        /** The index's row ids seen so far, in the order first seen. */
        List<Long> rids() {
            return docRids;
        }

        /** Adds to the estimate of what the entry will hold (a row's record text, say). */
        void bytes(long more) {
            bytes += more;
        }

        long bytes() {
            return bytes;
        }

        /**
         * The entry: {@code sizes}, {@code rows}, {@code statuses} and {@code kinds} are given by row id
         * (absent: the table has no such row; statuses and kinds {@code null} when the table has none);
         * {@code allRows} says that every row the scope has in the table is among {@code rows}.
         */
        Entry build(TenantDatabase.ChangeToken token, long indexRows, long indexTokens, Map<Long, Integer> sizes,
                    Map<Long, Object> rows, Map<Long, String> statuses, Map<Long, String> kinds, boolean allRows) {
            int n = docRids.size();
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, c) -> Long.compare(docRids.get(a), docRids.get(c)));
            int[] position = new int[n];
            long[] rids = new long[n];
            int[] size = new int[n];
            Object[] row = new Object[n];
            String[] status = statuses == null ? null : new String[n];
            String[] kind = kinds == null ? null : new String[n];
            for (int p = 0; p < n; p++) {
                long rid = docRids.get(order[p]);
                position[order[p]] = p;
                rids[p] = rid;
                Integer s = sizes.get(rid);
                size[p] = s == null ? 0 : s;
                row[p] = rows.get(rid);
                if (status != null) {
                    status[p] = statuses.get(rid);
                }
                if (kind != null) {
                    kind[p] = kinds.get(rid);
                }
            }
            Map<String, int[]> postings = new HashMap<>(counts.size() * 2);
            for (Map.Entry<String, List<int[]>> e : counts.entrySet()) {
                List<int[]> list = e.getValue();
                int[] flat = new int[list.size() * 2];
                boolean ascending = true;
                for (int i = 0; i < list.size(); i++) {
                    flat[2 * i] = position[list.get(i)[0]];
                    flat[2 * i + 1] = list.get(i)[1];
                    ascending &= i == 0 || flat[2 * i] > flat[2 * i - 2];
                }
                // fts5vocab lists a term's rows in row id order, so this is the rare case: merge by document
                postings.put(e.getKey(), ascending ? flat : byDocument(flat));
            }
            return new Entry(token, indexRows, indexTokens, rids, size, row, status, kind, postings, bytes, allRows);
        }
    }

    /** (document, frequency) pairs sorted by document, one pair per document (frequencies added). */
    private static int[] byDocument(int[] pairs) {
        Map<Integer, Integer> byDoc = new TreeMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            byDoc.merge(pairs[i], pairs[i + 1], Integer::sum);
        }
        int[] flat = new int[byDoc.size() * 2];
        int i = 0;
        for (Map.Entry<Integer, Integer> d : byDoc.entrySet()) {
            flat[i++] = d.getKey();
            flat[i++] = d.getValue();
        }
        return flat;
    }

    private final long maxBytes;
    private final BoundedEntries<Key, Entry> byKey;
    /** A scope searched without an entry: the token of its searches and the rows they returned. */
    private record Seen(TenantDatabase.ChangeToken token, long rows) {
    }

    private final LinkedHashMap<Key, Seen> seen = BoundedEntries.recent(MAX_SEEN);
    /** Scopes found too large to keep (bounded like {@link #seen}). */
    private final LinkedHashMap<Key, Boolean> tooLarge = BoundedEntries.recent(MAX_SEEN);
    /** A scope's style profile as decoded at a token ({@code null}: the scope had none). */
    record KeptStyle(TenantDatabase.ChangeToken token, StyleProfile profile) {
    }

    private final LinkedHashMap<Key, KeptStyle> styles = BoundedEntries.recent(MAX_SEEN);
    private long puts;
    private long hits;
    /** Counts erasures: an entry read before one is not kept. */
    private long epoch;

    /** Rows the searches of a scope at one token return before the scope is read whole. */
    private volatile long minRows;

    LexicalCache(long maxBytes, long minRows) {
        this.maxBytes = maxBytes;
        this.minRows = minRows;
        this.byKey = new BoundedEntries<>(maxBytes, e -> e.bytes);
    }

    /** Sets {@link #minRows} (tests: 0 reads a scope at its second search at one token). */
    void minRows(long rows) {
        minRows = rows;
    }

    /**
     * Whether an entry of {@code key} is kept, at whatever token: a caller that only uses kept entries
     * (and never reads a scope for them) asks this before it reads the database's change token.
     */
    synchronized boolean holds(Key key) {
        return byKey.get(key) != null;
    }

    /** The entry of {@code key} if it was read at {@code token}, else {@code null}. */
    synchronized Entry get(Key key, TenantDatabase.ChangeToken token) {
        Entry s = byKey.get(key);
        if (s != null && s.token.equals(token)) {
            hits++;
            return s;
        }
        return null;
    }

    /** The erasure count to pass to {@link #put} for what is read from now on. */
    synchronized long epoch() {
        return epoch;
    }

    /**
     * Whether a search of {@code key} at {@code token}, which found no entry, should read the scope
     * whole and keep it: when searches of it at the same token, answered by SQLite, returned at least
     * {@link #minRows} rows in all (see {@link #searched}).
     */
    synchronized boolean worthReading(Key key, TenantDatabase.ChangeToken token) {
        if (tooLarge.containsKey(key)) {
            return false;
        }
        Seen before = seen.get(key);
        if (before != null && before.token().equals(token) && before.rows() >= minRows) {
            seen.put(key, BUILDING); // concurrent searches of the scope meanwhile ask SQLite, not read it too
            return true;
        }
        return false;
    }

    /** Counts a search of {@code key} at {@code token} that SQLite answered with {@code rows} rows. */
    synchronized void searched(Key key, TenantDatabase.ChangeToken token, int rows) {
        Seen before = seen.get(key);
        if (before == BUILDING) {
            return;
        }
        seen.put(key, new Seen(token, before != null && before.token().equals(token) ? before.rows() + rows : rows));
    }

    /** Forgets that {@code key} is being read (the read failed or was not kept; {@link #put} does it too). */
    synchronized void abandon(Key key) {
        seen.remove(key, BUILDING);
    }

    /** Stands in {@link #seen} for a scope being read (its token equals no other). */
    private static final Seen BUILDING = new Seen(new TenantDatabase.ChangeToken(new Object(), -1), 0);

    /**
     * Keeps {@code scope} for {@code key} (replacing an older entry), unless it is too large to keep
     * or an erasure happened since {@code epochAtRead}.
     */
    synchronized void put(Key key, Entry scope, long epochAtRead) {
        puts++;
        byKey.remove(key);
        seen.remove(key);
        if (epochAtRead != epoch || tooLarge(scope.bytes)) {
            return;
        }
        byKey.put(key, scope);
    }

    /**
     * Remembers that {@code key} was too large to keep: never read whole again (scopes seldom shrink)
     * until the end user is erased or the cache cleared.
     */
    synchronized void markTooLarge(Key key) {
        seen.remove(key, BUILDING);
        tooLarge.put(key, Boolean.TRUE);
    }

    /** Whether a scope of {@code bytes} (an estimate while reading it) is too large to keep. */
    boolean tooLarge(long bytes) {
        return bytes > maxBytes / 4;
    }

    /** What is kept of {@code key}'s style profile as read at {@code token}, or {@code null} when nothing is. */
    synchronized KeptStyle style(Key key, TenantDatabase.ChangeToken token) {
        KeptStyle kept = styles.get(key);
        return kept != null && kept.token().equals(token) ? kept : null;
    }

    /**
     * Keeps the style profile read for {@code key} after {@code token} was read, unless an erasure
     * happened since {@code epochAtRead}.
     */
    synchronized void keepStyle(Key key, TenantDatabase.ChangeToken token, StyleProfile profile, long epochAtRead) {
        if (epochAtRead == epoch) {
            styles.put(key, new KeptStyle(token, profile));
        }
    }

    /** Drops every entry of an end user (erasure). */
    synchronized void forget(String tenant, String agent, String user) {
        drop(k -> k.tenant().equals(tenant) && k.agent().equals(agent) && k.user().equals(user));
    }

    /** Drops every entry of a tenant (its database closed: its tokens will not come again). */
    synchronized void forgetTenant(String tenant) {
        drop(k -> k.tenant().equals(tenant));
    }

    private void drop(Predicate<Key> which) {
        epoch++; // a read running now is not kept either
        seen.keySet().removeIf(which);
        tooLarge.keySet().removeIf(which);
        styles.keySet().removeIf(which);
        byKey.removeIf(which);
    }

    synchronized void clear() {
        drop(k -> true);
    }

    /** Bytes held (tests). */
    synchronized long bytes() {
        return byKey.bytes();
    }

    /** How many scopes were read whole and offered to the cache (tests). */
    synchronized long puts() {
        return puts;
    }

    /** How many searches an entry served (tests). */
    synchronized long hits() {
        return hits;
    }

    /** Style profiles held (tests). */
    synchronized int styles() {
        return styles.size();
    }

    /** Entries held (tests). */
    synchronized int size() {
        return byKey.size();
    }
}
