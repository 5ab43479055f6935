package dev.reverie.eval;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The content words of a text (Lucene {@link EnglishAnalyzer}: lower case, no English stop words,
 * Porter stems), cached by text, and the guard the provenance rule of the scoring needs.
 *
 * <p>A recalled item counts for an evidence turn through its source turn ids only when it shares at
 * least one content word with that turn, the two speakers' names aside. Without the guard, an item
 * that cites a turn without carrying anything of it would count: "Caroline writes in English", a
 * style note merged from every turn Caroline wrote, would make all her turns "found" whenever it is
 * recalled. A real summary, fact or merged note keeps at least one of the turn's words.
 *
 * <p>Not thread-safe (the cache and the analyzer's reuse); the harness scores from one thread.
 */
final class ContentTerms {
    private final Analyzer analyzer = new EnglishAnalyzer();
    private final Map<String, Set<String>> cache = new HashMap<>();

    /** The content terms of {@code text}. */
    Set<String> of(String text) {
        Set<String> cached = cache.get(text);
        if (cached != null) {
            return cached;
        }
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
        Set<String> frozen = Set.copyOf(terms);
        if (cache.size() > 200_000) {
            cache.clear();
        }
        cache.put(text, frozen);
        return frozen;
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
