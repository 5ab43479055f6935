package dev.reverie;

import dev.reverie.internal.Terms;

import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;

/**
 * A value computed from a text, remembered per text in a fixed table: bounded memory, no locks.
 * {@code buildContext} reads the same recalled memories and turns call after call, and what it
 * derives from them (term sets for diversification, whether a turn pastes somebody else's words)
 * costs more to compute again than to find.
 *
 * <p>Each text has two slots, chosen from its {@code String.hashCode()} (which a string computes
 * once and keeps); a new entry takes an empty slot of the two, else one whose text is gone, else the
 * one the hash picks. With one slot per text, two texts of one conversation that shared a slot
 * evicted each other on every call (LoCoMo: ~12 of the ~400 term sets an MMR call looks up, 7.7 %
 * of the paste readings of a 4,000-token hybrid call). A lookup first compares the slots' texts by
 * identity (the stores' caches hand out the same string call after call), and only then hashes the
 * text (64 bits) and compares the hashes: an equal text of another instance is found too, even
 * when the instance the entry was made from is gone. Two texts are taken for one only when they
 * are the same instance or their 64-bit hashes collide. Texts whose {@code hashCode()} collide
 * share both slots and may evict each other: that costs time, never a wrong value. The entries hold
 * their texts weakly: the table never keeps a text alive (an erased memory's text goes when its
 * last user drops it). Thread-safe as long as {@code compute} is.
 *
 * @param <V> the value; callers must not modify a value they are handed
 */
final class TextMemo<V> {

    /** An entry: the text it was made from (weakly), that text's 64-bit hash, its value. */
    private static final class Entry<V> {
        final WeakReference<String> text;
        final long textHash;
        final V value;

        Entry(String text, long textHash, V value) {
            this.text = new WeakReference<>(text);
            this.textHash = textHash;
            this.value = value;
        }
    }

    private final AtomicReferenceArray<Entry<V>> slots;
    private final int bits;
    private final Function<String, V> compute;
    private final AtomicLong computed = new AtomicLong();

    /** A table of {@code slots} entries (a power of two, at least 2) of {@code compute}'s values. */
    TextMemo(int slots, Function<String, V> compute) {
        if (slots <= 1 || Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a positive power of two (at least 2), was " + slots);
        }
        this.slots = new AtomicReferenceArray<>(slots);
        this.bits = Integer.numberOfTrailingZeros(slots);
        this.compute = compute;
    }

    /** The text's hash code spread over 64 bits: its first slot is the top bits, its second lower ones. */
    private static long mix(String text) {
        return text.hashCode() * 0x9E37_79B9_7F4A_7C15L;
    }

    /** The first slot of {@code text}: tests find texts that share it. */
    int firstSlot(String text) {
        return (int) (mix(text) >>> (64 - bits));
    }

    /** {@code compute}'s value for {@code text}, remembered or computed now. */
    V of(String text) {
        long mixed = mix(text);
        int first = (int) (mixed >>> (64 - bits));
        int second = (int) (mixed >>> (32 - bits)) & ((1 << bits) - 1);
        if (second == first) {
            second ^= 1;
        }
        Entry<V> a = slots.getOpaque(first);
        if (a != null && a.text.get() == text) {
            return a.value;
        }
        Entry<V> b = slots.getOpaque(second);
        if (b != null && b.text.get() == text) {
            return b.value;
        }
        long h = Terms.hash64(text);
        if (a != null && a.textHash == h) {
            return again(first, a, text);
        }
        if (b != null && b.textHash == h) {
            return again(second, b, text);
        }
        computed.incrementAndGet();
        V value = compute.apply(text);
        // an empty slot, else one whose text is gone, else the one the hash picks
        int slot = a == null ? first : b == null ? second : a.text.get() == null ? first
                : b.text.get() == null ? second : (h & 1) == 0 ? first : second;
        slots.setOpaque(slot, new Entry<>(text, h, value));
        return value;
    }

    /** How many values were computed (misses), for tests. */
    long computed() {
        return computed.get();
    }

    /** Clears every entry's reference to its text, as the collector does when no one else holds it (tests). */
    void dropTexts() {
        for (int i = 0; i < slots.length(); i++) {
            Entry<V> e = slots.get(i);
            if (e != null) {
                e.text.clear();
            }
        }
    }

    /**
     * The value of an entry found by hash for another instance of its text: when the entry's own
     * instance is gone, it now points at this one, so the next lookup is by identity again.
     */
    private V again(int slot, Entry<V> found, String text) {
        if (found.text.get() == null) {
            slots.compareAndSet(slot, found, new Entry<>(text, found.textHash, found.value));
        }
        return found.value;
    }
}
