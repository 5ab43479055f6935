package dev.reverie.springboot;

import dev.reverie.ContextManager;
import dev.reverie.micrometer.ReverieMetrics;
import dev.reverie.springai.ReverieAdvisor;
import dev.reverie.springai.ReverieToolCallback;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@link ReverieAdvisor} bean (from {@code reverie.budget-tokens}, {@code reverie.recall-mode}
 * and {@code reverie.advisor.*}) and a recall {@link ReverieToolCallback} that reads the scope from
 * the tool context, when Spring AI is on the class path. With Micrometer present the advisor's calls
 * go through {@link ReverieMetrics}, so they are timed.
 */
@AutoConfiguration(after = {ReverieAutoConfiguration.class, ReverieMetricsAutoConfiguration.class})
@ConditionalOnClass(name = "org.springframework.ai.chat.client.advisor.api.CallAdvisor")
@ConditionalOnBean(ContextManager.class)
public class ReverieSpringAiAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ReverieAdvisor reverieAdvisor(ContextManager manager, ReverieProperties properties,
                                  ObjectProvider<ReverieAdvisor.Operations> operations) {
        ReverieAdvisor.Builder b = ReverieAdvisor.builder(manager).budgetTokens(properties.getBudgetTokens());
        if (properties.getRecallMode() != null) {
            b.recallMode(properties.getRecallMode());
        }
        if (properties.getAdvisor().getOrder() != null) {
            b.order(properties.getAdvisor().getOrder());
        }
        if (properties.getAdvisor().getDefaultSession() != null) {
            b.defaultSession(properties.getAdvisor().getDefaultSession());
        }
        operations.ifAvailable(b::operations);
        return b.build();
    }

    @Bean
    @ConditionalOnMissingBean
    ReverieToolCallback reverieRecallToolCallback(ContextManager manager) {
        return ReverieToolCallback.fromToolContext(manager);
    }

    /** Times the advisor's calls through the metrics binder when there is one. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
    static class Metered {
        @Bean
        @ConditionalOnMissingBean
        ReverieAdvisor.Operations reverieAdvisorOperations(ObjectProvider<ReverieMetrics> metrics, ContextManager manager) {
            ReverieMetrics m = metrics.getIfAvailable();
            return m != null ? ReverieAdvisor.Operations.of(m::buildContext, m::recordTurn)
                    : ReverieAdvisor.Operations.direct(manager);
        }
    }
}
