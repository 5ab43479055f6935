package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.TokenCounter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The bounds and the leak fingerprinting of the health counters. */
class HealthMonitorTest {

    static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");

    @TempDir
    Path dir;
    MemoryStore store;
    HealthMonitor monitor;

    @BeforeEach
    void setUp() {
        store = MemoryStores.open("sqlite:" + dir);
        monitor = new HealthMonitor(store, MemoryPolicy.defaults(), TokenCounter.o200k(),
                Clock.fixed(T0, ZoneOffset.UTC), 0, RecallMode.INJECT);
    }

    @AfterEach
    void tearDown() {
        store.close();
    }

    static ContextRequest request(Scope scope, String... scratchpad) {
        ContextRequest.Builder b = ContextRequest.builder(scope, "s1").query("q");
        for (String s : scratchpad) {
            b.scratchpad(s);
        }
        return b.build();
    }

    static ContextAssembler.Assembly assembly(String firstMessage) {
        AssembledContext ctx = new AssembledContext(List.of(new ContextMessage(Role.USER, firstMessage, Layer.TRANSIENT)),
                new TokenUsage(100, Map.of(Layer.TRANSIENT, 1)), List.of());
        return new ContextAssembler.Assembly(ctx, false, false, 0);
    }

    @Test
    void counters_are_bounded_to_the_most_recently_used_tenant_and_agent_pairs() {
        int pairs = HealthMonitor.MAX_AGENTS + 50;
        for (int i = 0; i < HealthMonitor.MAX_AGENTS; i++) {
            monitor.onTurns(Scope.of("tenant-" + i, "agent", "u"), List.of(Turn.user("hello")));
        }
        // touching the first pair again makes it the most recently used before the overflow
        monitor.onTurns(Scope.of("tenant-0", "agent", "u"), List.of(Turn.user("hello")));
        for (int i = HealthMonitor.MAX_AGENTS; i < pairs; i++) {
            monitor.onTurns(Scope.of("tenant-" + i, "agent", "u"), List.of(Turn.user("hello")));
        }

        LayerHealth h = monitor.snapshot();

        assertThat(h.agents()).hasSize(HealthMonitor.MAX_AGENTS);
        Set<String> tenants = new HashSet<>();
        h.agents().forEach(a -> tenants.add(a.tenantId()));
        assertThat(tenants).contains("tenant-0", "tenant-" + (pairs - 1)).doesNotContain("tenant-1", "tenant-50");
        assertThat(h.agent("tenant-0", "agent").orElseThrow().temporalLayer().turns()).isEqualTo(2);
    }

    @Test
    void scratchpad_fingerprints_are_bounded_and_the_oldest_are_forgotten_first() {
        Scope scope = Scope.of("t", "a", "u");
        String first = "first entry that is long enough to fingerprint, number zero zero zero";
        monitor.onAssembly(request(scope, first), assembly("x"));
        // 8 chunks of 32 characters per 256-character entry: 513 entries push out the first entry's chunks
        int entries = HealthMonitor.MAX_FINGERPRINTS / HealthMonitor.MAX_CHUNKS_PER_ENTRY + 1;
        for (int i = 0; i < entries; i++) {
            monitor.onAssembly(request(scope, filler(i)), assembly("x"));
        }

        monitor.onTurns(scope, List.of(Turn.user(first)));
        monitor.onTurns(scope, List.of(Turn.user(filler(entries - 1))));

        assertThat(monitor.snapshot().agent("t", "a").orElseThrow().transientLayer().leaks()).isEqualTo(1);
    }

    /** 256 characters whose eight 32-character chunks are all different, and different for each {@code i}. */
    static String filler(int i) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < HealthMonitor.MAX_CHUNKS_PER_ENTRY; c++) {
            sb.append(String.format("e%05dc%d", i, c).repeat(4));
        }
        return sb.toString();
    }

    @Test
    void fingerprints_cover_the_first_eight_aligned_chunks_after_normalization() {
        assertThat(HealthMonitor.normalize("  Hello \t\n WORLD  ", 100)).isEqualTo("hello world");
        assertThat(HealthMonitor.normalize("abcdef", 3)).isEqualTo("abc");
        assertThat(HealthMonitor.fingerprints("x".repeat(31))).isEmpty();
        assertThat(HealthMonitor.fingerprints("x".repeat(32))).hasSize(1);
        assertThat(HealthMonitor.fingerprints("abcdefgh".repeat(100))).hasSize(HealthMonitor.MAX_CHUNKS_PER_ENTRY);

        String entry = "0123456789abcdefghijklmnopqrstuv" + "WXYZ-second-chunk-of-the-entry-!" + "tail";
        Set<Long> fps = new HashSet<>();
        for (long fp : HealthMonitor.fingerprints(entry)) {
            fps.add(fp);
        }
        assertThat(fps).hasSize(2);
        // the second chunk found in the middle of other text, in another case
        assertThat(HealthMonitor.containsFingerprint("prefix wxyz-second-chunk-of-the-entry-! suffix", fps)).isTrue();
        // one character short of any chunk
        assertThat(HealthMonitor.containsFingerprint("wxyz-second-chunk-of-the-entry-", fps)).isFalse();
        // the tail is not a full chunk and is not tracked
        assertThat(HealthMonitor.containsFingerprint("tail", fps)).isFalse();
    }

    @Test
    void prefix_stability_compares_each_call_with_the_previous_one_of_the_same_agent() {
        Scope a = Scope.of("t", "a", "u");
        Scope b = Scope.of("t", "b", "u");
        monitor.onAssembly(request(a), assembly("one"));
        monitor.onAssembly(request(b), assembly("other agent"));
        monitor.onAssembly(request(a), assembly("one"));
        monitor.onAssembly(request(a), assembly("two"));

        LayerHealth.ImmutableMetrics m = monitor.snapshot().agent("t", "a").orElseThrow().immutableLayer();
        assertThat(m.calls()).isEqualTo(3);
        assertThat(m.comparisons()).isEqualTo(2);
        assertThat(m.stableCalls()).isEqualTo(1);
        assertThat(m.prefixStability()).isEqualTo(0.5);
    }
}
