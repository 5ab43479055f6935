package dev.reverie.springboot;

import dev.reverie.ContextManager;
import dev.reverie.Scope;
import dev.reverie.dream.DreamListener;
import dev.reverie.dream.DreamPhase;
import dev.reverie.dream.DreamReport;
import dev.reverie.internal.Checks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.scheduling.support.CronTrigger;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.ScheduledFuture;

/**
 * Runs Reverie's dream cycle on a schedule (a cron expression or a fixed delay) over every end user
 * of the configured tenant and agent pairs, one pair after the other on one dedicated thread, so two
 * runs never overlap. Progress is logged at INFO (each pair's start, about every tenth of its end
 * users, its summed report) and failures at WARN; a failed end user never stops the run. Started and
 * stopped with the application context, before the {@code ContextManager} is closed. Thread-safe.
 */
public final class ReverieDreamScheduler implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(ReverieDreamScheduler.class);

    private final DreamRunner runner;
    private final List<String[]> agents;
    private final String cron;
    private final ZoneId zone;
    private final Duration fixedDelay;
    private final Duration initialDelay;
    private ThreadPoolTaskScheduler scheduler;
    private ScheduledFuture<?> schedule;
    private volatile boolean running;

    /**
     * A scheduler of {@code runner} over {@code agents} ({@code tenant/agent} each); exactly one of
     * {@code cron} and {@code fixedDelay} is set.
     */
    public ReverieDreamScheduler(DreamRunner runner, List<String> agents, String cron, ZoneId zone,
                                 Duration fixedDelay, Duration initialDelay) {
        this.runner = Checks.notNull("runner", runner);
        if ((cron == null || cron.isBlank()) == (fixedDelay == null)) {
            throw new IllegalArgumentException("set exactly one of reverie.dream.cron and reverie.dream.fixed-delay, were "
                    + cron + " and " + fixedDelay);
        }
        if (cron != null && !CronExpression.isValidExpression(cron)) {
            throw new IllegalArgumentException("reverie.dream.cron is not a valid cron expression (six fields: second "
                    + "minute hour day month weekday, e.g. '0 0 3 * * *'): '" + cron + "'");
        }
        if (fixedDelay != null && (fixedDelay.isZero() || fixedDelay.isNegative())) {
            throw new IllegalArgumentException("reverie.dream.fixed-delay must be positive, was " + fixedDelay);
        }
        if (agents == null || agents.isEmpty()) {
            throw new IllegalArgumentException("reverie.dream.agents must name at least one tenant/agent pair to dream "
                    + "over, e.g. reverie.dream.agents=clinic-42/receptionist");
        }
        List<String[]> pairs = new ArrayList<>();
        for (String a : agents) {
            String[] p = a == null ? new String[0] : a.strip().split("/", -1);
            if (p.length != 2) {
                throw new IllegalArgumentException("reverie.dream.agents entries must read tenant/agent, was '" + a + "'");
            }
            Checks.id("reverie.dream.agents tenant", p[0]);
            Checks.id("reverie.dream.agents agent", p[1]);
            pairs.add(p);
        }
        this.agents = List.copyOf(pairs);
        this.cron = cron;
        this.zone = zone == null ? ZoneId.systemDefault() : zone;
        this.fixedDelay = fixedDelay;
        this.initialDelay = initialDelay != null ? initialDelay : fixedDelay;
    }

    /** A scheduler from the {@code reverie.dream.*} properties, dreaming with {@code runner}. */
    static ReverieDreamScheduler from(ReverieProperties.Dream p, DreamRunner runner) {
        return new ReverieDreamScheduler(runner, p.getAgents(), p.getCron(),
                p.getZone() == null ? null : ZoneId.of(p.getZone()), p.getFixedDelay(), p.getInitialDelay());
    }

    /**
     * Dreams once over every configured tenant and agent now, on the caller's thread; returns each
     * pair's summed report, keyed {@code tenant/agent}. A pair that fails is logged and left out.
     */
    public Map<String, DreamReport> runOnce() {
        Map<String, DreamReport> out = new LinkedHashMap<>();
        for (String[] p : agents) {
            String key = p[0] + "/" + p[1];
            long start = System.nanoTime();
            LOG.info("Reverie dream started for {}", key);
            try {
                DreamReport report = runner.dream(p[0], p[1], new LoggingListener(key));
                out.put(key, report);
                LOG.info("Reverie dream finished for {} in {} ms: {} end users, {} considered, {} promoted, "
                                + "{} forgotten, {} synthesized, {} failed", key, (System.nanoTime() - start) / 1_000_000,
                        report.endUsers(), report.considered(), report.promoted(), report.forgotten(),
                        report.synthesized(), report.failed());
            } catch (RuntimeException e) {
                LOG.warn("Reverie dream failed for {}: {}", key, e.toString(), e);
            }
        }
        return out;
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        ThreadPoolTaskScheduler s = new ThreadPoolTaskScheduler();
        s.setPoolSize(1);
        s.setThreadNamePrefix("reverie-dream-");
        s.setDaemon(true);
        s.setRemoveOnCancelPolicy(true);
        s.setWaitForTasksToCompleteOnShutdown(true);
        s.setAwaitTerminationSeconds(60);
        s.initialize();
        if (cron != null) {
            schedule = s.schedule(this::runOnce, new CronTrigger(cron, TimeZone.getTimeZone(zone)));
            LOG.info("Reverie dream scheduled by cron '{}' ({}) over {}", cron, zone, names());
        } else {
            schedule = s.scheduleWithFixedDelay(this::runOnce, Instant.now().plus(initialDelay), fixedDelay);
            LOG.info("Reverie dream scheduled every {} (first in {}) over {}", fixedDelay, initialDelay, names());
        }
        scheduler = s;
        running = true;
    }

    @Override
    public synchronized void stop() {
        if (!running) {
            return;
        }
        running = false;
        schedule.cancel(false); // no further runs; a run in progress finishes
        scheduler.shutdown(); // waits for that run, up to a minute
        scheduler = null;
        schedule = null;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private List<String> names() {
        return agents.stream().map(p -> p[0] + "/" + p[1]).toList();
    }

    /** How a scheduled run dreams over one tenant and agent (directly, or through metrics that time it). */
    @FunctionalInterface
    public interface DreamRunner {
        /** Dreams over every end user of the tenant and agent, reporting to {@code listener}. */
        DreamReport dream(String tenantId, String agentId, DreamListener listener);

        /** Straight calls to {@code manager}. */
        static DreamRunner direct(ContextManager manager) {
            Checks.notNull("manager", manager);
            return manager::dream;
        }
    }

    /** Logs progress about every tenth of the end users, and failures. */
    private static final class LoggingListener implements DreamListener {
        private final String key;
        private long lastLogged = -1;

        LoggingListener(String key) {
            this.key = key;
        }

        @Override
        public void endUserFinished(Scope scope, long done, long total, DreamReport report) {
            long step = Math.max(1, total / 10);
            if (done == total || done / step != lastLogged) {
                lastLogged = done / step;
                LOG.info("Reverie dream {}: {}/{} end users", key, done, total);
            }
        }

        @Override
        public void endUserFailed(Scope scope, DreamPhase phase, RuntimeException error) {
            LOG.warn("Reverie dream {}: end user {} failed in {}: {}", key, scope.endUserId(), phase, error.toString());
        }
    }
}
