package dev.reverie.springboot;

import dev.reverie.ContextManager;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The {@code reverie} health indicator when Spring Boot's health support (Actuator) is on the class path. */
@AutoConfiguration(after = ReverieAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
@ConditionalOnBean(ContextManager.class)
public class ReverieHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "reverieHealthIndicator")
    ReverieHealthIndicator reverieHealthIndicator(ContextManager manager) {
        return new ReverieHealthIndicator(manager);
    }
}
