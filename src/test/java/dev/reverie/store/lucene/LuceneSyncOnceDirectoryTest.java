package dev.reverie.store.lucene;

import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LuceneSyncOnceDirectoryTest {

    /** Records which names reach the real fsync. */
    private static final class Recording extends FilterDirectory {
        final List<String> synced = new ArrayList<>();

        Recording() {
            super(new ByteBuffersDirectory());
        }

        @Override
        public void sync(Collection<String> names) throws IOException {
            synced.addAll(names);
            super.sync(names);
        }
    }

    private static void write(SyncOnceDirectory dir, String name) throws IOException {
        try (IndexOutput out = dir.createOutput(name, IOContext.DEFAULT)) {
            out.writeInt(42);
        }
    }

    @Test
    void fsyncs_each_written_file_once_and_again_only_after_it_is_recreated() throws IOException {
        Recording real = new Recording();
        try (SyncOnceDirectory dir = new SyncOnceDirectory(real)) {
            write(dir, "a");
            write(dir, "b");
            dir.sync(List.of("a", "b"));
            dir.sync(List.of("a", "b"));
            assertThat(real.synced).containsExactly("a", "b");

            write(dir, "c");
            dir.sync(List.of("a", "b", "c"));
            assertThat(real.synced).containsExactly("a", "b", "c");

            dir.deleteFile("a");
            write(dir, "a");
            dir.sync(List.of("a", "b", "c"));
            assertThat(real.synced).containsExactly("a", "b", "c", "a");

            // a synced file keeps its state under a new name; an unsynced one is synced under its new name
            dir.rename("b", "b2");
            write(dir, "d");
            dir.rename("d", "d2");
            dir.sync(List.of("b2", "d2"));
            assertThat(real.synced).containsExactly("a", "b", "c", "a", "d2");
        }
    }
}
