package dev.reverie.internal;

/** A 64-bit hash of text, for caches keyed by content without keeping the text. Not API. */
final class TextHash {
    private TextHash() {
    }

    /** FNV-1a over the UTF-16 chars, then a murmur finalizer so every bit depends on every char. */
    public static long of(String text) {
        long h = 0xCBF2_9CE4_8422_2325L;
        for (int i = 0; i < text.length(); i++) {
            h ^= text.charAt(i);
            h *= 0x1000_0000_01B3L;
        }
        h ^= text.length();
        h ^= h >>> 33;
        h *= 0xFF51_AFD7_ED55_8CCDL;
        h ^= h >>> 33;
        h *= 0xC4CE_B9FE_1A85_EC53L;
        h ^= h >>> 33;
        return h;
    }
}
