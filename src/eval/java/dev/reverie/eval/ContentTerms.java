package dev.reverie.eval;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The content words of a text (Lucene {@link EnglishAnalyzer}: lower case, Porter stems, without
 * English stop words, pronouns, auxiliaries and fillers), cached by text: the guard the provenance
 * rule of the scoring needs, and the word coverage it reports.
 *
 * <p>A recalled item counts for an evidence turn through its source turn ids only when it shares at
 * least one content word with that turn, the two speakers' names aside. Without the guard, an item
 * that cites a turn without carrying anything of it would count: "Caroline writes in English", a
 * style note merged from every turn Caroline wrote, would make all her turns "found" whenever it is
 * recalled. A real summary, fact or merged note keeps at least one of the turn's words.
 *
 * <p>The same terms give the answer coverage: the share of a gold answer's content words that a
 * context holds ({@link #overlap}). There, ISO dates ({@code 2023-05-07}, as Reverie renders them)
 * are first written the way the gold answers and the baselines write them ({@code 7 May 2023}), on
 * both sides: otherwise the analyzer's {@code 07} would never meet an answer's {@code 7}, and the
 * metric would measure date formatting rather than content.
 *
 * <p>Not thread-safe (the cache and the analyzer's reuse); the harness scores from one thread.
 */
final class ContentTerms {
    /** Lucene's English stop words plus pronouns, auxiliaries and fillers: words that carry no content. */
    private static final CharArraySet STOP_WORDS;

    static {
        CharArraySet stop = new CharArraySet(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET, true);
        stop.addAll(List.of("i", "me", "my", "mine", "myself", "you", "your", "yours", "yourself", "he", "him",
                "his", "she", "her", "hers", "we", "us", "our", "ours", "them", "its", "those", "am", "were",
                "been", "being", "have", "has", "had", "do", "does", "did", "so", "just", "really", "very", "too",
                "also", "what", "when", "where", "who", "whom", "how", "why", "which", "can", "could", "would",
                "should", "shall", "may", "might", "must", "i'm", "i've", "i'll", "i'd", "you're", "you've",
                "we're", "we've", "they're", "can't", "don't", "didn't", "won't", "from", "about", "up", "out",
                "oh", "yeah", "wow", "hey", "hi"));
        STOP_WORDS = CharArraySet.unmodifiableSet(stop);
    }

    private static final Pattern ISO_DATE = Pattern.compile("\\b(\\d{4})-(\\d{2})-(\\d{2})\\b");
    private static final DateTimeFormatter SPELLED_DATE = DateTimeFormatter.ofPattern("d MMMM yyyy", Locale.ENGLISH);

    private final Analyzer analyzer = new EnglishAnalyzer(STOP_WORDS);
    private final Map<String, Set<String>> cache = new HashMap<>();

    /**
     * How many content terms an answer has and how many of them a text holds.
     *
     * @param wanted  the answer's content terms, the ignored ones aside
     * @param present of those, the ones the text holds
     */
    record Overlap(int wanted, int present) {
    }

    /** The content terms of {@code text}, cached: for turns, items and answers, which recur. */
    Set<String> of(String text) {
        Set<String> cached = cache.get(text);
        if (cached != null) {
            return cached;
        }
        Set<String> frozen = Set.copyOf(analyze(text));
        if (cache.size() > 200_000) {
            cache.clear();
        }
        cache.put(text, frozen);
        return frozen;
    }

    /**
     * How many of {@code answer}'s content terms (those not in {@code ignored}) occur in
     * {@code text}. The text is analysed without caching: a whole context seldom recurs.
     */
    Overlap overlap(String answer, String text, Collection<String> ignored) {
        Set<String> wanted = new HashSet<>(of(spellDates(answer)));
        wanted.removeAll(ignored);
        if (wanted.isEmpty()) {
            return new Overlap(0, 0);
        }
        Set<String> held = analyze(spellDates(text));
        int present = (int) wanted.stream().filter(held::contains).count();
        return new Overlap(wanted.size(), present);
    }

    /** {@code 2023-05-07} → {@code 7 May 2023}; anything that is not a valid date is left alone. */
    static String spellDates(String text) {
        Matcher m = ISO_DATE.matcher(text);
        if (!m.find()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        do {
            String replacement = m.group();
            try {
                LocalDate date = LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                        Integer.parseInt(m.group(3)));
                replacement = SPELLED_DATE.format(date);
            } catch (DateTimeException notADate) {
                // e.g. 2023-13-45: keep the text as it is
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        } while (m.find());
        m.appendTail(out);
        return out.toString();
    }

    private Set<String> analyze(String text) {
        Set<String> terms = new HashSet<>();
        try (TokenStream stream = analyzer.tokenStream("text", text)) {
            CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
            stream.reset();
            while (stream.incrementToken()) {
                terms.add(term.toString());
            }
            stream.end();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot analyse text", e);
        }
        return terms;
    }

    /**
     * The share of {@code turn}'s content terms (those not in {@code ignored}) that occur in any of
     * {@code items}; 1 when the turn has none.
     */
    double coverage(String turn, Collection<String> items, Collection<String> ignored) {
        Set<String> wanted = new HashSet<>(of(turn));
        wanted.removeAll(ignored);
        if (wanted.isEmpty()) {
            return 1;
        }
        int total = wanted.size();
        for (String item : items) {
            wanted.removeAll(of(item));
        }
        return (double) (total - wanted.size()) / total;
    }

    /** Whether {@code item} and {@code turn} share a content term that is not one of {@code ignored}. */
    boolean share(String item, String turn, Collection<String> ignored) {
        Set<String> turnTerms = of(turn);
        for (String term : of(item)) {
            if (turnTerms.contains(term) && !ignored.contains(term)) {
                return true;
            }
        }
        return false;
    }
}
