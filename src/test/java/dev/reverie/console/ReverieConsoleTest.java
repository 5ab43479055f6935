package dev.reverie.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.reverie.ContextManager;
import dev.reverie.Memory;
import dev.reverie.MemoryDraft;
import dev.reverie.MemoryKind;
import dev.reverie.Scope;
import dev.reverie.Turn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The console's JSON API and event stream over real HTTP, on a real SQLite store. */
class ReverieConsoleTest {

    static final Scope ALICE = Scope.of("clinic-42", "receptionist", "alice");
    static final Scope BOB = Scope.of("clinic-42", "receptionist", "bob");
    static final String TOKEN = "test-token-0123456789";
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    ContextManager memory;
    ReverieConsole console;
    final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() {
        memory = ContextManager.builder().store("sqlite:" + dir).build();
        memory.recordTurn(ALICE, "s1", Turn.user("Please call me Dra. Marina. I'm allergic to dipyrone."),
                Turn.assistant("Noted, Dra. Marina."));
        memory.recordTurn(BOB, "s1", Turn.user("I live in Porto and I work as a nurse."));
        console = ReverieConsole.start(memory, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), TOKEN);
    }

    @AfterEach
    void stop() {
        console.close();
        memory.close();
    }

    HttpResponse<String> call(String method, String pathAndQuery, String token, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(console.url().resolve(pathAndQuery))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .header("Origin", "http://evil.example");
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String pathAndQuery) throws Exception {
        return call("GET", pathAndQuery, TOKEN, null);
    }

    static String q(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void url_is_loopback_with_the_bound_port() {
        assertThat(console.url().toString()).startsWith("http://127.0.0.1:").endsWith("/");
        assertThat(console.url().getPort()).isEqualTo(console.address().getPort()).isPositive();
    }

    @Test
    void api_needs_the_bearer_token() throws Exception {
        HttpResponse<String> none = call("GET", "/api/users?tenant=clinic-42&agent=receptionist", null, null);
        HttpResponse<String> wrong = call("GET", "/api/users?tenant=clinic-42&agent=receptionist",
                "test-token-0123456788", null);
        HttpResponse<String> dream = call("POST", "/api/dream?scope=clinic-42/receptionist", "nope", null);
        HttpResponse<String> right = call("GET", "/api/users?tenant=clinic-42&agent=receptionist", TOKEN, null);

        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
        assertThat(none.body()).doesNotContain("alice");
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(dream.statusCode()).isEqualTo(401);
        assertThat(right.statusCode()).isEqualTo(200);
    }

    @Test
    void responses_carry_no_cors_headers_and_are_not_cached() throws Exception {
        HttpResponse<String> api = get("/api/health");
        HttpResponse<String> page = call("GET", "/", null, null);

        for (HttpResponse<String> r : List.of(api, page)) {
            assertThat(r.headers().map().keySet()).noneMatch(h -> h.toLowerCase().startsWith("access-control-"));
            assertThat(r.headers().firstValue("Cache-Control")).contains("no-store");
            assertThat(r.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
        }
    }

    @Test
    void the_page_is_static_and_locked_down_by_csp() throws Exception {
        HttpResponse<String> page = call("GET", "/", null, null);
        HttpResponse<String> script = call("GET", "/console.js", null, null);

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/html"));
        assertThat(page.headers().firstValue("Content-Security-Policy"))
                .hasValueSatisfying(v -> assertThat(v).contains("script-src 'self'", "frame-ancestors 'none'"));
        assertThat(page.body()).contains("<script src=\"console.js\"></script>").doesNotContain("alice");
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.body()).doesNotContain("innerHTML", "localStorage", "sessionStorage", "document.cookie");
    }

    @Test
    void users_memories_and_observations_come_back_as_json() throws Exception {
        memory.dream(ALICE);

        HttpResponse<String> users = get("/api/users?tenant=clinic-42&agent=receptionist");
        HttpResponse<String> memories = get("/api/memories?scope=" + q("clinic-42/receptionist/alice"));
        HttpResponse<String> observations = get("/api/observations?scope=" + q("clinic-42/receptionist/bob"));

        assertThat(users.headers().firstValue("Content-Type")).contains("application/json; charset=utf-8");
        assertThat(JSON.readTree(users.body()).findValuesAsText("user")).containsExactlyInAnyOrder("alice", "bob");
        assertThat(JSON.readTree(memories.body()).findValuesAsText("text")).anyMatch(t -> t.contains("dipyrone"));
        assertThat(JSON.readTree(observations.body()).findValuesAsText("text")).anyMatch(t -> t.contains("Porto"));
    }

    @Test
    void markup_in_a_memory_comes_back_escaped_as_data() throws Exception {
        String evil = "<script>alert(1)</script> & 'quoted'";
        Memory m = memory.admin().remember(ALICE, MemoryDraft.of(MemoryKind.FACT, evil)).get(0);

        HttpResponse<String> list = get("/api/memories?scope=" + q("clinic-42/receptionist/alice"));
        HttpResponse<String> one = get("/api/memory?scope=" + q("clinic-42/receptionist/alice") + "&id=" + m.id());

        for (HttpResponse<String> r : List.of(list, one)) {
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).contains("application/json; charset=utf-8");
            assertThat(r.body()).doesNotContain("<script>", "</script>", "<", ">")
                    .contains("\\u003Cscript\\u003Ealert(1)\\u003C/script\\u003E");
            assertThat(JSON.readTree(r.body()).findValuesAsText("text")).contains(evil);
        }
    }

    @Test
    void history_edit_and_delete_of_a_memory() throws Exception {
        Memory m = memory.admin().remember(ALICE, MemoryDraft.of(MemoryKind.FACT, "Lives in Porto")).get(0);
        String scope = q("clinic-42/receptionist/alice");

        HttpResponse<String> edit = call("POST", "/api/memory/edit?scope=" + scope + "&id=" + m.id(), TOKEN,
                "{\"text\":\"Lives in Braga\"}");
        HttpResponse<String> history = get("/api/history?scope=" + scope + "&id=" + m.id());
        HttpResponse<String> delete = call("DELETE", "/api/memory?scope=" + scope + "&id=" + m.id(), TOKEN, null);
        HttpResponse<String> missing = get("/api/memory?scope=" + scope + "&id=" + m.id());
        HttpResponse<String> deleteAgain = call("DELETE", "/api/memory?scope=" + scope + "&id=" + m.id(), TOKEN, null);

        assertThat(edit.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(edit.body()).get("text").asText()).isEqualTo("Lives in Braga");
        assertThat(JSON.readTree(history.body()).findValuesAsText("type")).containsExactly("CREATED", "EDITED");
        assertThat(delete.statusCode()).isEqualTo(200);
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(deleteAgain.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(deleteAgain.body()).get("error").asText()).contains(m.id());
    }

    @Test
    void delete_an_observation() throws Exception {
        String scope = q("clinic-42/receptionist/bob");
        String id = JSON.readTree(get("/api/observations?scope=" + scope).body()).get(0).get("id").asText();

        HttpResponse<String> delete = call("DELETE", "/api/observation?scope=" + scope + "&id=" + id, TOKEN, null);

        assertThat(delete.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(get("/api/observations?scope=" + scope).body()).findValuesAsText("id"))
                .doesNotContain(id);
    }

    @Test
    void erase_needs_the_user_id_as_confirmation() throws Exception {
        String scope = q("clinic-42/receptionist/bob");

        HttpResponse<String> unconfirmed = call("POST", "/api/erase?scope=" + scope, TOKEN, null);
        HttpResponse<String> confirmed = call("POST", "/api/erase?scope=" + scope + "&confirm=bob", TOKEN, null);

        assertThat(unconfirmed.statusCode()).isEqualTo(400);
        assertThat(confirmed.statusCode()).isEqualTo(200);
        assertThat(memory.store().endUsers("clinic-42", "receptionist")).containsExactly(ALICE);
    }

    /** The event names and data lines of a POST that streams server-sent events. */
    record Stream(int status, String contentType, List<String> events, List<JsonNode> data) {
    }

    Stream stream(String pathAndQuery) throws Exception {
        HttpResponse<java.util.stream.Stream<String>> r = http.send(HttpRequest.newBuilder(
                        console.url().resolve(pathAndQuery))
                .POST(HttpRequest.BodyPublishers.noBody())
                .header("Authorization", "Bearer " + TOKEN).build(), HttpResponse.BodyHandlers.ofLines());
        List<String> events = new ArrayList<>();
        List<JsonNode> data = new ArrayList<>();
        r.body().forEach(line -> {
            try {
                if (line.startsWith("event: ")) {
                    events.add(line.substring(7));
                } else if (line.startsWith("data: ")) {
                    data.add(JSON.readTree(line.substring(6)));
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        return new Stream(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), events, data);
    }

    @Test
    void dream_streams_phase_events_then_the_report() throws Exception {
        Stream s = stream("/api/dream?scope=" + q("clinic-42/receptionist/alice"));

        assertThat(s.status()).isEqualTo(200);
        assertThat(s.contentType()).startsWith("text/event-stream");
        assertThat(s.events()).hasSameSizeAs(s.data());
        assertThat(s.events().get(0)).isEqualTo("phase_started");
        assertThat(s.data().get(0).get("phase").asText()).isEqualTo("LIGHT");
        assertThat(s.events()).contains("progress", "phase_finished");
        assertThat(s.events().indexOf("phase_finished")).isGreaterThan(s.events().indexOf("progress"));
        assertThat(s.data().stream().filter(d -> d.has("phase") && d.has("counters")).map(d -> d.get("phase").asText()))
                .containsExactly("LIGHT", "DEEP", "REM", "PRUNE");
        JsonNode progress = s.data().get(s.events().indexOf("progress"));
        assertThat(progress.get("done").isNumber()).isTrue();
        assertThat(progress.get("total").isNumber()).isTrue();
        assertThat(s.events().get(s.events().size() - 1)).isEqualTo("report");
        JsonNode report = s.data().get(s.data().size() - 1);
        assertThat(report.get("end_users").asLong()).isEqualTo(1);
        assertThat(report.has("rem_after")).isTrue();
        assertThat(memory.admin().memories(ALICE)).isNotEmpty();
    }

    @Test
    void a_dream_of_every_user_reports_each_user_then_the_sum() throws Exception {
        Stream s = stream("/api/dream?scope=" + q("clinic-42/receptionist"));

        assertThat(s.events().get(0)).isEqualTo("phase_started");
        assertThat(s.events().stream().filter("user_finished"::equals)).hasSize(2);
        assertThat(s.events().get(s.events().size() - 1)).isEqualTo("report");
        assertThat(s.data().get(s.data().size() - 1).get("end_users").asLong()).isEqualTo(2);
    }

    @Test
    void consolidate_streams_too_and_a_bad_scope_is_a_plain_400() throws Exception {
        HttpResponse<String> consolidate = call("POST", "/api/consolidate?scope=" + q("clinic-42/receptionist/alice"),
                TOKEN, null);
        HttpResponse<String> bad = call("POST", "/api/consolidate?scope=" + q("clinic-42/receptionist"), TOKEN, null);
        HttpResponse<String> badIds = call("POST", "/api/dream?scope=" + q("clinic 42/receptionist"), TOKEN, null);

        assertThat(consolidate.body()).contains("event: phase_started", "event: report");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.headers().firstValue("Content-Type")).contains("application/json; charset=utf-8");
        assertThat(badIds.statusCode()).isEqualTo(400);
    }

    @Test
    void unknown_routes_and_methods() throws Exception {
        assertThat(get("/api/nothing").statusCode()).isEqualTo(404);
        assertThat(call("POST", "/api/users", TOKEN, null).statusCode()).isEqualTo(405);
        assertThat(get("/etc/passwd").statusCode()).isEqualTo(404);
    }

    @Test
    void health_is_json() throws Exception {
        JsonNode h = JSON.readTree(get("/api/health").body());

        assertThat(h.get("healthy").isBoolean()).isTrue();
        assertThat(h.get("metrics").isObject()).isTrue();
    }

    @Test
    void non_loopback_binding_is_refused_unless_allowed() {
        InetSocketAddress wildcard = new InetSocketAddress("0.0.0.0", 0);

        assertThatThrownBy(() -> ReverieConsole.start(memory, wildcard, TOKEN))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a loopback address");
    }

    @Test
    void a_short_token_is_refused_and_new_tokens_are_random() {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

        assertThatThrownBy(() -> ReverieConsole.start(memory, loopback, "short"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 16");
        assertThat(ReverieConsole.newToken()).hasSizeGreaterThanOrEqualTo(40).isNotEqualTo(ReverieConsole.newToken());
    }

    @Test
    void close_is_safe_twice_and_leaves_the_manager_open() throws IOException {
        console.close();
        console.close();

        assertThat(memory.admin().observations(BOB)).isNotEmpty();
    }
}
