package dev.reverie;

import dev.reverie.internal.Vectors;

import java.util.Arrays;

/**
 * A dense vector with value semantics (equality by content), as stored next to a memory or
 * observation. Immutable and thread-safe: the array is copied in and out.
 */
public final class Embedding {
    private final float[] values;

    private Embedding(float[] values) {
        this.values = values;
    }

    /** Wraps a copy of {@code values}; fails on an empty vector or a NaN/infinite component. */
    public static Embedding of(float[] values) {
        if (values == null || values.length == 0) {
            throw new IllegalArgumentException("embedding must have at least one dimension");
        }
        for (int i = 0; i < values.length; i++) {
            if (!Float.isFinite(values[i])) {
                throw new IllegalArgumentException("embedding component " + i + " is not finite: " + values[i]);
            }
        }
        return new Embedding(values.clone());
    }

    /** The number of dimensions. */
    public int dimension() {
        return values.length;
    }

    /** A copy of the vector. */
    public float[] toArray() {
        return values.clone();
    }

    /** Cosine similarity with another vector of the same dimension. */
    public double cosine(Embedding other) {
        return cosine(values, other.values);
    }

    /** Cosine similarity of two vectors of the same dimension (0 when either is all zero). */
    public static double cosine(float[] a, float[] b) {
        return Vectors.cosine(a, b);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Embedding e && Arrays.equals(values, e.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "Embedding[dim=" + values.length + "]";
    }
}
