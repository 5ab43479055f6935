package dev.reverie.store.sqlite;

import dev.reverie.Memory;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryKind;
import dev.reverie.Scope;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.WriteBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A store serving many tenants keeps connections open for a bounded number of them (an LRU of idle tenants). */
class SqliteOpenTenantsTest {

    static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");

    @TempDir
    Path dir;

    private static Scope user(int tenant) {
        return Scope.of("tenant-" + tenant, "agent", "alice");
    }

    private static void remember(MemoryStore store, int tenant, String text) {
        Scope s = user(tenant);
        store.write(WriteBatch.of(s).put(Memory.builder("m-" + text.hashCode(), s, MemoryKind.FACT, text, T0).build()));
    }

    @Test
    void closes_the_least_recently_used_idle_tenants_beyond_the_bound_and_reopens_them_on_use() throws IOException {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir, false, 4)) {
            for (int t = 0; t < 40; t++) {
                remember(store, t, "note of tenant " + t);
                assertThat(store.openTenantHandles()).isLessThanOrEqualTo(4);
            }
            long files = openFilesUnder(dir);
            for (int t = 0; t < 40; t++) {
                assertThat(store.memories(user(t), MemoryFilter.all())).extracting(Memory::text)
                        .containsExactly("note of tenant " + t);
                assertThat(store.openTenantHandles()).isLessThanOrEqualTo(4);
            }
            if (files >= 0) {
                // each open tenant holds its .db, -wal and -shm files, per connection: far fewer than 40 tenants' worth
                assertThat(files).isLessThanOrEqualTo(4L * 5 * 3);
            }
        }
    }

    @Test
    void concurrent_use_of_many_tenants_through_a_tiny_bound_loses_nothing() throws Exception {
        int tenants = 12;
        int threads = 4;
        int perThread = 60;
        List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch start = new CountDownLatch(1);
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir, false, 2)) {
            List<Thread> workers = new ArrayList<>();
            for (int w = 0; w < threads; w++) {
                int worker = w;
                workers.add(new Thread(() -> {
                    Random random = new Random(worker);
                    try {
                        start.await();
                        for (int i = 0; i < perThread; i++) {
                            int t = random.nextInt(tenants);
                            remember(store, t, "w" + worker + " i" + i);
                            store.searchMemories(user(random.nextInt(tenants)), "w1", java.util.Set.of(
                                    dev.reverie.MemoryStatus.ACTIVE), java.util.EnumSet.allOf(MemoryKind.class), 3);
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }));
            }
            workers.forEach(Thread::start);
            start.countDown();
            for (Thread t : workers) {
                t.join();
            }
            assertThat(errors).isEmpty();
            long total = 0;
            for (int t = 0; t < tenants; t++) {
                total += store.memories(user(t), MemoryFilter.all()).size();
            }
            assertThat(total).isEqualTo((long) threads * perThread);
            assertThat(store.openTenantHandles()).isLessThanOrEqualTo(2);
        }
    }

    @Test
    void the_bound_is_an_option_of_the_uri() {
        try (MemoryStore store = MemoryStores.open("sqlite:" + dir + "?sync=normal&maxOpenTenants=3")) {
            for (int t = 0; t < 6; t++) {
                remember(store, t, "note " + t);
            }
            assertThat(((SqliteMemoryStore) store).openTenantHandles()).isLessThanOrEqualTo(3);
        }
        assertThatThrownBy(() -> MemoryStores.open("sqlite:" + dir + "?maxOpenTenants=0"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxOpenTenants=0");
        assertThatThrownBy(() -> SqliteMemoryStore.open(dir, false, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxOpenTenants");
    }

    /** Open file descriptors of this process on files under {@code folder}, or -1 where /proc is missing. */
    private static long openFilesUnder(Path folder) throws IOException {
        Path fds = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fds)) {
            return -1;
        }
        Path real = folder.toRealPath();
        long n = 0;
        try (Stream<Path> s = Files.list(fds)) {
            for (Path fd : s.toList()) {
                try {
                    if (Files.readSymbolicLink(fd).startsWith(real)) {
                        n++;
                    }
                } catch (IOException ignored) {
                    // the descriptor closed meanwhile
                }
            }
        }
        return n;
    }
}
