package dev.reverie.examples.springai;

import dev.reverie.ContextManager;
import dev.reverie.Scope;
import dev.reverie.dream.DreamReport;
import dev.reverie.springai.ReverieAdvisor;
import dev.reverie.springboot.ReverieDreamScheduler;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Reverie in a Spring Boot + Spring AI application, offline: the auto-configuration builds the
 * {@code ContextManager} and the {@code ReverieAdvisor} from {@code reverie.*} properties, and
 * {@link OfflineModel} stands in for the remote chat model (it prints every prompt it receives, so
 * you see exactly what a provider would be sent). Two patients talk to the receptionist in two
 * sessions each; the nightly dream runs between them. Run with
 * {@code mvn -q -Pexamples compile exec:java -Dexec.mainClass=dev.reverie.examples.springai.SpringAiClinic};
 * docs/spring-ai.md shows how to put a real provider in its place.
 */
@SpringBootApplication
public class SpringAiClinic {

    static final Scope MARINA = Scope.of("clinic-42", "receptionist", "marina");
    static final Scope BRUNO = Scope.of("clinic-42", "receptionist", "bruno");

    public static void main(String[] args) throws Exception {
        Path data = Files.createTempDirectory("reverie-spring-ai");
        SpringApplication app = new SpringApplication(SpringAiClinic.class);
        app.setDefaultProperties(Map.of(
                "reverie.store", "sqlite:" + data,                       // the embedded default store
                "reverie.immutable", "classpath:dev/reverie/examples/springai/receptionist.md",
                "reverie.budget-tokens", "2000",
                "reverie.dream.cron", "0 0 3 * * *",                    // every night at 03:00
                "reverie.dream.agents", "clinic-42/receptionist",
                "spring.main.banner-mode", "off"));
        app.run(args).close(); // closing the context closes the ContextManager and its store
    }

    /** The stand-in for a provider's model; with a real provider, its starter defines the ChatModel bean. */
    @Bean
    ChatModel chatModel() {
        return new OfflineModel();
    }

    @Bean
    CommandLineRunner conversation(ChatModel model, ReverieAdvisor reverie,
                                   ReverieDreamScheduler dream, ContextManager memory) {
        return args -> {
            ChatClient chat = ChatClient.builder(model)
                    .defaultSystem("Be brief and kind.")
                    .defaultAdvisors(reverie)
                    .build();

            say(chat, MARINA, "visit-1", "Hi, I'm Marina. I'm allergic to dipyrone.");
            say(chat, BRUNO, "visit-1", "Hello, I'm Bruno. I'm allergic to penicillin.");
            say(chat, MARINA, "visit-1", "Can I book a check-up for Friday morning?");

            System.out.println("\n=== the nightly dream (scheduled by reverie.dream.cron; run now) ===");
            Map<String, DreamReport> reports = dream.runOnce();
            reports.forEach((agent, r) -> System.out.println(agent + ": " + r.endUsers() + " end users, "
                    + r.promoted() + " memories promoted"));

            System.out.println("\n=== later: new sessions for both patients ===");
            say(chat, MARINA, "visit-2", "My head hurts. Can I take dipyrone before the check-up?");
            say(chat, BRUNO, "visit-2", "Is there anything on my file I should tell the doctor?");
        };
    }

    static void say(ChatClient chat, Scope patient, String session, String text) {
        System.out.println("\n--- " + patient.endUserId() + " (" + session + "): " + text);
        String answer = chat.prompt().user(text)
                .advisors(a -> a.param(ReverieAdvisor.SCOPE, patient).param(ReverieAdvisor.SESSION, session))
                .call().content();
        System.out.println("<<< receptionist: " + answer);
    }

    /** Prints each prompt it is sent and answers from a tiny script. Thread-safe. */
    static final class OfflineModel implements ChatModel {
        @Override
        public ChatOptions getOptions() {
            return ToolCallingChatOptions.builder().build();
        }

        @Override
        public ChatResponse call(Prompt prompt) {
            System.out.println(">>> the model is sent " + prompt.getInstructions().size() + " messages:");
            for (Message m : prompt.getInstructions()) {
                System.out.println("    [" + m.getMessageType() + "] " + m.getText().replace("\n", "\n        "));
            }
            return new ChatResponse(List.of(new Generation(new AssistantMessage(answer(prompt)))));
        }

        private static String answer(Prompt prompt) {
            String system = prompt.getSystemMessage().getText();
            String user = prompt.getUserMessage().getText();
            if (user.contains("dipyrone") && system.contains("allergic to dipyrone")) {
                return "Please don't: your file says you are allergic to dipyrone. I'll tell the doctor.";
            }
            if (user.contains("my file") && system.contains("penicillin")) {
                return "Yes: mention your penicillin allergy.";
            }
            if (user.contains("Friday")) {
                return "Booked: Friday at 9:00.";
            }
            return "Noted, thank you.";
        }
    }
}
