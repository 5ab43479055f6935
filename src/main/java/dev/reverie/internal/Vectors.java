package dev.reverie.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The one home of vector arithmetic: cosine similarity (plain, with a known norm, or tolerant of a
 * missing vector), norms, and float vectors to and from compact little-endian BLOBs. Stateless,
 * thread-safe. Not API.
 */
public final class Vectors {
    private Vectors() {
    }

    public static byte[] toBytes(float[] v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(v);
        return b.array();
    }

    public static float[] fromBytes(byte[] bytes) {
        float[] v = new float[bytes.length / Float.BYTES];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
        return v;
    }

    /**
     * Cosine similarity of two vectors of the same dimension (0 when either is all zero); what
     * {@code Embedding.cosine} returns.
     *
     * @throws IllegalArgumentException when the dimensions differ
     */
    public static double cosine(float[] a, float[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("embedding dimension mismatch: " + a.length + " vs " + b.length);
        }
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }

    /** {@link #cosine(float[], float[])}, or -1 when either vector is missing or their dimensions differ. */
    public static double cosineOrMinusOne(float[] a, float[] b) {
        if (a == null || b == null || a.length != b.length) {
            return -1;
        }
        return cosine(a, b);
    }

    /**
     * Cosine of {@code a} (whose norm is given, computed once for many comparisons) and {@code b}
     * (0 when a norm is 0). Divides by the product of the norms rather than the root of the product
     * of squares, so its last bits may differ from {@link #cosine(float[], float[])}: the Lucene
     * store's exact search has always ranked by this one.
     */
    public static double cosine(float[] a, float[] b, double normA) {
        double dot = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            nb += b[i] * b[i];
        }
        return normA == 0 || nb == 0 ? 0 : dot / (normA * Math.sqrt(nb));
    }

    /**
     * {@link #cosine(float[], float[], double)} with {@code b}'s norm given too ({@link #norm} of it):
     * the same value to the last bit, without recomputing the norm of a vector kept for many searches.
     */
    public static double cosine(float[] a, float[] b, double normA, double normB) {
        double dot = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
        }
        return normA == 0 || normB == 0 ? 0 : dot / (normA * normB);
    }

    public static double norm(float[] a) {
        double n = 0;
        for (float x : a) {
            n += x * x;
        }
        return Math.sqrt(n);
    }
}
