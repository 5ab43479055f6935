package dev.reverie.examples;

import dev.reverie.AssembledContext;
import dev.reverie.ContextManager;
import dev.reverie.ContextRequest;
import dev.reverie.RecalledMemory;
import dev.reverie.Scope;
import dev.reverie.Turn;
import dev.reverie.spi.MemoryStores;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Moving from SQLite to Lucene is a one-string change: this example plays the same scripted
 * conversation on {@code sqlite:} and on {@code lucene:}, dreams, asks the same questions, and
 * prints the recalled memories side by side. Run with
 * {@code mvn -q -Pexamples compile exec:java -Dexec.mainClass=dev.reverie.examples.StoreSwap}.
 */
public final class StoreSwap {

    private StoreSwap() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Files.createTempDirectory("reverie-swap");
        List<String> sqlite = play("sqlite:" + root.resolve("sqlite"));
        List<String> lucene = play("lucene:" + root.resolve("lucene"));
        for (int i = 0; i < Math.max(sqlite.size(), lucene.size()); i++) {
            System.out.printf("%-60s | %s%n", i < sqlite.size() ? sqlite.get(i) : "", i < lucene.size() ? lucene.get(i) : "");
        }
        System.out.println(sqlite.equals(lucene) ? "Both stores recalled the same memories."
                : "The stores recalled different memories (their BM25 implementations tokenize differently).");
    }

    private static List<String> play(String storeUri) {
        Instant t0 = Instant.parse("2026-01-05T10:00:00Z");
        Scope user = Scope.of("acme", "assistant", "user-1");
        List<String> recalled = new ArrayList<>();
        recalled.add("== " + storeUri.substring(0, storeUri.indexOf(':')));
        try (ContextManager memory = ContextManager.builder().store(MemoryStores.open(storeUri))
                .clock(Clock.fixed(t0.plus(Duration.ofDays(30)), ZoneOffset.UTC)).build()) {
            memory.recordTurn(user, "s1",
                    Turn.user("My name is Ana and I work as a data engineer in Lisbon.").at(t0),
                    Turn.user("I love hiking and I'm allergic to peanuts.").at(t0.plusSeconds(10)),
                    Turn.user("Yesterday I adopted a cat called Miso.").at(t0.plusSeconds(20)));
            memory.recordTurn(user, "s2",
                    Turn.user("I started learning Rust last week, it's fun.").at(t0.plus(Duration.ofDays(7))),
                    Turn.user("I still love hiking, went up Sintra on Sunday.").at(t0.plus(Duration.ofDays(7))));
            memory.dream(user);
            for (String q : List.of("What pets do I have?", "Which hobbies do I enjoy?", "What do I do for work?")) {
                AssembledContext ctx = memory.buildContext(ContextRequest.builder(user, "s3").query(q)
                        .budgetTokens(600).build());
                recalled.add("? " + q);
                for (RecalledMemory r : ctx.recalled()) {
                    recalled.add("  " + r.text());
                }
            }
        }
        return recalled;
    }
}
