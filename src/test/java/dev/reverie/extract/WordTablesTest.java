package dev.reverie.extract;

import dev.reverie.internal.Resources;
import dev.reverie.internal.Terms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every word list and table of the rule-based extractor, as loaded from
 * {@code src/main/resources/dev/reverie/extract/words/}: its size, no duplicate or blank entry, every
 * entry folded (the extractor compares them with folded text), and a few known entries.
 */
class WordTablesTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "abbreviations, 32, dr|av|cmdr",
            "articles, 16, the|uma|das",
            "clause-subject, 44, i|my|this",
            "clause-openers, 22, what|whether|onde",
            "conditions, 115, diabetes|high cholesterol|marca-passo",
            "dangling-prepositions, 19, to|towards|sobre",
            "elided-first-person, 51, just|ran|going",
            "en-markers, 95, the|all|were",
            "filler, 183, hi|mhm|an",
            "finite-verbs, 46, is|helped|ia",
            "first-person, 29, i|we'll|gente",
            "formal, 28, please|prezada|entretanto",
            "future, 35, will|pretendo|consulta",
            "hedge-words, 19, think|sure|wonder|doubt|duvido",
            "informal, 62, lol|thx|uau",
            "instruments, 51, guitar|volleyball|handebol",
            "jobs, 261, nurse|gamer|self-employed",
            "languages, 71, english|tagalog|lingua de sinais",
            "name-stop, 68, and|por|it",
            "not-a-name, 172, english|friday|been|hard|spelled",
            "not-a-predicate, 32, and|de|tambem",
            "not-a-value, 105, it|sua|que",
            "not-an-employer, 52, home|feriados|all|free|de graca|nobody|work",
            "pets, 97, dog|chinchilla|furao|beagle|golden retriever|bearded dragon",
            "pt-first-person-verbs, 79, fui|comi|aprendi",
            "pt-markers, 92, o|aos|casa",
            "relative-pronouns, 7, what|whom|whoever",
            "reporting-words, 67, said|believes|segundo|assume|dizem|telling|swears",
            "stop, 292, a|only|ei",
            "tech, 124, java|tensorflow|arduino|windows|slack",
            "titles, 20, dr|profa|mx"
    })
    void word_list_loads_whole_and_clean(String name, int size, String known) throws IOException {
        List<String> entries = Resources.entries(Lexicon.class, Lexicon.FOLDER + name + ".txt");

        assertThat(entries).hasSize(size).doesNotHaveDuplicates().allSatisfy(e -> {
            assertThat(e).isNotBlank().isEqualTo(e.strip()).doesNotContain("|");
            assertThat(Terms.foldKeepingLength(e)).as("folded form of '%s'", e).isEqualTo(e);
        });
        assertThat(Lexicon.words(name)).hasSize(size).contains(known.split("\\|"));
        assertThat(rawLines(name)).noneMatch(l -> !l.isEmpty() && !l.equals(l.strip()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
            "place-cuts; 56; _for_|_ago|_sozinh|_with_my_|_i_|_eu_|_myself|_originally",
            "job-cuts; 24; _at_|_numa_|_pelo_|_ha_|_this_|_every_",
            "prefer-cuts; 11; _over_|_rather_than_|_instead_of_",
            "value-cuts; 52; ,|._|_-_|_cuz_|_but_i_"
    })
    void phrase_list_loads_whole_and_clean(String name, int size, String known) {
        List<String> phrases = List.of(Lexicon.phrases(name));

        assertThat(phrases).hasSize(size).doesNotHaveDuplicates()
                .contains(known.replace('_', ' ').split("\\|"))
                .allSatisfy(p -> assertThat(p).isNotBlank().doesNotContain("_")
                        .isEqualTo(Terms.foldKeepingLength(p)));
    }

    @Test
    void adverbs_make_the_rules_adverb_group() {
        List<String> adverbs = Lexicon.list("adverbs");

        assertThat(adverbs).hasSize(60).doesNotHaveDuplicates().startsWith("really", "also", "just")
                .contains("deathly", "atualmente", "tambem", "extremamente").endsWith("entirely");
        assertThat(IdentityRules.ADV).isEqualTo("(?:(?:" + String.join("|", adverbs) + ")\\s+)");
        assertThat(java.util.regex.Pattern.compile("^i " + IdentityRules.ADV + "{0,2}love").matcher("i really just love")
                .find()).isTrue();
    }

    @Test
    void relations_map_every_family_word_to_its_relation() {
        List<String> lines = Resources.entries(Lexicon.class, Lexicon.FOLDER + "relations.txt");
        Map<String, String> relations = Lexicon.RELATIONS;

        assertThat(lines).hasSize(123).doesNotHaveDuplicates();
        assertThat(relations).hasSize(123)
                .containsEntry("mom", "mother").containsEntry("madrasta", "stepmother")
                .containsEntry("mother-in-law", "mother_in_law").containsEntry("avo", "grandparent")
                .containsEntry("irmaos", "siblings").containsEntry("gemea", "twin");
        assertThat(relations.keySet()).allSatisfy(w -> assertThat(Terms.foldKeepingLength(w)).isEqualTo(w));
        assertThat(new HashSet<>(relations.values())).hasSize(37);
    }

    @Test
    void favorite_keys_map_portuguese_and_british_words_to_english_keys() {
        Map<String, String> keys = Lexicon.FAVORITE_KEYS;

        assertThat(keys).hasSize(42).containsEntry("cor", "color").containsEntry("colour", "color")
                .containsEntry("time", "team").containsEntry("podcast", "podcast");
        assertThat(keys.keySet()).doesNotContain("").allSatisfy(k -> assertThat(k).isEqualTo(k.strip()));
    }

    @Test
    void the_identity_lists_are_the_rules_lists() {
        Set<String> titles = Lexicon.words("titles");

        assertThat(titles).contains("dra", "dona", "doutora");
        assertThat(Lexicon.words("not-a-name")).contains("monday", "brasileira", "vegan");
    }

    @Test
    void a_missing_table_is_named_in_the_error() {
        assertThatThrownBy(() -> Lexicon.words("no-such-list"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("dev/reverie/extract/words/no-such-list.txt");
    }

    @Test
    void a_malformed_pair_is_named_in_the_error() {
        assertThatThrownBy(() -> Resources.pairs(Lexicon.class, Lexicon.FOLDER + "stop.txt"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("stop.txt").hasMessageContaining("key=value");
    }

    private static List<String> rawLines(String name) throws IOException {
        try (InputStream in = Lexicon.class.getResourceAsStream(Lexicon.FOLDER + name + ".txt")) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
