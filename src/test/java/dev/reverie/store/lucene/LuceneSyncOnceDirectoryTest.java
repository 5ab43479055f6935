package dev.reverie.store.lucene;

import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LuceneSyncOnceDirectoryTest {

    /** Records which names reach the real fsync. */
    private static final class Recording extends FilterDirectory {
        final List<String> synced = Collections.synchronizedList(new ArrayList<>());
        volatile String failOn;

        Recording() {
            super(new ByteBuffersDirectory());
        }

        @Override
        public void sync(Collection<String> names) throws IOException {
            if (failOn != null && names.contains(failOn)) {
                throw new IOException("injected fsync failure on " + failOn);
            }
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
        try (SyncOnceDirectory dir = new SyncOnceDirectory(real, null)) {
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

    @Test
    void fsyncs_pending_files_in_parallel_and_reports_a_failure_without_marking_the_file_synced() throws IOException {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        Recording real = new Recording();
        try (SyncOnceDirectory dir = new SyncOnceDirectory(real, pool)) {
            for (String name : List.of("a", "b", "c", "d")) {
                write(dir, name);
            }
            real.failOn = "c";
            assertThatThrownBy(() -> dir.sync(List.of("a", "b", "c", "d")))
                    .isInstanceOf(IOException.class).hasMessageContaining("on c");
            real.failOn = null;
            real.synced.clear();
            dir.sync(List.of("a", "b", "c", "d"));
            // nothing was remembered from the failed call: all four are synced again
            assertThat(real.synced).containsExactlyInAnyOrder("a", "b", "c", "d");
            real.synced.clear();
            dir.sync(List.of("a", "b", "c", "d"));
            assertThat(real.synced).isEmpty();
        } finally {
            pool.shutdown();
        }
    }
}
