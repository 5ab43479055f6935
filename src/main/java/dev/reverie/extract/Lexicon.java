package dev.reverie.extract;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The word lists the rule-based extractor uses, in folded form (lower case, no accents), English
 * and Portuguese. Immutable and thread-safe.
 */
final class Lexicon {

    private Lexicon() {
    }

    /** An immutable set of the {@code |}-separated words (duplicates allowed in the source list). */
    static Set<String> set(String words) {
        return Set.copyOf(java.util.Arrays.asList(words.trim().split("\\s*\\|\\s*")));
    }

    /** Function words, pronouns, auxiliaries and fillers: they do not make a statement substantive. */
    static final Set<String> STOP = set("a|an|the|and|or|but|of|to|in|on|at|for|with|is|are|was|were|be|been|being"
            + "|am|it|its|it's|this|that|these|those|as|by|from|do|does|did|done|so|if|than|then|there|here|i|i'm|im"
            + "|i've|ive|i'd|i'll|me|my|mine|myself|you|you're|your|yours|we|we're|our|us|he|she|him|her|his|they"
            + "|them|their|what|which|who|whom|how|when|where|why|all|any|some|just|really|very|too|also|not|no"
            + "|yes|yeah|yep|ok|okay|oh|ah|wow|haha|hahaha|lol|hey|hi|hello|well|now|can|could|would|should|will"
            + "|shall|may|might|must|have|has|had|having|get|got|gonna|wanna|gotta|it'll|that's|there's|what's"
            + "|don't|dont|didn't|doesn't|isn't|aren't|wasn't|can't|won't|about|into|up|down|out|over|more|much"
            + "|many|such|own|same|other|only|even|still|again|ever|never|always|one|thing|things|stuff|lot|lots"
            + "|kind|kinda|sort|pretty|quite|totally|definitely|sure|cool|nice|great|awesome|amazing|good|bad|ya"
            + "|y'all|gonna|posted|touch|best|try|let|know|see|soon"
            + "|like|um|uh|hmm|o|os|as|um|uma|uns|umas|de|do|da|dos|das|e|em|no|na|nos|nas|que|por|para|pra|pro"
            + "|com|se|ao|aos|eu|meu|minha|meus|minhas|voce|vc|ele|ela|eles|elas|nos|seu|sua|isso|isto|aquilo"
            + "|esse|essa|este|esta|mas|muito|muita|mais|bem|tambem|ja|so|ai|ah|oh|ne|tipo|coisa|coisas|tudo"
            + "|nada|sim|nao|foi|ser|estar|estou|ta|to|tem|ter|tenho|vou|vai|era|sou|e|eh|ate|quando|onde|como"
            + "|qual|quem|porque|pois|entao|aqui|ali|la|mesmo|mesma|legal|bom|boa|otimo|kkk|kkkk|rs|haha|tao"
            + "|demais|bastante|meio|pouco|ok|okay|hein|ne|uai|eita|nossa|poxa|oh|ei|hey");

    /** Words that make a sentence pure small talk when every word of it is one of these. */
    static final Set<String> FILLER = set("hi|hello|hey|heya|hiya|yo|ok|okay|okey|k|kk|thanks|thank|you|thx|ty"
            + "|tks|cheers|haha|hahaha|hahahaha|lol|lmao|rofl|hehe|yes|yeah|yep|yup|no|nope|nah|sure|cool|great"
            + "|nice|awesome|wow|oh|ah|uh|um|hmm|bye|goodbye|see|ya|later|soon|good|morning|afternoon|evening"
            + "|night|welcome|np|problem|so|much|a|lot|too|alright|right|fine|perfect|gotcha|got|it|indeed"
            + "|absolutely|totally|agreed|agree|same|here|me|i|that's|thats|true|exactly|sounds|amazing|wonderful"
            + "|lovely|sweet|congrats|congratulations|omg|hm|mhm|aw|aww|awww|yay|woohoo|hooray|bravo|definitely"
            + "|take|care|talk|to|catch|up|have|day|nice|meet|meeting|glad|happy|for|your|really|very|super"
            + "|oi|ola|obrigado|obrigada|brigado|brigada|valeu|vlw|beleza|blz|tchau|sim|nao|claro|legal|show|top"
            + "|massa|bom|boa|dia|tarde|noite|tudo|bem|e|ai|kkk|kkkk|kkkkk|rs|rsrs|entendi|certo|perfeito|otimo"
            + "|muito|de|nada|imagina|opa|eae|ate|logo|mais|verdade|isso|pois|ne|uau|nossa|demais|incrivel"
            + "|parabens|combinado|fechado|ta|bora|falou|abraco|abracos|beijo|beijos|o|a|the|an");

    /** Pronouns and deictics that cannot be the value of a preference ("I love it", "adoro isso"). */
    static final Set<String> NOT_A_VALUE = set("it|that|this|these|those|them|you|him|her|me|us|what|how|when"
            + "|everything|anything|something|nothing|everyone|someone|yours|your|his|their|our|there|here|one"
            + "|isso|isto|aquilo|disso|disto|daquilo|voce|vc|voces|ele|ela|eles|elas|tudo|nada|algo|alguem"
            + "|te|lo|la|dele|dela|deles|delas|seu|sua|teu|tua|i|eu|we|they|he|she|nos|to|so|too|a|an|the|o|os"
            + "|as|um|uma|de|do|da|when|if|because|quando|se|porque|como|what's|that's|it's|lot|bit|way|kind"
            + "|much|well|enough|properly|out|late|early|any|each|every|all|both|myself|yourself|ourselves|que");

    /** Pronouns that start a new clause inside a captured value ("peanuts and I love jazz"). */
    static final Set<String> CLAUSE_SUBJECT = set("i|i'm|im|i've|i'd|i'll|you|he|she|we|they|it|it's|my|eu|ele"
            + "|ela|nos|eles|elas|voce|vc|meu|minha|there|that's|this");

    static final Set<String> FIRST_PERSON = set("i|i'm|im|i've|ive|i'd|i'll|me|my|mine|myself|we|we're|we've"
            + "|we'll|our|ours|us|eu|meu|minha|meus|minhas|mim|comigo|nosso|nossos|nossas|gente");

    /** First-person singular verbs of Portuguese, whose pronoun is usually dropped ("Fui ao médico"). */
    static final Set<String> PT_FIRST_PERSON_VERBS = set("fui|estou|to|estava|tenho|tive|tinha|vou|sou|fiz|faco"
            + "|posso|pude|quero|quis|queria|sei|moro|morei|trabalho|trabalhei|gosto|adoro|amo|odeio|detesto"
            + "|prefiro|acho|achei|comecei|terminei|comprei|visitei|viajei|mudei|conheci|vi|li|assisti|comi"
            + "|bebi|dormi|acordei|saí|sai|cheguei|voltei|passei|perdi|ganhei|consegui|preciso|pretendo|planejo"
            + "|estudo|estudei|falo|toco|corro|nado|cozinho|lembro|esqueci|adotei|casei|nasci|cresci|sinto"
            + "|senti|penso|pensei|decidi|resolvi|fiquei|tomei|levei|encontrei|recebi|escrevi|aprendi");

    static final Set<String> EN_MARKERS = set("the|and|i|i'm|im|you|is|are|my|to|of|it|that|was|for|with|have"
            + "|this|what|but|not|just|me|we|it's|don't|really|like|love|been|about|from|they|he|she|at|would"
            + "|will|can|there|your|be|did|am|if|or|an|all|too|yes|yeah|know|think|went|got|had|has|some|going"
            + "|our|out|how|when|then|than|because|also|very|time|now|new|good|great|thanks|hi|hello|hey|yesterday"
            + "|tomorrow|today|live|work|love|i've|i'll|i'd|can't|wow|awesome|cool|where|why|who|which|does|were");

    static final Set<String> PT_MARKERS = set("o|e|de|que|nao|eu|meu|minha|voce|vc|com|para|pra|uma|um|da|dos"
            + "|das|em|na|mas|muito|tenho|estou|sou|esta|isso|como|mais|ja|tambem|gosto|moro|ontem|hoje|amanha"
            + "|obrigado|obrigada|oi|ola|bom|boa|sim|foi|vou|ao|aos|se|por|ele|ela|eles|elas|seu|sua|tem|ser|ter"
            + "|quando|onde|porque|entao|aqui|agora|ainda|dia|semana|ano|coisa|gente|tudo|nada|bem|legal|cara"
            + "|trabalho|adoro|amo|fui|meus|minhas|nossa|ta|sei|fiz|quero|acho|sempre|nunca|filho|filha|casa");

    /** Canonical family relation for each folded word (English and Portuguese). */
    static final Map<String, String> RELATIONS = relations();

    private static Map<String, String> relations() {
        Map<String, String> m = new HashMap<>();
        put(m, "mother", "mom|mum|mother|mama|mommy|mummy|mae|mamae|madrasta:stepmother");
        put(m, "father", "dad|father|papa|daddy|pai|papai|padrasto:stepfather");
        put(m, "parents", "parents|pais");
        put(m, "sister", "sister|sisters|sis|irma|irmas");
        put(m, "brother", "brother|brothers|irmao");
        put(m, "siblings", "siblings|irmaos");
        put(m, "son", "son|sons|filho");
        put(m, "daughter", "daughter|daughters|filha|filhas");
        put(m, "children", "kids|children|kiddos|filhos");
        put(m, "child", "kid|child");
        put(m, "baby", "baby|bebe|nene");
        put(m, "wife", "wife|esposa|mulher");
        put(m, "husband", "husband|hubby|marido|esposo");
        put(m, "partner", "partner|spouse|companheiro|companheira|parceiro|parceira|conjuge");
        put(m, "boyfriend", "boyfriend|bf|namorado");
        put(m, "girlfriend", "girlfriend|gf|namorada");
        put(m, "fiance", "fiance|fiancee|noivo|noiva");
        put(m, "grandmother", "grandma|grandmother|granny|nana");
        put(m, "grandparent", "avo|vovo"); // avó or avô: told apart by the accent of the original
        put(m, "grandfather", "grandpa|grandfather|granddad");
        put(m, "grandparents", "grandparents|avos");
        put(m, "grandchildren", "grandkids|grandchildren|netos");
        put(m, "grandson", "grandson|neto");
        put(m, "granddaughter", "granddaughter|neta|netas");
        put(m, "aunt", "aunt|aunts|auntie|tia|tias");
        put(m, "uncle", "uncle|uncles|tio|tios");
        put(m, "cousin", "cousin|cousins|primo|prima|primos|primas");
        put(m, "niece", "niece|nieces|sobrinha|sobrinhas");
        put(m, "nephew", "nephew|nephews|sobrinho|sobrinhos");
        put(m, "mother_in_law", "mother-in-law|sogra");
        put(m, "father_in_law", "father-in-law|sogro");
        put(m, "in_laws", "in-laws|sogros");
        put(m, "stepson", "stepson|enteado");
        put(m, "stepdaughter", "stepdaughter|enteada");
        put(m, "twin", "twin|gemeo|gemea");
        return Map.copyOf(m);
    }

    private static void put(Map<String, String> m, String key, String words) {
        for (String w : words.split("\\|")) {
            int colon = w.indexOf(':');
            if (colon > 0) {
                m.put(w.substring(0, colon), w.substring(colon + 1));
            } else {
                m.put(w, key);
            }
        }
    }

    /** Regex alternation of every relation word, longest first. */
    static final String RELATION_ALTERNATION = alternation(RELATIONS.keySet());

    static final Set<String> PETS = set("dog|dogs|puppy|puppies|pup|cat|cats|kitten|kittens|kitty|parrot|bird|birds"
            + "|fish|goldfish|hamster|hamsters|rabbit|rabbits|bunny|turtle|tortoise|snake|horse|horses|pony"
            + "|guinea pig|lizard|gecko|ferret|chinchilla|hedgehog|cachorro|cachorra|cachorros|cachorrinho"
            + "|cachorrinha|cao|caes|cadela|gato|gata|gatos|gatas|gatinho|gatinha|papagaio|passaro|peixe|peixes"
            + "|coelho|coelha|tartaruga|jabuti|cobra|cavalo|egua|calopsita|periquito|porquinho-da-india|furao");

    static final String PET_ALTERNATION = alternation(PETS);

    static final Set<String> JOBS = set("nurse|doctor|physician|surgeon|dentist|teacher|professor|engineer"
            + "|developer|programmer|coder|lawyer|attorney|designer|student|chef|cook|accountant|architect"
            + "|pharmacist|veterinarian|vet|counselor|counsellor|therapist|psychologist|psychiatrist|social worker"
            + "|writer|author|journalist|photographer|artist|painter|musician|singer|actor|actress|manager"
            + "|analyst|consultant|scientist|researcher|salesperson|cashier|receptionist|secretary|driver|pilot"
            + "|mechanic|electrician|plumber|carpenter|firefighter|police officer|officer|cop|soldier|paramedic"
            + "|barista|waiter|waitress|bartender|baker|farmer|entrepreneur|freelancer|translator|librarian"
            + "|banker|economist|dancer|coach|trainer|instructor|tutor|editor|marketer|recruiter|housewife"
            + "|homemaker|stay-at-home mom|stay-at-home dad|retiree|intern|ceo|cto|cfo|founder|cofounder"
            + "|co-founder|administrator|admin|technician|clerk|caregiver|nanny|midwife|optometrist"
            + "|physiotherapist|physical therapist|surveyor|biologist|chemist|physicist|mathematician"
            + "|statistician|historian|professor|lecturer|principal|software engineer|data scientist"
            + "|product manager|project manager|web developer|graphic designer|youtuber|streamer|influencer"
            + "|volunteer|mentor|advocate|activist|blogger|illustrator|animator|producer|director|composer"
            + "|dj|gamer|athlete|player|model|stylist|hairdresser|barber|tailor|janitor|guard|contractor"
            + "|enfermeiro|enfermeira|medico|medica|professor|professora|engenheiro|engenheira|desenvolvedor"
            + "|desenvolvedora|programador|programadora|advogado|advogada|estudante|cozinheiro|cozinheira"
            + "|contador|contadora|arquiteto|arquiteta|farmaceutico|farmaceutica|veterinario|veterinaria"
            + "|psicologo|psicologa|psiquiatra|fisioterapeuta|dentista|jornalista|fotografo|fotografa|artista"
            + "|musico|cantor|cantora|ator|atriz|gerente|analista|consultor|consultora|cientista"
            + "|pesquisador|pesquisadora|vendedor|vendedora|caixa|recepcionista|secretario|secretaria|motorista"
            + "|piloto|mecanico|mecanica|eletricista|encanador|carpinteiro|bombeiro|bombeira|policial|soldado"
            + "|garcom|garconete|padeiro|padeira|agricultor|empresario|empresaria|empreendedor|empreendedora"
            + "|tradutor|tradutora|bibliotecario|bibliotecaria|economista|dancarina|dancarino|treinador"
            + "|treinadora|instrutor|instrutora|editor|editora|cabeleireiro|cabeleireira|faxineira|diarista"
            + "|cuidadora|cuidador|baba|biologo|biologa|quimico|fisico|matematico"
            + "|estagiario|estagiaria|autonomo|autonoma|aposentado|aposentada|desempregado|desempregada"
            + "|dona de casa|designer|escritor|escritora|pedreiro|motoboy|assistente social|terapeuta"
            + "|nutricionista|pediatra|cirurgiao|servidor publico|servidora publica|funcionario publico"
            + "|funcionaria publica|retired|unemployed|self-employed");

    static final Set<String> TECH = set("java|kotlin|python|javascript|typescript|go|golang|rust|c|c++|c#|ruby|php"
            + "|swift|scala|sql|r|haskell|elixir|erlang|clojure|dart|flutter|react|angular|vue|spring|django"
            + "|flask|rails|docker|kubernetes|k8s|aws|azure|gcp|linux|excel|photoshop|illustrator|figma|git|html"
            + "|css|node|node.js|nodejs|tensorflow|pytorch|terraform|lua|perl|matlab|julia|cobol|fortran|assembly"
            + "|bash|unity|unreal|blender|autocad|sap|salesforce|tableau|power bi|powerbi|spark|hadoop|kafka"
            + "|postgres|postgresql|mysql|mongodb|redis|graphql|jquery|svelte|next.js|nextjs|android|ios|latex"
            + "|wordpress|solidity|objective-c|delphi|pascal|visual basic|vba|sas|spss|stata|labview|arduino");

    static final Set<String> LANGUAGES = set("english|portuguese|spanish|french|german|italian|japanese|chinese"
            + "|mandarin|cantonese|korean|russian|arabic|hindi|dutch|swedish|norwegian|danish|finnish|polish"
            + "|greek|turkish|hebrew|latin|esperanto|catalan|galician|basque|romanian|ukrainian|czech"
            + "|hungarian|vietnamese|thai|indonesian|tagalog|swahili|bengali|urdu|punjabi|farsi|persian"
            + "|asl|libras|sign language|ingles|portugues|espanhol|castelhano|frances|alemao|italiano|japones"
            + "|chines|mandarim|coreano|russo|arabe|holandes|sueco|grego|turco|hebraico|polones|catalao"
            + "|romeno|ucraniano|tcheco|hungaro|vietnamita|lingua de sinais");

    static final Set<String> INSTRUMENTS = set("guitar|piano|violin|drums|bass|cello|flute|saxophone|sax|trumpet"
            + "|ukulele|keyboard|harmonica|clarinet|harp|banjo|accordion|trombone|viola|mandolin|chess|tennis"
            + "|soccer|football|basketball|volleyball|baseball|golf|hockey|rugby|cricket|poker|violao|guitarra"
            + "|bateria|baixo|violino|flauta|teclado|sanfona|cavaquinho|pandeiro|saxofone|trompete|xadrez|futebol"
            + "|volei|basquete|tenis|golfe|handebol");

    static final Set<String> CONDITIONS = set("diabetes|type 1 diabetes|type 2 diabetes|asthma|hypertension"
            + "|high blood pressure|low blood pressure|celiac disease|coeliac disease|celiac|epilepsy|migraine"
            + "|migraines|anxiety|depression|adhd|autism|arthritis|cancer|breast cancer|crohn's|crohn's disease"
            + "|ibs|lupus|multiple sclerosis|fibromyalgia|insomnia|sleep apnea|back pain|chronic pain"
            + "|heart disease|a heart condition|heart condition|kidney disease|hypothyroidism|hyperthyroidism"
            + "|ptsd|ocd|bipolar disorder|long covid|glaucoma|psoriasis|eczema|endometriosis|pcos|gout|anemia"
            + "|osteoporosis|scoliosis|tinnitus|vertigo|hiv|hepatitis|dyslexia|lactose intolerance"
            + "|gluten intolerance|a pacemaker|high cholesterol|sinusitis|rhinitis|bronchitis|dementia"
            + "|alzheimer's|parkinson's|copd|allergies|hay fever|acid reflux|reflux|gastritis|a bad knee"
            + "|a bad back|diabetes tipo 1|diabetes tipo 2|asma|hipertensao|pressao alta|pressao baixa"
            + "|doenca celiaca|epilepsia|enxaqueca|ansiedade|depressao|tdah|autismo|artrite|cancer|fibromialgia"
            + "|insonia|apneia|dor nas costas|dor cronica|colesterol alto|hipotireoidismo|hipertireoidismo"
            + "|rinite|sinusite|bronquite|anemia|osteoporose|escoliose|labirintite|gastrite|refluxo"
            + "|intolerancia a lactose|intolerancia ao gluten|psoriase|endometriose|toc|transtorno bipolar"
            + "|sindrome do panico|panico|hernia de disco|hernia|doenca de crohn|cardiopatia|marca-passo");

    /** Portuguese words naming the thing of "my favorite X", mapped to the English subject key. */
    static final Map<String, String> FAVORITE_KEYS = Map.ofEntries(
            Map.entry("cor", "color"), Map.entry("colour", "color"), Map.entry("comida", "food"),
            Map.entry("prato", "dish"), Map.entry("livro", "book"), Map.entry("filme", "movie"),
            Map.entry("film", "movie"), Map.entry("musica", "song"), Map.entry("cancao", "song"),
            Map.entry("banda", "band"), Map.entry("esporte", "sport"), Map.entry("time", "team"),
            Map.entry("bebida", "drink"), Map.entry("cantor", "singer"), Map.entry("cantora", "singer"),
            Map.entry("serie", "series"), Map.entry("show", "show"), Map.entry("jogo", "game"),
            Map.entry("fruta", "fruit"), Map.entry("lugar", "place"), Map.entry("cidade", "city"),
            Map.entry("estacao", "season"), Map.entry("autor", "author"), Map.entry("autora", "author"),
            Map.entry("ator", "actor"), Map.entry("atriz", "actress"), Map.entry("artista", "artist"),
            Map.entry("flor", "flower"), Map.entry("animal", "animal"), Map.entry("doce", "dessert"),
            Map.entry("sobremesa", "dessert"), Map.entry("genero", "genre"), Map.entry("pais", "country"),
            Map.entry("restaurante", "restaurant"), Map.entry("programa", "show"), Map.entry("hobby", "hobby"),
            Map.entry("passatempo", "hobby"), Map.entry("numero", "number"), Map.entry("dia", "day"),
            Map.entry("materia", "subject"), Map.entry("disciplina", "subject"), Map.entry("podcast", "podcast"));

    static String alternation(Set<String> words) {
        return words.stream()
                .sorted((a, b) -> b.length() != a.length() ? b.length() - a.length() : a.compareTo(b))
                .map(w -> java.util.regex.Pattern.quote(w).replace(" ", "\\E\\s+\\Q"))
                .reduce((a, b) -> a + "|" + b)
                .map(s -> "(?:" + s + ")")
                .orElseThrow();
    }
}
