package dev.reverie.store.lucene;

import org.apache.lucene.util.IOUtils;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * A tenant index's write-ahead log (the way Elasticsearch's translog works): every acknowledged write
 * is appended as one entry ({@code length, CRC32, payload}) and fsynced before the write returns, so
 * a durable write costs one append instead of a Lucene commit. The log is split in generations, one
 * file each ({@code translog-<generation>.tlog} beside the index files); a Lucene commit first
 * {@linkplain #roll() rolls} to a new generation, records that generation in the commit's user data
 * and then deletes the older files, whose entries the commit holds. On open, the entries of every
 * generation at or after the committed one are replayed. A torn entry (a crash in the middle of an
 * append, which was therefore never acknowledged) ends a file: what follows it is ignored.
 *
 * <p>Not thread-safe: used under the tenant index's write lock.
 */
final class Translog implements AutoCloseable {

    private static final String PREFIX = "translog-";
    private static final String SUFFIX = ".tlog";
    private static final int HEADER = 8;

    private final Path folder;
    private long generation;
    private FileChannel channel;
    private long bytes;

    private Translog(Path folder, long generation) throws IOException {
        this.folder = folder;
        this.generation = generation;
        this.channel = create(folder, generation);
        this.bytes = channel.size();
    }

    /** Opens generation {@code generation} for appending, creating its file (made durable) when missing. */
    static Translog open(Path folder, long generation) throws IOException {
        return new Translog(folder, generation);
    }

    private static FileChannel create(Path folder, long generation) throws IOException {
        Path file = file(folder, generation);
        boolean fresh = !Files.exists(file);
        FileChannel c = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
        if (fresh) {
            // the new name must survive a crash as well as what will be appended to it
            IOUtils.fsync(folder, true);
        }
        return c;
    }

    static Path file(Path folder, long generation) {
        return folder.resolve(PREFIX + generation + SUFFIX);
    }

    /** The generations present in {@code folder}, ascending. */
    static List<Long> generations(Path folder) throws IOException {
        List<Long> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path p : files.toList()) {
                String name = p.getFileName().toString();
                if (name.startsWith(PREFIX) && name.endsWith(SUFFIX)) {
                    try {
                        out.add(Long.parseLong(name.substring(PREFIX.length(), name.length() - SUFFIX.length())));
                    } catch (NumberFormatException ignored) {
                        // not one of ours
                    }
                }
            }
        }
        out.sort(null);
        return out;
    }

    /** The entries of one generation's file, in order, up to the first torn or corrupt one. */
    static List<byte[]> read(Path folder, long generation) throws IOException {
        ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(file(folder, generation)));
        List<byte[]> out = new ArrayList<>();
        CRC32 crc = new CRC32();
        while (in.remaining() >= HEADER) {
            int length = in.getInt();
            int sum = in.getInt();
            if (length < 0 || length > in.remaining()) {
                break;
            }
            byte[] payload = new byte[length];
            in.get(payload);
            crc.reset();
            crc.update(payload);
            if ((int) crc.getValue() != sum) {
                break;
            }
            out.add(payload);
        }
        return out;
    }

    long generation() {
        return generation;
    }

    /** Bytes appended to the current generation. */
    long bytes() {
        return bytes;
    }

    /** Appends the entries and fsyncs once: when this returns, all of them survive a crash. */
    void append(List<byte[]> entries) throws IOException {
        int total = 0;
        for (byte[] e : entries) {
            total += HEADER + e.length;
        }
        ByteBuffer out = ByteBuffer.allocate(total);
        CRC32 crc = new CRC32();
        for (byte[] e : entries) {
            crc.reset();
            crc.update(e);
            out.putInt(e.length).putInt((int) crc.getValue()).put(e);
        }
        out.flip();
        while (out.hasRemaining()) {
            channel.write(out);
        }
        channel.force(false);
        bytes += total;
    }

    /** Starts the next generation (its file made durable) and returns its number. */
    long roll() throws IOException {
        FileChannel next = create(folder, generation + 1);
        channel.close();
        channel = next;
        generation++;
        bytes = 0;
        return generation;
    }

    /** Deletes the files of every generation before {@code generation} (a commit holds their entries). */
    void deleteBefore(long generation) throws IOException {
        deleteBefore(folder, generation);
    }

    static void deleteBefore(Path folder, long generation) throws IOException {
        for (long g : generations(folder)) {
            if (g < generation) {
                Files.deleteIfExists(file(folder, g));
            }
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
