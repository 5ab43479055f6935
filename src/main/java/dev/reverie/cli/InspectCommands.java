package dev.reverie.cli;

import dev.reverie.ContextManager;
import dev.reverie.HealthAlert;
import dev.reverie.LayerHealth;
import dev.reverie.Memory;
import dev.reverie.MemoryAdmin;
import dev.reverie.MemoryEvent;
import dev.reverie.MemoryFilter;
import dev.reverie.MemoryStatus;
import dev.reverie.Observation;
import dev.reverie.Outcome;
import dev.reverie.Scope;
import dev.reverie.console.OperatorJson;
import dev.reverie.spi.SessionTurn;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The read-only commands: users, memories, observations, show, history, conversation, health. */
final class InspectCommands {

    private InspectCommands() {
    }

    /** An instant to the second, as operators read it. */
    static String when(Instant at) {
        return at == null ? "-" : at.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    static String times(int n) {
        return n == 1 ? "once" : n + " times";
    }

    static String ttl(Memory m, Instant now) {
        if (m.expiresAt() == null) {
            return "-";
        }
        return m.expired(now) ? "expired" : when(m.expiresAt());
    }

    static Memory existing(MemoryAdmin admin, Scope scope, String id) {
        return admin.memory(scope, id).orElseThrow(() -> new CliException(
                "memory id '" + id + "' does not exist in scope " + scope));
    }

    static void printHistory(PrintStream out, List<MemoryEvent> events) {
        Table t = new Table("AT", "EVENT", "CAUSE", "BEFORE", "AFTER");
        events.forEach(e -> t.row(when(e.at()), e.type(), e.cause(), e.before(), e.after()));
        if (t.isEmpty()) {
            out.println("(no history)");
        } else {
            t.print(out);
        }
    }

    @Command(name = "users", mixinStandardHelpOptions = true,
            description = "List the end users of a tenant and agent, with their active memories and sessions.")
    static final class Users extends StoreCommand {
        @Parameters(index = "0", paramLabel = "TENANT/AGENT", description = "Tenant and agent, e.g. clinic-42/receptionist.")
        String scope;
        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Override
        int run(ContextManager memory) {
            String[] ta = Scopes.agent(scope);
            List<Scope> users = memory.store().endUsers(ta[0], ta[1]);
            MemoryAdmin admin = memory.admin();
            List<Map<String, Object>> rows = users.stream()
                    .map(s -> OperatorJson.user(s, memory.store().countMemories(s, EnumSet.of(MemoryStatus.ACTIVE)),
                            admin.sessions(s).size()))
                    .toList();
            if (json) {
                printJson(rows);
                return ReverieCli.OK;
            }
            Table t = new Table("USER", "ACTIVE MEMORIES", "SESSIONS");
            rows.forEach(r -> t.row(r.get("user"), r.get("active_memories"), r.get("sessions")));
            printListing(t, "(no users in " + ta[0] + "/" + ta[1] + ")", rows.size(), "user/users");
            return ReverieCli.OK;
        }
    }

    @Command(name = "memories", mixinStandardHelpOptions = true,
            description = "List an end user's L4 memories: active and unexpired by default, every status with --all.")
    static final class Memories extends StoreCommand {
        @Parameters(index = "0", paramLabel = "SCOPE", description = "tenant/agent/user")
        String scope;
        @Option(names = "--all", description = "Every status (superseded, deprecated, expired too), for audit.")
        boolean all;
        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Override
        int run(ContextManager memory) {
            Scope s = Scopes.user(scope);
            List<Memory> found = all ? memory.admin().memories(s, MemoryFilter.all()) : memory.admin().memories(s);
            Instant now = Instant.now();
            if (json) {
                printJson(found.stream().map(m -> OperatorJson.memory(m, now)).toList());
                return ReverieCli.OK;
            }
            Table t = new Table("ID", "KIND", "IMP", "STATUS", "PERM", "SOURCE", "TTL", "TEXT");
            found.forEach(m -> t.row(m.id(), m.kind(), Math.round(m.importance()), m.status(),
                    m.permanent() ? "yes" : "", m.provenance() == null ? "-" : m.provenance().source(),
                    ttl(m, now), m.text()));
            printListing(t, "(no " + (all ? "" : "active ") + "memories for " + s + ")", found.size(),
                    "memory/memories");
            return ReverieCli.OK;
        }
    }

    @Command(name = "observations", mixinStandardHelpOptions = true,
            description = "List an end user's L3 observations, every status, oldest first.")
    static final class Observations extends StoreCommand {
        @Parameters(index = "0", paramLabel = "SCOPE", description = "tenant/agent/user")
        String scope;
        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Override
        int run(ContextManager memory) {
            Scope s = Scopes.user(scope);
            List<Observation> found = memory.admin().observations(s);
            if (json) {
                printJson(found.stream().map(OperatorJson::observation).toList());
                return ReverieCli.OK;
            }
            Table t = new Table("ID", "KIND", "STATUS", "CONF", "OBSERVED", "SESSION", "TEXT");
            found.forEach(o -> t.row(o.id(), o.kind(), o.status(), String.format("%.2f", o.confidence()),
                    when(o.observedAt()), o.sessionId(), o.text()));
            printListing(t, "(no observations for " + s + ")", found.size(), "observation/observations");
            return ReverieCli.OK;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "Show one memory in full, whatever its status, with its history.")
    static final class Show extends StoreCommand {
        @Parameters(index = "0", paramLabel = "SCOPE", description = "tenant/agent/user")
        String scope;
        @Parameters(index = "1", paramLabel = "MEMORY_ID", description = "The memory's id.")
        String id;
        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Override
        int run(ContextManager memory) {
            Scope s = Scopes.user(scope);
            Memory m = existing(memory.admin(), s, id);
            List<MemoryEvent> history = memory.admin().history(s, id);
            Instant now = Instant.now();
            if (json) {
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("memory", OperatorJson.memory(m, now));
                body.put("history", history.stream().map(OperatorJson::event).toList());
                printJson(body);
                return ReverieCli.OK;
            }
            Table.details(out(),
                    "id", m.id(), "scope", s, "kind", m.kind(), "text", m.text(),
                    "subject", m.subject(), "value", m.value(),
                    "importance", String.format("%.1f", m.importance()), "status", m.status(),
                    "permanent", m.permanent() ? "yes" : "no", "ttl", ttl(m, now),
                    "confidence", String.format("%.2f", m.confidence()),
                    "created", when(m.createdAt()), "updated", when(m.updatedAt()),
                    "reinforced", times(m.reinforcementCount()),
                    "recalled", times(m.retrievalCount()) + ", last " + when(m.lastRetrievedAt()),
                    "superseded by", m.supersededBy(),
                    "source", m.provenance() == null ? null : m.provenance().source()
                            + (m.provenance().sessionId() == null ? "" : " in session " + m.provenance().sessionId())
                            + (m.provenance().outcome() == null || m.provenance().outcome() == Outcome.UNKNOWN ? ""
                            : ", outcome " + m.provenance().outcome()),
                    "source turns", String.join(", ", m.sourceTurnIds()));
            out().println();
            out().println("History:");
            printHistory(out(), history);
            return ReverieCli.OK;
        }
    }

    @Command(name = "history", mixinStandardHelpOptions = true,
            description = "A memory's audit history, oldest first (kept after the memory is deleted).")
    static final class History extends StoreCommand {
        @Parameters(index = "0", paramLabel = "SCOPE", description = "tenant/agent/user")
        String scope;
        @Parameters(index = "1", paramLabel = "MEMORY_ID", description = "The memory's id.")
        String id;
        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Override
        int run(ContextManager memory) {
            List<MemoryEvent> events = memory.admin().history(Scopes.user(scope), id);
            if (json) {
                printJson(events.stream().map(OperatorJson::event).toList());
            } else {
                printHistory(out(), events);
            }
            return ReverieCli.OK;
        }
    }

    @Command(name = "conversation", mixinStandardHelpOptions = true,
            description = "The archived (redacted) turns of one session, oldest first.")
    static final class Conversation extends StoreCommand {
        @Parameters(index = "0", paramLabel = "SCOPE", description = "tenant/agent/user")
        String scope;
        @Parameters(index = "1", paramLabel = "SESSION", description = "The session id.")
        String session;
        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Override
        int run(ContextManager memory) {
            Scope s = Scopes.user(scope);
            if (!memory.admin().sessions(s).contains(session)) {
                throw new CliException("session '" + session + "' does not exist in scope " + s);
            }
            List<SessionTurn> turns = memory.admin().conversation(s, session);
            if (json) {
                printJson(turns.stream().map(OperatorJson::turn).toList());
                return ReverieCli.OK;
            }
            Table t = new Table("#", "AT", "ROLE", "SPEAKER", "TEXT");
            turns.forEach(turn -> t.row(turn.seq(), when(turn.at()), turn.role(), turn.speaker(), turn.text()));
            printListing(t, "(no archived turns in session " + session + ": the archive may be off)", turns.size(),
                    null);
            return ReverieCli.OK;
        }
    }

    @Command(name = "health", mixinStandardHelpOptions = true,
            description = "Per-layer health metrics and alerts. In a fresh process only what is read from the store"
                    + " is filled in; counters of live traffic are in the host's health() or its console.")
    static final class Health extends StoreCommand {
        @Option(names = "--json", description = "Print JSON.")
        boolean json;

        @Override
        int run(ContextManager memory) {
            LayerHealth h = memory.health();
            if (json) {
                printJson(OperatorJson.health(h));
                return ReverieCli.OK;
            }
            out().println(h.healthy() ? "healthy (no alerts)" : h.alerts().size() + " alert(s)");
            for (HealthAlert a : h.alerts()) {
                out().println("  " + a.layer() + " " + a.type() + (a.tenantId() == null ? "" : " " + a.tenantId() + "/"
                        + a.agentId()) + ": " + Table.clean(a.message()));
            }
            Map<String, Number> metrics = new TreeMap<>(h.toMap());
            Table t = new Table("METRIC", "VALUE");
            metrics.forEach((k, v) -> t.row(k, v instanceof Double d ? String.format("%.3f", d) : v));
            t.print(out());
            return ReverieCli.OK;
        }
    }
}
