package dev.reverie.dream;

import dev.reverie.Observation;
import dev.reverie.Polarity;
import dev.reverie.Scope;
import dev.reverie.StyleProfile;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Folds STYLE observations ({@code user.style.length}, {@code .formality}, {@code .language},
 * {@code .emoji}, {@code .directness}) into the end user's single style profile: each field takes
 * the value of the latest observation about it; other style subjects only count. The rule-based
 * description is rendered from the fields. Stateless; thread-safe.
 */
final class StyleFolder {

    private static final String PREFIX = "user.style.";
    private static final Set<String> NO = Set.of("no", "false", "none", "never", "off", "nao", "nunca", "sem");

    private StyleFolder() {
    }

    /** The profile after {@code observations} (oldest first), starting from {@code current} when there is one. */
    static StyleProfile fold(Scope scope, StyleProfile current, List<Observation> observations, Instant now) {
        String length = current == null ? "" : current.preferredLength();
        String formality = current == null ? "" : current.formality();
        String language = current == null ? "" : current.language();
        boolean emoji = current != null && current.emoji();
        String directness = current == null ? "" : current.directness();
        int count = current == null ? 0 : current.observations();
        for (Observation o : observations) {
            String field = o.subject().startsWith(PREFIX) ? o.subject().substring(PREFIX.length()) : "";
            String value = Text.normalize(o.value());
            boolean affirmed = o.polarity() == Polarity.POSITIVE;
            switch (field) {
                case "length" -> length = affirmed ? value : length;
                case "formality" -> formality = affirmed ? value : formality;
                case "language" -> language = affirmed ? value : language;
                case "emoji" -> emoji = affirmed && !NO.contains(value);
                case "directness" -> directness = affirmed ? value : directness;
                default -> { }
            }
            count += o.reinforcementCount();
        }
        StyleProfile draft = new StyleProfile(scope, length, formality, language, emoji, directness, "", count, now);
        return withDescription(draft, describe(draft));
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
