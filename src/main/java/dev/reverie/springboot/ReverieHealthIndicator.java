package dev.reverie.springboot;

import dev.reverie.ContextManager;
import dev.reverie.HealthAlert;
import dev.reverie.LayerHealth;
import dev.reverie.internal.Checks;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reverie's {@link LayerHealth} as a Spring Boot {@link HealthIndicator}: UP while the store
 * answers, with the alerts and the per-agent figures as details; DOWN with the error when the
 * health snapshot cannot be read. Alerts (DESIGN §10) are about the quality of the memory, not
 * liveness, so they do not turn the status DOWN: they are details a dashboard shows. Thread-safe.
 */
public final class ReverieHealthIndicator implements HealthIndicator {

    private final ContextManager manager;

    public ReverieHealthIndicator(ContextManager manager) {
        this.manager = Checks.notNull("manager", manager);
    }

    @Override
    public Health health() {
        LayerHealth h;
        try {
            h = manager.health();
        } catch (RuntimeException e) {
            return Health.down(e).build();
        }
        Map<String, Object> agents = new LinkedHashMap<>();
        for (LayerHealth.AgentHealth a : h.agents()) {
            agents.put(a.tenantId() + "/" + a.agentId(), a.toMap());
        }
        List<Map<String, Object>> alerts = h.alerts().stream().map(ReverieHealthIndicator::alert).toList();
        return Health.up()
                .withDetail("since", h.since().toString())
                .withDetail("healthy", h.healthy())
                .withDetail("immutableTokens", h.immutableTokens())
                .withDetail("alerts", alerts)
                .withDetail("agents", agents)
                .build();
    }

    private static Map<String, Object> alert(HealthAlert a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", a.type().name());
        m.put("layer", a.layer().name());
        if (a.tenantId() != null) {
            m.put("tenant", a.tenantId());
            m.put("agent", a.agentId());
        }
        m.put("value", a.value());
        m.put("threshold", a.threshold());
        m.put("message", a.message());
        return m;
    }
}
