package dev.reverie.store.lucene;

import dev.reverie.Embedding;
import dev.reverie.Memory;
import dev.reverie.MemoryEvent;
import dev.reverie.Observation;
import dev.reverie.Scope;
import dev.reverie.StyleProfile;
import dev.reverie.internal.DecodedRecords;
import dev.reverie.internal.Json;
import dev.reverie.internal.Vectors;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.SessionSummary;
import dev.reverie.spi.SessionTurn;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexOrDocValuesQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The Lucene store's schema: field names, how each record becomes a document, how a stored
 * document becomes a record again, and the filter queries over those fields. One index per tenant
 * holds every record type; the {@code type} field tells them apart.
 *
 * <p>Every document carries {@code type}, {@code agent}, {@code user} and {@code scope}
 * ({@code agent/user}, the one term every read filters on) as untokenized {@link StringField}s and
 * the record itself as JSON in a stored field (without its embedding). Records that can be replaced
 * have a {@code uid} term ({@code type/agent/user/key}; ids cannot contain {@code /}, so uids never
 * collide) used to delete the previous version. Times are indexed as {@link LongPoint} (ranges) plus
 * {@link NumericDocValuesField} (sorting), in microseconds since the epoch. Embeddings are stored as
 * little-endian float bytes (the exact round trip) and, when the codec can index their dimension,
 * as a {@link KnnFloatVectorField} named per record type and dimension, because Lucene fixes a
 * vector field's dimension for the whole index. Stateless and thread-safe.
 */
final class LuceneDocuments {

    /** The record types kept in a tenant index. */
    enum Type {
        OBSERVATION("observation", "observations"), MEMORY("memory", "memories"), TURN("turn", "session turns"),
        ARCHIVE("archive", "archived turns"), SUMMARY("summary", "session summaries"),
        STYLE("style", "style profiles"), HISTORY("history", "history events");

        /** The value of the {@code type} field. */
        final String term;
        /** How messages name these records. */
        final String plural;

        Type(String term, String plural) {
            this.term = term;
            this.plural = plural;
        }
    }

    /**
     * The codec whose vector format's dimension limit decides {@link #knnIndexable}: the one the
     * writer uses (Lucene 9.12's vector format, whatever a host makes Lucene's default codec).
     */
    private static final Codec KNN_LIMITS = new ReverieCodec();
    static final String TYPE = "type";
    static final String AGENT = "agent";
    static final String USER = "user";
    static final String SCOPE = "scope";
    static final String UID = "uid";
    static final String ID = "id";
    static final String KIND = "kind";
    static final String STATUS = "status";
    static final String SESSION = "session";
    /**
     * A turn's session id as sorted doc values, for listing sessions; a field of its own because
     * Lucene requires every document with a field to share its doc-values type.
     */
    static final String TURN_SESSION = "turn_session";
    static final String MEMORY_ID = "memory_id";
    /** Creation time of a memory, observation time of an observation. */
    static final String TIME = "time";
    static final String SEQ = "seq";
    static final String AT = "at";
    /** Insertion order of history events. */
    static final String ORD = "ord";
    static final String MEMORY_TEXT = "memory_text";
    static final String OBSERVATION_TEXT = "observation_text";
    /** An archived turn's speaker and text, for episodic search. */
    static final String ARCHIVE_TEXT = "archive_text";
    /** When an archived turn was said (retention purges by it). */
    static final String ARCHIVE_AT = "archive_at";
    static final String JSON = "json";
    /** 1 for a permanent memory, 0 otherwise (doc values: memories written before it lack it). */
    static final String PERMANENT = "permanent";
    static final String VECTOR = "vector";
    /**
     * A memory's recall count and last recall time (epoch second and nano of second, the nano
     * {@link #NEVER} for none: exact for any instant) as numeric doc values, updated in place by
     * {@link dev.reverie.spi.WriteBatch.AddRecalls} without re-indexing the memory; when present they
     * override the two fields of the stored JSON (memories written before them lack them and are
     * re-indexed on their first recall).
     */
    static final String RECALLS = "recalls";
    static final String RECALLED_SECOND = "recalled_s";
    static final String RECALLED_NANO = "recalled_ns";
    /** {@link #RECALLED_NANO} of a memory never recalled. */
    static final long NEVER = -1;
    static final String VECTOR_DIMENSION = "vector_dim";

    private static final Set<String> STORED = Set.of(JSON, VECTOR);

    private LuceneDocuments() {
    }

    // ---------------------------------------------------------------- keys

    static String scopeKey(Scope s) {
        return s.agentId() + "/" + s.endUserId();
    }

    static String uid(Type type, Scope s, String key) {
        return type.term + "/" + scopeKey(s) + "/" + key;
    }

    static String turnUid(Type type, Scope s, String sessionId, long seq) {
        return turnUidPrefix(type, s, sessionId) + seq;
    }

    /** What the uid of every turn of the session starts with (other sessions' uids may start with it too). */
    static String turnUidPrefix(Type type, Scope s, String sessionId) {
        return uid(type, s, sessionId + "/");
    }

    static String styleUid(Scope s) {
        return uid(Type.STYLE, s, "profile");
    }

    /** The KNN field for a record type and dimension. */
    static String knnField(Type type, int dimension) {
        return type.term + "_vector_" + dimension;
    }

    /** Whether vectors of this dimension go into a KNN field (else they are only stored and scanned exactly). */
    static boolean knnIndexable(Type type, int dimension) {
        return dimension <= KNN_LIMITS.knnVectorsFormat().getMaxDimensions(knnField(type, dimension));
    }

    /** Microseconds since the epoch, saturated at the long range (exact for any clock's instant). */
    static long micros(Instant t) {
        try {
            return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
        } catch (ArithmeticException e) {
            return t.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /**
     * The inclusive upper bound of "strictly before {@code t}" in microseconds, for range queries; an
     * instant before the representable range gives a bound nothing matches (never a wrapped one).
     */
    static long before(Instant t) {
        long m = micros(t);
        return m == Long.MIN_VALUE ? Long.MIN_VALUE : m - 1;
    }

    // ---------------------------------------------------------------- records to documents

    static Document memory(Memory m) {
        Document d = base(Type.MEMORY, m.scope(), uid(Type.MEMORY, m.scope(), m.id()));
        sortableId(d, m.id());
        d.add(new StringField(KIND, m.kind().name(), Field.Store.NO));
        d.add(new StringField(STATUS, m.status().name(), Field.Store.NO));
        d.add(new TextField(MEMORY_TEXT, m.text(), Field.Store.NO));
        time(d, TIME, micros(m.createdAt()));
        d.add(new NumericDocValuesField(PERMANENT, m.permanent() ? 1 : 0));
        new Recalls(m.retrievalCount(), m.lastRetrievedAt()).fields().forEach(d::add);
        d.add(new StoredField(JSON, Json.write(m.toBuilder().embedding(null).build())));
        vector(d, Type.MEMORY, m.embedding());
        return d;
    }

    static Document observation(Observation o) {
        Document d = base(Type.OBSERVATION, o.scope(), uid(Type.OBSERVATION, o.scope(), o.id()));
        sortableId(d, o.id());
        d.add(new StringField(KIND, o.kind().name(), Field.Store.NO));
        d.add(new StringField(STATUS, o.status().name(), Field.Store.NO));
        if (o.sessionId() != null) {
            d.add(new StringField(SESSION, o.sessionId(), Field.Store.NO));
        }
        if (MemoryStore.textSearchable(o)) {
            d.add(new TextField(OBSERVATION_TEXT, o.text(), Field.Store.NO));
        }
        time(d, TIME, micros(o.observedAt()));
        d.add(new StoredField(JSON, Json.write(o.withEmbedding(null))));
        vector(d, Type.OBSERVATION, o.embedding());
        return d;
    }

    static Document sessionTurn(SessionTurn t) {
        return sessionTurn(t, Json.write(t));
    }

    /** The document of a session turn whose JSON is {@code json}. */
    static Document sessionTurn(SessionTurn t, String json) {
        Document d = base(Type.TURN, t.scope(), turnUid(Type.TURN, t.scope(), t.sessionId(), t.seq()));
        d.add(new StringField(SESSION, t.sessionId(), Field.Store.NO));
        d.add(new SortedDocValuesField(TURN_SESSION, new BytesRef(t.sessionId())));
        time(d, SEQ, t.seq());
        d.add(new NumericDocValuesField(AT, micros(t.at())));
        d.add(new StoredField(JSON, json));
        return d;
    }

    static Document archivedTurn(SessionTurn t, Embedding e) {
        return archivedTurn(t, e, Json.write(t));
    }

    /** The document of an archived turn whose JSON is {@code json}. */
    static Document archivedTurn(SessionTurn t, Embedding e, String json) {
        Document d = base(Type.ARCHIVE, t.scope(), turnUid(Type.ARCHIVE, t.scope(), t.sessionId(), t.seq()));
        d.add(new StringField(SESSION, t.sessionId(), Field.Store.NO));
        time(d, SEQ, t.seq());
        time(d, ARCHIVE_AT, micros(t.at()));
        d.add(new TextField(ARCHIVE_TEXT, t.searchText(), Field.Store.NO));
        d.add(new StoredField(JSON, json));
        vector(d, Type.ARCHIVE, e);
        return d;
    }

    static Document summary(SessionSummary s) {
        Document d = base(Type.SUMMARY, s.scope(), uid(Type.SUMMARY, s.scope(), s.sessionId()));
        d.add(new StringField(SESSION, s.sessionId(), Field.Store.NO));
        d.add(new StoredField(JSON, Json.write(s)));
        return d;
    }

    static Document style(StyleProfile p) {
        Document d = base(Type.STYLE, p.scope(), styleUid(p.scope()));
        d.add(new StoredField(JSON, Json.write(p)));
        return d;
    }

    /** A history event; append-only, so it has no uid, and {@code ord} keeps the insertion order. */
    static Document history(MemoryEvent e, long ord) {
        Document d = base(Type.HISTORY, e.scope(), null);
        d.add(new StringField(MEMORY_ID, e.memoryId(), Field.Store.NO));
        time(d, ORD, ord);
        d.add(new StoredField(JSON, Json.write(e)));
        return d;
    }

    private static Document base(Type type, Scope s, String uid) {
        Document d = new Document();
        d.add(new StringField(TYPE, type.term, Field.Store.NO));
        d.add(new StringField(AGENT, s.agentId(), Field.Store.NO));
        d.add(new StringField(USER, s.endUserId(), Field.Store.NO));
        d.add(new StringField(SCOPE, scopeKey(s), Field.Store.NO));
        if (uid != null) {
            d.add(new StringField(UID, uid, Field.Store.NO));
        }
        return d;
    }

    private static void sortableId(Document d, String id) {
        d.add(new StringField(ID, id, Field.Store.NO));
        d.add(new SortedDocValuesField(ID, new BytesRef(id)));
    }

    private static void time(Document d, String field, long value) {
        d.add(new LongPoint(field, value));
        d.add(new NumericDocValuesField(field, value));
    }

    private static void vector(Document d, Type type, Embedding e) {
        if (e == null) {
            return;
        }
        float[] v = e.toArray();
        d.add(new StoredField(VECTOR, Vectors.toBytes(v)));
        d.add(new IntPoint(VECTOR_DIMENSION, v.length));
        // cosine is undefined for a zero vector: it is stored and round-trips, but no search can rank it
        if (knnIndexable(type, v.length) && Vectors.norm(v) > 0) {
            d.add(new KnnFloatVectorField(knnField(type, v.length), v, VectorSimilarityFunction.COSINE));
        }
    }

    // ---------------------------------------------------------------- documents to records

    static Memory memory(StoredFields fields, int doc) throws IOException {
        Document d = fields.document(doc, STORED);
        Memory m = DecodedRecords.read(d.get(JSON), Memory.class);
        float[] v = vector(d);
        return v == null ? m : m.toBuilder().embedding(Embedding.of(v)).build();
    }

    /**
     * The memory decoder: the stored JSON decoded (the part a segment never changes, which
     * {@link DecodedDocs} may keep), then the recall statistics of the doc values laid over it.
     */
    static final LuceneMemoryStore.Decoder<Memory> MEMORY = new LuceneMemoryStore.Decoder<>() {
        @Override
        public Memory decode(StoredFields fields, int doc) throws IOException {
            return memory(fields, doc);
        }

        @Override
        public LuceneMemoryStore.Overlay<Memory> overlay(org.apache.lucene.index.LeafReader leaf) throws IOException {
            RecallValues values = RecallValues.of(leaf);
            return values == null ? LuceneMemoryStore.Overlay.none() : values::withRecalls;
        }
    };

    /**
     * The three recall doc-values iterators of one segment, each opened once and walked forward: a
     * fresh iterator per document started each sparse block's scan over again, which was a tenth of
     * a LoCoMo {@code buildContext} on this store. Documents in increasing order.
     */
    private static final class RecallValues {
        private final org.apache.lucene.index.NumericDocValues count;
        private final org.apache.lucene.index.NumericDocValues second;
        private final org.apache.lucene.index.NumericDocValues nano;
        private int last = -1;
        private Recalls lastRecalls;

        private RecallValues(org.apache.lucene.index.NumericDocValues count,
                             org.apache.lucene.index.NumericDocValues second,
                             org.apache.lucene.index.NumericDocValues nano) {
            this.count = count;
            this.second = second;
            this.nano = nano;
        }

        /** The segment's iterators, or {@code null} when it has none of these memories (all written before them). */
        static RecallValues of(org.apache.lucene.index.LeafReader leaf) throws IOException {
            org.apache.lucene.index.NumericDocValues count = leaf.getNumericDocValues(RECALLS);
            org.apache.lucene.index.NumericDocValues second = leaf.getNumericDocValues(RECALLED_SECOND);
            org.apache.lucene.index.NumericDocValues nano = leaf.getNumericDocValues(RECALLED_NANO);
            return count == null || second == null || nano == null ? null : new RecallValues(count, second, nano);
        }

        /** The recalls of segment-local document {@code doc}, or {@code null} when it lacks one of the three. */
        Recalls at(int doc) throws IOException {
            if (doc == last) {
                return lastRecalls; // an iterator cannot be asked for the document it is on again
            }
            if (doc < last) {
                throw new IllegalStateException("recall doc values read out of order: document " + doc
                        + " after " + last);
            }
            // all three are asked for every document, so each stays at or before the next target
            boolean c = count.advanceExact(doc);
            boolean s = second.advanceExact(doc);
            boolean n = nano.advanceExact(doc);
            last = doc;
            if (!c || !s || !n) {
                lastRecalls = null;
                return null;
            }
            Instant at = nano.longValue() == NEVER ? null : Instant.ofEpochSecond(second.longValue(), nano.longValue());
            lastRecalls = new Recalls((int) count.longValue(), at);
            return lastRecalls;
        }

        Memory withRecalls(Memory m, int doc) throws IOException {
            return LuceneDocuments.withRecalls(m, at(doc));
        }
    }

    /** {@code m} with the recall count and time {@code r}, when there are any ({@code null}: the JSON's stand). */
    static Memory withRecalls(Memory m, Recalls r) {
        if (r == null || r.count() == m.retrievalCount() && java.util.Objects.equals(r.at(), m.lastRetrievedAt())) {
            return m;
        }
        return m.toBuilder().retrievalCount(r.count()).lastRetrievedAt(r.at()).build();
    }

    /** A memory's recall count and last recall time ({@code null}: never recalled) as its doc values hold them. */
    record Recalls(int count, Instant at) {
        /** The doc-values fields that hold them. */
        List<NumericDocValuesField> fields() {
            return List.of(new NumericDocValuesField(RECALLS, count),
                    new NumericDocValuesField(RECALLED_SECOND, at == null ? 0 : at.getEpochSecond()),
                    new NumericDocValuesField(RECALLED_NANO, at == null ? NEVER : at.getNano()));
        }
    }

    /**
     * The recall doc values of a memory document, or {@code null} when it does not have all three
     * (written before them): then the stored JSON's count and time are the current ones.
     */
    static Recalls recalls(org.apache.lucene.index.LeafReader leaf, int localDoc) throws IOException {
        RecallValues values = RecallValues.of(leaf);
        return values == null ? null : values.at(localDoc);
    }

    static Observation observation(StoredFields fields, int doc) throws IOException {
        Document d = fields.document(doc, STORED);
        Observation o = DecodedRecords.read(d.get(JSON), Observation.class);
        float[] v = vector(d);
        return v == null ? o : o.withEmbedding(Embedding.of(v));
    }

    static <T> T json(StoredFields fields, int doc, Class<T> type) throws IOException {
        return Json.read(fields.document(doc, Set.of(JSON)).get(JSON), type);
    }

    static SessionTurn sessionTurnOf(StoredFields fields, int doc) throws IOException {
        return DecodedRecords.read(fields.document(doc, Set.of(JSON)).get(JSON), SessionTurn.class);
    }

    /** The stored vector of a document, or {@code null}. */
    static float[] vector(StoredFields fields, int doc) throws IOException {
        return vector(fields.document(doc, Set.of(VECTOR)));
    }

    private static float[] vector(Document d) {
        BytesRef b = d.getBinaryValue(VECTOR);
        return b == null ? null : Vectors.fromBytes(Arrays.copyOfRange(b.bytes, b.offset, b.offset + b.length));
    }

    // ---------------------------------------------------------------- queries

    static Query term(String field, String value) {
        return new TermQuery(new Term(field, value));
    }

    /** Documents of one type in one scope. */
    static BooleanQuery.Builder ofScope(Type type, Scope s) {
        return new BooleanQuery.Builder()
                .add(term(TYPE, type.term), BooleanClause.Occur.FILTER)
                .add(term(SCOPE, scopeKey(s)), BooleanClause.Occur.FILTER);
    }

    /**
     * Adds a filter clause "field is one of values" to {@code q}; nothing when the values cover the
     * whole enum (the clause would match everything and only cost time).
     */
    static <E extends Enum<E>> void anyOf(BooleanQuery.Builder q, String field, Set<E> values, Class<E> type) {
        if (values.containsAll(EnumSet.allOf(type))) {
            return;
        }
        List<BytesRef> terms = new ArrayList<>(values.size());
        for (E v : values) {
            terms.add(new BytesRef(v.name()));
        }
        q.add(terms.size() == 1 ? new TermQuery(new Term(field, terms.get(0)))
                : new TermInSetQuery(field, terms), BooleanClause.Occur.FILTER);
    }

    /** {@code lower <= field <= upper} on a point + doc-values long field, cheapest access chosen per segment. */
    static Query longRange(String field, long lower, long upper) {
        return new IndexOrDocValuesQuery(LongPoint.newRangeQuery(field, lower, upper),
                NumericDocValuesField.newSlowRangeQuery(field, lower, upper));
    }
}
