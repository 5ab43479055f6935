package dev.reverie.examples;

import dev.reverie.AssembledContext;
import dev.reverie.ContextManager;
import dev.reverie.ContextMessage;
import dev.reverie.ContextRequest;
import dev.reverie.ImmutableLayer;
import dev.reverie.Layer;
import dev.reverie.RecalledMemory;
import dev.reverie.Scope;
import dev.reverie.Turn;
import dev.reverie.dream.DreamListener;
import dev.reverie.dream.DreamReport;
import dev.reverie.spi.MemoryStores;
import dev.reverie.spi.TokenCounter;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * The README's demo: two patients talk to a clinic receptionist over several sessions on the
 * embedded SQLite store; the program prints the assembled context layer by layer with token
 * counts, and shows that the second patient never sees the first one's facts.
 */
public final class Demo {

    private Demo() {
    }

    public static void main(String[] args) throws Exception {
        Path data = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("reverie-demo");
        Instant day1 = Instant.parse("2026-03-02T09:00:00Z");
        try (ContextManager memory = ContextManager.builder()
                .store(MemoryStores.open("sqlite:" + data))
                .immutable(ImmutableLayer.of("You are the clinic's receptionist. Be brief and kind. "
                        + "Never give medical advice; book, move and cancel appointments."))
                .clock(Clock.fixed(day1.plusSeconds(86_400 * 7), ZoneOffset.UTC))
                .build()) {

            Scope marina = Scope.of("clinic-42", "receptionist", "patient-123");
            Scope joao = Scope.of("clinic-42", "receptionist", "patient-456");

            // session 1, a week ago: Marina introduces herself
            memory.recordTurn(marina, "session-1",
                    Turn.user("Please call me Dra. Marina. I'm allergic to dipyrone.").at(day1),
                    Turn.assistant("Noted, Dra. Marina. I've added the allergy to your file.").at(day1.plusSeconds(5)),
                    Turn.user("I prefer morning appointments, and I live in Recife.").at(day1.plusSeconds(30)),
                    Turn.assistant("Mornings it is.").at(day1.plusSeconds(35)));
            // João, another patient of the same clinic
            memory.recordTurn(joao, "session-9",
                    Turn.user("My name is João and I'm allergic to penicillin.").at(day1),
                    Turn.assistant("Thank you, João.").at(day1.plusSeconds(5)));

            // between conversations the host schedules the dream cycle: it consolidates each patient's
            // observations into durable memories (identity and allergies become permanent and pinned)
            DreamReport report = memory.dream("clinic-42", "receptionist", DreamListener.NONE);
            System.out.println("dream cycle: " + report.considered() + " observations considered, "
                    + report.promoted() + " promoted, " + report.discarded() + " discarded, "
                    + report.duplicates() + " duplicates");

            // session 2, today: Marina wants to move her appointment
            memory.recordTurn(marina, "session-2",
                    Turn.user("Hi again, it's about my appointment next week.").at(day1.plusSeconds(86_400 * 7)),
                    Turn.assistant("Of course, how can I help?").at(day1.plusSeconds(86_400 * 7 + 3)));

            AssembledContext ctx = memory.buildContext(ContextRequest.builder(marina, "session-2")
                    .query("Can I move my appointment to Friday? Any allergy I should remind the doctor of?")
                    .scratchpad("calendar tool: Friday 10:00 and 14:00 are free")
                    .budgetTokens(1_000)
                    .build());
            print("Marina (patient-123), session 2", ctx);

            AssembledContext other = memory.buildContext(ContextRequest.builder(joao, "session-10")
                    .query("Am I allergic to dipyrone? Where do I live? Recife?")
                    .budgetTokens(1_000)
                    .build());
            print("João (patient-456), asking about Marina's facts", other);
            boolean leaked = other.messages().stream().filter(m -> m.layer() != Layer.TRANSIENT)
                    .anyMatch(m -> m.content().contains("dipyrone") || m.content().contains("Recife"));
            System.out.println(leaked ? "ISOLATION BROKEN: João saw Marina's facts"
                    : "Isolation holds: nothing of Marina's reached João's context.");
            System.out.println("Data kept in " + data.toAbsolutePath());
        }
    }

    private static void print(String title, AssembledContext ctx) {
        TokenCounter tokens = TokenCounter.o200k();
        System.out.println();
        System.out.println("=== " + title + " — " + ctx.usage().total() + " of " + ctx.usage().budget() + " tokens ===");
        for (Layer layer : Layer.values()) {
            System.out.println("--- " + layer + " (" + ctx.usage().tokens(layer) + " tokens)");
            for (ContextMessage m : ctx.messages(layer)) {
                System.out.println("[" + m.role() + ", " + tokens.countMessage(m.content()) + " tokens] " + m.content());
            }
        }
        for (RecalledMemory r : ctx.recalled()) {
            System.out.printf("recalled %-8s score %.3f  %s  (from turns %s)%n", r.kind(), r.score(), r.text(),
                    r.sourceTurnIds());
        }
    }
}
