package dev.reverie.springai;

import dev.reverie.AssembledContext;
import dev.reverie.ContextMessage;
import dev.reverie.Role;
import dev.reverie.Turn;
import dev.reverie.spi.TokenCounter;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;

import java.util.ArrayList;
import java.util.List;

/**
 * Conversions between Reverie's assembled context and turns and Spring AI messages, shared by the
 * advisor and the chat memory. Stateless and thread-safe.
 */
final class Messages {

    private Messages() {
    }

    /**
     * One system message folding {@code hostSystem} (may be empty) and the context's SYSTEM messages,
     * then the context's TEMPORAL turns as user and assistant messages. The TRANSIENT user message
     * (the query itself) is left out: the caller adds the request's own message verbatim.
     */
    static List<Message> fold(String hostSystem, AssembledContext context) {
        List<Message> out = new ArrayList<>();
        String system = context.systemText(hostSystem);
        if (!system.isEmpty()) {
            out.add(new SystemMessage(system));
        }
        for (ContextMessage m : context.dialogue()) {
            out.add(m.role() == Role.ASSISTANT ? new AssistantMessage(m.content()) : new UserMessage(m.content()));
        }
        return out;
    }

    /** Tokens of the messages as the model will see them (tool calls with their arguments). */
    static int tokens(TokenCounter counter, List<Message> messages) {
        int n = 0;
        for (Message m : messages) {
            StringBuilder sb = new StringBuilder(m.getText() == null ? "" : m.getText());
            if (m instanceof AssistantMessage a) {
                for (AssistantMessage.ToolCall c : a.getToolCalls()) {
                    sb.append('\n').append(c.name()).append(' ').append(c.arguments());
                }
            } else if (m instanceof ToolResponseMessage r) {
                for (ToolResponseMessage.ToolResponse t : r.getResponses()) {
                    sb.append('\n').append(t.responseData());
                }
            }
            n += counter.countMessage(sb.toString());
        }
        return n;
    }

    /**
     * Appends this turn's intermediate assistant text and tool results (as {@link Turn#tool},
     * third-party) to {@code turns}, skipping results of {@code skippedTool}.
     */
    static void toolTurns(List<Message> exchange, String skippedTool, List<Turn> turns) {
        for (Message m : exchange) {
            if (m instanceof AssistantMessage a) {
                if (a.getText() != null && !a.getText().isBlank()) {
                    turns.add(Turn.assistant(fit(a.getText())));
                }
            } else if (m instanceof ToolResponseMessage r) {
                for (ToolResponseMessage.ToolResponse t : r.getResponses()) {
                    String name = t.name() == null || t.name().isBlank() ? "tool" : t.name();
                    if (!name.equals(skippedTool) && t.responseData() != null && !t.responseData().isBlank()) {
                        turns.add(Turn.tool(name, fit(t.responseData())));
                    }
                }
            }
        }
    }

    /** The text of a response's generations, joined (empty when there is none). */
    static String answer(ChatResponse response) {
        if (response == null || response.getResults() == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (Generation g : response.getResults()) {
            if (g != null && g.getOutput() != null && g.getOutput().getText() != null) {
                if (!sb.isEmpty()) {
                    sb.append('\n');
                }
                sb.append(g.getOutput().getText());
            }
        }
        return sb.toString();
    }

    /** Text cut to what a {@link Turn} accepts. */
    static String fit(String text) {
        return text.length() <= Turn.MAX_TEXT_LENGTH ? text : text.substring(0, Turn.MAX_TEXT_LENGTH);
    }
}
