package dev.reverie.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Float vectors to and from compact little-endian BLOBs. Stateless, thread-safe. Not API. */
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

    /** Cosine of two vectors whose norms are given (0 when a norm is 0). */
    public static double cosine(float[] a, float[] b, double normA) {
        double dot = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            nb += b[i] * b[i];
        }
        return normA == 0 || nb == 0 ? 0 : dot / (normA * Math.sqrt(nb));
    }

    public static double norm(float[] a) {
        double n = 0;
        for (float x : a) {
            n += x * x;
        }
        return Math.sqrt(n);
    }
}
