package dev.reverie.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LangChain4jLanguageModelTest {

    @Test
    void sends_the_prompt_as_a_user_message_after_the_system_message() {
        ScriptedChatModel chat = new ScriptedChatModel(r -> AiMessage.from("[{\"kind\":\"FACT\"}]"));
        LangChain4jLanguageModel model = LangChain4jLanguageModel.of(chat, "Answer in JSON only.");

        assertThat(model.complete("Extract the facts: I'm allergic to dipyrone.")).isEqualTo("[{\"kind\":\"FACT\"}]");
        assertThat(chat.last().messages()).containsExactly(SystemMessage.from("Answer in JSON only."),
                UserMessage.from("Extract the facts: I'm allergic to dipyrone."));
        LangChain4jLanguageModel.of(chat).complete("Summarize.");
        assertThat(chat.last().messages()).containsExactly(UserMessage.from("Summarize."));
    }

    @Test
    void an_answer_without_text_fails_so_reverie_falls_back() {
        ScriptedChatModel tool = new ScriptedChatModel(r -> AiMessage.from(ToolExecutionRequest.builder().id("1")
                .name("search").arguments("{}").build()));
        assertThatThrownBy(() -> LangChain4jLanguageModel.of(tool).complete("Summarize."))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("asked for a tool");
        ScriptedChatModel blank = new ScriptedChatModel(r -> AiMessage.from(" "));
        assertThatThrownBy(() -> LangChain4jLanguageModel.of(blank).complete("Summarize."))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("returned no text");
        assertThatThrownBy(() -> LangChain4jLanguageModel.of(blank).complete(" "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("prompt must not be blank");
    }
}
