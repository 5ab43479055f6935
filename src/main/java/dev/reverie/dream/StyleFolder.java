package dev.reverie.dream;

import dev.reverie.Observation;
import dev.reverie.Polarity;
import dev.reverie.Scope;
import dev.reverie.StyleProfile;
import dev.reverie.internal.Terms;
import dev.reverie.spi.Subjects;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Folds STYLE observations ({@code user.style.length}, {@code .formality}, {@code .language},
 * {@code .emoji}, {@code .directness}) into the end user's single style profile (REM passes only the end
 * user's own: another speaker's style never shapes it). The write path
 * emits one style observation per signal and turn, so each field takes the value most of this
 * cycle's observations give it (weighted by their reinforcement, ties to the latest): one short
 * message among ten long ones does not flip a profile. Fields this cycle says nothing about keep
 * their value; other style subjects only count. Stateless; thread-safe.
 */
final class StyleFolder {

    /** The attribute prefix of style subjects, whoever's ({@code user.style.length}, {@code ana.style.emoji}). */
    private static final String PREFIX = "style.";
    private static final Set<String> NO = Set.of("no", "false", "none", "never", "off", "nao", "nunca", "sem");

    private StyleFolder() {
    }

    /** The votes for one value of one field: total weight and when it was last observed. */
    private static final class Votes {
        long weight;
        Instant last = Instant.MIN;
    }

    /** The profile after {@code observations}, starting from {@code current} when there is one. */
    static StyleProfile fold(Scope scope, StyleProfile current, List<Observation> observations, Instant now) {
        Map<String, Map<String, Votes>> fields = new HashMap<>();
        int count = current == null ? 0 : current.observations();
        for (Observation o : observations) {
            count += o.reinforcementCount();
            String attribute = Subjects.aboutPerson(o.subject()) ? Subjects.attribute(o.subject()) : "";
            String field = attribute.startsWith(PREFIX) ? attribute.substring(PREFIX.length()) : "";
            String value = Terms.normalizeValue(o.value());
            if (o.polarity() == Polarity.NEGATIVE) {
                if (!field.equals("emoji")) {
                    continue; // "not short" says what the user does not want, not what they want
                }
                value = "no";
            }
            if (value.isEmpty()) {
                continue;
            }
            Votes v = fields.computeIfAbsent(field, k -> new HashMap<>()).computeIfAbsent(value, k -> new Votes());
            v.weight += o.reinforcementCount();
            v.last = o.observedAt().isAfter(v.last) ? o.observedAt() : v.last;
        }
        String length = winner(fields, "length", current == null ? "" : current.preferredLength());
        String formality = winner(fields, "formality", current == null ? "" : current.formality());
        String language = winner(fields, "language", current == null ? "" : current.language());
        String directness = winner(fields, "directness", current == null ? "" : current.directness());
        String emojiVote = winner(fields, "emoji", current != null && current.emoji() ? "yes" : "no");
        boolean emoji = !NO.contains(emojiVote);
        StyleProfile draft = new StyleProfile(scope, length, formality, language, emoji, directness, "", count, now);
        return withDescription(draft, describe(draft));
    }

    private static String winner(Map<String, Map<String, Votes>> fields, String field, String otherwise) {
        Map<String, Votes> votes = fields.get(field);
        if (votes == null) {
            return otherwise;
        }
        return votes.entrySet().stream()
                .max(Comparator.comparingLong((Map.Entry<String, Votes> e) -> e.getValue().weight)
                        .thenComparing(e -> e.getValue().last)
                        .thenComparing(Map.Entry::getKey, Comparator.reverseOrder()))
                .map(Map.Entry::getKey)
                .orElse(otherwise);
    }

    static StyleProfile withDescription(StyleProfile p, String description) {
        return new StyleProfile(p.scope(), p.preferredLength(), p.formality(), p.language(), p.emoji(),
                p.directness(), description, p.observations(), p.updatedAt());
    }

    /** A short rendered description of the set fields, e.g. "Prefers short answers; informal; writes in pt." */
    static String describe(StyleProfile p) {
        List<String> parts = new ArrayList<>();
        if (!p.preferredLength().isEmpty()) {
            parts.add("prefers " + p.preferredLength() + " answers");
        }
        if (!p.formality().isEmpty()) {
            parts.add(p.formality());
        }
        if (!p.directness().isEmpty()) {
            parts.add(p.directness());
        }
        if (!p.language().isEmpty()) {
            parts.add("writes in " + p.language());
        }
        if (p.emoji()) {
            parts.add("uses emoji");
        }
        if (parts.isEmpty()) {
            return "";
        }
        String text = String.join("; ", parts) + ".";
        return text.substring(0, 1).toUpperCase(Locale.ROOT) + text.substring(1);
    }
}
