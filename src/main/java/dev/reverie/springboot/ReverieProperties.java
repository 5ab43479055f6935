package dev.reverie.springboot;

import dev.reverie.ContextRequest;
import dev.reverie.RecallMode;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.io.Resource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code reverie.*} properties of the Spring Boot auto-configuration (see
 * {@code docs/spring-ai.md} for the table). Bound once at startup by Spring; not thread-safe to
 * mutate afterwards.
 */
@ConfigurationProperties(prefix = "reverie")
public class ReverieProperties {

    /** Store URI such as {@code sqlite:./reverie-data}; without it no ContextManager is configured. */
    private String store;
    /** Resource holding the IMMUTABLE layer (persona, rules), e.g. {@code classpath:persona.md}. */
    private Resource immutable;
    /** Token budget of each assembled prompt. */
    private int budgetTokens = ContextRequest.DEFAULT_BUDGET;
    /** Recall mode: INJECT (the default) or ON_DEMAND. */
    private RecallMode recallMode;
    private final Advisor advisor = new Advisor();
    private final Dream dream = new Dream();
    private final Metrics metrics = new Metrics();

    public String getStore() {
        return store;
    }

    public void setStore(String store) {
        this.store = store;
    }

    public Resource getImmutable() {
        return immutable;
    }

    public void setImmutable(Resource immutable) {
        this.immutable = immutable;
    }

    public int getBudgetTokens() {
        return budgetTokens;
    }

    public void setBudgetTokens(int budgetTokens) {
        this.budgetTokens = budgetTokens;
    }

    public RecallMode getRecallMode() {
        return recallMode;
    }

    public void setRecallMode(RecallMode recallMode) {
        this.recallMode = recallMode;
    }

    public Advisor getAdvisor() {
        return advisor;
    }

    public Dream getDream() {
        return dream;
    }

    public Metrics getMetrics() {
        return metrics;
    }

    /** {@code reverie.advisor.*}: the ReverieAdvisor bean. */
    public static class Advisor {
        /** Advisor order; inside Spring AI's tool-calling loop by default. */
        private Integer order;
        /** Session id used when a request names none. */
        private String defaultSession;

        public Integer getOrder() {
            return order;
        }

        public void setOrder(Integer order) {
            this.order = order;
        }

        public String getDefaultSession() {
            return defaultSession;
        }

        public void setDefaultSession(String defaultSession) {
            this.defaultSession = defaultSession;
        }
    }

    /** {@code reverie.dream.*}: the scheduled dream cycle. */
    public static class Dream {
        /** Cron expression (six fields, Spring's form), e.g. {@code 0 0 3 * * *}. */
        private String cron;
        /** Delay between the end of one run and the start of the next, e.g. {@code 6h}. */
        private Duration fixedDelay;
        /** Delay before the first fixed-delay run (default: one fixed delay). */
        private Duration initialDelay;
        /** Time zone of the cron expression (default: the JVM's). */
        private String zone;
        /** The tenant and agent pairs to dream over, each {@code tenant/agent}: every end user of each. */
        private List<String> agents = new ArrayList<>();

        public String getCron() {
            return cron;
        }

        public void setCron(String cron) {
            this.cron = cron;
        }

        public Duration getFixedDelay() {
            return fixedDelay;
        }

        public void setFixedDelay(Duration fixedDelay) {
            this.fixedDelay = fixedDelay;
        }

        public Duration getInitialDelay() {
            return initialDelay;
        }

        public void setInitialDelay(Duration initialDelay) {
            this.initialDelay = initialDelay;
        }

        public String getZone() {
            return zone;
        }

        public void setZone(String zone) {
            this.zone = zone;
        }

        public List<String> getAgents() {
            return agents;
        }

        public void setAgents(List<String> agents) {
            this.agents = agents;
        }
    }

    /** {@code reverie.metrics.*}: the Micrometer binder. */
    public static class Metrics {
        /** How long one health snapshot serves the gauges. */
        private Duration healthTtl = Duration.ofSeconds(30);

        public Duration getHealthTtl() {
            return healthTtl;
        }

        public void setHealthTtl(Duration healthTtl) {
            this.healthTtl = healthTtl;
        }
    }
}
