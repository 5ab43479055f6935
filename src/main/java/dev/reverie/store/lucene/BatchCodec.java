package dev.reverie.store.lucene;

import dev.reverie.Embedding;
import dev.reverie.Memory;
import dev.reverie.MemoryEvent;
import dev.reverie.Observation;
import dev.reverie.Scope;
import dev.reverie.StyleProfile;
import dev.reverie.internal.Json;
import dev.reverie.spi.SessionSummary;
import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.WriteBatch;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The translog form of a {@link WriteBatch}: its scope and operations, records as the same JSON the
 * index stores, vectors as raw floats. Turns appended at their session's end carry their offset; the
 * seq the index gave to each such session is written in front of the body once the batch is applied
 * ({@link #entry}), so a replay assigns exactly the seqs the acknowledged write got.
 *
 * <p>Stateless; thread-safe.
 */
final class BatchCodec {

    private static final byte PUT_OBSERVATION = 1;
    private static final byte DELETE_OBSERVATION = 2;
    private static final byte PUT_MEMORY = 3;
    private static final byte DELETE_MEMORY = 4;
    private static final byte APPEND_HISTORY = 5;
    private static final byte APPEND_TURN = 6;
    private static final byte ARCHIVE_TURN = 7;
    private static final byte PURGE_ARCHIVE = 8;
    private static final byte PUT_SUMMARY = 9;
    private static final byte PUT_STYLE = 10;
    private static final byte DELETE_STYLE = 11;
    private static final byte SET_OBSERVATION_STATUS = 12;
    private static final byte SET_MEMORY_STATUS = 13;
    private static final byte ADD_RECALLS = 14;

    /** An encoded batch and the sessions whose end seq {@link #entry} must record. */
    record Encoded(WriteBatch batch, byte[] body, Set<String> sessionsAtEnd) {
    }

    private BatchCodec() {
    }

    /** Encodes the batch's operations (outside any lock: this is where the JSON is written). */
    static Encoded encode(WriteBatch batch) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
        Set<String> atEnd = new LinkedHashSet<>();
        Json.Last turns = new Json.Last();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            Scope s = batch.scope();
            string(out, s.tenantId());
            string(out, s.agentId());
            string(out, s.endUserId());
            out.writeInt(batch.size());
            for (WriteBatch.Op op : batch.ops()) {
                if (op instanceof WriteBatch.PutObservation p) {
                    out.writeByte(PUT_OBSERVATION);
                    string(out, Json.write(p.observation().withEmbedding(null)));
                    vector(out, p.observation().embedding());
                } else if (op instanceof WriteBatch.DeleteObservation d) {
                    out.writeByte(DELETE_OBSERVATION);
                    string(out, d.id());
                } else if (op instanceof WriteBatch.PutMemory p) {
                    out.writeByte(PUT_MEMORY);
                    string(out, Json.write(p.memory().toBuilder().embedding(null).build()));
                    vector(out, p.memory().embedding());
                } else if (op instanceof WriteBatch.DeleteMemory d) {
                    out.writeByte(DELETE_MEMORY);
                    string(out, d.id());
                } else if (op instanceof WriteBatch.AppendHistory h) {
                    out.writeByte(APPEND_HISTORY);
                    string(out, Json.write(h.event()));
                } else if (op instanceof WriteBatch.AppendTurn t) {
                    out.writeByte(APPEND_TURN);
                    turn(out, t.turn(), t.atSessionEnd(), atEnd, turns);
                } else if (op instanceof WriteBatch.ArchiveTurn t) {
                    out.writeByte(ARCHIVE_TURN);
                    turn(out, t.turn(), t.atSessionEnd(), atEnd, turns);
                    vector(out, t.embedding());
                } else if (op instanceof WriteBatch.PurgeArchive p) {
                    out.writeByte(PURGE_ARCHIVE);
                    out.writeLong(p.before().getEpochSecond());
                    out.writeInt(p.before().getNano());
                } else if (op instanceof WriteBatch.PutSummary p) {
                    out.writeByte(PUT_SUMMARY);
                    string(out, Json.write(p.summary()));
                } else if (op instanceof WriteBatch.PutStyle p) {
                    out.writeByte(PUT_STYLE);
                    string(out, Json.write(p.profile()));
                } else if (op instanceof WriteBatch.DeleteStyle) {
                    out.writeByte(DELETE_STYLE);
                } else if (op instanceof WriteBatch.SetObservationStatus st) {
                    out.writeByte(SET_OBSERVATION_STATUS);
                    string(out, st.id());
                    string(out, st.status().name());
                    instant(out, st.consolidatedAt());
                } else if (op instanceof WriteBatch.SetMemoryStatus st) {
                    out.writeByte(SET_MEMORY_STATUS);
                    string(out, st.id());
                    string(out, st.status().name());
                    out.writeBoolean(st.supersededBy() != null);
                    if (st.supersededBy() != null) {
                        string(out, st.supersededBy());
                    }
                    instant(out, st.updatedAt());
                } else if (op instanceof WriteBatch.AddRecalls r) {
                    out.writeByte(ADD_RECALLS);
                    string(out, r.id());
                    out.writeInt(r.count());
                    instant(out, r.at());
                } else {
                    throw new IllegalArgumentException("unknown write operation " + op);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Encoded(batch, bytes.toByteArray(), atEnd);
    }

    /**
     * The log entry of an applied batch: the seq each session-end append got, then the body. Call it
     * after the index applied the batch (which assigned those seqs).
     */
    static byte[] entry(Encoded e) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(e.body().length + 16 + 32 * e.sessionsAtEnd().size());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(e.sessionsAtEnd().size());
            for (String session : e.sessionsAtEnd()) {
                string(out, session);
                out.writeLong(e.batch().assignedSeq(session));
            }
            out.write(e.body());
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
        return bytes.toByteArray();
    }

    /** The batch a log entry holds, every turn with its final seq. */
    static WriteBatch decode(byte[] entry) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(entry));
        Map<String, Long> ends = new HashMap<>();
        int sessions = in.readInt();
        for (int i = 0; i < sessions; i++) {
            ends.put(string(in), in.readLong());
        }
        WriteBatch batch = WriteBatch.of(Scope.of(string(in), string(in), string(in)));
        int ops = in.readInt();
        for (int i = 0; i < ops; i++) {
            byte tag = in.readByte();
            switch (tag) {
                case PUT_OBSERVATION -> {
                    Observation o = Json.read(string(in), Observation.class);
                    Embedding e = vector(in);
                    batch.put(e == null ? o : o.withEmbedding(e));
                }
                case DELETE_OBSERVATION -> batch.deleteObservation(string(in));
                case PUT_MEMORY -> {
                    Memory m = Json.read(string(in), Memory.class);
                    Embedding e = vector(in);
                    batch.put(e == null ? m : m.toBuilder().embedding(e).build());
                }
                case DELETE_MEMORY -> batch.deleteMemory(string(in));
                case APPEND_HISTORY -> batch.append(Json.read(string(in), MemoryEvent.class));
                case APPEND_TURN -> batch.append(turn(in, ends));
                case ARCHIVE_TURN -> batch.archive(turn(in, ends), vector(in));
                case PURGE_ARCHIVE -> batch.purgeArchiveBefore(Instant.ofEpochSecond(in.readLong(), in.readInt()));
                case PUT_SUMMARY -> batch.put(Json.read(string(in), SessionSummary.class));
                case PUT_STYLE -> batch.put(Json.read(string(in), StyleProfile.class));
                case DELETE_STYLE -> batch.deleteStyleProfile();
                case SET_OBSERVATION_STATUS -> batch.setStatus(string(in),
                        dev.reverie.ObservationStatus.valueOf(string(in)), instant(in));
                case SET_MEMORY_STATUS -> {
                    String id = string(in);
                    dev.reverie.MemoryStatus status = dev.reverie.MemoryStatus.valueOf(string(in));
                    String supersededBy = in.readBoolean() ? string(in) : null;
                    batch.setMemoryStatus(id, status, supersededBy, instant(in));
                }
                case ADD_RECALLS -> batch.addRecalls(string(in), in.readInt(), instant(in));
                default -> throw new IOException("unknown translog operation " + tag);
            }
        }
        return batch;
    }

    private static void turn(DataOutputStream out, SessionTurn t, boolean atSessionEnd, Set<String> atEnd,
                             Json.Last turns) throws IOException {
        out.writeBoolean(atSessionEnd);
        string(out, turns.of(t));
        if (atSessionEnd) {
            atEnd.add(t.sessionId());
        }
    }

    private static SessionTurn turn(DataInputStream in, Map<String, Long> ends) throws IOException {
        boolean atSessionEnd = in.readBoolean();
        SessionTurn t = Json.read(string(in), SessionTurn.class);
        if (!atSessionEnd) {
            return t;
        }
        Long base = ends.get(t.sessionId());
        if (base == null) {
            throw new IOException("translog entry has no end seq for session '" + t.sessionId() + "'");
        }
        return t.withSeq(base + t.seq());
    }

    private static void vector(DataOutputStream out, Embedding e) throws IOException {
        if (e == null) {
            out.writeInt(-1);
            return;
        }
        float[] v = e.toArray();
        out.writeInt(v.length);
        for (float f : v) {
            out.writeFloat(f);
        }
    }

    private static Embedding vector(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = in.readFloat();
        }
        return Embedding.of(v);
    }

    /** An instant or {@code null}: a presence flag, then seconds and nanos. */
    private static void instant(DataOutputStream out, Instant t) throws IOException {
        out.writeBoolean(t != null);
        if (t != null) {
            out.writeLong(t.getEpochSecond());
            out.writeInt(t.getNano());
        }
    }

    private static Instant instant(DataInputStream in) throws IOException {
        return in.readBoolean() ? Instant.ofEpochSecond(in.readLong(), in.readInt()) : null;
    }

    private static void string(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String string(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
