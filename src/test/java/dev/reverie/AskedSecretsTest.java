package dev.reverie;

import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.SessionTurn;
import dev.reverie.store.sqlite.SqliteMemoryStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A secret given as the bare answer to a request for one never reaches the store, whether the request
 * is in the same recorded call or the one before; answers to other questions stay as they were said.
 * Runs on SQLite here, and on Lucene and PostgreSQL in the subclasses ({@code AskedSecretsLuceneTest},
 * {@code AskedSecretsPostgresTest}).
 */
class AskedSecretsTest {

    static final Scope SCOPE = Scope.of("t1", "helpdesk", "u1");

    MemoryStore store;
    ContextManager memory;

    /** The store the scenarios run on: SQLite here; a subclass runs them on another. */
    MemoryStore newStore() {
        return SqliteMemoryStore.inMemory();
    }

    @BeforeEach
    void open() {
        store = newStore();
        memory = ContextManager.builder().store(store).build();
    }

    @AfterEach
    void close() {
        memory.close();
        store.close();
    }

    List<String> archived(String session) {
        memory.flush();
        return memory.admin().conversation(SCOPE, session).stream().map(SessionTurn::text).toList();
    }

    String everythingStored() {
        memory.flush();
        StringBuilder all = new StringBuilder();
        for (String session : memory.admin().sessions(SCOPE)) {
            archived(session).forEach(t -> all.append(t).append('\n'));
        }
        memory.admin().observations(SCOPE).forEach(o -> all.append(o.text()).append('\n'));
        return all.toString();
    }

    @Test
    void a_bare_answer_to_a_request_for_a_secret_is_redacted_across_calls_and_within_one() {
        memory.recordTurn(SCOPE, "s1", Turn.user("Can you connect the printer to the guest network?"),
                Turn.assistant("Sure. What's the Wi-Fi password?"));
        TurnReceipt receipt = memory.recordTurn(SCOPE, "s1", Turn.user("RmqxoNf3$FPS"), Turn.assistant("Connected."));
        memory.recordTurn(SCOPE, "s1", Turn.assistant("Please type the verification code we texted you."),
                Turn.user("it's 482913."));
        memory.recordTurn(SCOPE, "s1", Turn.user("Qual é a senha do roteador?"), Turn.assistant("Tr0ub4dor&3"));

        assertThat(receipt.redactions()).isEqualTo(1);
        assertThat(archived("s1")).contains("[REDACTED:password]", "it's [REDACTED:pin].",
                "[REDACTED:password]");
        assertThat(everythingStored()).doesNotContain("RmqxoNf3", "482913", "Tr0ub4dor");
    }

    @Test
    void answers_to_other_questions_and_answers_that_are_no_secret_stay() {
        memory.recordTurn(SCOPE, "s1", Turn.assistant("What's your favourite city?"), Turn.user("Lisbon"));
        memory.recordTurn(SCOPE, "s1", Turn.assistant("What's the Wi-Fi password?"), Turn.user("I forgot it"));
        memory.recordTurn(SCOPE, "s1", Turn.assistant("What's the router's password?"), Turn.user("ask Bob"));
        memory.recordTurn(SCOPE, "s1", Turn.assistant("What code did you run?"), Turn.user("python3"));
        memory.recordTurn(SCOPE, "s1", Turn.assistant("Which version are you on?"), Turn.user("v2.4.1-beta"));
        // a request in one session says nothing of the next turn of another
        memory.recordTurn(SCOPE, "s1", Turn.assistant("What's the Wi-Fi password?"));
        memory.recordTurn(SCOPE, "s2", Turn.user("Build9000x"));

        assertThat(archived("s1")).contains("Lisbon", "I forgot it", "ask Bob", "python3", "v2.4.1-beta");
        assertThat(archived("s2")).containsExactly("Build9000x");
    }
}
