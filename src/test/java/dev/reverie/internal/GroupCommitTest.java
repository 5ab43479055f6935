package dev.reverie.internal;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GroupCommitTest {

    private final ExecutorService pool = Executors.newFixedThreadPool(4);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @Test
    void writers_queued_behind_a_leader_are_committed_together_in_one_step() throws Exception {
        CountDownLatch leaderInside = new CountDownLatch(1);
        CountDownLatch releaseLeader = new CountDownLatch(1);
        List<List<String>> groups = new CopyOnWriteArrayList<>();
        GroupCommit<String> commit = new GroupCommit<>(64,
                recording(groups, java.util.Map.of("first", new CountDownLatch[] {leaderInside, releaseLeader})));

        Future<?> first = pool.submit(() -> commit.submit("first"));
        await(leaderInside);
        // three writers arrive while the leader holds the durable step
        CountDownLatch queued = new CountDownLatch(3);
        List<Future<?>> followers = new ArrayList<>();
        for (String item : List.of("a", "b", "c")) {
            followers.add(pool.submit(() -> {
                queued.countDown();
                commit.submit(item);
            }));
        }
        await(queued);
        waitUntilQueued(commit, 3);
        releaseLeader.countDown();
        first.get(10, TimeUnit.SECONDS);
        for (Future<?> f : followers) {
            f.get(10, TimeUnit.SECONDS);
        }

        assertThat(groups).hasSize(2);
        assertThat(groups.get(0)).containsExactly("first");
        assertThat(groups.get(1)).containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void a_failing_item_fails_only_its_own_caller() {
        List<String> committed = new CopyOnWriteArrayList<>();
        GroupCommit<String> commit = new GroupCommit<>(64, group -> {
            for (GroupCommit.Entry<String> e : group) {
                if (e.item().startsWith("bad")) {
                    e.fail(new IllegalStateException("refused " + e.item()));
                } else {
                    committed.add(e.item());
                }
            }
        });

        List<RuntimeException> failures = commit.submitAll(List.of("ok-1", "bad-2", "ok-3"));

        assertThat(failures.get(0)).isNull();
        assertThat(failures.get(1)).hasMessage("refused bad-2");
        assertThat(failures.get(2)).isNull();
        assertThat(committed).containsExactly("ok-1", "ok-3");
        assertThatThrownBy(() -> commit.submit("bad-4")).hasMessage("refused bad-4");
        commit.submit("ok-5");
        assertThat(committed).containsExactly("ok-1", "ok-3", "ok-5");
    }

    @Test
    void a_committer_that_throws_fails_every_item_of_its_group_and_the_next_group_still_commits() {
        List<String> committed = new CopyOnWriteArrayList<>();
        GroupCommit<String> commit = new GroupCommit<>(2, group -> {
            if (group.stream().anyMatch(e -> e.item().equals("fsync-fails"))) {
                throw new IllegalStateException("disk gone");
            }
            group.forEach(e -> committed.add(e.item()));
        });

        // groups of at most two: {x, fsync-fails} fails as a whole, {y} commits
        List<RuntimeException> failures = commit.submitAll(List.of("x", "fsync-fails", "y"));

        assertThat(failures.get(0)).hasMessage("disk gone");
        assertThat(failures.get(1)).hasMessage("disk gone");
        assertThat(failures.get(2)).isNull();
        assertThat(committed).containsExactly("y");
        assertThatThrownBy(() -> GroupCommit.throwFirst(failures)).hasMessage("disk gone");
    }

    @Test
    void a_follower_returns_once_its_group_is_committed_even_while_a_later_group_holds_the_lead() throws Exception {
        CountDownLatch firstInside = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        CountDownLatch laterInside = new CountDownLatch(1);
        CountDownLatch releaseLater = new CountDownLatch(1);
        List<List<String>> groups = new CopyOnWriteArrayList<>();
        GroupCommit<String> commit = new GroupCommit<>(64, recording(groups, java.util.Map.of(
                "first", new CountDownLatch[] {firstInside, releaseFirst},
                "later", new CountDownLatch[] {laterInside, releaseLater})), Duration.ZERO, GroupCommit.ACTIVE_WINDOW);
        commit.safetyPark(Duration.ofMinutes(10));

        Future<?> first = pool.submit(() -> commit.submit("first"));
        await(firstInside);
        // a and b queue behind the leader; whoever of them leads next goes on at once with "later",
        // whose commit does not end until the test says so
        Future<?> a = pool.submit(() -> {
            commit.submit("a");
            commit.submit("later");
        });
        waitUntilQueued(commit, 1);
        Future<?> b = pool.submit(() -> commit.submit("b"));
        waitUntilQueued(commit, 2);
        releaseFirst.countDown();
        first.get(10, TimeUnit.SECONDS);
        await(laterInside);
        // b's item was in the group before "later": b has returned, though "later" holds the lead
        b.get(10, TimeUnit.SECONDS);
        assertThat(a.isDone()).isFalse();
        releaseLater.countDown();
        a.get(10, TimeUnit.SECONDS);
        assertThat(groups).hasSize(3);
        assertThat(groups.get(1)).containsExactlyInAnyOrder("a", "b");
        assertThat(groups.get(2)).containsExactly("later");
    }

    @Test
    void a_leader_gathers_as_many_writers_as_were_lately_concurrent_into_one_group() throws Exception {
        List<List<String>> groups = new CopyOnWriteArrayList<>();
        // a gather long enough never to end before the writers arrive (they are all on their way)
        GroupCommit<String> commit = new GroupCommit<>(64, group ->
                groups.add(group.stream().map(GroupCommit.Entry::item).toList()),
                Duration.ofSeconds(60), Duration.ofSeconds(60));
        commit.safetyPark(Duration.ofMinutes(10));
        commit.assumeConcurrency(3);
        // x leads and gathers (the two others are on their way); only then do y and z arrive, so the
        // leader's wait is certain (when all three were queued before anyone led, no gather was needed
        // and the count was 0: the race this test once lost)
        List<Future<?>> writers = new ArrayList<>();
        writers.add(pool.submit(() -> {
            commit.submit("x");
            return null;
        }));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (commit.gathers() < 1) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the leader never gathered");
            }
            Thread.onSpinWait();
        }
        for (String w : List.of("y", "z")) {
            writers.add(pool.submit(() -> {
                commit.submit(w);
                return null;
            }));
        }
        for (Future<?> f : writers) {
            f.get(30, TimeUnit.SECONDS);
        }
        assertThat(groups).hasSize(1);
        assertThat(groups.get(0)).containsExactlyInAnyOrder("x", "y", "z");
        assertThat(commit.gathers()).isOne();
    }

    @Test
    void concurrency_is_the_most_callers_inside_at_once() throws Exception {
        CountDownLatch firstInside = new CountDownLatch(1);
        CountDownLatch releaseFirst = new CountDownLatch(1);
        GroupCommit<String> commit = new GroupCommit<>(64, group -> {
            if (group.get(0).item().equals("first")) {
                firstInside.countDown();
                await(releaseFirst);
            }
        }, Duration.ZERO, Duration.ofSeconds(60));
        assertThat(commit.recentConcurrency()).isOne();
        Future<?> first = pool.submit(() -> commit.submit("first"));
        await(firstInside);
        List<Future<?>> followers = new ArrayList<>();
        for (String item : List.of("a", "b", "c")) {
            followers.add(pool.submit(() -> commit.submit(item)));
        }
        waitUntilQueued(commit, 3); // four callers inside at once
        releaseFirst.countDown();
        first.get(10, TimeUnit.SECONDS);
        for (Future<?> f : followers) {
            f.get(10, TimeUnit.SECONDS);
        }
        assertThat(commit.recentConcurrency()).isEqualTo(4);
    }

    @Test
    void one_writer_whose_calls_run_on_many_threads_never_waits_to_gather() throws Exception {
        List<String> committed = new CopyOnWriteArrayList<>();
        GroupCommit<String> commit = new GroupCommit<>(64, group -> group.forEach(e -> committed.add(e.item())),
                Duration.ofSeconds(60), Duration.ofSeconds(60));
        for (int i = 0; i < 20; i++) {
            String item = "w" + i;
            pool.submit(() -> commit.submit(item)).get(30, TimeUnit.SECONDS); // one call at a time, any thread
        }
        assertThat(committed).hasSize(20);
        assertThat(commit.recentConcurrency()).isOne();
        assertThat(commit.gathers()).isZero();
    }

    /** An error (not an exception) out of the durable step. */
    private static final class DiskGone extends Error {
        DiskGone() {
            super("disk gone");
        }
    }

    @Test
    void an_error_in_the_leaders_commit_still_wakes_the_next_leader() throws Exception {
        CountDownLatch boomInside = new CountDownLatch(1);
        CountDownLatch releaseBoom = new CountDownLatch(1);
        List<String> committed = new CopyOnWriteArrayList<>();
        GroupCommit<String> commit = new GroupCommit<>(1, group -> {
            if (group.get(0).item().equals("boom")) {
                boomInside.countDown();
                await(releaseBoom);
                throw new DiskGone();
            }
            committed.add(group.get(0).item());
        }, Duration.ZERO, GroupCommit.ACTIVE_WINDOW);
        commit.safetyPark(Duration.ofMinutes(10)); // woken, or the test hangs
        // the leader's own second item is queued ahead of the follower's
        Future<?> leader = pool.submit(() -> commit.submitAll(List.of("boom", "mine")));
        await(boomInside);
        Future<?> follower = pool.submit(() -> commit.submit("f"));
        waitUntilQueued(commit, 2);
        releaseBoom.countDown();
        assertThatThrownBy(() -> leader.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(DiskGone.class);
        follower.get(10, TimeUnit.SECONDS);
        assertThat(committed).containsExactly("mine", "f");
    }

    @Test
    void many_writers_each_get_every_item_committed_once_and_only_their_own_failures() throws Exception {
        java.util.Map<String, Integer> committed = new java.util.concurrent.ConcurrentHashMap<>();
        GroupCommit<String> commit = new GroupCommit<>(3, group -> {
            for (GroupCommit.Entry<String> e : group) {
                if (e.item().endsWith("-bad")) {
                    e.fail(new IllegalStateException("refused " + e.item()));
                } else {
                    committed.merge(e.item(), 1, Integer::sum);
                }
            }
        }, GroupCommit.GATHER, GroupCommit.ACTIVE_WINDOW);
        commit.safetyPark(Duration.ofMinutes(10)); // a lost wake-up hangs the test instead of costing 5 ms
        List<Future<List<String>>> writers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            String name = "w" + w;
            writers.add(pool.submit(() -> {
                List<String> refused = new ArrayList<>();
                for (int i = 0; i < 400; i++) {
                    String submitted = name + "-" + i + (i % 10 == 7 ? "-bad" : "");
                    if (i % 50 == 0) {
                        Thread.currentThread().interrupt(); // an interrupt does not end the wait
                    }
                    try {
                        commit.submit(submitted);
                    } catch (IllegalStateException e) {
                        assertThat(e).hasMessage("refused " + submitted);
                        refused.add(submitted);
                    }
                    if (i % 50 == 0) {
                        assertThat(Thread.interrupted()).isTrue(); // and is kept for the caller
                    }
                }
                return refused;
            }));
        }
        int refused = 0;
        for (Future<List<String>> f : writers) {
            refused += f.get(60, TimeUnit.SECONDS).size();
        }
        assertThat(refused).isEqualTo(4 * 40);
        assertThat(committed).hasSize(4 * 360);
        assertThat(committed.values()).containsOnly(1);
        assertThat(commit.queued()).isZero();
    }

    /**
     * A committer that records each group's items; a group whose first item is a key of {@code holds}
     * counts down that key's first latch, then waits for its second (the durable step held open).
     */
    private static GroupCommit.Committer<String> recording(List<List<String>> groups,
                                                           java.util.Map<String, CountDownLatch[]> holds) {
        return group -> {
            groups.add(group.stream().map(GroupCommit.Entry::item).toList());
            CountDownLatch[] hold = holds.get(group.get(0).item());
            if (hold != null) {
                hold[0].countDown();
                await(hold[1]);
            }
        };
    }

    /** Spins (no sleep) until {@code n} entries wait in the queue, so the next group holds them all. */
    private static void waitUntilQueued(GroupCommit<?> commit, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (commit.queued() < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + commit.queued() + " writers queued");
            }
            Thread.onSpinWait();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
