package dev.reverie.store.lucene;

import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.codecs.lucene90.LZ4WithPresetDictCompressionMode;
import org.apache.lucene.codecs.lucene90.compressing.Lucene90CompressingStoredFieldsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;

/**
 * The codec the Lucene store writes its segments with: Lucene 9.12's default codec, except for stored
 * fields, which it compresses in chunks a quarter of the default's size. A search hit's record is
 * read from its stored fields, and Lucene's default (LZ4 with a preset dictionary over chunks of
 * 80 KiB or 1,024 documents, each compressed as a small dictionary and ten sub-blocks of about 8 KiB)
 * decompresses the dictionary and the sub-block holding the document for every hit outside the chunk
 * read last: on the 10,000-user benchmark tenant that was 23 % of {@code buildContext}'s CPU, for
 * records of well under 1 KiB each. The same scheme over chunks of {@value #CHUNK_BYTES} bytes or
 * {@value #CHUNK_DOCS} documents makes the sub-blocks about 2 KiB, so a hit decompresses a quarter
 * as much; the index grows by what the smaller blocks compress less (+18 % on that tenant, whose
 * stored fields are 70 % of the index; see {@code docs/benchmarks.md}).
 *
 * <p>The name {@value #NAME} is written into every segment it writes and names this exact set of
 * formats (the delegate is Lucene 9.12's codec by name, not "the default", which changes with Lucene
 * versions): Lucene finds the codec by that name through {@code ServiceLoader} when it opens the
 * segment, so the class is public with a public constructor and listed in
 * {@code META-INF/services/org.apache.lucene.codecs.Codec}. Segments written by the default codec (indexes
 * of earlier Reverie versions) stay readable and are rewritten with this codec as they merge. A
 * later Lucene version gets a new codec with a new name, and this one stays to read old segments.
 * Not API: public for {@code ServiceLoader} only. Thread-safe (immutable).
 */
public final class ReverieCodec extends FilterCodec {

    /** The codec's name in the segments it writes. */
    public static final String NAME = "Reverie912";
    /** Most bytes of stored fields compressed together (a quarter of Lucene's 80 KiB). */
    static final int CHUNK_BYTES = 20 * 1024;
    /** Most documents compressed together (a quarter of Lucene's 1,024). */
    static final int CHUNK_DOCS = 256;
    /** The chunk index's block size, as a power of two (Lucene's own value). */
    private static final int BLOCK_SHIFT = 10;

    /**
     * One format object for every instance of the codec: Lucene copies stored fields chunk by chunk
     * in a merge only when both segments' compression mode is the same object.
     */
    private static final StoredFieldsFormat STORED_FIELDS = new Lucene90CompressingStoredFieldsFormat(
            "ReverieStoredFieldsSmallChunks", new LZ4WithPresetDictCompressionMode(), CHUNK_BYTES, CHUNK_DOCS, BLOCK_SHIFT);

    /** The codec (Lucene's {@code ServiceLoader} makes one per JVM). */
    public ReverieCodec() {
        super(NAME, new Lucene912Codec());
    }

    /**
     * The codec as Lucene finds it by name when it opens a segment written with it: through the
     * {@code ServiceLoader} of Lucene's class loader, and, where Reverie's classes come from another
     * loader (a host that puts Lucene in a parent loader), after Lucene has also looked in Reverie's.
     *
     * @throws IllegalStateException naming the services file when neither finds it
     */
    static org.apache.lucene.codecs.Codec find() {
        try {
            return org.apache.lucene.codecs.Codec.forName(NAME);
        } catch (IllegalArgumentException notFound) {
            org.apache.lucene.codecs.Codec.reloadCodecs(ReverieCodec.class.getClassLoader());
            try {
                return org.apache.lucene.codecs.Codec.forName(NAME);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("Lucene cannot find the codec '" + NAME + "' that the Lucene store"
                        + " writes with: keep META-INF/services/org.apache.lucene.codecs.Codec of the Reverie jar"
                        + " (a shaded jar must merge service files) on the class path Lucene loads from", e);
            }
        }
    }

    @Override
    public StoredFieldsFormat storedFieldsFormat() {
        return STORED_FIELDS;
    }
}
