package dev.reverie.springboot;

import dev.reverie.ContextManager;
import dev.reverie.micrometer.ReverieMetrics;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * Schedules the dream cycle when {@code reverie.dream.cron} or {@code reverie.dream.fixed-delay} is
 * set (with {@code reverie.dream.agents}); runs through {@link ReverieMetrics} when Micrometer is
 * on the class path, so scheduled dreams are timed and counted too.
 */
@AutoConfiguration(after = {ReverieAutoConfiguration.class, ReverieMetricsAutoConfiguration.class})
@ConditionalOnBean(ContextManager.class)
@Conditional(ReverieDreamAutoConfiguration.OnDreamSchedule.class)
public class ReverieDreamAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ReverieDreamScheduler reverieDreamScheduler(ReverieProperties properties,
                                                ObjectProvider<ReverieDreamScheduler.DreamRunner> runner,
                                                ContextManager manager) {
        return ReverieDreamScheduler.from(properties.getDream(),
                runner.getIfAvailable(() -> ReverieDreamScheduler.DreamRunner.direct(manager)));
    }

    /** Dreams through the metrics binder when there is one. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
    static class Metered {
        @Bean
        @ConditionalOnMissingBean
        ReverieDreamScheduler.DreamRunner reverieDreamRunner(ObjectProvider<ReverieMetrics> metrics,
                                                             ContextManager manager) {
            ReverieMetrics m = metrics.getIfAvailable();
            return m != null ? m::dream : ReverieDreamScheduler.DreamRunner.direct(manager);
        }
    }

    /** Either schedule property is set. */
    static final class OnDreamSchedule extends AnyNestedCondition {
        OnDreamSchedule() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty(prefix = "reverie.dream", name = "cron")
        static final class Cron {
        }

        @ConditionalOnProperty(prefix = "reverie.dream", name = "fixed-delay")
        static final class FixedDelay {
        }
    }
}
