package dev.reverie.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stand-in for a remote chat model in tests: a real LangChain4j {@link ChatModel} that answers
 * from a script and keeps every request it received, so a test can read exactly what the model
 * would have been sent. Thread-safe.
 */
final class ScriptedChatModel implements ChatModel {

    private final Function<ChatRequest, AiMessage> script;
    private final List<ChatRequest> requests = new CopyOnWriteArrayList<>();

    ScriptedChatModel(Function<ChatRequest, AiMessage> script) {
        this.script = script;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
        requests.add(request);
        return ChatResponse.builder().aiMessage(script.apply(request)).build();
    }

    List<ChatRequest> requests() {
        return List.copyOf(requests);
    }

    ChatRequest last() {
        return requests.get(requests.size() - 1);
    }

    /** The text of the request's last user message. */
    static String lastUserText(ChatRequest request) {
        List<ChatMessage> m = request.messages();
        for (int i = m.size() - 1; i >= 0; i--) {
            if (m.get(i) instanceof UserMessage u) {
                return u.singleText();
            }
        }
        return "";
    }

    /** Whether the request already carries tool results (the model is being asked to answer with them). */
    static boolean hasToolResults(ChatRequest request) {
        return request.messages().stream().anyMatch(m -> m instanceof ToolExecutionResultMessage);
    }

    /** The single system message's text. */
    static String systemText(ChatRequest request) {
        return ((SystemMessage) request.messages().get(0)).text();
    }

    /** Everything the request says, for "never contains" assertions. */
    static String allText(ChatRequest request) {
        StringBuilder sb = new StringBuilder();
        for (ChatMessage m : request.messages()) {
            if (m instanceof SystemMessage s) {
                sb.append(s.text());
            } else if (m instanceof UserMessage u) {
                sb.append(ReverieChatMemory.text(u));
            } else if (m instanceof AiMessage a) {
                sb.append(a.text());
                a.toolExecutionRequests().forEach(r -> sb.append(r.arguments()));
            } else if (m instanceof ToolExecutionResultMessage r) {
                sb.append(r.text());
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /**
     * What every provider requires of a request: a well-formed message list that ends with a user
     * message or a tool result.
     */
    static void assertWellFormed(ChatRequest request) {
        assertWellFormed(request.messages());
        ChatMessage last = request.messages().get(request.messages().size() - 1);
        assertThat(last).isInstanceOfAny(UserMessage.class, ToolExecutionResultMessage.class);
    }

    /**
     * What every provider requires of a message list: one system message, first; every tool request
     * directly followed by exactly its results; no result without its request.
     */
    static void assertWellFormed(List<ChatMessage> messages) {
        assertThat(messages).isNotEmpty();
        assertThat(messages.get(0)).isInstanceOf(SystemMessage.class);
        assertThat(messages.stream().filter(m -> m instanceof SystemMessage)).hasSize(1);
        for (int i = 0; i < messages.size(); i++) {
            ChatMessage m = messages.get(i);
            if (m instanceof AiMessage a && a.hasToolExecutionRequests()) {
                List<String> asked = new ArrayList<>();
                a.toolExecutionRequests().stream().map(ToolExecutionRequest::id).forEach(asked::add);
                List<String> answered = new ArrayList<>();
                for (int j = i + 1; j < messages.size() && messages.get(j) instanceof ToolExecutionResultMessage r; j++) {
                    answered.add(r.id());
                }
                assertThat(answered).as("results right after tool request %s", asked).containsExactlyElementsOf(asked);
            }
            if (m instanceof ToolExecutionResultMessage r) {
                int j = i - 1;
                while (j > 0 && messages.get(j) instanceof ToolExecutionResultMessage) {
                    j--;
                }
                assertThat(messages.get(j)).as("the request before result %s", r.id()).isInstanceOf(AiMessage.class);
                assertThat(((AiMessage) messages.get(j)).toolExecutionRequests())
                        .extracting(ToolExecutionRequest::id).contains(r.id());
            }
        }
    }
}
