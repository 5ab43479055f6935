package dev.reverie;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.reverie.extract.RuleBasedExtractor;
import dev.reverie.spi.TurnInput;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A small timing run (not a test, not a benchmark harness): redaction plus rule-based extraction
 * per turn over a few thousand realistic turns, printing median, p90 and p99 in microseconds, as
 * wall-clock time and as the thread's CPU time (which a busy shared machine inflates less).
 * Built-in turns are always measured; pass the path of a LoCoMo file to also measure its real
 * dialogue turns (each turn with its speaker). Run after {@code mvn -o test-compile}:
 *
 * <pre>
 * java -cp "target/classes:target/test-classes:$(mvn -q -o dependency:build-classpath -Dmdep.outputFile=/dev/stdout)" \
 *     dev.reverie.ExtractionTiming [../shared/eval/locomo/locomo-dev.json]
 * </pre>
 *
 * Single-threaded; not thread-safe (it is a main program).
 */
public final class ExtractionTiming {

    private static final String[] TEMPLATES = {
            "Please call me Dra. %s. I'm allergic to dipyrone.",
            "Hi, I'm %s! I live in Recife and I work as a nurse at the city hospital.",
            "I went to a chess club meetup yesterday and it was so relaxing.",
            "Gonna finish my degree and look into teaching jobs, which is pretty thrilling!",
            "I'm keen on nursing or working in elder care - I'd love to help those with similar needs.",
            "Yeah, I knitted that wool blanket last year! It's precious to me.",
            "Wow, that's neat, %s! What happened that made it so fun? Did you meet any interesting people?",
            "The book club has made me feel valued and given me strength to believe in myself.",
            "Thanks, %s! That's really kind. Is this your own quilt?",
            "My daughter %s just started school and she loves her teacher.",
            "I have a dentist appointment next Friday at 10, can you remind me?",
            "I no longer eat meat, and honestly I feel much better.",
            "ok thanks!",
            "haha yes",
            "Me chame de %s, por favor. Sou alérgica a dipirona.",
            "Moro em Lisboa há dois anos e trabalho como engenheira de software.",
            "Ontem fui ao médico e ele disse que está tudo bem com a minha pressão.",
            "Vou viajar para Recife na sexta que vem com a minha família.",
            "Não gosto mais de café, agora só tomo chá verde de manhã.",
            "Minha irmã %s gosta de jazz e toca piano muito bem.",
            "Você já foi a Portugal? Eu adoraria conhecer o Porto um dia.",
            "my password is hunter2 and my key is sk-4f9Kq2LmN8pR3sT6vW1xY5zA7bC0dE2fG4hJ6kL8mN0pQ",
            "I've been thinking a lot about what you said last week about taking more time for myself, and I think "
                    + "you were right: I started going to yoga twice a week and I already sleep better, although work "
                    + "is still pretty stressful because of the new project my manager %s assigned to me.",
            "Tenho dois filhos e uma cachorra chamada %s; no fim de semana passado fomos todos para a praia.",
    };
    private static final String[] NAMES = {"Marina", "Priya", "Lena", "Ana", "Lúcia", "Omar", "Ines", "Kofi"};

    private ExtractionTiming() {
    }

    public static void main(String[] args) throws IOException {
        List<TurnInput> builtIn = new ArrayList<>();
        Instant at = Instant.parse("2023-05-10T13:56:00Z");
        for (int i = 0; i < 4_800; i++) {
            String template = TEMPLATES[i % TEMPLATES.length];
            String text = String.format(template, NAMES[i % NAMES.length]);
            String speaker = i % 3 == 0 ? NAMES[(i / 3) % NAMES.length] : null;
            builtIn.add(new TurnInput(Role.USER, text, speaker, "t" + i, at.plusSeconds(i * 60L)));
        }
        measure("built-in turns", builtIn);
        if (args.length > 0 && Files.exists(Path.of(args[0]))) {
            measure("LoCoMo turns", locomo(Path.of(args[0])));
        }
    }

    private static void measure(String name, List<TurnInput> turns) {
        SecretRedactor redactor = new SecretRedactor();
        RuleBasedExtractor extractor = new RuleBasedExtractor();
        long sink = 0;
        for (int warm = 0; warm < 5; warm++) {
            for (TurnInput t : turns) {
                sink += extractor.extract(redacted(redactor, t)).size();
            }
        }
        long[] redact = new long[turns.size()];
        long[] extract = new long[turns.size()];
        long[] both = new long[turns.size()];
        long[] cpu = new long[turns.size()];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long facts = 0;
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < turns.size(); i++) {
                TurnInput t = turns.get(i);
                long cpuStart = threads.getCurrentThreadCpuTime();
                long a = System.nanoTime();
                Redaction r = redactor.redact(t.text());
                long b = System.nanoTime();
                int n = extractor.extract(new TurnInput(t.role(), r.text(), t.speaker(), t.turnId(), t.at())).size();
                long c = System.nanoTime();
                long cpuEnd = threads.getCurrentThreadCpuTime();
                if (round == 2) {
                    redact[i] = b - a;
                    extract[i] = c - b;
                    both[i] = c - a;
                    cpu[i] = cpuEnd - cpuStart;
                    facts += n;
                }
                sink += n;
            }
        }
        System.out.printf("%s: %d turns, %.2f facts/turn%n", name, turns.size(), (double) facts / turns.size());
        print("  redact          ", redact);
        print("  extract         ", extract);
        print("  redact+extract  ", both);
        print("  same, CPU time  ", cpu);
        if (sink == 42) {
            System.out.println();
        }
    }

    private static TurnInput redacted(SecretRedactor redactor, TurnInput t) {
        return new TurnInput(t.role(), redactor.redact(t.text()).text(), t.speaker(), t.turnId(), t.at());
    }

    private static void print(String label, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double mean = Arrays.stream(sorted).average().orElse(0);
        System.out.printf("%s median %7.1f µs   p90 %7.1f µs   p99 %7.1f µs   mean %7.1f µs   max %8.1f µs%n", label,
                sorted[sorted.length / 2] / 1e3, sorted[(int) (sorted.length * 0.90)] / 1e3,
                sorted[(int) (sorted.length * 0.99)] / 1e3, mean / 1e3, sorted[sorted.length - 1] / 1e3);
    }

    /** Every dialogue turn of a LoCoMo file, with its speaker. */
    private static List<TurnInput> locomo(Path file) throws IOException {
        List<TurnInput> out = new ArrayList<>();
        JsonNode samples = new ObjectMapper().readTree(file.toFile());
        Instant at = Instant.parse("2023-05-08T13:56:00Z");
        for (JsonNode sample : samples) {
            JsonNode conversation = sample.get("conversation");
            for (Map.Entry<String, JsonNode> f : conversation.properties()) {
                if (!f.getKey().matches("session_\\d+") || !f.getValue().isArray()) {
                    continue;
                }
                for (JsonNode turn : f.getValue()) {
                    out.add(new TurnInput(Role.USER, turn.get("text").asText(), turn.get("speaker").asText(),
                            turn.get("dia_id").asText(), at));
                }
            }
        }
        return out;
    }
}
