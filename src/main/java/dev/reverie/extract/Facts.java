package dev.reverie.extract;

import dev.reverie.Cardinality;
import dev.reverie.MemoryKind;
import dev.reverie.Polarity;
import dev.reverie.internal.Terms;
import dev.reverie.spi.ExtractedFact;
import dev.reverie.spi.Subjects;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Collects the facts of one turn: renders their text with the speaker's name, drops duplicates,
 * and applies corrections ("Actually, it's Anna") to the last single-valued fact of the turn. One
 * instance per {@code extract} call; not thread-safe and never shared.
 */
final class Facts {

    static final double STRONG = 0.9;
    static final double NORMAL = 0.8;
    static final double WEAK = 0.65;
    static final double RELATIVE = 0.6;
    static final double EVENT = 0.7;
    static final double EPISODE = 0.5;
    static final double THIRD_PARTY = 0.3;
    static final double STYLE = 0.6;

    private static final int MAX_TEXT = 1_000;
    private static final int MAX_VALUE = 300;

    final String who;
    final LocalDate today;
    /** Whose facts these are ({@link Subjects#owner(dev.reverie.Role, String)}); rules write {@code user.} keys. */
    private final String owner;
    private final List<ExtractedFact> facts = new ArrayList<>();
    private final Set<String> seen = new HashSet<>();
    private int lastSingle = -1;
    /** The template the last single-valued fact was rendered from, for {@link #correctLast}. */
    private String lastTemplate;
    /** The sentence the last single-valued fact was read from, for {@link #lastSingle()}. */
    private Sentence lastSentence;
    private Sentence current;
    private int sentenceStart;

    Facts(String who, Instant at, String owner) {
        this.who = who;
        this.owner = owner;
        this.today = at.atOffset(ZoneOffset.UTC).toLocalDate();
    }

    void begin(Sentence s) {
        current = s;
        sentenceStart = facts.size();
    }

    /** Appends {@code suffix} to the text of every fact made since {@code mark} (the exchange a fact was read from). */
    void annotateFrom(int mark, String suffix) {
        for (int i = mark; i < facts.size(); i++) {
            ExtractedFact f = facts.get(i);
            facts.set(i, new ExtractedFact(f.kind(), clip(f.text() + suffix, MAX_TEXT), f.subject(), f.value(),
                    f.cardinality(), f.polarity(), f.confidence(), f.eventTime()));
        }
    }

    /**
     * As {@link #annotateFrom(int, String)}, for facts read from statements the speaker did not say in
     * those words (a short answer read as "I live in Leeds."): a quote of such a statement at the end of
     * a fact's text is dropped first, so a text quotes only what was said (the suffix quotes it).
     */
    void annotateFrom(int mark, String suffix, List<String> unsaid) {
        for (String u : unsaid) {
            requoteFrom(mark, u, null);
        }
        annotateFrom(mark, suffix);
    }

    /**
     * For the facts made since {@code mark} from a statement the speaker said in other words ("I quit
     * drinking" for "quit drinking"): a quote of that statement at the end of a text quotes what was said
     * instead ({@code said}), or is dropped ({@code null}).
     */
    void requoteFrom(int mark, String unsaid, String said) {
        String quote = " (\"" + unsaid + "\")";
        for (int i = mark; i < facts.size(); i++) {
            ExtractedFact f = facts.get(i);
            if (f.text().endsWith(quote)) {
                String text = f.text().substring(0, f.text().length() - quote.length());
                facts.set(i, new ExtractedFact(f.kind(), said == null ? text : clip(text + " (\"" + said + "\")", MAX_TEXT),
                        f.subject(), f.value(), f.cardinality(), f.polarity(), f.confidence(), f.eventTime()));
            }
        }
    }

    /** Drops the facts made since {@code mark} whose attribute does not start with {@code attribute}. */
    void keepFrom(int mark, String attribute) {
        for (int i = facts.size() - 1; i >= mark; i--) {
            if (!Subjects.attribute(facts.get(i).subject()).startsWith(attribute)) {
                facts.remove(i);
            }
        }
    }

    /** How many facts there are so far: a mark for {@link #dropFrom}. */
    int mark() {
        return facts.size();
    }

    /** Whether a fact of {@code subject} was made earlier in this turn. */
    boolean has(String subject) {
        for (ExtractedFact f : facts) {
            if (f.subject().equals(subject)) {
                return true;
            }
        }
        return false;
    }

    /** Drops the facts made since {@code mark} (a statement taken back: "Just kidding"). */
    void dropFrom(int mark) {
        while (facts.size() > mark) {
            seen.remove(key(facts.remove(facts.size() - 1)));
        }
        if (lastSingle >= facts.size()) {
            lastSingle = -1;
            lastSentence = null;
        }
        sentenceStart = Math.min(sentenceStart, facts.size());
    }

    /**
     * The current sentence corrects the turn's earlier facts of the subjects it produced ("I'm allergic
     * to almonds. Scratch that, I'm allergic to cashews."): those earlier facts go, multi-valued ones
     * too (a later single value replaces an earlier one anyway).
     */
    void correctEarlier() {
        Set<String> subjects = new HashSet<>();
        for (int i = sentenceStart; i < facts.size(); i++) {
            subjects.add(facts.get(i).subject());
        }
        int removed = 0;
        for (int i = sentenceStart - 1; i >= 0; i--) {
            if (subjects.contains(facts.get(i).subject())) {
                seen.remove(key(facts.remove(i)));
                removed++;
                if (lastSingle == i) {
                    lastSingle = -1;
                    lastSentence = null;
                } else if (lastSingle > i) {
                    lastSingle--;
                }
            }
        }
        sentenceStart -= removed;
    }

    /** Whether the current sentence has produced a fact so far. */
    boolean producedInSentence() {
        return facts.size() > sentenceStart;
    }

    /** Whether the current sentence produced a fact with this subject (or subject prefix). */
    boolean producedInSentence(String subjectPrefix) {
        for (int i = sentenceStart; i < facts.size(); i++) {
            if (facts.get(i).subject().startsWith(subjectPrefix)) {
                return true;
            }
        }
        return false;
    }

    /** The facts, their {@code user.} subjects rescoped to the turn's owner (the speaker, a tool). */
    List<ExtractedFact> list() {
        List<ExtractedFact> out = new ArrayList<>(facts.size());
        for (ExtractedFact f : facts) {
            out.add(rescoped(f, Subjects.rescope(f.subject(), owner)));
        }
        return List.copyOf(out);
    }

    /**
     * An assistant turn's facts: only its positive plans, as {@code assistant.commitment} EVENTs
     * ("I'll send you the summary tomorrow"); anything else it says is never a fact about anyone.
     */
    List<ExtractedFact> commitments() {
        List<ExtractedFact> out = new ArrayList<>();
        for (ExtractedFact f : facts) {
            if (f.subject().equals("user.plan") && f.polarity() == Polarity.POSITIVE) {
                ExtractedFact c = rescoped(f, Subjects.of(Subjects.ASSISTANT, "commitment"));
                out.add(new ExtractedFact(c.kind(), withoutReasonAboutYou(c.text()), c.subject(),
                        withoutReasonAboutYou(c.value()), c.cardinality(), c.polarity(), c.confidence(), c.eventTime()));
            }
        }
        return List.copyOf(out);
    }

    /**
     * A reason about the person spoken to at the end of the assistant's commitment ("I'll flag both,
     * since you're also allergic to penicillin", "porque você é vegano"): what the assistant believes of
     * the user is no fact, and kept in the commitment it would reach the context as one.
     */
    private static final java.util.regex.Pattern REASON_ABOUT_YOU = java.util.regex.Pattern.compile(
            "(?iu)\\s*[,;(\u2013\u2014-]?\\s*\\b(?:since|because|cause|cos|given\\s+that|now\\s+that|seeing\\s+(?:as|that)"
                    + "|j[áa]\\s+que|porque|pois|visto\\s+que)\\s+(?:you|you're|youre|you've|you'd|your|voc[êe]|tu|te|teu|tua)\\b.*$");

    static String withoutReasonAboutYou(String text) {
        java.util.regex.Matcher m = REASON_ABOUT_YOU.matcher(text);
        if (!m.find() || m.start() == 0) {
            return text;
        }
        String kept = text.substring(0, m.start()).strip();
        return kept.isEmpty() ? text : kept;
    }

    private static ExtractedFact rescoped(ExtractedFact f, String subject) {
        return subject.equals(f.subject()) ? f : new ExtractedFact(f.kind(), f.text(), subject, f.value(),
                f.cardinality(), f.polarity(), f.confidence(), f.eventTime());
    }

    /**
     * A typed fact whose text is rendered from a template ({@code %1$s} = who, {@code %2$s} = value);
     * the original sentence is appended in quotes when it holds words the template lost.
     */
    void typed(MemoryKind kind, String subject, String value, Cardinality cardinality, Polarity polarity,
               double confidence, String english, String portuguese) {
        if (value == null || value.isBlank()) {
            return;
        }
        value = clip(value.strip(), MAX_VALUE);
        String template = current != null && current.pt() ? portuguese : english;
        String text = render(template, value);
        if (current != null) {
            text = withSentence(text, current);
        }
        ExtractedFact fact = new ExtractedFact(kind, clip(text, MAX_TEXT), subject, value, cardinality, polarity,
                boost(confidence), null);
        add(fact, cardinality == Cardinality.SINGLE);
        if (lastSingle >= 0 && facts.get(lastSingle) == fact) {
            lastTemplate = template;
            lastSentence = current;
        }
    }

    /** A template's text for {@code value}; the speaker's own words are quoted: "my kids" is the speaker's. */
    private String render(String template, String value) {
        return String.format(template, who, Values.firstPerson(value) ? "\"" + value + "\"" : value);
    }

    /** A fact whose text is the sentence itself, prefixed with the speaker. */
    void sentenceFact(MemoryKind kind, String subject, String value, Cardinality cardinality, Polarity polarity,
                      double confidence, Instant eventTime) {
        if (current == null || value == null || value.isBlank()) {
            return;
        }
        String text = who + ": " + current.whole();
        add(new ExtractedFact(kind, clip(text, MAX_TEXT), subject, clip(value.strip(), MAX_VALUE), cardinality,
                polarity, boost(confidence), eventTime), false);
    }

    /** A turn-level style fact (no sentence attached). */
    void style(String subject, String value, String text) {
        add(new ExtractedFact(MemoryKind.STYLE, text, subject, value, Cardinality.SINGLE, Polarity.POSITIVE, STYLE,
                null), false);
    }

    /** The last single-valued fact of the turn so far and the sentence it was read from, or null. */
    Last lastSingle() {
        return lastSingle < 0 || lastSentence == null ? null : new Last(facts.get(lastSingle), lastSentence);
    }

    /** A single-valued fact and its sentence. */
    record Last(ExtractedFact fact, Sentence sentence) {
    }

    /** An empty collector for the same turn: speaker, day and owner. */
    Facts scratch() {
        return new Facts(who, today.atStartOfDay(ZoneOffset.UTC).toInstant(), owner);
    }

    /**
     * Replaces the value of the last single-valued fact of this turn ("My name is Ana. Actually, it's
     * Anna."). Returns false when there is nothing clear to correct.
     */
    boolean correctLast(String value) {
        if (lastSingle < 0 || value == null || value.isBlank()) {
            return false;
        }
        ExtractedFact old = facts.get(lastSingle);
        // rendered again from its template: the quoted sentence said the old value, so it is not appended
        String text = lastTemplate == null ? old.text().replace(old.value(), value.strip())
                : clip(render(lastTemplate, value.strip()), MAX_TEXT);
        ExtractedFact corrected = new ExtractedFact(old.kind(), text, old.subject(), value.strip(), old.cardinality(),
                old.polarity(), Math.min(1.0, old.confidence() + 0.05), old.eventTime());
        facts.set(lastSingle, corrected);
        seen.add(key(corrected));
        sentenceStart = Math.min(sentenceStart, facts.size() - 1);
        return true;
    }

    static Instant atStartOfDay(LocalDate date) {
        return date == null ? null : date.atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    private void add(ExtractedFact fact, boolean single) {
        if (fact.kind() != MemoryKind.EVENT && fact.value() != null && fact.value().contains("REDACTED")
                && current != null && current.whole().contains("[REDACTED:")) {
            return; // "Call me [REDACTED:github_token]": the redaction's marker is no name, place or thing
        }
        if (!seen.add(key(fact))) {
            return;
        }
        if (single) {
            // a newer value for a single subject in the same turn replaces the older one
            for (int i = 0; i < facts.size(); i++) {
                ExtractedFact f = facts.get(i);
                if (f.subject().equals(fact.subject()) && f.cardinality() == Cardinality.SINGLE
                        && f.kind() == fact.kind() && f.polarity() == fact.polarity()) {
                    facts.remove(i);
                    if (i < sentenceStart) {
                        sentenceStart--;
                    }
                    break;
                }
            }
        }
        facts.add(fact);
        if (single) {
            lastSingle = facts.size() - 1;
        } else if (lastSingle >= facts.size()) {
            lastSingle = -1;
        }
    }

    /** Corrections are surer than plain statements; hedged ones ("I think", "acho que") less sure. */
    private double boost(double confidence) {
        if (current == null) {
            return confidence;
        }
        double c = current.correction ? Math.min(1.0, confidence + 0.05) : confidence;
        return current.hedged ? Math.max(0.3, c - 0.2) : c;
    }

    private static String key(ExtractedFact f) {
        return f.kind() + "|" + f.subject() + "|" + Terms.foldKeepingLength(f.value()) + "|" + f.polarity();
    }

    /**
     * Appends the sentence in quotes when two or more of its content words are missing from the text,
     * or when it is hedged: the doubt ("I don't know if I'm allergic to…") is part of what was said.
     */
    private static String withSentence(String text, Sentence s) {
        if (s.hedged) {
            return text + " (\"" + s.whole() + "\")";
        }
        Set<String> have = new HashSet<>(Terms.wordTokens(Terms.foldKeepingLength(text)));
        int missing = 0;
        for (String t : Terms.wordTokens(s.folded.substring(0, s.statementEnd()))) {
            if (!have.contains(t) && !Lexicon.STOP.contains(t) && t.length() > 1) {
                missing++;
            }
        }
        return missing >= 2 ? text + " (\"" + s.whole() + "\")" : text;
    }

    private static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max);
    }
}
