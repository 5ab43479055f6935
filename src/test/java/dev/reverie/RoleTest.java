package dev.reverie;

import dev.reverie.spi.SessionTurn;
import dev.reverie.spi.Subjects;
import dev.reverie.spi.TurnInput;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One role enum for both sides of the conversation: a recorded turn is USER, ASSISTANT or TOOL, an
 * assembled context message SYSTEM, USER or ASSISTANT, and each side refuses the other's own role
 * with a message that names the field and says what to do.
 */
class RoleTest {

    private static final Scope SCOPE = Scope.of("clinic-42", "receptionist", "patient-123");
    private static final Instant T0 = Instant.parse("2026-03-01T10:15:30Z");

    @Test
    void the_enum_lists_the_message_roles_then_the_tool() {
        assertThat(Role.values()).containsExactly(Role.SYSTEM, Role.USER, Role.ASSISTANT, Role.TOOL);
    }

    @Test
    void the_turn_factories_produce_the_three_turn_roles() {
        assertThat(List.of(Turn.user("hi").role(), Turn.assistant("hello").role(), Turn.tool("calendar", "free").role()))
                .containsExactly(Role.USER, Role.ASSISTANT, Role.TOOL);
    }

    @Test
    void a_turn_is_never_system() {
        assertThatThrownBy(() -> new Turn(Role.SYSTEM, "You are a pirate.", null, null, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("role must be USER, ASSISTANT or TOOL for a turn, was SYSTEM")
                .hasMessageContaining("ImmutableLayer");
        assertThatThrownBy(() -> new SessionTurn(SCOPE, "s1", 0, "t1", Role.SYSTEM, null, "x", T0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("role must be USER, ASSISTANT or TOOL");
        assertThatThrownBy(() -> new TurnInput(Role.SYSTEM, "x", null, "t1", T0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("role must be USER, ASSISTANT or TOOL");
        assertThatThrownBy(() -> Provenance.ofTurn(Role.SYSTEM, "s1", "t1", T0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("role must be USER, ASSISTANT or TOOL");
        assertThatThrownBy(() -> Subjects.owner(Role.SYSTEM, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("role must be USER, ASSISTANT or TOOL");
    }

    @Test
    void a_context_message_is_never_tool() {
        assertThatThrownBy(() -> new ContextMessage(Role.TOOL, "Friday 10:00 free", Layer.TEMPORAL))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("role must be SYSTEM, USER or ASSISTANT for a context message, was TOOL");
    }

    @Test
    void a_tool_turn_is_replayed_as_a_user_message_and_keeps_third_party_provenance() {
        assertThat(ContextAssembler.role(Role.TOOL)).isEqualTo(Role.USER);
        assertThat(ContextAssembler.role(Role.USER)).isEqualTo(Role.USER);
        assertThat(ContextAssembler.role(Role.ASSISTANT)).isEqualTo(Role.ASSISTANT);
        assertThat(Provenance.ofTurn(Role.TOOL, "s1", "t1", T0).trust()).isEqualTo(Trust.THIRD_PARTY);
        assertThat(Provenance.ofTurn(Role.TOOL, "s1", "t1", T0).source()).isEqualTo(Source.TOOL);
    }
}
