package dev.reverie;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A value rejected for its length is pasted text, and pasted text may hold a secret: the error
 * names the field, the limit and the length, never the value (messages reach logs and HTTP error
 * bodies, which the redactor never sees).
 */
class InputErrorsQuoteNoSecretTest {

    private static final String SECRET = "sk-proj-4f9Kq2LmN8pR3sT6vW1xY5zA7bC0dE2fG4hJ6kL8mN0pQ";

    @Test
    void an_oversize_speaker_is_reported_without_its_text() {
        String speaker = "curl -H 'Authorization: Bearer " + SECRET + "' " + "x".repeat(100);
        assertThatThrownBy(() -> Turn.user("hi").withSpeaker(speaker))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("speaker must be non-blank and at most 128 characters, was " + speaker.length())
                .hasMessageNotContaining("sk-proj").hasMessageNotContaining("Bearer");
    }

    @Test
    void an_id_with_a_wrong_character_names_the_character_not_the_value() {
        assertThatThrownBy(() -> Scope.of("acme", "agent", "Bearer " + SECRET))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("endUserId has ' ' at position 6 of " + (7 + SECRET.length())
                        + "; an id may contain only letters, digits and . _ : @ -");
        assertThatThrownBy(() -> Scope.of("acme", "agent", "ana\tsouza"))
                .hasMessageContaining("endUserId has U+0009 at position 3 of 9");
    }

    @Test
    void oversize_draft_text_subject_filter_and_id_are_reported_without_their_text() {
        String text = SECRET + " " + "y".repeat(MemoryDraft.MAX_TEXT_LENGTH);
        assertThatThrownBy(() -> new MemoryDraft(MemoryKind.FACT, text, null, null, null, 50, false, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("text must be at most").hasMessageNotContaining("sk-proj");
        String subject = "user." + SECRET.replace('-', '_') + "z".repeat(300);
        assertThatThrownBy(() -> new MemoryDraft(MemoryKind.FACT, "text", subject, null, null, 50, false, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("subject must be at most").hasMessageNotContaining("4f9Kq2");
        assertThatThrownBy(() -> MemoryFilter.all().withText(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("textContains must be at most").hasMessageNotContaining("sk-proj");
        String id = SECRET + "w".repeat(300);
        assertThatThrownBy(() -> Scope.of("acme", "agent", id))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be at most").hasMessageNotContaining("sk-proj");
    }

    @Test
    void a_subject_that_holds_a_secret_is_refused_without_quoting_it_and_nothing_is_stored() {
        try (ContextManager memory = ContextManager.builder().store(dev.reverie.store.sqlite.SqliteMemoryStore.inMemory())
                .build()) {
            Scope scope = Scope.of("acme", "agent", "ana");
            String token = "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R";
            MemoryDraft ok = MemoryDraft.of(MemoryKind.FACT, "Ana lives in Porto");
            MemoryDraft bad = MemoryDraft.of(MemoryKind.FACT, "Ana's key").withSubject("user.key." + token.toLowerCase());
            assertThatThrownBy(() -> memory.admin().remember(scope, ok, bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("drafts[1].subject holds what looks like a secret (github_token)")
                    .hasMessageNotContaining("1a2b3c");
            org.assertj.core.api.Assertions.assertThat(memory.admin().memories(scope, MemoryFilter.all())).isEmpty();
        }
    }
}
