package dev.reverie;

import dev.reverie.internal.Terms;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TermSetCacheTest {

    @Test
    void cached_term_sets_give_the_jaccard_of_the_texts_terms() {
        TermSetCache cache = new TermSetCache(1 << 8);
        String a = "Ana went to the hiking club meeting on Tuesday";
        String b = "Bruno asked Ana about the hiking club";
        Set<String> ta = new HashSet<>(Terms.of(a, TermSetCache.MAX_TERMS));
        Set<String> tb = new HashSet<>(Terms.of(b, TermSetCache.MAX_TERMS));
        Set<String> inter = new HashSet<>(ta);
        inter.retainAll(tb);
        double expected = (double) inter.size() / (ta.size() + tb.size() - inter.size());
        assertThat(TermSetCache.jaccard(cache.of(a), cache.of(b))).isEqualTo(expected);
        assertThat(cache.of(a)).isSameAs(cache.of(a)).hasSize(ta.size()).isSorted();
        assertThat(TermSetCache.jaccard(cache.of(""), cache.of(""))).isEqualTo(1.0);
        assertThat(TermSetCache.jaccard(cache.of(a), cache.of(""))).isEqualTo(0.0);
        assertThatThrownBy(() -> new TermSetCache(100)).hasMessageContaining("slots must be a positive power of two");
    }
}
