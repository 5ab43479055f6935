package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static dev.reverie.GovernanceFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

/** The operator's write paths redact secrets like recorded turns do: nothing typed by hand stores a secret. */
class MemoryAdminRedactionTest {

    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");

    @TempDir
    Path dir;
    MemoryStore store;
    ContextManager memory;
    MemoryAdmin admin;

    @BeforeEach
    void setUp() {
        open();
    }

    @AfterEach
    void tearDown() {
        close();
    }

    private void open() {
        store = MemoryStores.open("sqlite:" + dir);
        memory = ContextManager.builder().store(store).clock(new MutableClock(T0))
                .immutable(ImmutableLayer.of("You are the clinic's receptionist.")).build();
        admin = memory.admin();
    }

    private void close() {
        memory.close();
        store.close();
    }

    @Test
    void remember_redacts_secrets_in_text_and_value_before_storing() {
        List<Memory> added = admin.remember(ALICE,
                MemoryDraft.of(MemoryKind.FACT, "Wifi: the password is Flamengo1981, key AKIAIOSFODNN7EXAMPLE")
                        .withSubject("clinic.wifi").withValue("password: Flamengo1981"),
                MemoryDraft.of(MemoryKind.FACT, "Prefers morning appointments"));

        Memory wifi = added.get(0);
        assertThat(wifi.text()).isEqualTo("Wifi: the password is [REDACTED:password], key [REDACTED:aws_access_key]");
        assertThat(wifi.value()).isEqualTo("password: [REDACTED:password]");
        assertThat(added.get(1).text()).isEqualTo("Prefers morning appointments");

        close();
        open();
        Memory stored = admin.memory(ALICE, wifi.id()).orElseThrow();
        assertThat(stored.text()).doesNotContain("Flamengo1981").doesNotContain("AKIAIOSFODNN7EXAMPLE");
        assertThat(stored.value()).doesNotContain("Flamengo1981");
        assertThat(admin.history(ALICE, wifi.id()))
                .allSatisfy(e -> assertThat(String.valueOf(e.after())).doesNotContain("Flamengo1981"));
    }

    @Test
    void edit_redacts_the_new_text_in_the_memory_and_its_history() {
        Memory m = admin.remember(ALICE, MemoryDraft.of(MemoryKind.FACT, "Uses the clinic's shared database")).get(0);

        Memory edited = admin.edit(ALICE, m.id(),
                "Database is postgres://admin:S3cr3t@Pass@db.internal:5432/app, DB_PASSWORD=S3cr3t@Pass");

        assertThat(edited.text()).isEqualTo(
                "Database is postgres://[REDACTED:connection_string]@db.internal:5432/app, DB_PASSWORD=[REDACTED:password]");
        close();
        open();
        assertThat(admin.memory(ALICE, m.id()).orElseThrow().text()).isEqualTo(edited.text());
        MemoryEvent last = admin.history(ALICE, m.id()).get(admin.history(ALICE, m.id()).size() - 1);
        assertThat(last.type()).isEqualTo(MemoryEventType.EDITED);
        assertThat(last.after()).isEqualTo(edited.text()).doesNotContain("S3cr3t");
    }

    @Test
    void editing_to_text_that_redacts_to_the_current_text_changes_nothing() {
        Memory m = admin.remember(ALICE, MemoryDraft.of(MemoryKind.FACT, "my password is hunter2")).get(0);
        assertThat(m.text()).isEqualTo("my password is [REDACTED:password]");

        Memory same = admin.edit(ALICE, m.id(), "my password is swordfish9");

        assertThat(same.text()).isEqualTo(m.text());
        assertThat(admin.history(ALICE, m.id())).extracting(MemoryEvent::type).containsExactly(MemoryEventType.CREATED);
    }
}
