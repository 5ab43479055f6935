package dev.reverie.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.reverie.internal.Checks;
import dev.reverie.spi.LanguageModel;

import java.util.ArrayList;
import java.util.List;

/**
 * Any LangChain4j {@link ChatModel} as a Reverie {@link LanguageModel}: the LLM extractor, the
 * abstractive summarizer and the dream cycle's judgements send their prompt as one user message
 * (after an optional system message) and read the answer's text. A reply without text fails with
 * {@link IllegalStateException}, which Reverie counts and answers with its rule-based fallback.
 * Reverie calls this off the hot path, so a cheaper model than the one that talks to the user is
 * usually the right choice. Thread-safe when the model is, as LangChain4j models are.
 */
public final class LangChain4jLanguageModel implements LanguageModel {

    private final ChatModel model;
    private final String systemMessage;

    private LangChain4jLanguageModel(ChatModel model, String systemMessage) {
        this.model = Checks.notNull("model", model);
        this.systemMessage = systemMessage;
    }

    /** {@code model} with no system message. */
    public static LangChain4jLanguageModel of(ChatModel model) {
        return new LangChain4jLanguageModel(model, null);
    }

    /** {@code model} with a system message sent before every prompt. */
    public static LangChain4jLanguageModel of(ChatModel model, String systemMessage) {
        return new LangChain4jLanguageModel(model, Checks.notBlank("systemMessage", systemMessage));
    }

    @Override
    public String complete(String prompt) {
        Checks.notBlank("prompt", prompt);
        List<ChatMessage> messages = new ArrayList<>(2);
        if (systemMessage != null) {
            messages.add(SystemMessage.from(systemMessage));
        }
        messages.add(UserMessage.from(prompt));
        ChatResponse response = model.chat(messages);
        AiMessage answer = response == null ? null : response.aiMessage();
        if (answer == null || answer.text() == null || answer.text().isBlank()) {
            throw new IllegalStateException("chat model " + model.getClass().getName() + " returned no text"
                    + (answer != null && answer.hasToolExecutionRequests() ? " (it asked for a tool instead)" : ""));
        }
        return answer.text();
    }
}
