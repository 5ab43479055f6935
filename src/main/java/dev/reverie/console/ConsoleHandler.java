package dev.reverie.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.reverie.ContextManager;
import dev.reverie.Memory;
import dev.reverie.MemoryAdmin;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryFormatException;
import dev.reverie.MemoryStatus;
import dev.reverie.MemoryStoreException;
import dev.reverie.Scope;
import dev.reverie.dream.DreamReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Routes the console's requests: the static page without a token, everything under {@code /api/}
 * with one. Runs on the server's executor; stateless apart from the manager, so thread-safe.
 */
final class ConsoleHandler implements HttpHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ConsoleHandler.class);
    private static final String JSON = "application/json; charset=utf-8";
    private static final int MAX_BODY = 64 * 1024;
    private static final String PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline';"
            + " connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private final ContextManager memory;
    private final byte[] tokenDigest;

    ConsoleHandler(ContextManager memory, String token) {
        this.memory = memory;
        this.tokenDigest = sha256(token);
    }

    @Override
    public void handle(HttpExchange ex) throws IOException {
        try {
            securityHeaders(ex.getResponseHeaders());
            String path = ex.getRequestURI().getPath();
            if (path.equals("/") || path.equals("/index.html")) {
                staticResource(ex, "index.html", "text/html; charset=utf-8");
            } else if (path.equals("/console.js")) {
                staticResource(ex, "console.js", "text/javascript; charset=utf-8");
            } else if (path.startsWith("/api/")) {
                if (!authorized(ex)) {
                    ex.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"reverie-console\"");
                    error(ex, 401, "missing or wrong bearer token");
                    return;
                }
                api(ex, path.substring("/api/".length()));
            } else {
                error(ex, 404, "not found");
            }
        } catch (IOException e) {
            LOG.debug("console client went away: {}", e.toString());
        } finally {
            ex.close();
        }
    }

    // ------------------------------------------------------------------ API

    private void api(HttpExchange ex, String route) throws IOException {
        String method = ex.getRequestMethod();
        Map<String, String> q = query(ex.getRequestURI().getRawQuery());
        try {
            MemoryAdmin admin = memory.admin();
            Instant now = Instant.now();
            switch (method + " " + route) {
                case "GET users" -> {
                    String tenant = required(q, "tenant");
                    String agent = required(q, "agent");
                    List<Map<String, Object>> users = memory.store().endUsers(tenant, agent).stream()
                            .map(s -> OperatorJson.user(s, memory.store().countMemories(s,
                                    EnumSet.of(MemoryStatus.ACTIVE)), admin.sessions(s).size()))
                            .toList();
                    json(ex, 200, users);
                }
                case "GET memories" -> {
                    Scope scope = userScope(q);
                    List<Memory> found = "true".equals(q.get("all"))
                            ? admin.memories(scope, MemoryFilter.all()) : admin.memories(scope);
                    json(ex, 200, found.stream().map(m -> OperatorJson.memory(m, now)).toList());
                }
                case "GET observations" -> json(ex, 200,
                        admin.observations(userScope(q)).stream().map(OperatorJson::observation).toList());
                case "GET memory" -> {
                    Scope scope = userScope(q);
                    String id = required(q, "id");
                    var m = admin.memory(scope, id);
                    if (m.isEmpty()) {
                        error(ex, 404, "memory id '" + id + "' does not exist in scope " + scope);
                        return;
                    }
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("memory", OperatorJson.memory(m.get(), now));
                    body.put("history", admin.history(scope, id).stream().map(OperatorJson::event).toList());
                    json(ex, 200, body);
                }
                case "GET history" -> json(ex, 200, admin.history(userScope(q), required(q, "id")).stream()
                        .map(OperatorJson::event).toList());
                case "GET style" -> {
                    var profile = admin.styleProfile(userScope(q));
                    json(ex, 200, profile.map(OperatorJson::style).orElse(null));
                }
                case "GET health" -> json(ex, 200, OperatorJson.health(memory.health()));
                case "POST memory/edit" -> {
                    Scope scope = userScope(q);
                    JsonNode body = OperatorJson.mapper().readTree(body(ex));
                    JsonNode text = body == null ? null : body.get("text");
                    if (text == null || !text.isTextual()) {
                        throw new IllegalArgumentException("body must be a JSON object with a string field 'text'");
                    }
                    json(ex, 200, OperatorJson.memory(admin.edit(scope, required(q, "id"), text.asText()), now));
                }
                case "DELETE memory" -> {
                    String id = required(q, "id");
                    admin.deleteMemory(userScope(q), id);
                    json(ex, 200, Map.of("deleted", id));
                }
                case "DELETE observation" -> {
                    String id = required(q, "id");
                    admin.deleteObservation(userScope(q), id);
                    json(ex, 200, Map.of("deleted", id));
                }
                case "POST erase" -> {
                    Scope scope = userScope(q);
                    if (!scope.endUserId().equals(q.get("confirm"))) {
                        throw new IllegalArgumentException("erase needs confirm=<the end-user id>");
                    }
                    admin.eraseEndUser(scope);
                    json(ex, 200, Map.of("erased", scope.toString()));
                }
                case "POST dream" -> dream(ex, required(q, "scope"), false);
                case "POST consolidate" -> dream(ex, required(q, "scope"), true);
                default -> {
                    if (isKnown(route)) {
                        error(ex, 405, "method " + method + " not allowed on /api/" + route);
                    } else {
                        error(ex, 404, "no API endpoint /api/" + route);
                    }
                }
            }
        } catch (IllegalArgumentException | IllegalStateException | MemoryFormatException e) {
            error(ex, 400, e.getMessage());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            error(ex, 400, "malformed JSON body: " + e.getOriginalMessage());
        } catch (MemoryStoreException e) {
            LOG.warn("console request {} /api/{} failed in the store", method, route, e);
            error(ex, 500, "store failure: " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("console request {} /api/{} failed", method, route, e);
            error(ex, 500, "internal error: " + e);
        }
    }

    private static boolean isKnown(String route) {
        return List.of("users", "memories", "observations", "memory", "history", "style", "health", "memory/edit",
                "observation", "erase", "dream", "consolidate").contains(route);
    }

    /**
     * Runs a dream (scope {@code tenant/agent} or {@code tenant/agent/user}) or a consolidation
     * (a user scope) with its progress streamed as server-sent events; the response starts only once
     * the scope is known to be valid, so a bad scope is a plain 400.
     */
    private void dream(HttpExchange ex, String scopeText, boolean consolidate) throws IOException {
        String[] parts = scopeText.split("/", -1);
        if (consolidate ? parts.length != 3 : parts.length < 2 || parts.length > 3) {
            throw new IllegalArgumentException("scope '" + scopeText + "' must be written "
                    + (consolidate ? "tenant/agent/user" : "tenant/agent or tenant/agent/user"));
        }
        Scope scope = parts.length == 3 ? Scope.of(parts[0], parts[1], parts[2]) : null;
        if (scope == null) {
            Scope.of(parts[0], parts[1], "x"); // validates tenant and agent ids before the stream starts
        }
        Headers h = ex.getResponseHeaders();
        h.set("Content-Type", "text/event-stream; charset=utf-8");
        ex.sendResponseHeaders(200, 0);
        try (EventStream events = new EventStream(ex.getResponseBody(), scope == null)) {
            try {
                DreamReport report = consolidate ? memory.consolidate(scope, events)
                        : scope != null ? memory.dream(scope, events)
                        : memory.dream(parts[0], parts[1], events);
                events.send("report", report);
            } catch (RuntimeException e) {
                LOG.warn("console dream of {} failed", scopeText, e);
                events.send("error", Map.of("error", String.valueOf(e.getMessage())));
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    private boolean authorized(HttpExchange ex) {
        String header = ex.getRequestHeaders().getFirst("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        // digests have one length, so the comparison time does not depend on the guess
        return MessageDigest.isEqual(tokenDigest, sha256(header.substring(7).trim()));
    }

    private static Scope userScope(Map<String, String> q) {
        String text = required(q, "scope");
        String[] parts = text.split("/", -1);
        if (parts.length != 3) {
            throw new IllegalArgumentException("scope '" + text + "' must be written tenant/agent/user");
        }
        return Scope.of(parts[0], parts[1], parts[2]);
    }

    private static String required(Map<String, String> q, String name) {
        String v = q.get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("query parameter '" + name + "' is required");
        }
        return v;
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> out = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k = eq < 0 ? pair : pair.substring(0, eq);
            String v = eq < 0 ? "" : pair.substring(eq + 1);
            out.putIfAbsent(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
        }
        return out;
    }

    private static byte[] body(HttpExchange ex) throws IOException {
        try (InputStream in = ex.getRequestBody()) {
            byte[] bytes = in.readNBytes(MAX_BODY + 1);
            if (bytes.length > MAX_BODY) {
                throw new IllegalArgumentException("request body must be at most " + MAX_BODY + " bytes");
            }
            return bytes;
        }
    }

    private static void securityHeaders(Headers h) {
        h.set("Cache-Control", "no-store");
        h.set("X-Content-Type-Options", "nosniff");
        h.set("Referrer-Policy", "no-referrer");
        h.set("X-Frame-Options", "DENY");
    }

    private static void staticResource(HttpExchange ex, String name, String type) throws IOException {
        if (!ex.getRequestMethod().equals("GET") && !ex.getRequestMethod().equals("HEAD")) {
            error(ex, 405, "method not allowed");
            return;
        }
        byte[] bytes;
        try (InputStream in = ConsoleHandler.class.getResourceAsStream(name)) {
            if (in == null) {
                error(ex, 500, "console resource " + name + " is missing from the jar");
                return;
            }
            bytes = in.readAllBytes();
        }
        ex.getResponseHeaders().set("Content-Type", type);
        ex.getResponseHeaders().set("Content-Security-Policy", PAGE_CSP);
        if (ex.getRequestMethod().equals("HEAD")) {
            ex.sendResponseHeaders(200, -1);
            return;
        }
        ex.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void json(HttpExchange ex, int status, Object value) throws IOException {
        byte[] bytes = OperatorJson.write(value).getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", JSON);
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void error(HttpExchange ex, int status, String message) throws IOException {
        json(ex, status, Map.of("error", message == null ? "error" : message));
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
