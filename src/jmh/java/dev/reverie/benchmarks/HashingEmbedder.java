package dev.reverie.benchmarks;

import dev.reverie.spi.Embedder;

import java.util.Locale;

/**
 * A deterministic stand-in for a sentence-embedding model: each lower-cased word is hashed into one
 * of {@value #DIMENSION} buckets with a hashed sign, and the sum is L2-normalized. Texts that share
 * words get a positive cosine, as with a real model, but embedding costs microseconds, so the hybrid
 * benchmarks measure Reverie's retrieval (vector candidates, fusion, diversity) and not a model;
 * real embedding cost is measured apart. Stateless and thread-safe.
 */
public final class HashingEmbedder implements Embedder {

    /** The dimension of the common small sentence-embedding models (e.g. MiniLM). */
    public static final int DIMENSION = 384;

    @Override
    public int dimension() {
        return DIMENSION;
    }

    @Override
    public float[] embed(String text) {
        float[] v = new float[DIMENSION];
        String lower = text.toLowerCase(Locale.ROOT);
        int start = -1;
        for (int i = 0; i <= lower.length(); i++) {
            boolean letter = i < lower.length() && Character.isLetterOrDigit(lower.charAt(i));
            if (letter && start < 0) {
                start = i;
            } else if (!letter && start >= 0) {
                int h = mix(lower.substring(start, i).hashCode());
                v[Math.floorMod(h, DIMENSION)] += (h & 0x4000_0000) == 0 ? 1f : -1f;
                start = -1;
            }
        }
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        if (norm == 0) {
            v[0] = 1f; // a text without words still gets a valid, non-zero vector
            return v;
        }
        float inv = (float) (1 / Math.sqrt(norm));
        for (int i = 0; i < DIMENSION; i++) {
            v[i] *= inv;
        }
        return v;
    }

    private static int mix(int h) {
        h ^= h >>> 16;
        h *= 0x85eb_ca6b;
        h ^= h >>> 13;
        h *= 0xc2b2_ae35;
        return h ^ (h >>> 16);
    }
}
