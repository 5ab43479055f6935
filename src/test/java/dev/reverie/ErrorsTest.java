package dev.reverie;

import dev.reverie.spi.Embedder;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.MemoryStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every failure the API reports is a {@link ReverieException} of its area (or, for use after close,
 * a {@link StoreClosedException}), and its message names the problem and what to do.
 */
class ErrorsTest {

    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");

    MemoryStore store;

    @BeforeEach
    void open() {
        store = MemoryStores.open("sqlite::memory:");
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void an_unreadable_immutable_file_is_a_configuration_error_with_the_io_cause(@TempDir Path dir) {
        Path missing = dir.resolve("persona.md");

        assertThatThrownBy(() -> ImmutableLayer.fromFiles(missing))
                .isInstanceOf(ConfigurationException.class)
                .hasCauseInstanceOf(NoSuchFileException.class)
                .hasMessageContaining(missing.toString())
                .hasMessageContaining("check that the path exists");
    }

    @Test
    void a_missing_immutable_resource_is_a_configuration_error_naming_it() {
        assertThatThrownBy(() -> ImmutableLayer.fromResources("prompts/nowhere.md"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("'prompts/nowhere.md' was not found on the class path")
                .hasMessageContaining("check its name");
    }

    @Test
    void an_export_to_a_failing_stream_is_a_transfer_error_with_the_io_cause() {
        try (ContextManager memory = ContextManager.builder().store(store).build()) {
            memory.recordTurn(ALICE, "s1", Turn.user("My name is Alice."));
            OutputStream broken = new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    throw new IOException("disk full");
                }
            };

            assertThatThrownBy(() -> memory.admin().exportTo(ALICE, broken))
                    .isInstanceOf(MemoryTransferException.class)
                    .hasCauseInstanceOf(IOException.class)
                    .hasMessageContaining("disk full")
                    .hasMessageContaining("export again");
        }
    }

    @Test
    void an_import_from_a_failing_stream_is_a_transfer_error_and_imports_nothing() {
        try (ContextManager memory = ContextManager.builder().store(store).build()) {
            InputStream broken = new InputStream() {
                @Override
                public int read() throws IOException {
                    throw new IOException("connection reset");
                }
            };

            assertThatThrownBy(() -> memory.admin().importFrom(ALICE, broken))
                    .isInstanceOf(MemoryTransferException.class)
                    .hasCauseInstanceOf(IOException.class)
                    .hasMessageContaining("nothing was imported");
            assertThat(memory.admin().memories(ALICE)).isEmpty();
        }
    }

    @Test
    void a_builder_without_a_store_is_a_configuration_error_saying_what_to_call() {
        assertThatThrownBy(() -> ContextManager.builder().build())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("no store configured")
                .hasMessageContaining("store(MemoryStores.open(");
    }

    @Test
    void a_builder_with_two_stores_is_a_configuration_error() {
        assertThatThrownBy(() -> ContextManager.builder().store(store).store("sqlite::memory:").build())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("call only one of store(MemoryStore) and store(String)");
    }

    @Test
    void an_embedder_without_a_dimension_is_a_configuration_error() {
        Embedder flat = new Embedder() {
            @Override
            public int dimension() {
                return 0;
            }

            @Override
            public float[] embed(String text) {
                return new float[0];
            }
        };

        assertThatThrownBy(() -> ContextManager.builder().store(store).embedder(flat).build())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("reports dimension 0, which must be positive");
    }

    @Test
    void an_unknown_store_scheme_is_a_configuration_error() {
        assertThatThrownBy(() -> ContextManager.builder().store("nosuch:./x").build())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("nosuch");
    }

    @Test
    void contradictory_policy_settings_are_a_configuration_error_saying_the_fix() {
        assertThatThrownBy(() -> MemoryPolicy.builder().scoreWeights(0.5, 0.5, 0.5).build())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("score weights must sum to 1")
                .hasMessageContaining("add up to 1");
        assertThatThrownBy(() -> MemoryPolicy.builder().importanceCutoff(20).forgetFloor(30).build())
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("forgetFloor (30.0)")
                .hasMessageContaining("lower forgetFloor or raise importanceCutoff");
    }

    @Test
    void a_budget_below_the_mandatory_layers_names_both_numbers_and_the_remedy() {
        try (ContextManager memory = ContextManager.builder().store(store)
                .immutable(ImmutableLayer.of("You are the clinic's receptionist. Be brief and kind.")).build()) {
            ContextRequest tooSmall = ContextRequest.builder(ALICE, "s1").query("hello").budgetTokens(5).build();

            assertThatThrownBy(() -> memory.buildContext(tooSmall))
                    .isInstanceOfSatisfying(ContextBudgetException.class, e -> {
                        assertThat(e.budget()).isEqualTo(5);
                        assertThat(e.getMessage()).contains("needs " + e.required() + " tokens")
                                .contains("budget is 5 tokens")
                                .contains("raise budgetTokens to at least " + e.required());
                    });
        }
    }

    @Test
    void a_closed_manager_says_so_with_the_closed_signal() {
        ContextManager memory = ContextManager.builder().store(store).build();
        memory.close();

        assertThatThrownBy(() -> memory.buildContext(ContextRequest.builder(ALICE, "s1").query("hi").build()))
                .isInstanceOf(StoreClosedException.class)
                .hasMessageContaining("build a new one");
    }
}
