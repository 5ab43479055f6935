package dev.reverie;

import dev.reverie.internal.Checks;

import java.util.EnumMap;
import java.util.Map;

/**
 * How many tokens each layer of an assembled context used, against the budget. The total never
 * exceeds the budget. Immutable and thread-safe.
 *
 * @param budget  the requested budget
 * @param byLayer tokens per layer (every layer present, possibly 0)
 */
public record TokenUsage(int budget, Map<Layer, Integer> byLayer) {

    public TokenUsage {
        Checks.positive("budget", budget);
        EnumMap<Layer, Integer> copy = new EnumMap<>(Layer.class);
        for (Layer l : Layer.values()) {
            copy.put(l, 0);
        }
        copy.putAll(Checks.notNull("byLayer", byLayer));
        byLayer = java.util.Collections.unmodifiableMap(copy);
    }

    /** Tokens used by every layer together. */
    public int total() {
        int sum = 0;
        for (int v : byLayer.values()) {
            sum += v;
        }
        return sum;
    }

    /** Tokens used by one layer. */
    public int tokens(Layer layer) {
        return byLayer.get(layer);
    }
}
