package dev.reverie;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Measures {@link SecretRedactor#redact(String)} alone, per turn, on the dialogue turns of a LoCoMo
 * file: median, p90 and p99 in microseconds after warm-up, over several rounds. A main, not a test:
 * timings on a shared machine are reported, never asserted. Run after {@code mvn -o test-compile}:
 *
 * <pre>
 * java -cp "target/classes:target/test-classes:$(mvn -q -o dependency:build-classpath -Dmdep.outputFile=/dev/stdout)" \
 *     dev.reverie.RedactionTiming ../shared/eval/locomo/locomo-dev.json
 * </pre>
 */
public final class RedactionTiming {

    private RedactionTiming() {
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args.length > 0 ? args[0] : "../shared/eval/locomo/locomo-dev.json");
        List<String> turns = locomoTurns(file);
        if (turns.isEmpty()) {
            System.out.println("no LoCoMo turns at " + file);
            return;
        }
        SecretRedactor redactor = new SecretRedactor();
        long sink = 0;
        for (int round = 0; round < 20; round++) {
            for (String t : turns) {
                sink += redactor.redact(t).total();
            }
        }
        int rounds = 5;
        long[] nanos = new long[turns.size() * rounds];
        int k = 0;
        for (int round = 0; round < rounds; round++) {
            for (String t : turns) {
                long start = System.nanoTime();
                sink += redactor.redact(t).total();
                nanos[k++] = System.nanoTime() - start;
            }
        }
        Arrays.sort(nanos);
        System.out.printf("LoCoMo turns: %d (x%d rounds), redactions %d; redact per turn: median %.2f µs, "
                        + "p90 %.2f µs, p99 %.2f µs%n", turns.size(), rounds, sink,
                nanos[nanos.length / 2] / 1000.0, nanos[nanos.length * 9 / 10] / 1000.0,
                nanos[nanos.length * 99 / 100] / 1000.0);
    }

    /** The text of every dialogue turn of a LoCoMo file; empty when the file is missing (tests of other packages use it). */
    public static List<String> locomoTurns(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return out;
        }
        JsonNode samples = new ObjectMapper().readTree(file.toFile());
        for (JsonNode sample : samples) {
            for (Map.Entry<String, JsonNode> f : sample.get("conversation").properties()) {
                if (!f.getKey().startsWith("session_") || !f.getValue().isArray()) {
                    continue;
                }
                for (JsonNode turn : f.getValue()) {
                    JsonNode text = turn.get("text");
                    if (text != null) {
                        out.add(text.asText());
                    }
                }
            }
        }
        return out;
    }
}
