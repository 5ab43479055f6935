package dev.reverie.eval;

import java.util.ArrayList;
import java.util.List;

/**
 * Baseline: the most recent turns of the conversation that fit the budget, as a chat application
 * that simply truncates its history would send. The question plays no part. Not thread-safe.
 */
final class SlidingWindowSystem implements EvalSystem {
    private final TurnPacker packer;
    private List<TurnPacker.Ranked> newestFirst = List.of();

    SlidingWindowSystem(TurnPacker packer) {
        this.packer = packer;
    }

    @Override
    public String name() {
        return "window";
    }

    @Override
    public String description() {
        return "sliding window: the most recent turns that fit the budget";
    }

    @Override
    public void ingest(LocomoData.Sample sample) {
        List<TurnPacker.PackableTurn> turns = packer.prepare(sample);
        List<TurnPacker.Ranked> ranked = new ArrayList<>(turns.size());
        for (int i = turns.size() - 1; i >= 0; i--) {
            ranked.add(new TurnPacker.Ranked(turns.get(i), i));
        }
        newestFirst = ranked;
    }

    @Override
    public RetrievedContext context(String question, int budgetTokens) {
        return packer.pack(question, budgetTokens, newestFirst, true);
    }
}
