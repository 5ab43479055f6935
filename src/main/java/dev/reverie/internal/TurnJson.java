package dev.reverie.internal;

import dev.reverie.spi.SessionTurn;

/**
 * The JSON of the last session turn a store wrote for a batch: a turn that the batch appends to its
 * session and archives is one record, serialized once for both rows (or documents, or translog
 * operations). Confined to the thread encoding or applying one batch. Not API.
 */
public final class TurnJson {
    private SessionTurn turn;
    private String json;

    /** {@code t}'s JSON, written again only when {@code t} differs from the last turn asked for. */
    public String of(SessionTurn t) {
        if (!t.equals(turn)) {
            json = Json.write(t);
            turn = t;
        }
        return json;
    }
}
