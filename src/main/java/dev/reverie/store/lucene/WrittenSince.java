package dev.reverie.store.lucene;

import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What the writes applied since a reader was opened changed, as far as a later write reads it back
 * through that reader: the uids of the documents put or deleted, and the sessions turns were appended
 * to. A write whose reads miss all of them gets from the older reader the answer a reader opened now
 * would give, so the tenant index need not refresh before applying it.
 *
 * <p>Sound because the write path reads only these: the last turn of a session (only an append to
 * that session changes it), whether a document with a given uid exists (only a write of that uid adds
 * it; deletes by query, of archived turns or on erase, only make the older reader's answer a harmless
 * superset, and erasing refreshes anyway), and the stored version of a record whose status it changes
 * (only a write of that record changes it).
 *
 * <p>Guarded by the tenant index's locks; not thread-safe.
 */
final class WrittenSince {

    private final Set<String> uids = new HashSet<>();
    private final Set<String> sessions = new HashSet<>();

    /** Records what {@code w} wrote; call it once {@code w} was applied. */
    void add(TenantIndex.LoggedWrite w) {
        uids.addAll(w.uidsWritten());
        sessions.addAll(w.sessions());
    }

    /**
     * Whether {@code w} reads something written since: the end of a session appended to since (unless
     * {@code endKnown} knows that end without a search), or a stored record written since.
     */
    boolean affects(TenantIndex.LoggedWrite w, Predicate<String> endKnown) {
        for (String s : w.sessions()) {
            if (sessions.contains(s) && !endKnown.test(s)) {
                return true;
            }
        }
        for (String uid : w.storedReads()) {
            if (uids.contains(uid)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a document with this uid was put or deleted since. */
    boolean wrote(String uid) {
        return uids.contains(uid);
    }

    /** How many keys it holds: bounds the memory kept between refreshes. */
    int size() {
        return uids.size() + sessions.size();
    }

    void clear() {
        uids.clear();
        sessions.clear();
    }
}
