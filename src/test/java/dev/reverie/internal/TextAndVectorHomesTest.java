package dev.reverie.internal;

import dev.reverie.Embedding;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The one text module ({@link Terms}) and the one vector module ({@link Vectors}): where two former
 * copies behaved differently, both behaviours are kept under their own names, and this pins the
 * differences so nobody merges them by accident.
 */
class TextAndVectorHomesTest {

    @Test
    void fold_may_change_the_length_while_fold_keeping_length_never_does() {
        String text = "Ca\u200Bfe\u0301 “ÁGUA” ﬁnal";

        assertThat(Terms.fold(text)).isEqualTo("cafe “agua” final");
        assertThat(Terms.foldKeepingLength(text)).hasSameSizeAs(text).startsWith("ca\u200Bfe\u0301 \"agua\"");
    }

    @Test
    void query_terms_drop_common_words_but_words_keep_them() {
        assertThat(Terms.of("What is my favorite café?", 10)).containsExactly("favorite", "cafe");
        assertThat(Terms.words("What is my favorite café?")).containsExactly("what", "is", "my", "favorite", "cafe");
        assertThat(Terms.of("what is it", 10)).containsExactly("what", "is", "it");
        assertThat(Terms.normalizeValue("Recife, PE")).isEqualTo("recife pe");
    }

    @Test
    void word_tokens_keep_inner_apostrophes_and_token_spans_keep_programming_names() {
        String folded = Terms.foldKeepingLength("I'm into C++ and node.js");

        assertThat(Terms.wordTokens(folded)).containsExactly("i'm", "into", "c", "and", "node", "js");
        assertThat(Terms.tokenSpans(folded, 0, folded.length()).stream()
                .map(s -> folded.substring(s[0], s[1])).toList()).containsExactly("i'm", "into", "c++", "and", "node.js");
    }

    @Test
    void normalize_for_index_composes_and_keeps_case() {
        assertThat(Terms.normalizeForIndex("Ca\u200Bfe\u0301")).isEqualTo("Café");
        assertThat(Terms.normalizeForIndex("plain")).isSameAs("plain");
    }

    @Test
    void the_two_jaccards_differ_only_on_two_empty_sets() {
        assertThat(Terms.jaccard(Set.of(), Set.of())).isZero();
        assertThat(Terms.jaccardOfSortedHashes(new long[0], new long[0])).isEqualTo(1);
        assertThat(Terms.jaccard(Set.of("a", "b"), Set.of("b", "c"))).isEqualTo(1.0 / 3);
        assertThat(Terms.jaccardOfSortedHashes(new long[] {1, 2}, new long[] {2, 3})).isEqualTo(1.0 / 3);
        assertThat(Terms.jaccard(Set.of("a"), Set.of())).isZero();
        assertThat(Terms.jaccardOfSortedHashes(new long[] {1}, new long[0])).isZero();
    }

    @Test
    void cosine_is_the_embedding_cosine_and_the_tolerant_form_answers_minus_one() {
        float[] a = {0.1f, 0.7f, -0.3f};
        float[] b = {0.4f, 0.2f, 0.9f};

        assertThat(Vectors.cosine(a, b)).isEqualTo(Embedding.of(a).cosine(Embedding.of(b)));
        assertThat(Vectors.cosine(a, b, Vectors.norm(a))).isCloseTo(Vectors.cosine(a, b),
                org.assertj.core.data.Offset.offset(1e-12));
        assertThat(Vectors.cosineOrMinusOne(a, null)).isEqualTo(-1);
        assertThat(Vectors.cosineOrMinusOne(a, new float[] {1, 2})).isEqualTo(-1);
        assertThat(Vectors.cosine(new float[] {0, 0}, new float[] {1, 0})).isZero();
        assertThatThrownBy(() -> Vectors.cosine(a, new float[] {1, 2}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3 vs 2");
        assertThat(Vectors.fromBytes(Vectors.toBytes(a))).containsExactly(a);
    }
}
