package dev.reverie.springai;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import reactor.core.publisher.Flux;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The stand-in for a remote chat model in tests: a real Spring AI {@link ChatModel} that answers
 * from a script and keeps every prompt it received, so a test reads exactly what the model would
 * have been sent. Streaming sends the scripted answer in two chunks. Thread-safe.
 */
final class ScriptedChatModel implements ChatModel {

    private final Function<Prompt, AssistantMessage> script;
    private final List<Prompt> prompts = new CopyOnWriteArrayList<>();

    ScriptedChatModel(Function<Prompt, AssistantMessage> script) {
        this.script = script;
    }

    /** Tool-calling options, as every real provider's model has, so Spring AI's tool loop runs. */
    @Override
    public ChatOptions getOptions() {
        return ToolCallingChatOptions.builder().build();
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        prompts.add(prompt);
        return new ChatResponse(List.of(new Generation(script.apply(prompt))));
    }

    @Override
    public Flux<ChatResponse> stream(Prompt prompt) {
        prompts.add(prompt);
        AssistantMessage answer = script.apply(prompt);
        if (answer.hasToolCalls()) {
            return Flux.just(new ChatResponse(List.of(new Generation(answer))));
        }
        String text = answer.getText();
        int half = text.length() / 2;
        return Flux.just(text.substring(0, half), text.substring(half))
                .map(part -> new ChatResponse(List.of(new Generation(new AssistantMessage(part)))));
    }

    List<Prompt> prompts() {
        return List.copyOf(prompts);
    }

    Prompt last() {
        return prompts.get(prompts.size() - 1);
    }

    static AssistantMessage say(String text) {
        return new AssistantMessage(text);
    }

    static AssistantMessage callTool(String id, String name, String arguments) {
        return AssistantMessage.builder().content("")
                .toolCalls(List.of(new AssistantMessage.ToolCall(id, "function", name, arguments))).build();
    }

    /** The last user message's text. */
    static String lastUserText(Prompt prompt) {
        List<Message> m = prompt.getInstructions();
        for (int i = m.size() - 1; i >= 0; i--) {
            if (m.get(i) instanceof UserMessage u) {
                return u.getText();
            }
        }
        return "";
    }

    static boolean hasToolResults(Prompt prompt) {
        return prompt.getInstructions().stream().anyMatch(m -> m instanceof ToolResponseMessage);
    }

    /** The text of the prompt's system messages, joined. */
    static String systemText(Prompt prompt) {
        return prompt.getInstructions().stream().filter(m -> m instanceof SystemMessage).map(Message::getText)
                .collect(Collectors.joining("\n"));
    }

    /** Every message's text, joined. */
    static String allText(Prompt prompt) {
        return prompt.getInstructions().stream().map(m -> m.getText() == null ? "" : m.getText())
                .collect(Collectors.joining("\n"));
    }
}
