package dev.reverie;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The redactor's rules, read from {@code secret-rules.tsv} next to this class: one rule per line,
 * six tab-separated columns {@code id type keywords group validator regex}; {@code #} starts a
 * comment line. Keywords are lower-case literals separated by commas, or {@code digits>=N} /
 * {@code run>=N} (a run of N non-space characters) or {@code words>=N} (N words of 3-8 lower-case letters one
 * space apart): the rule runs when one of them holds; parts
 * joined by {@code " & "} must all hold ({@code "key,token & =,:"}). {@code -} means "no validator". Rules run in file
 * order. The built-in file is parsed once per class loader. Immutable and thread-safe.
 *
 * @param rules    the rules in file order
 * @param keywords the distinct keywords every {@link SecretRule#keywordIds()} points into
 * @param index    finds the keywords of a text
 */
record SecretRules(List<SecretRule> rules, List<String> keywords, KeywordIndex index) {

    static final String RESOURCE = "secret-rules.tsv";

    SecretRules(List<SecretRule> rules, List<String> keywords) {
        this(List.copyOf(rules), List.copyOf(keywords), new KeywordIndex(keywords));
    }

    /** Marks in {@code present} (indexed like {@link #keywords()}) every keyword that occurs in {@code lower}. */
    void findKeywords(String lower, boolean[] present) {
        index.find(lower, present);
    }

    /**
     * Finds every keyword of a text in one pass: keywords are indexed by their first two (ASCII)
     * characters, so at each position a single table lookup yields the few keywords worth
     * comparing, and the cost hardly grows with the number of rules. One-character and non-ASCII
     * keywords are looked up with {@code indexOf}.
     */
    static final class KeywordIndex {
        private final List<String> keywords;
        private final int[][] byPair = new int[128 * 128][];
        private final int[] others;

        KeywordIndex(List<String> keywords) {
            this.keywords = List.copyOf(keywords);
            List<List<Integer>> pairs = new ArrayList<>();
            List<Integer> rest = new ArrayList<>();
            Map<Integer, List<Integer>> slots = new LinkedHashMap<>();
            for (int k = 0; k < keywords.size(); k++) {
                String w = keywords.get(k);
                if (w.length() >= 2 && w.charAt(0) < 128 && w.charAt(1) < 128) {
                    slots.computeIfAbsent(w.charAt(0) << 7 | w.charAt(1), x -> new ArrayList<>()).add(k);
                } else {
                    rest.add(k);
                }
            }
            slots.forEach((slot, ids) -> byPair[slot] = ids.stream().mapToInt(Integer::intValue).toArray());
            others = rest.stream().mapToInt(Integer::intValue).toArray();
        }

        void find(String lower, boolean[] present) {
            int end = lower.length() - 1;
            for (int i = 0; i < end; i++) {
                char c0 = lower.charAt(i);
                char c1 = lower.charAt(i + 1);
                if (c0 >= 128 || c1 >= 128) {
                    continue;
                }
                int[] candidates = byPair[c0 << 7 | c1];
                if (candidates == null) {
                    continue;
                }
                for (int k : candidates) {
                    if (!present[k] && lower.startsWith(keywords.get(k), i)) {
                        present[k] = true;
                    }
                }
            }
            for (int k : others) {
                present[k] = lower.contains(keywords.get(k));
            }
        }
    }

    /** The built-in rules, parsed on first use. */
    static SecretRules builtIn() {
        return BuiltIn.RULES;
    }

    /** Only the rule with this id, keeping its keywords; for tests that exercise one rule alone. */
    SecretRules only(String id) {
        for (SecretRule r : rules) {
            if (r.id().equals(id)) {
                return new SecretRules(List.of(r), keywords, index);
            }
        }
        throw new IllegalArgumentException("rule id '" + id + "' does not exist in " + RESOURCE);
    }

    private static final class BuiltIn {
        static final SecretRules RULES = load();

        private static SecretRules load() {
            try (InputStream in = SecretRules.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException(RESOURCE + " is missing from the class path next to "
                            + SecretRules.class.getName());
                }
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
                return parse(reader.lines().toList(), RESOURCE);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + RESOURCE, e);
            }
        }
    }

    /**
     * Parses rule lines; fails with {@link IllegalArgumentException} naming the source and line on a
     * wrong column count, a duplicate id, an unknown validator, a bad keyword or a bad regex.
     */
    static SecretRules parse(List<String> lines, String source) {
        List<SecretRule> rules = new ArrayList<>();
        Map<String, Integer> keywordIds = new LinkedHashMap<>();
        Set<String> ids = new HashSet<>();
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String where = source + " line " + (n + 1);
            String[] cols = line.split("\t", 6);
            if (cols.length != 6) {
                throw new IllegalArgumentException(where + ": expected 6 tab-separated columns "
                        + "(id type keywords group validator regex), found " + cols.length);
            }
            String id = cols[0].strip();
            if (!ids.add(id)) {
                throw new IllegalArgumentException(where + ": duplicate rule id '" + id + "'");
            }
            List<SecretRule.Trigger> triggers = new ArrayList<>();
            for (String alternatives : cols[2].strip().split(" & ")) {
                triggers.add(trigger(where, id, alternatives, keywordIds));
            }
            String group = cols[3].strip();
            SecretValidator validator;
            try {
                validator = cols[4].strip().equals("-") ? SecretValidator.NONE
                        : SecretValidator.valueOf(cols[4].strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": unknown validator '" + cols[4].strip() + "'", e);
            }
            Pattern pattern;
            try {
                pattern = Pattern.compile(cols[5]);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(where + ": bad regex for rule '" + id + "': " + e.getMessage(), e);
            }
            if (!SecretRule.isNumber(group) && !cols[5].contains("(?<" + group + ">")) {
                throw new IllegalArgumentException(where + ": group '" + group + "' is not in the regex of '" + id + "'");
            }
            rules.add(new SecretRule(id, cols[1].strip(), triggers, group, validator, pattern));
        }
        return new SecretRules(rules, new ArrayList<>(keywordIds.keySet()));
    }

    /** One {@code &}-separated part of the keywords column: comma-separated alternatives. */
    private static SecretRule.Trigger trigger(String where, String id, String alternatives,
                                              Map<String, Integer> keywordIds) {
        int minDigits = 0;
        int minRun = 0;
        int minWords = 0;
        List<Integer> kw = new ArrayList<>();
        for (String k : alternatives.strip().split(",")) {
            k = k.strip();
            if (k.isEmpty()) {
                continue;
            }
            if (k.startsWith("digits>=")) {
                minDigits = positive(where, k, k.substring(8));
            } else if (k.startsWith("run>=")) {
                minRun = positive(where, k, k.substring(5));
            } else if (k.startsWith("words>=")) {
                minWords = positive(where, k, k.substring(7));
            } else {
                if (!k.equals(k.toLowerCase(Locale.ROOT))) {
                    throw new IllegalArgumentException(where + ": keyword '" + k + "' must be lower case");
                }
                kw.add(keywordIds.computeIfAbsent(k, x -> keywordIds.size()));
            }
        }
        if (kw.isEmpty() && minDigits == 0 && minRun == 0 && minWords == 0) {
            throw new IllegalArgumentException(where + ": rule '" + id + "' needs a keyword, digits>=N, run>=N or words>=N"
                    + " in each &-separated part of its keywords");
        }
        return new SecretRule.Trigger(kw.stream().mapToInt(Integer::intValue).toArray(), minDigits, minRun, minWords);
    }

    private static int positive(String where, String keyword, String number) {
        try {
            int v = Integer.parseInt(number);
            if (v > 0) {
                return v;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(where + ": keyword '" + keyword + "' needs a positive number");
    }
}
