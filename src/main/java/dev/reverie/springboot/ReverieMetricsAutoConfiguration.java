package dev.reverie.springboot;

import dev.reverie.ContextManager;
import dev.reverie.micrometer.ReverieMetrics;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * A {@link ReverieMetrics} bean when Micrometer is on the class path; Spring Boot's metrics support
 * binds every {@code MeterBinder} bean to the application's registry.
 */
@AutoConfiguration(after = ReverieAutoConfiguration.class)
@ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
@ConditionalOnBean(ContextManager.class)
public class ReverieMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ReverieMetrics reverieMetrics(ContextManager manager, ReverieProperties properties) {
        return ReverieMetrics.builder(manager).healthTtl(properties.getMetrics().getHealthTtl()).build();
    }
}
