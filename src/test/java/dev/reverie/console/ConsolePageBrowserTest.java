package dev.reverie.console;

import dev.reverie.ContextManager;
import dev.reverie.MemoryDraft;
import dev.reverie.MemoryKind;
import dev.reverie.Scope;
import dev.reverie.Turn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console page in a real headless Chromium: it logs in with the token from the link's fragment,
 * lists an end user's memories, shows markup stored in a memory as text (the script never runs), and
 * leaves a screenshot at {@code target/console-screenshot.png}. Skipped, with the reason printed, when
 * no Chromium is installed ({@code scripts/install-chromium.sh} installs Debian's headless shell;
 * {@code REVERIE_CHROMIUM} names another binary).
 */
class ConsolePageBrowserTest {

    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");
    static final String TOKEN = "browser-test-token-0123456789";
    static final String EVIL = "<img src=x onerror=\"document.title='pwned'\"><script>document.title='pwned'</script>";

    @TempDir
    Path dir;
    ContextManager memory;
    ReverieConsole console;

    @BeforeEach
    void start() {
        memory = ContextManager.builder().store("sqlite:" + dir.resolve("db")).build();
        memory.recordTurn(ALICE, "s1", Turn.user("Please call me Dra. Marina. I'm allergic to dipyrone."),
                Turn.assistant("Noted, Dra. Marina."));
        memory.recordTurn(Scope.of("clinic-42", "receptionist", "bob"), "s1", Turn.user("I live in Porto."));
        memory.dream(ALICE);
        memory.admin().remember(ALICE, MemoryDraft.of(MemoryKind.FACT, EVIL));
        console = ReverieConsole.start(memory, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), TOKEN);
    }

    @AfterEach
    void stop() {
        console.close();
        memory.close();
    }

    @Test
    void page_lists_memories_shows_markup_as_text_and_is_screenshotted() throws Exception {
        Optional<String> browser = browser();
        if (browser.isEmpty()) {
            System.out.println("ConsolePageBrowserTest skipped: no headless Chromium on the PATH"
                    + " (run scripts/install-chromium.sh, or set REVERIE_CHROMIUM)");
        }
        Assumptions.assumeTrue(browser.isPresent(), "no headless Chromium (scripts/install-chromium.sh installs one)");
        String link = console.url() + "#token=" + TOKEN + "&tenant=clinic-42&agent=receptionist&user=alice";

        String dom = chromium(browser.get(), "--dump-dom", link);
        Path screenshot = Path.of("target", "console-screenshot.png").toAbsolutePath();
        Files.deleteIfExists(screenshot);
        chromium(browser.get(), "--screenshot=" + screenshot, "--window-size=1400,1000", link);

        assertThat(dom).contains("<title>Reverie console</title>").doesNotContain("pwned</title>");
        assertThat(dom).contains("dipyrone", "alice");
        assertThat(dom).contains("&lt;script&gt;document.title='pwned'&lt;/script&gt;")
                .doesNotContain("<script>document.title");
        assertThat(dom).doesNotContain("<img src=\"x\"");
        assertThat(screenshot).exists();
        assertThat(Files.size(screenshot)).isGreaterThan(10_000);
    }

    private static String chromium(String binary, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(binary, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--hide-scrollbars", "--virtual-time-budget=8000"));
        command.addAll(List.of(args));
        Path log = Files.createTempFile("chromium", ".log");
        Process p = new ProcessBuilder(command).redirectError(log.toFile()).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in 90 s");
        }
        Files.deleteIfExists(log);
        return new String(out, StandardCharsets.UTF_8);
    }

    private static Optional<String> browser() {
        String configured = System.getenv("REVERIE_CHROMIUM");
        if (configured != null && !configured.isBlank()) {
            return Optional.of(configured);
        }
        String path = System.getenv().getOrDefault("PATH", "");
        return Stream.of("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome")
                .flatMap(name -> Stream.of(path.split(File.pathSeparator)).map(d -> Path.of(d, name)))
                .filter(Files::isExecutable)
                .map(Path::toString)
                .findFirst();
    }
}
