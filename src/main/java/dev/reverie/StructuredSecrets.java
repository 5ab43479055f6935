package dev.reverie;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Secrets whose label is on another line than the value, which a rule that reads one match cannot
 * pair: a Markdown table whose header names a secret column ({@code | user | password |}, then
 * {@code | admin | … |}) and a YAML map under a key that names secrets ({@code passwords:} then
 * {@code   admin: …}). The cells of the secret column and the values of the map (not the values of keys
 * that name what a setting is: {@code user}, {@code url}, {@code region}) are returned as spans.
 * Stateless and thread-safe.
 */
final class StructuredSecrets {

    /** One value to redact: its span and marker type. */
    record Found(int start, int end, String type) {
    }

    private static final java.util.Set<String> PASSWORD_HEADERS = java.util.Set.of("password", "passwords", "passwd",
            "pwd", "pass", "passphrase", "senha", "senhas", "palavra passe", "pin");
    private static final java.util.Set<String> SECRET_HEADERS = java.util.Set.of("secret", "secrets", "client secret",
            "secret key", "api key", "apikey", "api keys", "access key", "secret access key", "access token",
            "auth token", "token", "tokens", "private key", "chave", "chave de api", "segredo");
    /** Values that say there is no secret. */
    private static final java.util.Set<String> NO_VALUE = java.util.Set.of("n/a", "na", "none", "(none)", "tbd",
            "unset", "hidden", "[hidden]", "null", "empty", "yes", "no", "true", "false", "same", "-", "nenhuma",
            "nenhum", "vazio", "sim", "não", "nao");

    /** Longest line looked at: a table row or a map entry is short; longer lines are left to the rules. */
    private static final int MAX_LINE = 4096;
    private static final Pattern MAP_PARENT = Pattern.compile(
            "([ \\t]*)[\"']?(passwords|secrets|credentials|tokens|api[_\\-]?keys|senhas|segredos)[\"']?[ \\t]*:[ \\t]*",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern MAP_CHILD = Pattern.compile(
            "([ \\t]+)(?:-[ \\t]+)?[\"']?([\\p{L}\\p{N}_.@\\-]{1,64})[\"']?[ \\t]*:[ \\t]+(\\S.{0,4095}?)[ \\t]*");
    /** Longest text looked at line by line (longer texts are left to the rules). */
    private static final int MAX_TEXT = 1 << 20;

    private StructuredSecrets() {
    }

    /** The secret values of {@code text}'s tables and maps, in text order; empty when it has none. */
    static List<Found> find(String text) {
        if (text.length() > MAX_TEXT || text.indexOf('\n') < 0) {
            return List.of();
        }
        List<int[]> lines = new ArrayList<>();
        int from = 0;
        while (from <= text.length()) {
            int eol = text.indexOf('\n', from);
            int end = eol < 0 ? text.length() : eol;
            lines.add(new int[] {from, end > from && text.charAt(end - 1) == '\r' ? end - 1 : end});
            if (eol < 0) {
                break;
            }
            from = eol + 1;
        }
        List<Found> out = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            int next = table(text, lines, i, out);
            if (next == i) {
                next = map(text, lines, i, out);
            }
            i = next == i ? i + 1 : next;
        }
        return out;
    }

    /** A Markdown table starting at line {@code i}: its secret cells added to {@code out}; the line after it, or {@code i}. */
    private static int table(String text, List<int[]> lines, int i, List<Found> out) {
        if (i + 1 >= lines.size() || length(lines.get(i)) > MAX_LINE
                || !text.substring(lines.get(i)[0], lines.get(i)[1]).strip().startsWith("|")
                || !separatorRow(text, lines.get(i + 1))) {
            return i;
        }
        List<int[]> header = cells(text, lines.get(i));
        List<Integer> secret = new ArrayList<>();
        List<String> types = new ArrayList<>();
        for (int c = 0; c < header.size(); c++) {
            // only a header that is a secret's name ("Password", "API key"), not one that mentions one
            // ("Password sharing", "Session auth", "Shortcut key", "Token ID")
            String name = text.substring(header.get(c)[0], header.get(c)[1]).strip().toLowerCase(Locale.ROOT)
                    .replaceAll("[\\s_\\-*`]+", " ").strip();
            if (PASSWORD_HEADERS.contains(name)) {
                secret.add(c);
                types.add("password");
            } else if (SECRET_HEADERS.contains(name)) {
                secret.add(c);
                types.add("secret");
            }
        }
        int row = i + 2;
        while (row < lines.size() && text.substring(lines.get(row)[0], lines.get(row)[1]).strip().startsWith("|")) {
            if (!secret.isEmpty()) {
                List<int[]> cells = cells(text, lines.get(row));
                for (int k = 0; k < secret.size(); k++) {
                    int c = secret.get(k);
                    // a cell of prose ("at least 12 chars") describes a password, it is not one
                    if (c < cells.size() && !text.substring(cells.get(c)[0], cells.get(c)[1]).strip().matches(".*\\s.*")) {
                        add(text, cells.get(c)[0], cells.get(c)[1], types.get(k), out);
                    }
                }
            }
            row++;
        }
        return row;
    }

    private static int length(int[] line) {
        return line[1] - line[0];
    }

    /** A Markdown separator row ({@code |---|:--:|}): pipes, dashes, colons and blanks, a run of three dashes. */
    private static boolean separatorRow(String text, int[] line) {
        if (length(line) > MAX_LINE) {
            return false;
        }
        boolean dashes = false;
        int run = 0;
        for (int p = line[0]; p < line[1]; p++) {
            char c = text.charAt(p);
            if (c == '-') {
                dashes |= ++run >= 3;
            } else if (c == '|' || c == ':' || c == ' ' || c == '\t') {
                run = 0;
            } else {
                return false;
            }
        }
        return dashes;
    }

    /** A map of secrets starting at line {@code i}: its values added to {@code out}; the line after it, or {@code i}. */
    private static int map(String text, List<int[]> lines, int i, List<Found> out) {
        if (length(lines.get(i)) > MAX_LINE) {
            return i;
        }
        Matcher parent = MAP_PARENT.matcher(text).region(lines.get(i)[0], lines.get(i)[1]);
        if (!parent.matches()) {
            return i;
        }
        int indent = parent.group(1).length();
        String type = parent.group(2).toLowerCase(Locale.ROOT).startsWith("pass")
                || parent.group(2).toLowerCase(Locale.ROOT).startsWith("senha") ? "password" : "secret";
        int row = i + 1;
        while (row < lines.size()) {
            int[] line = lines.get(row);
            String s = text.substring(line[0], line[1]);
            if (s.isBlank()) {
                row++;
                continue;
            }
            int ind = 0;
            while (ind < s.length() && (s.charAt(ind) == ' ' || s.charAt(ind) == '\t')) {
                ind++;
            }
            if (ind <= indent) {
                break;
            }
            Matcher child = length(line) > MAX_LINE ? null : MAP_CHILD.matcher(text).region(line[0], line[1]);
            if (child != null && child.matches() && !SecretAssignments.namesNonSecret(child.group(2))
                    && !child.group(3).strip().startsWith("#") && child.group(3).strip().split("\\s+").length < 3) {
                add(text, child.start(3), child.end(3), type, out); // "Note: rotate every 90 days" is prose
            }
            row++;
        }
        return row;
    }

    /** The cells of a table row as spans (between the pipes; the outer pipes' empty ends dropped). */
    private static List<int[]> cells(String text, int[] line) {
        List<int[]> out = new ArrayList<>();
        int start = line[0];
        while (start < line[1] && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        if (start < line[1] && text.charAt(start) == '|') {
            start++;
        }
        int cell = start;
        for (int p = start; p <= line[1]; p++) {
            if (p == line[1] || (text.charAt(p) == '|' && text.charAt(p - 1) != '\\')) {
                if (p < line[1] || !text.substring(cell, p).isBlank()) {
                    out.add(new int[] {cell, p});
                }
                cell = p + 1;
            }
        }
        return out;
    }

    /** The value in {@code [start, end)}, trimmed and unquoted, unless it is empty or a placeholder. */
    private static void add(String text, int start, int end, String type, List<Found> out) {
        while (start < end && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        if (end - start >= 2 && (text.charAt(start) == '"' || text.charAt(start) == '\'' || text.charAt(start) == '`')
                && text.charAt(end - 1) == text.charAt(start)) {
            start++;
            end--;
        }
        if (end - start < 3 || text.startsWith("[REDACTED:", start)) {
            return;
        }
        String value = text.substring(start, end);
        String lower = value.toLowerCase(Locale.ROOT);
        if (SecretAssignments.isPlaceholder(value) || NO_VALUE.contains(lower)
                || value.chars().allMatch(ch -> ch == '-' || ch == '*' || ch == '.')
                || (value.length() < 12 && value.chars().allMatch(ch -> Character.isDigit(ch) || ch == ',' || ch == '.'))) {
            return; // a count, a flag, "n/a": what a setting is, not a secret
        }
        boolean upper = false;
        boolean low = false;
        boolean digit = false;
        for (int k = 0; k < value.length(); k++) {
            char ch = value.charAt(k);
            upper |= Character.isUpperCase(ch);
            low |= Character.isLowerCase(ch);
            digit |= Character.isDigit(ch);
        }
        if (!type.equals("password") && !(value.length() >= 12 && upper && low && digit)
                && !(value.length() >= 20 && digit && (upper || low))) {
            return; // a key or token is random-looking ("gpt-4o-mini", "standard", "home.title" are not)
        }
        out.add(new Found(start, end, type));
    }
}
