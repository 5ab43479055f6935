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
        double na = dot(a, a);
        double nb = dot(b, b);
        return na == 0 || nb == 0 ? 0 : dot(a, b) / Math.sqrt(na * nb);
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
        double nb = dot(b, b);
        return normA == 0 || nb == 0 ? 0 : dot(a, b) / (normA * Math.sqrt(nb));
    }

    /**
     * {@link #cosine(float[], float[], double)} with {@code b}'s norm given too ({@link #norm} of it):
     * the same value to the last bit, without recomputing the norm of a vector kept for many searches.
     */
    public static double cosine(float[] a, float[] b, double normA, double normB) {
        return normA == 0 || normB == 0 ? 0 : dot(a, b) / (normA * normB);
    }

    public static double norm(float[] a) {
        return Math.sqrt(dot(a, a));
    }

    /**
     * The sum of {@code a[i] * b[i]} over {@code a}'s length (float products, summed in double) in
     * four interleaved partial sums added at the end: each add of one running sum waits for the one
     * before, four sums do not wait for each other (a single sum was 14 % of a hybrid
     * {@code buildContext} at 4,000 tokens, scoring every kept vector). Every cosine and norm here
     * sums this way, so a cosine computed with given norms equals the one computing them.
     */
    static double dot(float[] a, float[] b) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int n = a.length;
        int i = 0;
        for (; i + 3 < n; i += 4) {
            s0 += a[i] * b[i];
            s1 += a[i + 1] * b[i + 1];
            s2 += a[i + 2] * b[i + 2];
            s3 += a[i + 3] * b[i + 3];
        }
        for (; i < n; i++) {
            s0 += a[i] * b[i];
        }
        return (s0 + s1) + (s2 + s3);
    }
}
