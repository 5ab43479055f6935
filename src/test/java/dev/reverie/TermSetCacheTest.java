package dev.reverie;

import dev.reverie.internal.Terms;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
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
        assertThatThrownBy(() -> new TermSetCache(1)).hasMessageContaining("(at least 2), was 1");
    }

    @Test
    void sentences_of_scripts_without_spaces_are_compared_by_character_pairs() {
        TermSetCache cache = new TermSetCache(1 << 8);
        // one clause is one "word" to Terms.of: before, two sentences one character apart shared nothing
        String a = "我对花生严重过敏";
        String nearA = "我对花生过敏";
        String other = "明天我要去北京开会";
        assertThat(Terms.of(a, 10)).hasSize(1);
        assertThat(Terms.comparisonTerms(nearA, 10)).containsExactly("我对", "对花", "花生", "生过", "过敏");
        // 我对 对花 花生 生严 严重 重过 过敏 against 我对 对花 花生 生过 过敏: four shared of eight
        assertThat(TermSetCache.jaccard(cache.of(a), cache.of(nearA))).isEqualTo(0.5);
        assertThat(TermSetCache.jaccard(cache.of(a), cache.of(other))).isLessThan(0.2);
        assertThat(TermSetCache.jaccard(cache.of("ผมแพ้ถั่วลิสงมาก"), cache.of("ผมแพ้ถั่วลิสง"))).isGreaterThan(0.5);
        assertThat(TermSetCache.jaccard(cache.of("アレルギーがあります"), cache.of("アレルギーがある")))
                .isGreaterThan(0.5);
        // spaced scripts, short words and mixed text keep their word terms
        assertThat(Terms.comparisonTerms("Ana 去 北京 with Bruno", 10)).isEqualTo(Terms.of("Ana 去 北京 with Bruno", 10))
                .containsExactly("ana", "北京", "bruno");
        assertThat(Terms.comparisonTerms("Анна любит джаз", 10)).isEqualTo(Terms.of("Анна любит джаз", 10));
        assertThat(Terms.comparisonTerms("我对花生严重过敏", 3)).hasSize(3);
        // digits and Latin letters inside a clause stay whole terms: two phone numbers are two terms
        assertThat(Terms.comparisonTerms("号码是13800138000", 10)).containsExactly("号码", "码是", "13800138000");
        assertThat(Terms.comparisonTerms("新的iphone手机", 10)).containsExactly("新的", "iphone", "手机");
        assertThat(TermSetCache.jaccard(cache.of("我的电话号码是13800138000"), cache.of("我的电话号码是13800138001")))
                .isLessThan(0.8);
        // the dream's merges do not use character pairs: a clause stays one term there, so a changed
        // weekday or number never makes two facts duplicates (a merge would lose one of them)
        assertThat(Terms.jaccard(Terms.contentTerms("会議は毎週月曜日です"), Terms.contentTerms("会議は毎週火曜日です")))
                .isZero();
        assertThat(Terms.jaccard(Terms.contentTerms("我对花生过敏。"), Terms.contentTerms("我对花生过敏！"))).isEqualTo(1.0);
    }

    @Test
    void two_texts_that_share_a_slot_are_both_kept() {
        TermSetCache cache = new TermSetCache(1 << 4);
        String a = "Ana went hiking with the club on Tuesday";
        String b = null;
        for (int i = 0; b == null; i++) {
            String candidate = "Bruno baked bread for the neighbours, batch " + i;
            if (cache.firstSlot(candidate) == cache.firstSlot(a)) {
                b = candidate;
            }
        }
        // one slot per text tokenized both again on every lookup of this alternation
        for (int round = 0; round < 100; round++) {
            assertThat(cache.of(a)).isEqualTo(expected(a));
            assertThat(cache.of(b)).isEqualTo(expected(b));
        }
        assertThat(cache.computed()).isEqualTo(2);
    }

    @Test
    void an_equal_text_of_another_instance_is_found_without_tokenizing_it() {
        TermSetCache cache = new TermSetCache(1 << 8);
        String a = "Caroline went to the LGBTQ support group yesterday";
        long[] first = cache.of(a);
        String copy = new String(a.toCharArray());
        assertThat(copy).isNotSameAs(a);
        assertThat(cache.of(copy)).isSameAs(first);
        assertThat(cache.computed()).isEqualTo(1);
    }

    @Test
    void a_text_whose_instance_is_gone_is_still_found_by_its_hash_and_its_entry_takes_the_new_instance() {
        TermSetCache cache = new TermSetCache(1 << 8);
        String a = "Melanie ran a charity race for mental health last Saturday";
        String b = "Caroline is researching adoption agencies";
        long[] termsA = cache.of(a);
        long[] termsB = cache.of(b);
        cache.dropTexts(); // what the collector does once nothing else holds the strings
        String a2 = new String(a.toCharArray());
        assertThat(cache.of(a2)).isSameAs(termsA);
        assertThat(cache.of(a2)).isSameAs(termsA);
        assertThat(cache.of(new String(b.toCharArray()))).isSameAs(termsB);
        assertThat(cache.computed()).isEqualTo(2);
    }

    @Test
    void a_small_cache_under_many_texts_and_threads_always_gives_each_text_its_own_terms() throws Exception {
        java.util.Random random = new java.util.Random(7);
        String[] words = {"ana", "bruno", "hiking", "club", "pottery", "paris", "dog", "cat", "music", "guitar",
                "painting", "camping", "lake", "river", "school", "teacher", "book", "novel", "coffee", "tea"};
        String[] texts = new String[300];
        for (int i = 0; i < texts.length; i++) {
            StringBuilder sb = new StringBuilder();
            for (int w = 0, n = 3 + random.nextInt(12); w < n; w++) {
                sb.append(words[random.nextInt(words.length)]).append(w % 4 == 3 ? ". " : " ");
            }
            texts[i] = sb.append(i).toString();
        }
        long[][] want = new long[texts.length][];
        for (int i = 0; i < texts.length; i++) {
            want[i] = expected(texts[i]);
        }
        TermSetCache cache = new TermSetCache(1 << 6);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<Integer>> done = new java.util.ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long seed = t;
                done.add(pool.submit(() -> {
                    java.util.Random r = new java.util.Random(seed);
                    int checked = 0;
                    for (int k = 0; k < 5_000; k++) {
                        int i = r.nextInt(texts.length);
                        // every other lookup with an equal text of a new instance
                        String text = k % 2 == 0 ? texts[i] : new String(texts[i].toCharArray());
                        assertThat(cache.of(text)).as(texts[i]).isEqualTo(want[i]);
                        checked++;
                    }
                    return checked;
                }));
            }
            for (java.util.concurrent.Future<Integer> f : done) {
                assertThat(f.get()).isEqualTo(5_000);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** The sorted, distinct hashes of the text's comparison terms, computed without the cache. */
    private static long[] expected(String text) {
        return Terms.comparisonTerms(text, TermSetCache.MAX_TERMS).stream().mapToLong(Terms::hash64)
                .distinct().sorted().toArray();
    }
}
