package dev.reverie.benchmarks;

import java.util.List;
import java.util.Random;

/**
 * Writes varied English text for one end user: durable memories, observations, conversation turns
 * and the questions the user asks, all around a small set of recurring entities of that user (their
 * name, city, employer, relatives, pet, projects, foods, hobbies) and of the tenant (a handful of
 * products and places every user mentions). Sentences come from templates whose slots are filled
 * from {@link Vocabulary}; most carry a tail of Zipf-distributed common words so that term
 * statistics resemble real chat text. Deterministic for a given {@link Random}.
 *
 * <p>Not thread-safe: one instance per user and thread (it holds a {@link Random}).
 */
final class TextGenerator {

    /** Entities every user of the tenant talks about (its products, its places). */
    private static final List<String> TENANT_ENTITIES = List.of("Reverie Plus", "the Harbor clinic",
            "the Northside office", "the loyalty card", "the mobile app", "the weekly newsletter", "Studio Nine",
            "the spring sale", "the premium plan", "the downtown branch");
    private static final List<String> RELATIONS = List.of("sister", "brother", "mother", "father", "friend",
            "colleague", "cousin", "daughter", "son", "partner", "neighbor", "manager");
    private static final List<String> PREPOSITIONS = List.of("with", "for", "about", "near", "after", "before",
            "during", "from", "at", "without", "around", "over");

    private final Vocabulary vocabulary;
    private final Random random;
    final String name;
    final String city;
    final String job;
    final String employer;
    final String allergen;
    final String language;
    final String pet;
    final String petName;
    final String street;
    final String[] people;
    final String[] relations;
    final String[] projects;
    final String[] foods;
    final String[] hobbies;
    final String[] tech;

    /**
     * @param profileSeed the end user's seed: the same seed gives the same person (name, city, people...)
     * @param content     the stream the sentences are drawn from
     */
    TextGenerator(Vocabulary vocabulary, long profileSeed, Random content) {
        this.vocabulary = vocabulary;
        this.random = content;
        Random r = new Random(profileSeed);
        name = Vocabulary.pick(Vocabulary.FIRST_NAMES, r);
        city = Vocabulary.pick(Vocabulary.CITIES, r);
        job = Vocabulary.pick(Vocabulary.JOBS, r);
        employer = vocabulary.properName(r);
        allergen = Vocabulary.pick(Vocabulary.ALLERGENS, r);
        language = Vocabulary.pick(Vocabulary.LANGUAGES, r);
        pet = Vocabulary.pick(Vocabulary.PETS, r);
        petName = vocabulary.properName(r);
        street = vocabulary.properName(r);
        people = new String[4];
        relations = new String[4];
        for (int i = 0; i < people.length; i++) {
            people[i] = Vocabulary.pick(Vocabulary.FIRST_NAMES, r);
            relations[i] = Vocabulary.pick(RELATIONS, r);
        }
        projects = new String[] {vocabulary.properName(r), vocabulary.properName(r)};
        foods = new String[] {Vocabulary.pick(Vocabulary.FOODS, r), Vocabulary.pick(Vocabulary.FOODS, r),
                Vocabulary.pick(Vocabulary.FOODS, r)};
        hobbies = new String[] {Vocabulary.pick(Vocabulary.HOBBIES, r), Vocabulary.pick(Vocabulary.HOBBIES, r)};
        tech = new String[] {Vocabulary.pick(Vocabulary.TECH, r), Vocabulary.pick(Vocabulary.TECH, r)};
    }

    // ------------------------------------------------------------------ memories (third person)

    String identityName() {
        return "The user's name is " + name + " and they prefer to be called " + name + ".";
    }

    String identityAllergy() {
        return name + " is allergic to " + allergen + " and must never be offered it.";
    }

    String identityLanguage() {
        return name + "'s native language is " + language + ".";
    }

    String fact() {
        int p = random.nextInt(people.length);
        return switch (random.nextInt(6)) {
            case 0 -> name + " works as a " + job + " at " + employer + " in " + city + detail(0.6);
            case 1 -> name + "'s " + relations[p] + " " + people[p] + " lives in " + pick(Vocabulary.CITIES)
                    + " and works as a " + pick(Vocabulary.JOBS) + detail(0.5);
            case 2 -> name + " has a " + pet + " called " + petName + " who is " + (1 + random.nextInt(14))
                    + " years old" + detail(0.5);
            case 3 -> name + " lives on " + street + " Street in " + city + " with their " + relations[p] + " "
                    + people[p] + detail(0.5);
            case 4 -> name + " is working on the " + project() + " project with " + people[p] + detail(0.8);
            default -> name + " is a customer of " + pick(TENANT_ENTITIES) + " since " + (2015 + random.nextInt(10))
                    + detail(0.7);
        };
    }

    String preference() {
        return switch (random.nextInt(4)) {
            case 0 -> name + " prefers " + food() + " over " + food() + " and avoids " + adjective() + " "
                    + noun() + detail(0.5);
            case 1 -> name + " likes " + hobby() + " on " + pick(Vocabulary.WEEKDAYS) + " mornings, usually at the "
                    + noun() + " near " + street + " Street" + detail(0.4);
            case 2 -> name + " dislikes " + adjective() + " " + noun() + " and wants " + adjective()
                    + " answers about " + vocabulary.common(random) + detail(0.5);
            default -> name + " would rather use " + pick(TENANT_ENTITIES) + " than call the " + noun() + detail(0.6);
        };
    }

    String event() {
        int p = random.nextInt(people.length);
        return switch (random.nextInt(4)) {
            case 0 -> "On " + pick(Vocabulary.WEEKDAYS) + " " + name + " has a " + noun() + " with " + people[p]
                    + " about the " + vocabulary.common(random) + " " + noun() + detail(0.6);
            case 1 -> name + " flew to " + pick(Vocabulary.CITIES) + " for a " + noun() + " and had to "
                    + verb() + " the " + noun() + detail(0.6);
            case 2 -> name + " moved the " + noun() + " at " + pick(TENANT_ENTITIES) + " to "
                    + pick(Vocabulary.WEEKDAYS) + detail(0.5);
            default -> name + " and " + people[p] + " plan to " + verb() + " the " + project() + " " + noun()
                    + " before the " + noun() + detail(0.7);
        };
    }

    String skill() {
        return name + " knows " + tech[0] + " and " + tech[1] + " well and has used " + tech[random.nextInt(2)]
                + " for " + (1 + random.nextInt(15)) + " years at " + employer + detail(0.5);
    }

    String style() {
        return name + " writes " + pick(List.of("short", "long", "formal", "casual", "direct", "friendly"))
                + " messages in " + language + " and " + pick(List.of("likes", "avoids")) + " emoji" + detail(0.3);
    }

    String synthesis() {
        int p = random.nextInt(people.length);
        return name + "'s " + relations[p] + " " + people[p] + " and the " + project() + " project both connect to "
                + city + ": " + vocabulary.common(random) + " " + noun() + detail(1.0);
    }

    // ------------------------------------------------------------------ conversation (first person)

    /** A user turn; about one in four states a fact the rule-based extractor can pick up. */
    String userTurn() {
        int p = random.nextInt(people.length);
        return switch (random.nextInt(8)) {
            case 0 -> "Hi, can you help me " + verb() + " my " + noun() + " with " + people[p] + " on "
                    + pick(Vocabulary.WEEKDAYS) + "? " + sentence();
            case 1 -> "I'm allergic to " + allergen + ", so please keep that in mind for the " + noun() + ". "
                    + sentence();
            case 2 -> "My " + relations[p] + " " + people[p] + " lives in " + pick(Vocabulary.CITIES) + " and we want to "
                    + verb() + " the " + noun() + " " + pick(Vocabulary.TIMES) + ".";
            case 3 -> "I really like " + food() + " and " + hobby() + ", but I don't like " + adjective() + " "
                    + noun() + ". " + sentence();
            case 4 -> "I work as a " + job + " at " + employer + " and I'm on the " + project() + " project this "
                    + pick(List.of("week", "month", "quarter")) + ".";
            case 5 -> "What did " + people[p] + " say about the " + noun() + " at " + pick(TENANT_ENTITIES) + "? "
                    + sentence();
            case 6 -> "Please " + verb() + " the " + adjective() + " " + noun() + " for " + pick(Vocabulary.WEEKDAYS)
                    + " at " + (8 + random.nextInt(10)) + ":00, " + sentence();
            default -> "Thanks! " + sentence() + " " + sentence();
        };
    }

    /** An assistant turn: an answer of one to three sentences. */
    String assistantTurn() {
        StringBuilder sb = new StringBuilder();
        sb.append(pick(List.of("Sure, ", "Of course, ", "Done, ", "Got it, ", "Noted, "))).append(name)
                .append(". I can ").append(verb()).append(" the ").append(noun()).append(" for ")
                .append(pick(Vocabulary.WEEKDAYS)).append(". ");
        int more = random.nextInt(3);
        for (int i = 0; i < more; i++) {
            sb.append(sentence()).append(' ');
        }
        sb.append("Would you like me to ").append(verb()).append(" the ").append(noun()).append(" too?");
        return sb.toString();
    }

    /** A question the user asks before an LLM call: mixes their own entities with common words. */
    String query() {
        int p = random.nextInt(people.length);
        return switch (random.nextInt(7)) {
            case 0 -> "Can I move my " + noun() + " with " + people[p] + " to " + pick(Vocabulary.WEEKDAYS) + "?";
            case 1 -> "What did I tell you about " + food() + " and my " + allergen + " allergy?";
            case 2 -> "Remind me what " + people[p] + " said about the " + project() + " " + noun() + ".";
            case 3 -> "Which " + hobby() + " " + noun() + " did I plan in " + city + " " + pick(Vocabulary.TIMES) + "?";
            case 4 -> "Do you remember my " + relations[p] + "'s " + noun() + " and the " + adjective() + " "
                    + noun() + "?";
            case 5 -> "Is " + pick(TENANT_ENTITIES) + " open on " + pick(Vocabulary.WEEKDAYS) + " for my " + noun()
                    + "?";
            default -> "How is " + petName + " the " + pet + " doing since the " + noun() + " last "
                    + pick(List.of("week", "month", "year")) + "?";
        };
    }

    // ------------------------------------------------------------------ pieces

    private String sentence() {
        String s = pick(List.of("I think", "Maybe", "Also", "Then", "Honestly", "By the way", "Last time"))
                + " the " + adjective() + " " + noun() + " " + pick(PREPOSITIONS) + " " + vocabulary.common(random)
                + " " + vocabulary.common(random) + " " + pick(List.of("was", "is", "will be", "seems")) + " "
                + adjective();
        return s + ".";
    }

    /** A trailing clause (with probability {@code p}) of common and proper words, ending the sentence. */
    private String detail(double p) {
        if (random.nextDouble() >= p) {
            return ".";
        }
        StringBuilder sb = new StringBuilder(", ").append(pick(PREPOSITIONS)).append(" the ");
        int words = 2 + random.nextInt(6);
        for (int i = 0; i < words; i++) {
            sb.append(random.nextInt(10) == 0 ? vocabulary.properName(random) : vocabulary.common(random));
            if (i < words - 1) {
                sb.append(' ');
            }
        }
        return sb.append('.').toString();
    }

    private String project() {
        return projects[random.nextInt(projects.length)];
    }

    private String food() {
        return random.nextInt(3) == 0 ? pick(Vocabulary.FOODS) : foods[random.nextInt(foods.length)];
    }

    private String hobby() {
        return random.nextInt(4) == 0 ? pick(Vocabulary.HOBBIES) : hobbies[random.nextInt(hobbies.length)];
    }

    private String noun() {
        return pick(Vocabulary.NOUNS);
    }

    private String verb() {
        return pick(Vocabulary.VERBS);
    }

    private String adjective() {
        return pick(Vocabulary.ADJECTIVES);
    }

    private String pick(List<String> words) {
        return Vocabulary.pick(words, random);
    }
}
