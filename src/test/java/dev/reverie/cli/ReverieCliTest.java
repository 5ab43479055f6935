package dev.reverie.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.reverie.ContextManager;
import dev.reverie.MemoryDraft;
import dev.reverie.MemoryKind;
import dev.reverie.Scope;
import dev.reverie.Turn;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line run in-process against real SQLite and Lucene stores. */
class ReverieCliTest {

    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");
    static final Scope BOB = Scope.of("clinic-42", "receptionist", "bob");
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    String uri;

    record Result(int code, String out, String err) {
        String outAndErr() {
            return out + err;
        }
    }

    @BeforeEach
    void seedSqlite() {
        uri = seed("sqlite:" + dir.resolve("db"));
    }

    /** Two end users with turns recorded and dreamed, through the public API, in a store that is then closed. */
    static String seed(String storeUri) {
        try (ContextManager m = ContextManager.builder().store(storeUri).build()) {
            m.recordTurn(ALICE, "s1", Turn.user("Please call me Dra. Marina. I'm allergic to dipyrone."),
                    Turn.assistant("Noted, Dra. Marina."));
            m.recordTurn(BOB, "s1", Turn.user("I live in Porto and I work as a nurse."), Turn.assistant("Noted."));
            m.dream(ALICE);
            m.dream(BOB);
        }
        return storeUri;
    }

    static Result run(String stdin, String... args) {
        return run(new ReverieCli(), stdin, args);
    }

    static Result run(ReverieCli cli, String stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = cli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    Result cli(String... args) {
        return run("", Stream.concat(Stream.of(args), Stream.of("--store", uri)).toArray(String[]::new));
    }

    String firstMemoryId(String scope) throws IOException {
        JsonNode list = JSON.readTree(cli("memories", scope, "--json").out());
        assertThat(list).isNotEmpty();
        return list.get(0).get("id").asText();
    }

    // ------------------------------------------------------------------ help

    @Test
    void help_lists_every_command() {
        Result r = run("", "--help");

        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("users", "memories", "observations", "show", "history", "delete", "edit",
                "conversation", "dream", "consolidate", "export", "import", "erase", "health", "console");
    }

    @Test
    void no_command_prints_usage_and_is_a_user_error() {
        Result r = run("");

        assertThat(r.code()).isEqualTo(ReverieCli.USER_ERROR);
        assertThat(r.err()).contains("Usage:");
    }

    // ------------------------------------------------------------------ both stores

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void users_memories_and_observations_read_every_store(String scheme) throws IOException {
        uri = scheme.equals("sqlite") ? uri : seed("lucene:" + dir.resolve("idx"));

        Result users = cli("users", "clinic-42/receptionist");
        Result memories = cli("memories", "clinic-42/receptionist/alice");
        Result observations = cli("observations", "clinic-42/receptionist/alice");
        JsonNode json = JSON.readTree(cli("memories", "clinic-42/receptionist/alice", "--json").out());

        assertThat(users.code()).isZero();
        assertThat(users.out()).contains("USER", "alice", "bob", "2 users");
        assertThat(memories.code()).isZero();
        assertThat(memories.out()).contains("ID", "KIND", "STATUS", "TEXT", "dipyrone").doesNotContain("Porto");
        assertThat(observations.code()).isZero();
        assertThat(observations.out()).contains("dipyrone");
        assertThat(json.isArray()).isTrue();
        assertThat(json.findValuesAsText("text")).anyMatch(t -> t.contains("dipyrone"));
        assertThat(json.get(0).has("embedding")).isFalse();
        assertThat(json.get(0).get("provenance").get("source").asText()).isNotBlank();
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void edit_then_show_and_history_keep_the_old_text(String scheme) throws IOException {
        uri = scheme.equals("sqlite") ? uri : seed("lucene:" + dir.resolve("idx"));
        String id = firstMemoryId("clinic-42/receptionist/alice");

        Result edit = cli("edit", "clinic-42/receptionist/alice", id, "Allergic to dipyrone and penicillin");
        Result show = cli("show", "clinic-42/receptionist/alice", id);
        Result history = cli("history", "clinic-42/receptionist/alice", id);
        JsonNode historyJson = JSON.readTree(cli("history", "clinic-42/receptionist/alice", id, "--json").out());

        assertThat(edit.code()).isZero();
        assertThat(edit.out()).contains("edited memory " + id);
        assertThat(show.code()).isZero();
        assertThat(show.out()).contains("id:", id, "text:", "Allergic to dipyrone and penicillin", "History:", "EDITED");
        assertThat(history.out()).contains("EDITED", "operator", "penicillin");
        assertThat(historyJson.findValuesAsText("type")).contains("EDITED");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "lucene"})
    void dream_of_every_user_prints_plain_progress_and_the_report(String scheme) {
        uri = scheme.equals("sqlite") ? uri : seed("lucene:" + dir.resolve("idx"));
        try (ContextManager m = ContextManager.builder().store(uri).build()) {
            m.recordTurn(BOB, "s2", Turn.user("I prefer short answers. My daughter is called Ana."));
        }

        Result r = cli("dream", "clinic-42/receptionist");

        assertThat(r.code()).isZero();
        assertThat(r.err()).contains("[1/2]", "[2/2]", "alice", "bob").doesNotContain("\r");
        assertThat(r.out()).contains("COUNTER", "considered", "end_users", "rem_after");
    }

    // ------------------------------------------------------------------ dream and consolidate

    @Test
    void dream_of_one_user_prints_a_line_per_phase_event() {
        try (ContextManager m = ContextManager.builder().store(uri).build()) {
            m.recordTurn(ALICE, "s2", Turn.user("I work as a pharmacist in Braga."));
        }

        Result r = cli("dream", "clinic-42/receptionist/alice");

        assertThat(r.code()).isZero();
        assertThat(r.err()).contains("LIGHT started", "LIGHT finished", "DEEP started", "REM finished",
                "PRUNE finished");
        assertThat(r.out()).contains("considered", "promoted");
    }

    @Test
    void dream_json_prints_the_report_alone_on_stdout() throws IOException {
        Result r = cli("dream", "clinic-42/receptionist/alice", "--json");

        JsonNode report = JSON.readTree(r.out());
        assertThat(r.code()).isZero();
        assertThat(report.has("considered")).isTrue();
        assertThat(report.has("rem_before")).isTrue();
        assertThat(report.get("end_users").asLong()).isEqualTo(1);
    }

    @Test
    void dream_on_a_terminal_draws_a_bar_per_phase() {
        try (ContextManager m = ContextManager.builder().store(uri).build()) {
            m.recordTurn(ALICE, "s2", Turn.user("I work as a pharmacist in Braga."));
        }

        Result r = run(new ReverieCli().terminal(true), "", "dream", "clinic-42/receptionist/alice", "--store", uri);

        assertThat(r.code()).isZero();
        assertThat(r.err()).contains("\r", "LIGHT  [", "DEEP   [", "REM    [", "PRUNE  [", "########################]");
    }

    @Test
    void consolidate_reports_and_is_idempotent() throws IOException {
        Result first = cli("consolidate", "clinic-42/receptionist/alice");
        List<String> before = JSON.readTree(cli("memories", "clinic-42/receptionist/alice", "--json").out())
                .findValuesAsText("id");
        Result second = cli("consolidate", "clinic-42/receptionist/alice", "--json");
        List<String> after = JSON.readTree(cli("memories", "clinic-42/receptionist/alice", "--json").out())
                .findValuesAsText("id");

        assertThat(first.code()).isZero();
        assertThat(first.err()).contains("LIGHT started", "DEEP finished");
        assertThat(first.out()).contains("considered");
        assertThat(JSON.readTree(second.out()).get("promoted")).isNotNull();
        assertThat(after).containsExactlyInAnyOrderElementsOf(before);
    }

    // ------------------------------------------------------------------ changes

    @Test
    void delete_removes_a_memory_and_keeps_its_history() throws IOException {
        String id = firstMemoryId("clinic-42/receptionist/alice");

        Result delete = cli("delete", "clinic-42/receptionist/alice", id);
        Result again = cli("delete", "clinic-42/receptionist/alice", id);
        Result history = cli("history", "clinic-42/receptionist/alice", id);

        assertThat(delete.code()).isZero();
        assertThat(delete.out()).contains("deleted memory " + id);
        assertThat(again.code()).isEqualTo(ReverieCli.USER_ERROR);
        assertThat(again.err()).isEqualTo("error: memory id '" + id + "' does not exist in scope "
                + "clinic-42/receptionist/alice" + System.lineSeparator());
        assertThat(history.out()).contains("DELETED");
    }

    @Test
    void delete_observation_with_its_flag() throws IOException {
        JsonNode obs = JSON.readTree(cli("observations", "clinic-42/receptionist/bob", "--json").out());
        String id = obs.get(0).get("id").asText();

        Result r = cli("delete", "clinic-42/receptionist/bob", id, "--observation");

        assertThat(r.code()).isZero();
        assertThat(JSON.readTree(cli("observations", "clinic-42/receptionist/bob", "--json").out())
                .findValuesAsText("id")).doesNotContain(id);
    }

    @Test
    void conversation_shows_the_archived_turns() {
        Result r = cli("conversation", "clinic-42/receptionist/alice", "s1");
        Result unknown = cli("conversation", "clinic-42/receptionist/alice", "s404");

        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("ROLE", "USER", "ASSISTANT", "Noted, Dra. Marina.");
        assertThat(unknown.code()).isEqualTo(ReverieCli.USER_ERROR);
        assertThat(unknown.err()).contains("session 's404' does not exist");
    }

    @Test
    void export_erase_and_import_restore_the_user() throws IOException {
        Path file = dir.resolve("alice.json");
        List<String> before = JSON.readTree(cli("memories", "clinic-42/receptionist/alice", "--json").out())
                .findValuesAsText("text");

        Result export = cli("export", "clinic-42/receptionist/alice", file.toString());
        Result exportAgain = cli("export", "clinic-42/receptionist/alice", file.toString());
        Result erase = cli("erase", "clinic-42/receptionist/alice", "--yes");
        Result empty = cli("memories", "clinic-42/receptionist/alice");
        Result imported = cli("import", "clinic-42/receptionist/alice", file.toString());
        List<String> after = JSON.readTree(cli("memories", "clinic-42/receptionist/alice", "--json").out())
                .findValuesAsText("text");

        assertThat(export.code()).isZero();
        assertThat(Files.readString(file)).contains("dipyrone");
        assertThat(exportAgain.code()).isEqualTo(ReverieCli.USER_ERROR);
        assertThat(exportAgain.err()).contains("exists", "--force");
        assertThat(erase.code()).isZero();
        assertThat(empty.out()).contains("(no active memories");
        assertThat(imported.code()).isZero();
        assertThat(imported.out()).contains("imported");
        assertThat(after).containsExactlyInAnyOrderElementsOf(before);
    }

    @Test
    void import_of_a_missing_or_malformed_file_is_a_user_error() throws IOException {
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{ not json");

        Result missing = cli("import", "clinic-42/receptionist/carol", dir.resolve("nope.json").toString());
        Result malformed = cli("import", "clinic-42/receptionist/carol", bad.toString());

        assertThat(missing.code()).isEqualTo(ReverieCli.USER_ERROR);
        assertThat(missing.err()).contains("no such file");
        assertThat(malformed.code()).isEqualTo(ReverieCli.USER_ERROR);
        assertThat(malformed.err()).startsWith("error: ").hasLineCount(1);
    }

    @Test
    void erase_asks_for_the_user_id_and_cancels_on_anything_else() {
        Result cancelled = run("yes\n", "erase", "clinic-42/receptionist/alice", "--store", uri);
        Result stillThere = cli("memories", "clinic-42/receptionist/alice");
        Result confirmed = run("alice\n", "erase", "clinic-42/receptionist/alice", "--store", uri);
        Result gone = cli("users", "clinic-42/receptionist");

        assertThat(cancelled.code()).isEqualTo(ReverieCli.USER_ERROR);
        assertThat(cancelled.err()).contains("Type the user id", "erase cancelled");
        assertThat(stillThere.out()).contains("dipyrone");
        assertThat(confirmed.code()).isZero();
        assertThat(confirmed.out()).contains("erased clinic-42/receptionist/alice");
        assertThat(gone.out()).contains("bob").doesNotContain("alice");
    }

    // ------------------------------------------------------------------ output safety, health

    @Test
    void table_output_neutralizes_terminal_escapes_in_stored_text() {
        try (ContextManager m = ContextManager.builder().store(uri).build()) {
            m.admin().remember(ALICE, MemoryDraft.of(MemoryKind.FACT, "red \u001b[31mALERT\u001b[0m\nsecond line"));
        }

        Result r = cli("memories", "clinic-42/receptionist/alice");

        assertThat(r.out()).doesNotContain("\u001b").contains("?[31mALERT", "⏎second line");
    }

    @Test
    void health_prints_a_table_or_json() throws IOException {
        Result table = cli("health");
        JsonNode json = JSON.readTree(cli("health", "--json").out());

        assertThat(table.code()).isZero();
        assertThat(table.out()).contains("METRIC", "VALUE");
        assertThat(json.has("healthy")).isTrue();
        assertThat(json.get("metrics").isObject()).isTrue();
    }

    // ------------------------------------------------------------------ error paths and exit codes

    @Test
    void a_bad_scope_is_a_one_line_user_error() {
        Result twoParts = cli("memories", "clinic-42/receptionist");
        Result badChars = cli("memories", "clinic 42/receptionist/alice");

        assertThat(twoParts.code()).isEqualTo(ReverieCli.USER_ERROR);
        assertThat(twoParts.err()).isEqualTo("error: scope 'clinic-42/receptionist' must be written tenant/agent/user"
                + System.lineSeparator());
        assertThat(badChars.code()).isEqualTo(ReverieCli.USER_ERROR);
        assertThat(badChars.err()).startsWith("error: bad scope 'clinic 42/receptionist/alice'").hasLineCount(1);
    }

    @Test
    void an_unknown_memory_id_is_a_user_error() {
        Result show = cli("show", "clinic-42/receptionist/alice", "m-404");
        Result edit = cli("edit", "clinic-42/receptionist/alice", "m-404", "text");

        assertThat(show.code()).isEqualTo(ReverieCli.USER_ERROR);
        assertThat(show.err()).contains("m-404").hasLineCount(1);
        assertThat(edit.code()).isEqualTo(ReverieCli.USER_ERROR);
    }

    @Test
    void a_missing_store_an_unknown_option_or_command_is_a_user_error() {
        Result noStore = run("", "memories", "clinic-42/receptionist/alice");
        Result noFolder = run("", "memories", "clinic-42/receptionist/alice", "--store", "sqlite:" + dir.resolve("nope"));
        Result badScheme = run("", "memories", "clinic-42/receptionist/alice", "--store", "mongo:x");
        Result badOption = cli("memories", "clinic-42/receptionist/alice", "--bogus");
        Result badCommand = run("", "forget-everything");

        assertThat(List.of(noStore, noFolder, badScheme, badOption, badCommand))
                .allSatisfy(r -> assertThat(r.code()).isEqualTo(ReverieCli.USER_ERROR));
        assertThat(noStore.err()).contains("--store URI is required");
        assertThat(noFolder.err()).contains("not found");
        assertThat(Files.exists(dir.resolve("nope"))).isFalse();
        assertThat(badScheme.err()).contains("no MemoryStoreProvider for scheme 'mongo'");
        assertThat(badOption.err()).contains("--bogus");
        assertThat(badCommand.err()).contains("forget-everything");
    }

    @Test
    void a_broken_store_file_is_a_store_failure() throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve("db"))) {
            for (Path f : files.toList()) {
                if (f.toString().endsWith(".db")) {
                    Files.write(f, "this is not a database, just text long enough to fill a header....".repeat(64)
                            .getBytes(StandardCharsets.UTF_8));
                } else {
                    Files.delete(f);
                }
            }
        }

        Result r = cli("memories", "clinic-42/receptionist/alice");

        assertThat(r.code()).isEqualTo(ReverieCli.STORE_FAILURE);
        assertThat(r.err()).startsWith("store failure: ").hasLineCount(1);
    }

    // ------------------------------------------------------------------ console

    @Test
    void console_refuses_a_non_loopback_address_without_allow_remote() {
        Result r = cli("console", "--bind", "0.0.0.0", "--port", "0");

        assertThat(r.code()).isEqualTo(ReverieCli.USER_ERROR);
        assertThat(r.err()).contains("not a loopback address", "--allow-remote");
    }

    @Test
    void console_serves_until_stopped_and_prints_url_and_token() throws Exception {
        ReverieCli cli = new ReverieCli();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        CompletableFuture<Integer> code = CompletableFuture.supplyAsync(() -> cli.run(
                new String[] {"console", "--store", uri, "--port", "0", "--token", "0123456789abcdef-token"},
                print, print, new ByteArrayInputStream(new byte[0])));
        String printed = "";
        for (int i = 0; i < 200 && !printed.contains("Token:"); i++) {
            Thread.sleep(25);
            printed = out.toString(StandardCharsets.UTF_8);
        }
        String url = printed.lines().filter(l -> l.startsWith("Reverie console: ")).findFirst().orElseThrow()
                .substring("Reverie console: ".length());

        HttpResponse<String> users = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(url + "api/users?tenant=clinic-42&agent=receptionist"))
                .header("Authorization", "Bearer 0123456789abcdef-token").build(), HttpResponse.BodyHandlers.ofString());
        cli.stopSignal().countDown();

        assertThat(url).startsWith("http://127.0.0.1:");
        assertThat(printed).contains("Token: 0123456789abcdef-token");
        assertThat(users.statusCode()).isEqualTo(200);
        assertThat(users.body()).contains("\"user\":\"alice\"");
        assertThat(code.get()).isZero();
    }

}
