package dev.reverie.springboot;

import dev.reverie.ContextManager;
import dev.reverie.ContextRequest;
import dev.reverie.RecallMode;
import dev.reverie.Scope;
import dev.reverie.Turn;
import dev.reverie.dream.DreamReport;
import dev.reverie.micrometer.ReverieMetrics;
import dev.reverie.springai.ReverieAdvisor;
import dev.reverie.springai.ReverieToolCallback;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReverieAutoConfigurationTest {

    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");

    @TempDir
    Path dir;

    ApplicationContextRunner runner() {
        return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(
                ReverieAutoConfiguration.class, ReverieMetricsAutoConfiguration.class,
                ReverieSpringAiAutoConfiguration.class, ReverieHealthAutoConfiguration.class,
                ReverieDreamAutoConfiguration.class));
    }

    String store() {
        return "reverie.store=sqlite:" + dir;
    }

    @Test
    void the_beans_are_present_and_the_properties_applied() {
        runner().withPropertyValues(store(), "reverie.immutable=classpath:reverie-test/persona.md",
                        "reverie.budget-tokens=1234", "reverie.recall-mode=on_demand",
                        "reverie.advisor.default-session=web")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(ContextManager.class)
                            .hasSingleBean(ReverieAdvisor.class).hasSingleBean(ReverieToolCallback.class)
                            .hasSingleBean(ReverieMetrics.class).hasBean("reverieHealthIndicator")
                            .doesNotHaveBean(ReverieDreamScheduler.class);
                    ReverieAdvisor advisor = context.getBean(ReverieAdvisor.class);
                    assertThat(advisor.budgetTokens()).isEqualTo(1234);
                    assertThat(advisor.recallMode()).isEqualTo(RecallMode.ON_DEMAND);
                    ContextManager manager = context.getBean(ContextManager.class);
                    assertThat(manager.buildContext(ContextRequest.builder(ALICE, "s1").query("hi").build())
                            .messages().get(0).content()).contains("from the Boot test persona");
                });
    }

    @Test
    void a_missing_immutable_resource_fails_startup_with_a_configuration_error() {
        runner().withPropertyValues(store(), "reverie.immutable=classpath:reverie-test/nowhere.md")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .rootCause().isInstanceOf(dev.reverie.ConfigurationException.class)
                        .hasMessageContaining("reverie.immutable names")
                        .hasMessageContaining("point the property at an existing file"));
    }

    @Test
    void the_manager_is_closed_with_the_context() {
        ContextManager[] manager = new ContextManager[1];
        runner().withPropertyValues(store()).run(context -> manager[0] = context.getBean(ContextManager.class));

        assertThatThrownBy(() -> manager[0].buildContext(ContextRequest.builder(ALICE, "s1").build()))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void nothing_is_configured_without_the_store_property() {
        runner().run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ContextManager.class)
                .doesNotHaveBean(ReverieAdvisor.class).doesNotHaveBean(ReverieMetrics.class)
                .doesNotHaveBean("reverieHealthIndicator"));
    }

    @Test
    void each_integration_is_absent_when_its_library_is_not_on_the_class_path() {
        runner().withPropertyValues(store()).withClassLoader(new FilteredClassLoader(CallAdvisor.class))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(ContextManager.class)
                        .doesNotHaveBean(ReverieAdvisor.class).doesNotHaveBean(ReverieToolCallback.class));
        runner().withPropertyValues(store()).withClassLoader(new FilteredClassLoader(MeterBinder.class))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(ReverieAdvisor.class)
                        .doesNotHaveBean(ReverieMetrics.class));
        runner().withPropertyValues(store()).withClassLoader(new FilteredClassLoader(HealthIndicator.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("reverieHealthIndicator"));
    }

    @Test
    void an_application_manager_bean_wins_and_still_gets_the_advisor() {
        runner().withBean(ContextManager.class, () -> ContextManager.builder().store("sqlite::memory:").build())
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(ContextManager.class)
                        .hasSingleBean(ReverieAdvisor.class));
    }

    @Test
    void the_health_indicator_reports_layer_health() {
        runner().withPropertyValues(store()).run(context -> {
            context.getBean(ContextManager.class).recordTurn(ALICE, "s1", Turn.user("Hello"), Turn.assistant("Hi"));
            Health health = context.getBean("reverieHealthIndicator", HealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsKeys("alerts", "agents", "immutableTokens");
            @SuppressWarnings("unchecked")
            Map<String, Object> agents = (Map<String, Object>) health.getDetails().get("agents");
            assertThat(agents).containsKey("clinic-42/receptionist");
        });
    }

    @Test
    void the_advisor_bean_is_timed_through_the_metrics_bean() {
        runner().withPropertyValues(store()).run(context -> {
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            context.getBean(ReverieMetrics.class).bindTo(registry);
            ChatClient chat = ChatClient.builder(prompt -> new ChatResponse(List.of(new Generation(new AssistantMessage("Noted.")))))
                    .defaultAdvisors(context.getBean(ReverieAdvisor.class)).build();

            chat.prompt().user("Hello").advisors(a -> a.param(ReverieAdvisor.SCOPE, ALICE)).call().content();

            assertThat(registry.find("reverie.build_context").timer().count()).isEqualTo(1);
            assertThat(registry.find("reverie.record_turn").timer().count()).isEqualTo(1);
        });
    }

    @Test
    void the_dream_is_scheduled_over_the_configured_agents() {
        runner().withPropertyValues(store(), "reverie.dream.fixed-delay=6h",
                        "reverie.dream.agents=clinic-42/receptionist,clinic-42/nurse")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(ReverieDreamScheduler.class);
                    ReverieDreamScheduler scheduler = context.getBean(ReverieDreamScheduler.class);
                    assertThat(scheduler.isRunning()).isTrue();
                    context.getBean(ContextManager.class).recordTurn(ALICE, "s1", Turn.user("I'm allergic to dipyrone."));

                    Map<String, DreamReport> reports = scheduler.runOnce();

                    assertThat(reports).containsOnlyKeys("clinic-42/receptionist", "clinic-42/nurse");
                    assertThat(reports.get("clinic-42/receptionist").endUsers()).isEqualTo(1);
                    SimpleMeterRegistry registry = new SimpleMeterRegistry();
                    context.getBean(ReverieMetrics.class).bindTo(registry);
                    scheduler.runOnce();
                    assertThat(registry.find("reverie.dream").timers()).isNotEmpty();
                });
        runner().withPropertyValues(store(), "reverie.dream.cron=0 0 3 * * *", "reverie.dream.agents=clinic-42/receptionist")
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(ReverieDreamScheduler.class));
    }

    @Test
    void a_bad_dream_schedule_fails_the_startup_with_what_to_set() {
        // one through the context (Spring logs the refused startup at WARN), the rules directly
        runner().withPropertyValues(store(), "reverie.dream.cron=every night", "reverie.dream.agents=clinic-42/receptionist")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .rootCause().hasMessageContaining("reverie.dream.cron is not a valid cron expression"));
        ReverieDreamScheduler.DreamRunner runner = (tenant, agent, listener) -> DreamReport.EMPTY;
        assertThatThrownBy(() -> new ReverieDreamScheduler(runner, List.of(), null, null, Duration.ofHours(1), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reverie.dream.agents must name at least one");
        assertThatThrownBy(() -> new ReverieDreamScheduler(runner, List.of("clinic-42/receptionist"), "0 0 3 * * *", null,
                Duration.ofHours(1), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exactly one of reverie.dream.cron and reverie.dream.fixed-delay");
        assertThatThrownBy(() -> new ReverieDreamScheduler(runner, List.of("clinic-42"), null, null, Duration.ofHours(1), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tenant/agent");
    }
}
