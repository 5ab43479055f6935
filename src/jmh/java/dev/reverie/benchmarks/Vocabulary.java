package dev.reverie.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The words the benchmark data is made of: about a thousand real English words in categories
 * (nouns, verbs, foods, cities, names, jobs...) plus a long tail of pronounceable pseudo-words for
 * proper names (companies, products, projects, pets, streets), about 3,500 word types in all.
 * Common words are drawn with a Zipf distribution so that lexical posting lists have the skew of
 * real text: a few terms occur in a large share of the rows, most terms in very few.
 *
 * <p>The vocabulary is built from a fixed seed and never changes between runs, so a data set
 * generated today equals one generated tomorrow. Immutable and thread-safe after construction;
 * the sampling methods take the caller's {@link Random}.
 */
public final class Vocabulary {

    static final List<String> NOUNS = words("""
            time year day week month morning evening night weekend holiday trip flight train bus car bike
            house apartment room kitchen garden office desk window door street road bridge park beach lake
            river mountain forest city village country island airport station hotel restaurant cafe bakery
            market shop store mall library museum theater cinema school university college class course
            lesson exam project meeting call email message letter report plan budget invoice contract
            order payment account bill ticket reservation appointment schedule deadline task list note
            book novel article paper story poem song album concert movie show series game match team
            player coach friend family mother father sister brother daughter son cousin uncle aunt
            grandmother grandfather wife husband partner colleague manager boss client customer neighbor
            doctor dentist nurse teacher student lawyer driver chef engineer designer writer artist
            music photo picture camera phone laptop computer screen keyboard printer charger battery
            software app website server database network password account update version release bug
            feature issue ticket review test build deployment backup dinner lunch breakfast snack meal
            recipe dish soup salad bread cheese coffee tea juice water wine beer cake cookie chocolate
            fruit apple banana orange lemon grape strawberry tomato potato onion garlic pepper rice pasta
            chicken beef fish salmon shrimp egg milk butter sugar salt oil sauce dessert pie pizza burger
            sandwich shirt jacket coat shoes boots dress hat bag wallet watch glasses ring gift present
            birthday wedding anniversary party dinner festival conference workshop interview promotion
            salary job career office shift vacation leave insurance tax rent mortgage loan bank card
            medicine pill prescription allergy symptom headache fever cough cold flu injury surgery
            therapy exercise workout gym run walk swim yoga diet sleep habit routine goal idea question
            answer problem solution reason result decision choice option chance change difference
            weather rain snow sun wind storm temperature season spring summer autumn winter language
            word sentence accent grammar vocabulary translation dog cat bird horse fish rabbit pet
            vet walk toy leash cage plant flower tree seed soil pot fence roof wall floor carpet sofa
            chair table bed lamp shelf closet mirror towel blanket pillow""");

    static final List<String> VERBS = words("""
            move book cancel change check confirm call send buy sell pay order pick bring take make cook
            bake clean wash fix repair build paint write read watch listen play visit travel drive fly
            walk run swim climb ride meet join leave start finish open close plan schedule remind prepare
            study learn teach practice train help ask answer explain discuss share forget remember need
            want like love hate prefer enjoy avoid try hope expect decide choose agree refuse accept
            miss lose find keep store save spend borrow lend rent hire fire quit apply update install
            upgrade download upload delete print sign review test deploy release ship deliver return
            exchange track follow share post publish record edit""");

    static final List<String> ADJECTIVES = words("""
            new old good bad great small big large little long short high low early late quick slow
            easy hard simple busy free cheap expensive important urgent quiet loud warm cold hot cool
            dry wet clean dirty fresh spicy sweet salty bitter healthy sick tired happy sad angry calm
            nervous excited worried bored proud kind friendly polite rude honest strict formal casual
            modern classic local foreign public private personal professional final main extra whole
            favorite usual regular special different similar next previous last recent weekly monthly
            annual daily green blue red yellow black white brown gray dark bright light heavy soft
            strong weak safe dangerous broken ready available missing""");

    static final List<String> FOODS = words("""
            sushi ramen curry tacos burrito lasagna risotto paella couscous hummus falafel kebab
            dumplings noodles pancakes waffles croissant bagel muffin brownie cheesecake tiramisu
            gelato sorbet yogurt granola oatmeal smoothie espresso cappuccino latte matcha kombucha
            lemonade avocado mango pineapple coconut papaya blueberry raspberry cherry peach pear plum
            walnut almond cashew peanut hazelnut pistachio sesame tofu tempeh lentils chickpeas
            quinoa spinach broccoli carrot cucumber zucchini eggplant mushroom olive feta mozzarella
            parmesan cheddar brie prosciutto salami chorizo lobster crab oyster tuna cod sardine""");

    static final List<String> CITIES = words("""
            Lisbon Porto Madrid Barcelona Paris Lyon Berlin Munich Hamburg Vienna Prague Warsaw Krakow
            Budapest Rome Milan Naples Florence Venice Athens Istanbul Dublin London Manchester
            Edinburgh Amsterdam Rotterdam Brussels Copenhagen Stockholm Oslo Helsinki Reykjavik Zurich
            Geneva Boston Chicago Seattle Portland Denver Austin Houston Miami Atlanta Toronto Montreal
            Vancouver Mexico Bogota Lima Santiago Buenos Montevideo Recife Salvador Curitiba Campinas
            Tokyo Osaka Kyoto Seoul Busan Taipei Singapore Bangkok Hanoi Manila Jakarta Sydney Melbourne
            Auckland Nairobi Lagos Accra Cairo Casablanca Johannesburg Capetown Dubai Mumbai Delhi""");

    static final List<String> FIRST_NAMES = words("""
            Marina Ana Beatriz Camila Carla Clara Daniela Elena Fernanda Gabriela Helena Isabel Julia
            Laura Leticia Luisa Mariana Natalia Olivia Patricia Paula Rafaela Sofia Valentina Alice
            Emma Grace Hannah Chloe Zoe Mia Ella Ava Lily Nora Ruby Ivy Maya Lucy Sarah Rachel Emily
            Jessica Amanda Caroline Melanie Nicole Priya Aisha Fatima Yuki Mei Hana Ingrid Astrid Freya
            Pedro Joao Lucas Mateus Gabriel Rafael Bruno Carlos Daniel Diego Eduardo Felipe Gustavo
            Henrique Igor Leonardo Marcelo Miguel Paulo Ricardo Rodrigo Thiago Vitor Andre James John
            Robert Michael William David Richard Joseph Thomas Charles Christopher Matthew Anthony Mark
            Steven Paul Andrew Joshua Kevin Brian George Edward Ryan Jacob Nathan Samuel Benjamin Noah
            Oliver Ethan Liam Omar Hassan Kenji Hiroshi Jin Arjun Ravi Lars Sven Mateo Javier""");

    static final List<String> JOBS = words("""
            nurse teacher engineer architect accountant lawyer pharmacist dentist physician surgeon
            plumber electrician carpenter mechanic pilot chef baker barista journalist editor
            translator designer developer programmer analyst scientist researcher professor librarian
            photographer musician painter actor dancer firefighter paramedic veterinarian therapist
            psychologist consultant manager recruiter salesperson cashier farmer gardener tailor""");

    static final List<String> HOBBIES = words("""
            running cycling hiking climbing swimming surfing sailing skiing snowboarding skating tennis
            football basketball volleyball chess poker knitting sewing pottery painting drawing
            photography gardening cooking baking birdwatching fishing camping kayaking rowing yoga
            pilates boxing karate fencing archery golf bowling dancing singing guitar piano violin
            drums blogging podcasting gaming puzzles crosswords reading writing astronomy""");

    static final List<String> ALLERGENS = words("""
            dipyrone penicillin amoxicillin aspirin ibuprofen sulfa codeine latex peanuts shellfish
            gluten lactose pollen dust mold eggs soy wheat sesame bees""");

    static final List<String> LANGUAGES = words("""
            English Portuguese Spanish French German Italian Dutch Swedish Polish Greek Turkish Arabic
            Hindi Japanese Korean Mandarin Cantonese Vietnamese Thai Russian""");

    static final List<String> PETS = words("dog cat parrot rabbit hamster turtle horse goldfish");

    static final List<String> TECH = words("""
            Java Python Kotlin Rust Go Scala TypeScript JavaScript SQL Postgres MySQL SQLite Lucene
            Kafka Redis Docker Kubernetes Terraform Linux Windows macOS Android iPhone Excel Figma
            Photoshop Blender Jira Slack Zoom Spring Maven Gradle React Angular Spark Hadoop""");

    static final List<String> WEEKDAYS = words("Monday Tuesday Wednesday Thursday Friday Saturday Sunday");

    static final List<String> TIMES = words("""
            today tomorrow yesterday tonight soon later recently lately usually always never often
            sometimes rarely already still again""");

    private static final String[] ONSETS = {"b", "c", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v",
            "z", "br", "cl", "dr", "fl", "gr", "kr", "pl", "st", "tr", "sh", "ch", "th", "qu", "sp", "vel"};
    private static final String[] VOWELS = {"a", "e", "i", "o", "u", "ai", "ea", "io", "ou", "ay"};
    private static final String[] CODAS = {"", "", "", "n", "r", "l", "s", "x", "m", "nd", "rt", "st", "ck"};

    private final List<String> commonWords;
    private final double[] commonCumulative;
    private final List<String> properNames;
    private final double[] properCumulative;

    /** The vocabulary for {@code seed}; the benchmarks use one fixed seed. */
    public Vocabulary(long seed) {
        Random random = new Random(seed);
        List<String> common = new ArrayList<>();
        common.addAll(NOUNS);
        common.addAll(VERBS);
        common.addAll(ADJECTIVES);
        common.addAll(FOODS);
        common.addAll(HOBBIES);
        java.util.Collections.shuffle(common, random);
        this.commonWords = List.copyOf(new LinkedHashSet<>(common));
        this.commonCumulative = zipf(commonWords.size(), 1.0);
        Set<String> names = new LinkedHashSet<>();
        while (names.size() < 2_500) {
            names.add(pseudoWord(random));
        }
        this.properNames = List.copyOf(names);
        this.properCumulative = zipf(properNames.size(), 0.8);
    }

    /** Number of distinct word types (common words, categories and pseudo-words). */
    public int size() {
        Set<String> all = new LinkedHashSet<>(commonWords);
        all.addAll(properNames);
        for (List<String> l : List.of(CITIES, FIRST_NAMES, JOBS, ALLERGENS, LANGUAGES, PETS, TECH, WEEKDAYS, TIMES)) {
            all.addAll(l);
        }
        return all.size();
    }

    /** A common word, Zipf-distributed (rank 1 is the most frequent). */
    public String common(Random random) {
        return commonWords.get(sample(commonCumulative, random));
    }

    /** A capitalized pseudo-word used as a proper name (company, product, project, pet, street). */
    public String properName(Random random) {
        return properNames.get(sample(properCumulative, random));
    }

    /** A uniformly chosen element. */
    public static String pick(List<String> words, Random random) {
        return words.get(random.nextInt(words.size()));
    }

    private static String pseudoWord(Random random) {
        int syllables = 2 + random.nextInt(2);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < syllables; i++) {
            sb.append(ONSETS[random.nextInt(ONSETS.length)]).append(VOWELS[random.nextInt(VOWELS.length)]);
        }
        sb.append(CODAS[random.nextInt(CODAS.length)]);
        sb.setCharAt(0, Character.toUpperCase(sb.charAt(0)));
        return sb.toString();
    }

    private static double[] zipf(int n, double exponent) {
        double[] cumulative = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += 1.0 / Math.pow(i + 1, exponent);
            cumulative[i] = sum;
        }
        for (int i = 0; i < n; i++) {
            cumulative[i] /= sum;
        }
        return cumulative;
    }

    private static int sample(double[] cumulative, Random random) {
        int i = Arrays.binarySearch(cumulative, random.nextDouble());
        return Math.min(cumulative.length - 1, i >= 0 ? i : -i - 1);
    }

    private static List<String> words(String block) {
        return List.copyOf(new LinkedHashSet<>(Arrays.asList(block.trim().split("\\s+"))));
    }
}
