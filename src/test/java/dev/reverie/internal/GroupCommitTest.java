package dev.reverie.internal;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

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
        GroupCommit<String> commit = new GroupCommit<>(64, group -> {
            groups.add(group.stream().map(GroupCommit.Entry::item).toList());
            if (group.get(0).item().equals("first")) {
                leaderInside.countDown();
                await(releaseLeader);
            }
        });

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
