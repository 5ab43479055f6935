package dev.reverie.dream;

import dev.reverie.Memory;
import dev.reverie.internal.Resources;
import dev.reverie.internal.Terms;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Finds the groups of ACTIVE memories that share an entity, for REM's syntheses. An entity is a
 * name (a capitalized word in the middle of a sentence in every memory of the group, shown as the
 * name of several words it is part of, "Priya" of "Priya Sharma"; a word of two different names,
 * "Mountains" of "Smoky Mountains" and "Rocky Mountains", is no entity; a word that starts a
 * sentence, or the sentence after a "Speaker: " prefix, such as "Here", "Life" or "Thanks", is not a
 * name, nor is a name spoken to, as in "Thanks, Priya!": memories that address one person share a
 * conversation partner, not a subject) or the short value of a fact (a like, a pet, a city) that
 * other memories mention. A group qualifies with two to {@link #MAX_SOURCES} memories spanning at
 * least two subjects and at least two source turns (memories that all come from one turn connect
 * nothing); an entity mentioned more often is too general to say anything. The same set of
 * memories is proposed once, under its first entity in alphabetical order, and only when their texts
 * differ (repeating one sentence connects nothing). Stateless; thread-safe.
 */
final class Synthesizer {

    /** Most memories one synthesis connects; an entity in more memories is skipped as too general. */
    static final int MAX_SOURCES = 6;
    /** Most characters of each source text quoted in a rule-based synthesis. */
    static final int QUOTE_CHARS = 120;

    private static final Set<String> NOT_ENTITIES = Set.copyOf(Resources.entries(Synthesizer.class, "words/not-entities.txt"));

    /** A proposed synthesis: the entity (key and as written) and the sorted ids of its memories. */
    record Group(String key, String display, List<String> sourceIds) { }

    private Synthesizer() {
    }

    /** The groups to synthesize among {@code memories} (ACTIVE, not syntheses), in entity order. */
    static List<Group> groups(List<Memory> memories) {
        Map<String, String> display = new HashMap<>();
        Map<String, Set<String>> members = new TreeMap<>();
        Map<String, Memory> byId = new LinkedHashMap<>();
        Map<String, Set<String>> termIndex = new HashMap<>();
        // per name key, the names of several words it was part of, folded, with how each was written
        Map<String, Map<String, String>> fullNames = new HashMap<>();
        for (Memory m : memories) {
            byId.put(m.id(), m);
            for (String t : Terms.words(m.text())) {
                termIndex.computeIfAbsent(t, k -> new LinkedHashSet<>()).add(m.id());
            }
            for (String sentence : WordScan.sentences(m.text(), ".!?\n", ".!?")) {
                int[] caps = WordScan.capitalized(sentence, false, true);
                List<String> run = new ArrayList<>(); // the words of the name being read ("Rocky Mountains")
                int runEnd = -1;
                String lead = null; // a name's first word that starts the sentence: part of the name, no entity
                int leadEnd = -1;
                for (int c = 0; c < caps.length; c += 2) {
                    String word = sentence.substring(caps[c], caps[c + 1]).replace('’', '\'');
                    boolean possessive = word.endsWith("'s");
                    if (possessive) {
                        word = word.substring(0, word.length() - 2);
                    }
                    String key = Terms.fold(word);
                    boolean nameWord = key.length() >= 2 && !NOT_ENTITIES.contains(key);
                    boolean starts = sentenceStart(sentence, caps[c]);
                    if (!nameWord || starts || vocative(sentence, caps[c], caps[c + 1])) {
                        addNames(lead, run, m.id(), display, members, fullNames);
                        runEnd = -1;
                        boolean named = starts && nameWord && !possessive;
                        lead = named ? word : null;
                        leadEnd = named ? caps[c + 1] : -1;
                        continue;
                    }
                    boolean afterLead = run.isEmpty() && lead != null && caps[c] == leadEnd + 1
                            && sentence.charAt(leadEnd) == ' ';
                    if (!afterLead && (runEnd < 0 || caps[c] != runEnd + 1 || sentence.charAt(runEnd) != ' ')) {
                        addNames(lead, run, m.id(), display, members, fullNames);
                        lead = null;
                    }
                    run.add(word);
                    runEnd = possessive ? -1 : caps[c + 1]; // "LeBron's skills": the name ends there
                }
                addNames(lead, run, m.id(), display, members, fullNames);
            }
        }
        for (Memory m : memories) {
            if (Text.episodic(m.subject()) || m.value().isBlank() || activity(m)) {
                continue;
            }
            List<String> words = new ArrayList<>();
            for (String w : Terms.words(m.value())) {
                if (w.length() >= 3 && !NOT_ENTITIES.contains(w)) {
                    words.add(w);
                }
            }
            if (words.isEmpty() || words.size() > 3) {
                continue;
            }
            Set<String> with = null;
            for (String w : words) {
                Set<String> ids = termIndex.getOrDefault(w, Set.of());
                if (with == null) {
                    with = new TreeSet<>(ids);
                } else {
                    with.retainAll(ids);
                }
            }
            String key = "value:" + String.join(" ", words);
            display.putIfAbsent(key, m.value().strip());
            members.computeIfAbsent(key, k -> new TreeSet<>()).addAll(with);
            members.get(key).add(m.id());
        }
        // a word of one name of several words stands for that name ("Swift", "Taylor" → "Taylor Swift"); a
        // word of different names for none ("Mountains" of "Smoky Mountains" and "Rocky Mountains")
        Map<String, Set<String>> entities = new TreeMap<>();
        for (Map.Entry<String, Set<String>> e : members.entrySet()) {
            Map<String, String> names = fullNames.getOrDefault(e.getKey(), Map.of());
            if (names.size() > 1) {
                continue;
            }
            String key = e.getKey();
            if (names.size() == 1) {
                Map.Entry<String, String> name = names.entrySet().iterator().next();
                key = "name:" + name.getKey();
                display.put(key, name.getValue());
            }
            entities.computeIfAbsent(key, k -> new TreeSet<>()).addAll(e.getValue());
        }
        List<Group> out = new ArrayList<>();
        Set<List<String>> proposed = new HashSet<>();
        for (Map.Entry<String, Set<String>> e : entities.entrySet()) {
            Set<String> ids = e.getValue();
            if (ids.size() < 2 || ids.size() > MAX_SOURCES) {
                continue;
            }
            Set<String> subjects = new HashSet<>();
            Set<String> texts = new HashSet<>();
            for (String id : ids) {
                subjects.add(byId.get(id).subject());
                texts.add(Terms.normalizeValue(byId.get(id).text()));
            }
            List<String> sorted = List.copyOf(ids);
            if (subjects.size() >= 2 && texts.size() >= 2 && fromDifferentTurns(ids, byId) && proposed.add(sorted)) {
                out.add(new Group(e.getKey(), display.get(e.getKey()), sorted));
            }
        }
        return out;
    }

    /**
     * Whether a like's value is an activity in the infinitive ("to help", "to get lost in good
     * books"): its verb is no entity, and would gather every memory that uses the verb ("help you get
     * through"). A title that opens with "To" is no activity.
     */
    private static boolean activity(Memory m) {
        return (m.subject().endsWith(".likes") || m.subject().endsWith(".dislikes"))
                && m.value().strip().startsWith("to ");
    }

    /**
     * Records each word of the name in {@code run} as an entity of memory {@code id}, and a name of
     * several words (with {@code lead}, its sentence-initial first word, if any: "Rocky Mountains
     * were stunning") as the full name of each of its words; clears {@code run}.
     */
    private static void addNames(String lead, List<String> run, String id, Map<String, String> display,
                                 Map<String, Set<String>> members, Map<String, Map<String, String>> fullNames) {
        if (run.isEmpty()) {
            return;
        }
        String full = (lead == null ? "" : lead + " ") + String.join(" ", run);
        boolean several = lead != null || run.size() > 1;
        for (String word : run) {
            String key = "name:" + Terms.fold(word);
            display.putIfAbsent(key, word);
            members.computeIfAbsent(key, k -> new TreeSet<>()).add(id);
            if (several) {
                fullNames.computeIfAbsent(key, k -> new TreeMap<>()).putIfAbsent(Terms.fold(full), full);
            }
        }
        run.clear();
    }

    /**
     * Whether the capitalized word at {@code at} starts its sentence (or the sentence after a
     * "Speaker: " prefix, a quote or a parenthesis): "Here", "Life", "Thanks" there are not names.
     */
    static boolean sentenceStart(String sentence, int at) {
        for (int i = at - 1; i >= 0; i--) {
            char ch = sentence.charAt(i);
            if (ch == ':' || OPENERS.indexOf(ch) >= 0) {
                return true;
            }
            if (Character.isLetterOrDigit(ch)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the capitalized word between {@code start} and {@code end} is someone spoken to, not
     * spoken about: it closes a clause (a comma, a stop or the sentence's end follows) and opens
     * after a comma, an interjection or the sentence's one opening word ("Thanks, Priya!",
     * "Hey Omar, ...", "Yep Lena, ...", "Way to go, Tomás!").
     * Memories that address the same person share a conversation partner, not a subject.
     */
    static boolean vocative(String sentence, int start, int end) {
        int after = end;
        while (after < sentence.length() && sentence.charAt(after) == ' ') {
            after++;
        }
        if (after < sentence.length() && ",.!?;".indexOf(sentence.charAt(after)) < 0) {
            return false;
        }
        int before = start - 1;
        while (before >= 0 && sentence.charAt(before) == ' ') {
            before--;
        }
        if (before < 0) {
            return false; // a sentence start, handled by sentenceStart
        }
        if (sentence.charAt(before) == ',') {
            return true;
        }
        int wordEnd = before + 1;
        while (before >= 0 && Character.isLetter(sentence.charAt(before))) {
            before--;
        }
        String word = sentence.substring(before + 1, wordEnd).toLowerCase(java.util.Locale.ROOT);
        // an interjection, or any one word opening the sentence: "Yep Lena, ...", "Congrats Ana!"
        return INTERJECTIONS.contains(word) || (wordEnd > before + 1 && sentenceStart(sentence, before + 1));
    }

    /** Characters that open a quotation or an aside: a word right after one starts a sentence. */
    private static final String OPENERS = "\"“‘«(['";

    /** Words that open a clause addressed to someone ("Hey Omar", "Thanks Ana", "Congrats Lena"). */
    private static final Set<String> INTERJECTIONS =
            Set.copyOf(Resources.entries(Synthesizer.class, "words/interjections.txt"));

    /**
     * Whether two of the memories come from different source turns: memories that were all said in
     * one turn are that turn again, not a connection.
     */
    private static boolean fromDifferentTurns(Set<String> ids, Map<String, Memory> byId) {
        List<Memory> group = new ArrayList<>();
        ids.forEach(id -> group.add(byId.get(id)));
        for (int i = 0; i < group.size(); i++) {
            for (int j = i + 1; j < group.size(); j++) {
                Set<String> a = new HashSet<>(group.get(i).sourceTurnIds());
                if (a.isEmpty() || group.get(j).sourceTurnIds().stream().noneMatch(a::contains)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The rule-based text of a synthesis: the entity, then each source, oldest first, abbreviated. */
    static String ruleText(String display, List<Memory> sources) {
        StringBuilder sb = new StringBuilder(display).append(": ");
        for (int i = 0; i < sources.size(); i++) {
            if (i > 0) {
                sb.append("; ");
            }
            sb.append(Text.abbreviate(sources.get(i).text(), QUOTE_CHARS).replaceAll("[.!?]+$", ""));
        }
        return sb.append('.').toString();
    }

    /** Sources oldest first (creation, then last reinforcement, then id), as they appear in a synthesis. */
    static final Comparator<Memory> OLDEST_FIRST = Comparator.comparing(Memory::createdAt)
            .thenComparing(Memory::lastReinforcedAt).thenComparing(Memory::id);
}
