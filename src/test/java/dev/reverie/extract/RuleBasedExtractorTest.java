package dev.reverie.extract;

import dev.reverie.Cardinality;
import dev.reverie.MemoryKind;
import dev.reverie.Polarity;
import dev.reverie.Role;
import dev.reverie.internal.Terms;
import dev.reverie.spi.ExtractedFact;
import dev.reverie.spi.Subjects;
import dev.reverie.spi.TurnInput;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import static dev.reverie.MemoryKind.EVENT;
import static dev.reverie.MemoryKind.FACT;
import static dev.reverie.MemoryKind.PREFERENCE;
import static dev.reverie.MemoryKind.SKILL;
import static dev.reverie.MemoryKind.STYLE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RuleBasedExtractorTest {

    /** Wednesday 10 May 2023, 13:56 UTC. */
    private static final Instant AT = Instant.parse("2023-05-10T13:56:00Z");
    private static final String EPISODE = "user.episode.*";
    /** The producers of a turn, in the order the seeded fuzz test has always drawn them. */
    private static final Role[] TURN_ROLES = {Role.USER, Role.ASSISTANT, Role.TOOL};

    private final RuleBasedExtractor extractor = new RuleBasedExtractor();

    private record Expected(MemoryKind kind, String subject, String value) {
        boolean matches(ExtractedFact f) {
            boolean subjectOk = subject.equals(EPISODE) ? f.subject().startsWith("user.episode.") : subject.equals(f.subject());
            return kind == f.kind() && subjectOk && norm(value).equals(norm(f.value()));
        }

        @Override
        public String toString() {
            return kind + " " + subject + "=" + value;
        }
    }

    private record Row(String lang, String speaker, String text, List<Expected> expected) {
    }

    private static Expected e(MemoryKind kind, String subject, String value) {
        return new Expected(kind, subject, value);
    }

    private static Row en(String text, Expected... expected) {
        return new Row("en", null, text, List.of(expected));
    }

    private static Row pt(String text, Expected... expected) {
        return new Row("pt", null, text, List.of(expected));
    }

    private static Row named(String lang, String speaker, String text, Expected... expected) {
        return new Row(lang, speaker, text, List.of(expected));
    }

    private static final List<Row> TABLE = List.of(
            // ---- English: identity
            en("My name is Marina.", e(FACT, "user.name", "Marina")),
            en("Hi, I'm Priya!", e(FACT, "user.name", "Priya")),
            en("Please call me Dra. Marina.", e(FACT, "user.address_as", "Dra. Marina")),
            en("You can call me Bob.", e(FACT, "user.address_as", "Bob")),
            en("Don't call me Robert.", e(FACT, "user.address_as", "Robert")),
            en("I go by Liz.", e(FACT, "user.address_as", "Liz")),
            en("Actually, call me Marina.", e(FACT, "user.address_as", "Marina")),
            en("My name is Ana. Actually, it's Anna.", e(FACT, "user.name", "Anna")),
            en("My native language is Portuguese.", e(FACT, "user.native_language", "Portuguese")),
            en("I'm a native Spanish speaker.", e(FACT, "user.native_language", "Spanish")),
            // health
            en("I'm allergic to dipyrone.", e(FACT, "user.allergy", "dipyrone")),
            en("I'm severely allergic to peanuts and shellfish.", e(FACT, "user.allergy", "peanuts"),
                    e(FACT, "user.allergy", "shellfish")),
            en("I have a penicillin allergy.", e(FACT, "user.allergy", "penicillin")),
            en("I'm not allergic to penicillin anymore.", e(FACT, "user.allergy", "penicillin")),
            en("I have diabetes.", e(FACT, "user.health", "diabetes")),
            en("I was diagnosed with asthma last year.", e(FACT, "user.health", "asthma")),
            en("I'm lactose intolerant.", e(FACT, "user.health", "lactose intolerant")),
            en("I no longer eat meat.", e(PREFERENCE, "user.diet", "meat")),
            en("I'm vegetarian.", e(PREFERENCE, "user.diet", "vegetarian")),
            // preferences
            en("I love jazz.", e(PREFERENCE, "user.likes", "jazz")),
            en("I really enjoy hiking and painting.", e(PREFERENCE, "user.likes", "hiking"),
                    e(PREFERENCE, "user.likes", "painting")),
            en("I'm a big fan of Taylor Swift.", e(PREFERENCE, "user.likes", "Taylor Swift")),
            en("I'm keen on counseling.", e(PREFERENCE, "user.likes", "counseling")),
            en("I hate cilantro.", e(PREFERENCE, "user.dislikes", "cilantro")),
            en("I don't like horror movies.", e(PREFERENCE, "user.dislikes", "horror movies")),
            en("I'm not a fan of spicy food.", e(PREFERENCE, "user.dislikes", "spicy food")),
            en("I don't like coffee anymore.", e(PREFERENCE, "user.likes", "coffee")),
            en("My favorite color is blue.", e(PREFERENCE, "user.favorite.color", "blue")),
            en("Jazz is my favorite genre.", e(PREFERENCE, "user.favorite.genre", "Jazz")),
            en("I prefer tea over coffee.", e(PREFERENCE, "user.preference", "tea")),
            en("Please always answer in Portuguese.", e(PREFERENCE, "user.preference", "answers in Portuguese")),
            en("Keep your answers short, please.", e(PREFERENCE, "user.preference", "short answers")),
            // work and places
            en("I work as a nurse.", e(FACT, "user.job", "nurse")),
            en("I'm a software engineer at Google.", e(FACT, "user.job", "software engineer"),
                    e(FACT, "user.employer", "Google")),
            en("I work at Microsoft.", e(FACT, "user.employer", "Microsoft")),
            en("I'm no longer a teacher.", e(FACT, "user.job", "teacher")),
            en("I used to be a teacher.", e(FACT, "user.job", "teacher")),
            en("I quit my job at Google.", e(FACT, "user.employer", "Google")),
            en("I'm retired.", e(FACT, "user.job", "retired")),
            en("I live in Recife.", e(FACT, "user.location", "Recife")),
            en("Actually, I live in Lisbon now.", e(FACT, "user.location", "Lisbon")),
            en("I live in Porto. Sorry, I meant Lisbon.", e(FACT, "user.location", "Lisbon")),
            en("I just moved to Porto.", e(FACT, "user.location", "Porto")),
            en("I don't live in Boston anymore.", e(FACT, "user.location", "Boston")),
            en("I'm from Brazil.", e(FACT, "user.origin", "Brazil")),
            // family, pets
            en("My daughter Ana is seven.", e(FACT, "user.family.daughter", "Ana")),
            en("I have two kids.", e(FACT, "user.family.children", "2")),
            en("My husband Omar is a doctor.", e(FACT, "user.family.husband", "Omar")),
            en("My sister likes jazz.", e(FACT, "user.family.sister", "likes jazz")),
            en("Emma is my niece.", e(FACT, "user.family.niece", "Emma")),
            en("I'm married to Paul.", e(FACT, "user.family.spouse", "Paul"), e(FACT, "user.relationship", "married")),
            en("I have a dog named Max.", e(FACT, "user.pet", "Max")),
            en("My cat Luna sleeps all day.", e(FACT, "user.pet", "Luna")),
            // skills, age
            en("I know Kotlin and Java.", e(SKILL, "user.skill", "Kotlin"), e(SKILL, "user.skill", "Java")),
            en("I speak English and Spanish.", e(SKILL, "user.skill", "English"), e(SKILL, "user.skill", "Spanish")),
            en("I play the guitar.", e(SKILL, "user.skill", "guitar")),
            en("I know how to sew.", e(SKILL, "user.skill", "sew")),
            en("I'm good at cooking.", e(SKILL, "user.skill", "cooking")),
            en("I'm 34 years old.", e(FACT, "user.age", "34")),
            en("My birthday is May 8.", e(FACT, "user.birthday", "May 8")),
            // plans and events
            en("I have a dentist appointment next Friday.",
                    e(EVENT, "user.plan", "I have a dentist appointment next Friday")),
            en("I'm going to visit my parents next weekend.",
                    e(EVENT, "user.plan", "I'm going to visit my parents next weekend")),
            en("I'm planning to learn Japanese.", e(EVENT, "user.plan", "I'm planning to learn Japanese")),
            en("I went to a chess club meetup yesterday.",
                    e(EVENT, "user.event", "I went to a chess club meetup yesterday")),
            en("Last Friday I ran my first marathon!", e(EVENT, "user.event", "Last Friday I ran my first marathon")),
            en("I started a pottery class two weeks ago.",
                    e(EVENT, "user.event", "I started a pottery class two weeks ago")),
            en("My sister and I went to Paris last year.",
                    e(EVENT, "user.event", "My sister and I went to Paris last year")),
            en("I finally finished restoring my grandfather's old bike.",
                    e(EVENT, EPISODE, "I finally finished restoring my grandfather's old bike")),
            named("en", "Priya", "I went to a chess club meetup yesterday and it was so relaxing.",
                    e(EVENT, "user.event", "I went to a chess club meetup yesterday and it was so relaxing")),
            named("en", "Lena", "Yeah, I knitted that wool blanket last year! It's precious to me.",
                    e(EVENT, "user.event", "I knitted that wool blanket last year")),
            named("en", "Priya", "The book club has made me feel valued and given me strength to believe in myself.",
                    e(EVENT, EPISODE, "The book club has made me feel valued and given me strength to believe in myself")),
            named("en", "Lena", "Gardening's a great way to calm my mind and stay active.",
                    e(EVENT, EPISODE, "Gardening's a great way to calm my mind and stay active")),
            named("en", "Priya", "I'm keen on nursing or working in elder care - I'd love to help those "
                            + "with similar needs.",
                    e(PREFERENCE, "user.likes", "nursing"), e(PREFERENCE, "user.likes", "working in elder care"),
                    e(EVENT, EPISODE, "I'd love to help those with similar needs")),
            // nothing
            en("Do you like jazz?"),
            en("Are you allergic to anything?"),
            en("my friend said 'I love jazz'"),
            en("She told me she lives in Paris."),
            en("My brother says he hates cilantro."),
            en("hi"),
            en("ok thanks!"),
            en("haha"),
            en("Thanks, that's really sweet!"),
            en("I love you guys!"),
            en("Call me when you get home."),
            en("I know what you mean."),
            en("I'm so tired."),
            en("Lena loves painting."),
            en("Wow, love that quilt!"),
            en("I'm Brazilian."),
            en("Could you remind me about my meeting tomorrow?"),
            en("I work from home."),
            en("I think he is allergic to nuts."),
            en("If I lived in Paris I would be happy."),
            en("I used to live in Paris."),
            en("I'm going to bed."),

            // ---- Portuguese: identity
            pt("Meu nome é Marina.", e(FACT, "user.name", "Marina")),
            pt("Oi, eu sou a Joana.", e(FACT, "user.name", "Joana")),
            pt("Me chamo Pedro Henrique.", e(FACT, "user.name", "Pedro Henrique")),
            pt("Pode me chamar de Dra. Marina.", e(FACT, "user.address_as", "Dra. Marina")),
            pt("Me chame de Dona Lúcia, por favor.", e(FACT, "user.address_as", "Dona Lúcia")),
            pt("Não me chame de Zé.", e(FACT, "user.address_as", "Zé")),
            pt("Meu nome é Ana. Na verdade, é Anna.", e(FACT, "user.name", "Anna")),
            pt("Minha língua materna é o português.", e(FACT, "user.native_language", "português")),
            // health
            pt("Sou alérgica a dipirona.", e(FACT, "user.allergy", "dipirona")),
            pt("Tenho alergia a amendoim e camarão.", e(FACT, "user.allergy", "amendoim"),
                    e(FACT, "user.allergy", "camarão")),
            pt("Não sou mais alérgico a penicilina.", e(FACT, "user.allergy", "penicilina")),
            pt("Tenho diabetes tipo 2.", e(FACT, "user.health", "diabetes tipo 2")),
            pt("Fui diagnosticada com ansiedade.", e(FACT, "user.health", "ansiedade")),
            pt("Estou grávida.", e(FACT, "user.health", "grávida")),
            pt("Sou vegana.", e(PREFERENCE, "user.diet", "vegana")),
            pt("Não como mais carne.", e(PREFERENCE, "user.diet", "carne")),
            pt("Parei de beber.", e(PREFERENCE, "user.diet", "álcool")),
            // preferences
            pt("Adoro jazz.", e(PREFERENCE, "user.likes", "jazz")),
            pt("Eu gosto muito de praia.", e(PREFERENCE, "user.likes", "praia")),
            pt("Gosto de ler e de cozinhar.", e(PREFERENCE, "user.likes", "ler"), e(PREFERENCE, "user.likes", "cozinhar")),
            pt("Sou fã de Chico Buarque.", e(PREFERENCE, "user.likes", "Chico Buarque")),
            pt("Odeio coentro.", e(PREFERENCE, "user.dislikes", "coentro")),
            pt("Não gosto de filmes de terror.", e(PREFERENCE, "user.dislikes", "filmes de terror")),
            pt("Não gosto mais de café.", e(PREFERENCE, "user.likes", "café")),
            pt("Minha cor favorita é azul.", e(PREFERENCE, "user.favorite.color", "azul")),
            pt("Prefiro chá a café.", e(PREFERENCE, "user.preference", "chá")),
            pt("Responda sempre em português.", e(PREFERENCE, "user.preference", "respostas em português")),
            pt("Prefiro respostas curtas.", e(PREFERENCE, "user.preference", "respostas curtas")),
            // work and places
            pt("Trabalho como enfermeira.", e(FACT, "user.job", "enfermeira")),
            pt("Sou professora.", e(FACT, "user.job", "professora")),
            pt("Sou engenheiro de software na Embraer.", e(FACT, "user.job", "engenheiro de software"),
                    e(FACT, "user.employer", "Embraer")),
            pt("Trabalho na Petrobras.", e(FACT, "user.employer", "Petrobras")),
            pt("Não sou mais professor.", e(FACT, "user.job", "professor")),
            pt("Sou aposentada.", e(FACT, "user.job", "aposentada")),
            pt("Moro em Recife.", e(FACT, "user.location", "Recife")),
            pt("Na verdade, moro em Lisboa agora.", e(FACT, "user.location", "Lisboa")),
            pt("Me mudei para o Porto ano passado.", e(FACT, "user.location", "Porto")),
            pt("Não moro mais em São Paulo.", e(FACT, "user.location", "São Paulo")),
            pt("Sou de Fortaleza.", e(FACT, "user.origin", "Fortaleza")),
            pt("Nasci em Salvador.", e(FACT, "user.origin", "Salvador")),
            // family, pets
            pt("Minha filha Ana tem sete anos.", e(FACT, "user.family.daughter", "Ana")),
            pt("Tenho dois filhos.", e(FACT, "user.family.children", "2")),
            pt("Meu marido João é médico.", e(FACT, "user.family.husband", "João")),
            pt("Minha irmã gosta de jazz.", e(FACT, "user.family.sister", "gosta de jazz")),
            pt("A Clara é minha sobrinha.", e(FACT, "user.family.niece", "Clara")),
            pt("Sou casada com o Paulo.", e(FACT, "user.family.spouse", "Paulo"), e(FACT, "user.relationship", "casada")),
            pt("Tenho um cachorro chamado Rex.", e(FACT, "user.pet", "Rex")),
            pt("Minha gata Mimi dorme o dia todo.", e(FACT, "user.pet", "Mimi")),
            pt("Tenho dois filhos e uma cachorra chamada Mel.", e(FACT, "user.family.children", "2"),
                    e(FACT, "user.pet", "Mel")),
            // skills, age
            pt("Sei programar em Python.", e(SKILL, "user.skill", "Python")),
            pt("Falo inglês e espanhol.", e(SKILL, "user.skill", "inglês"), e(SKILL, "user.skill", "espanhol")),
            pt("Toco violão.", e(SKILL, "user.skill", "violão")),
            pt("Sei nadar.", e(SKILL, "user.skill", "nadar")),
            pt("Tenho 34 anos.", e(FACT, "user.age", "34")),
            pt("Meu aniversário é dia 15 de maio.", e(FACT, "user.birthday", "15 de maio")),
            // plans and events
            pt("Tenho uma consulta amanhã às 10h.", e(EVENT, "user.plan", "Tenho uma consulta amanhã às 10h")),
            pt("Vou viajar para Recife na sexta que vem.", e(EVENT, "user.plan", "Vou viajar para Recife na sexta que vem")),
            pt("Semana que vem vou para Lisboa.", e(EVENT, "user.plan", "Semana que vem vou para Lisboa")),
            pt("Pretendo aprender japonês.", e(EVENT, "user.plan", "Pretendo aprender japonês")),
            pt("Ontem fui ao médico.", e(EVENT, "user.event", "Ontem fui ao médico")),
            pt("Comecei a fazer yoga semana passada.", e(EVENT, "user.event", "Comecei a fazer yoga semana passada")),
            pt("Anteontem terminei meu TCC.", e(EVENT, "user.event", "Anteontem terminei meu TCC")),
            pt("Minha irmã e eu fomos a Paris ano passado.",
                    e(EVENT, "user.event", "Minha irmã e eu fomos a Paris ano passado")),
            pt("Finalmente consegui terminar a reforma da minha casa.",
                    e(EVENT, EPISODE, "Finalmente consegui terminar a reforma da minha casa")),
            named("pt", "Ana", "Fui ao show do Caetano no sábado passado.",
                    e(EVENT, "user.event", "Fui ao show do Caetano no sábado passado")),
            named("pt", "Ana", "O show foi incrível e a banda tocou todas as músicas antigas.",
                    e(EVENT, EPISODE, "O show foi incrível e a banda tocou todas as músicas antigas")),
            // nothing
            pt("Você gosta de jazz?"),
            pt("Você mora em Recife?"),
            pt("Meu amigo falou \"eu adoro jazz\"."),
            pt("Ela me disse que mora em Paris."),
            pt("Meu irmão diz que odeia coentro."),
            pt("oi"),
            pt("ok, obrigado!"),
            pt("kkkkk"),
            pt("Valeu, até mais!"),
            pt("Bom dia!"),
            pt("Te amo!"),
            pt("A Lena adora pintar."),
            pt("Que legal!"),
            pt("Trabalho em casa."),
            pt("Se eu morasse em Paris seria feliz."),
            pt("Acho que ele é alérgico a nozes."),
            pt("Estou tão cansada hoje."),
            pt("Tenho que ir."),
            pt("Pode me lembrar da minha consulta amanhã?"),
            pt("Sou de opinião que isso é errado."),
            pt("Não sei.")
    );


    /**
     * Utterances written after the rules were tuned on {@link #TABLE} and never tuned against: an
     * honest estimate on unseen phrasing. Its floor is lower; the printed numbers are what
     * docs/extraction.md reports.
     */
    private static final List<Row> HOLDOUT = List.of(
            en("Hello! My name's Daniel and I'm new here.", e(FACT, "user.name", "Daniel")),
            en("Everyone calls me Danny.", e(FACT, "user.address_as", "Danny")),
            en("I'm allergic to latex and bee stings.", e(FACT, "user.allergy", "latex"), e(FACT, "user.allergy", "bee stings")),
            en("I have asthma, so I avoid smoky places.", e(FACT, "user.health", "asthma")),
            en("I've been vegan for three years.", e(PREFERENCE, "user.diet", "vegan")),
            en("I absolutely adore Italian food.", e(PREFERENCE, "user.likes", "Italian food")),
            en("I can't stand loud music.", e(PREFERENCE, "user.dislikes", "loud music")),
            en("My favourite book is Dune.", e(PREFERENCE, "user.favorite.book", "Dune")),
            en("I'd rather get answers in bullet points.", e(PREFERENCE, "user.preference", "get answers in bullet points")),
            en("I work as a data analyst for a bank.", e(FACT, "user.job", "data analyst"), e(FACT, "user.employer", "bank")),
            en("I'm a teacher at Lincoln High.", e(FACT, "user.job", "teacher"), e(FACT, "user.employer", "Lincoln High")),
            en("I've lived in Chicago for ten years.", e(FACT, "user.location", "Chicago")),
            en("We moved to Austin last month.", e(FACT, "user.location", "Austin")),
            en("I grew up in Ohio.", e(FACT, "user.origin", "Ohio")),
            en("My son Lucas plays soccer.", e(FACT, "user.family.son", "Lucas")),
            en("I have three grandchildren.", e(FACT, "user.family.grandchildren", "3")),
            en("My mom passed away last year.", e(FACT, "user.family.mother", "passed away")),
            en("We adopted a kitten named Pepper.", e(FACT, "user.pet", "Pepper")),
            en("I know Python and SQL.", e(SKILL, "user.skill", "Python"), e(SKILL, "user.skill", "SQL")),
            en("I can speak a little French.", e(SKILL, "user.skill", "French")),
            en("I'm fluent in German.", e(SKILL, "user.skill", "German")),
            en("I'm flying to Tokyo next Tuesday.", e(EVENT, "user.plan", "I'm flying to Tokyo next Tuesday")),
            en("I have a job interview tomorrow morning.", e(EVENT, "user.plan", "I have a job interview tomorrow morning")),
            en("Two days ago I got my driver's license.", e(EVENT, "user.event", "Two days ago I got my driver's license")),
            en("I visited my grandma last Sunday.", e(EVENT, "user.event", "I visited my grandma last Sunday")),
            en("I'm really into rock climbing these days.", e(PREFERENCE, "user.likes", "rock climbing")),
            en("I stopped drinking coffee.", e(PREFERENCE, "user.diet", "coffee")),
            named("en", "Kofi", "Lost my job as a cashier yesterday, so I'm opening my own bike shop.",
                    e(EVENT, "user.event", "Lost my job as a cashier yesterday, so I'm opening my own bike shop")),
            named("en", "Hana", "I also lost my job at Home Depot this month.",
                    e(EVENT, "user.event", "I also lost my job at Home Depot this month")),
            named("en", "Tomás", "My wife and I went to the farmer's market this weekend.",
                    e(EVENT, "user.event", "My wife and I went to the farmer's market this weekend")),
            named("en", "Ines", "I've been volunteering at an animal clinic.",
                    e(EVENT, EPISODE, "I've been volunteering at an animal clinic")),
            en("Do you know any good restaurants?"),
            en("What's your favorite color?"),
            en("My coworker told me she's allergic to gluten."),
            en("He loves pizza."),
            en("Okay, sounds good!"),
            en("lol that's hilarious"),
            en("I'm fine, thanks."),
            en("If I were rich I'd live in Monaco."),
            en("I'm not sure."),
            en("I hate it when people are late."),
            en("Sorry, I'm late!"),

            pt("Olá, meu nome é Rafael.", e(FACT, "user.name", "Rafael")),
            pt("Prefiro que me chamem de Rafa.", e(FACT, "user.address_as", "Rafa")),
            pt("Tenho alergia a frutos do mar.", e(FACT, "user.allergy", "frutos do mar")),
            pt("Sou hipertensa.", e(FACT, "user.health", "hipertensa")),
            pt("Sofro de enxaqueca.", e(FACT, "user.health", "enxaqueca")),
            pt("Sou vegetariano há cinco anos.", e(PREFERENCE, "user.diet", "vegetariano")),
            pt("Adoro cozinhar nos fins de semana.", e(PREFERENCE, "user.likes", "cozinhar")),
            pt("Detesto acordar cedo.", e(PREFERENCE, "user.dislikes", "acordar cedo")),
            pt("Meu filme favorito é Cidade de Deus.", e(PREFERENCE, "user.favorite.movie", "Cidade de Deus")),
            pt("Trabalho como designer numa agência.", e(FACT, "user.job", "designer")),
            pt("Sou médica no Hospital Sírio-Libanês.", e(FACT, "user.job", "médica"),
                    e(FACT, "user.employer", "Hospital Sírio-Libanês")),
            pt("Moro no Rio de Janeiro.", e(FACT, "user.location", "Rio de Janeiro")),
            pt("Eu e meu marido nos mudamos para Curitiba.", e(FACT, "user.location", "Curitiba")),
            pt("Sou de Belo Horizonte, mas moro em Campinas.", e(FACT, "user.origin", "Belo Horizonte"),
                    e(FACT, "user.location", "Campinas")),
            pt("Meu filho Pedro tem dez anos.", e(FACT, "user.family.son", "Pedro")),
            pt("Tenho três irmãos.", e(FACT, "user.family.siblings", "3")),
            pt("Minha mãe mora em Manaus.", e(FACT, "user.family.mother", "mora em Manaus")),
            pt("Tenho uma gata chamada Frida.", e(FACT, "user.pet", "Frida")),
            pt("Sei falar francês.", e(SKILL, "user.skill", "francês")),
            pt("Programo em Java há dez anos.", e(SKILL, "user.skill", "Java")),
            pt("Toco bateria numa banda.", e(SKILL, "user.skill", "bateria")),
            pt("Vou fazer uma cirurgia no joelho semana que vem.",
                    e(EVENT, "user.plan", "Vou fazer uma cirurgia no joelho semana que vem")),
            pt("Tenho prova de cálculo amanhã.", e(EVENT, "user.plan", "Tenho prova de cálculo amanhã")),
            pt("Semana passada comecei a academia.", e(EVENT, "user.event", "Semana passada comecei a academia")),
            pt("Há dois dias perdi meu celular.", e(EVENT, "user.event", "Há dois dias perdi meu celular")),
            pt("Curto muito rock nacional.", e(PREFERENCE, "user.likes", "rock nacional")),
            pt("Não bebo mais refrigerante.", e(PREFERENCE, "user.diet", "refrigerante")),
            pt("Gosto de correr de manhã.", e(PREFERENCE, "user.likes", "correr")),
            named("pt", "Ana", "Perdi meu emprego ontem, então vou abrir meu próprio negócio.",
                    e(EVENT, "user.plan", "Perdi meu emprego ontem, então vou abrir meu próprio negócio")),
            named("pt", "Ana", "A viagem para a Bahia foi maravilhosa, as praias eram lindas demais.",
                    e(EVENT, EPISODE, "A viagem para a Bahia foi maravilhosa, as praias eram lindas demais")),
            pt("Quais são seus planos?"),
            pt("Qual é o seu nome?"),
            pt("Minha colega disse que é alérgica a glúten."),
            pt("Ele adora pizza."),
            pt("Beleza, combinado!"),
            pt("hahaha que engraçado"),
            pt("Tô bem, obrigada."),
            pt("Se eu fosse rica, moraria em Paris."),
            pt("Não tenho certeza."),
            pt("Estou aprendendo a tocar piano."),
            pt("Odeio quando chove."),
            pt("Desculpa a demora!")
    );

    @Test
    void table_precision_and_recall_are_at_least_ninety_percent() {
        long englishRows = TABLE.stream().filter(r -> r.lang.equals("en")).count();
        long portugueseRows = TABLE.stream().filter(r -> r.lang.equals("pt")).count();
        assertThat(englishRows).isGreaterThanOrEqualTo(80);
        assertThat(portugueseRows).isGreaterThanOrEqualTo(80);

        double[] pr = score("table", TABLE);
        assertThat(pr[0]).as("table precision").isGreaterThanOrEqualTo(0.9);
        assertThat(pr[1]).as("table recall").isGreaterThanOrEqualTo(0.9);
    }

    @Test
    void holdout_precision_and_recall_stay_above_a_floor() {
        assertThat(HOLDOUT.stream().filter(r -> r.lang.equals("en")).count()).isGreaterThanOrEqualTo(40);
        assertThat(HOLDOUT.stream().filter(r -> r.lang.equals("pt")).count()).isGreaterThanOrEqualTo(40);
        double[] pr = score("holdout", HOLDOUT);
        assertThat(pr[0]).as("holdout precision").isGreaterThanOrEqualTo(0.75);
        assertThat(pr[1]).as("holdout recall").isGreaterThanOrEqualTo(0.75);
    }

    /** Precision and recall of kind+subject+value over {@code rows}, printing every miss. */
    private double[] score(String name, List<Row> rows) {
        long englishRows = rows.stream().filter(r -> r.lang.equals("en")).count();
        long portugueseRows = rows.stream().filter(r -> r.lang.equals("pt")).count();
        int predicted = 0;
        int correct = 0;
        int expected = 0;
        int found = 0;
        List<String> misses = new ArrayList<>();
        for (Row row : rows) {
            List<ExtractedFact> facts = asUser(
                    extractor.extract(new TurnInput(Role.USER, row.text, row.speaker, "t1", AT)), row.speaker);
            boolean expectsEpisode = row.expected.stream().anyMatch(x -> x.subject.equals(EPISODE));
            List<ExtractedFact> counted = facts.stream()
                    .filter(f -> f.kind() != MemoryKind.STYLE)
                    .filter(f -> expectsEpisode || !f.subject().startsWith("user.episode."))
                    .collect(Collectors.toList());
            List<Expected> open = new ArrayList<>(row.expected);
            for (ExtractedFact f : counted) {
                predicted++;
                Expected hit = open.stream().filter(x -> x.matches(f)).findFirst().orElse(null);
                if (hit != null) {
                    correct++;
                    open.remove(hit);
                } else {
                    misses.add("[" + row.lang + "] unexpected " + f.kind() + " " + f.subject() + "=" + f.value()
                            + "   for: " + row.text);
                }
            }
            expected += row.expected.size();
            found += row.expected.size() - open.size();
            for (Expected x : open) {
                misses.add("[" + row.lang + "] missed " + x + "   for: " + row.text);
            }
        }
        double precision = predicted == 0 ? 0 : (double) correct / predicted;
        double recall = expected == 0 ? 0 : (double) found / expected;
        System.out.printf("RuleBasedExtractor %s: %d rows (%d English, %d Portuguese), %d expected facts, "
                        + "%d predicted; precision %.3f, recall %.3f%n", name, rows.size(), englishRows, portugueseRows,
                expected, predicted, precision, recall);
        misses.forEach(m -> System.out.println("  " + m));
        return new double[] {precision, recall};
    }

    // ------------------------------------------------------------------------------------------

    @Test
    void negations_are_negative() {
        assertThat(only("I no longer eat meat.", "user.diet").polarity()).isEqualTo(Polarity.NEGATIVE);
        assertThat(only("Não gosto mais de café.", "user.likes").polarity()).isEqualTo(Polarity.NEGATIVE);
        assertThat(only("I'm not allergic to penicillin anymore.", "user.allergy").polarity())
                .isEqualTo(Polarity.NEGATIVE);
        assertThat(only("Não sou mais alérgica a dipirona.", "user.allergy").polarity()).isEqualTo(Polarity.NEGATIVE);
        assertThat(only("I don't live in Boston anymore.", "user.location").polarity()).isEqualTo(Polarity.NEGATIVE);
        assertThat(only("Não me chame de Zé.", "user.address_as").polarity()).isEqualTo(Polarity.NEGATIVE);
        assertThat(only("I love jazz.", "user.likes").polarity()).isEqualTo(Polarity.POSITIVE);
        assertThat(only("I don't like horror movies.", "user.dislikes").polarity()).isEqualTo(Polarity.POSITIVE);
    }

    @Test
    void relative_dates_resolve_against_the_turn_time_in_utc() {
        // the turn is on Wednesday 2023-05-10
        assertThat(eventDay("I went to a chess club meetup yesterday.")).isEqualTo("2023-05-09");
        assertThat(eventDay("Ontem fui ao médico.")).isEqualTo("2023-05-09");
        assertThat(eventDay("I have a dentist appointment tomorrow.")).isEqualTo("2023-05-11");
        assertThat(eventDay("Tenho uma consulta amanhã às 10h.")).isEqualTo("2023-05-11");
        assertThat(eventDay("I have a dentist appointment next Friday.")).isEqualTo("2023-05-12");
        assertThat(eventDay("Vou viajar para Recife na sexta que vem.")).isEqualTo("2023-05-12");
        assertThat(eventDay("Semana que vem vou para Lisboa.")).isEqualTo("2023-05-17");
        assertThat(eventDay("I started a pottery class last week.")).isEqualTo("2023-05-03");
        assertThat(eventDay("Last Friday I ran my first marathon!")).isEqualTo("2023-05-05");
        assertThat(eventDay("We went camping last weekend with the kids.")).isEqualTo("2023-05-06");
        assertThat(eventDay("I started a pottery class two weeks ago.")).isEqualTo("2023-04-26");
        assertThat(eventDay("Comecei a fazer yoga há três dias.")).isEqualTo("2023-05-07");
        assertThat(eventDay("Anteontem terminei meu TCC.")).isEqualTo("2023-05-08");
        assertThat(eventDay("I'm gonna adopt a puppy next month.")).isEqualTo("2023-06-10");
        assertThat(eventDay("I moved my things on May 2, 2023 with my brother.")).isEqualTo("2023-05-02");
        assertThat(eventDay("Fiz a prova em 3 de abril de 2023 com a turma.")).isEqualTo("2023-04-03");
        assertThat(eventDay("Marquei a cirurgia para 20/06/2023 no hospital.")).isEqualTo("2023-06-20");
    }

    @Test
    void a_dated_event_keeps_the_speaker_and_the_words_of_the_sentence() {
        List<ExtractedFact> facts = extractor.extract(new TurnInput(Role.USER,
                "I went to a chess club meetup yesterday and it was so relaxing.", "Priya", "D1:3", AT));
        ExtractedFact event = facts.stream().filter(f -> f.subject().equals("priya.event")).findFirst().orElseThrow();
        assertThat(event.text()).isEqualTo("Priya: I went to a chess club meetup yesterday and it was so relaxing.");
        assertThat(event.kind()).isEqualTo(EVENT);
        assertThat(event.cardinality()).isEqualTo(Cardinality.MULTI);
    }

    @Test
    void typed_fact_text_reads_naturally_with_the_speaker_name() {
        ExtractedFact like = extractor.extract(new TurnInput(Role.USER, "I love jazz.", "Priya", "t", AT))
                .stream().filter(f -> f.subject().equals("priya.likes")).findFirst().orElseThrow();
        assertThat(like.text()).isEqualTo("Priya loves jazz");
        ExtractedFact allergy = only("I'm allergic to dipyrone.", "user.allergy");
        assertThat(allergy.text()).isEqualTo("User is allergic to dipyrone");
        assertThat(allergy.cardinality()).isEqualTo(Cardinality.MULTI);
        assertThat(only("My name is Marina.", "user.name").cardinality()).isEqualTo(Cardinality.SINGLE);
    }

    @Test
    void episodes_have_a_stable_short_subject() {
        String text = "The book club has made me feel valued and given me strength to believe in myself.";
        ExtractedFact a = episode(text, "Priya");
        ExtractedFact b = episode("  the BOOK club has made me feel valued, and given me strength to believe in myself!",
                "Priya");
        assertThat(a.subject()).matches("priya\\.episode\\.[0-9a-f]{10}");
        assertThat(b.subject()).isEqualTo(a.subject());
        assertThat(a.confidence()).isLessThan(0.6);
        assertThat(a.text()).startsWith("Priya: ");
    }

    /**
     * A like verb inside a relative clause ("the song I love was ...", "what I like to hear") or
     * followed by a clause ("I love how ...") names no thing the speaker likes; the parts of such a
     * clause are no values either, nor is a phrase cut off before its object ("escaping into").
     */
    @Test
    void likes_inside_or_before_a_clause_are_not_preferences() {
        List<String> wrong = new ArrayList<>();
        for (String text : List.of(
                "The song I love was playing on the radio this morning.",
                "Anything we enjoy becomes a habit sooner or later.",
                "The neighbours I like have moved to another town.",
                "Cooking for the people I love makes the whole week better.",
                "That is exactly what I love to see!",
                "Honestly, that's what I like to hear.",
                "I love how you planned the route and the budget.",
                "I like how it mixes the old style and the new colors.",
                "I love escaping into that world every night.",
                "I love where we ended up after the storm and the detour.",
                "A música que eu adoro estava tocando no rádio.",
                "A música que eu adoro é linda.",
                "Eu adoro quando a banda toca e o público canta.")) {
            List<String> likes = extractor.extract(new TurnInput(Role.USER, text, "Priya", "t", AT)).stream()
                    .filter(f -> f.subject().endsWith(".likes") || f.subject().endsWith(".dislikes"))
                    .map(ExtractedFact::value).collect(Collectors.toList());
            if (!likes.isEmpty()) {
                wrong.add(text + " -> " + likes);
            }
        }
        assertThat(wrong).as("sentences that gave a preference").isEmpty();
    }

    @Test
    void a_like_list_stops_where_a_new_clause_starts() {
        assertThat(likes("I'm passionate about baking and it'd be lovely to open a bakery.")).containsExactly("baking");
        assertThat(likes("I love sailing and they're going to teach me to dive.")).containsExactly("sailing");
        assertThat(likes("I love hiking and swimming in the ocean.")).containsExactly("hiking", "swimming in the ocean");
        assertThat(likes("Those are the books I love, and I also love jazz.")).containsExactly("jazz");
        assertThat(likes("I love to paint.")).containsExactly("to paint");
    }

    /** What the clause rules must leave alone: nouns that look like verbs, fillers, phrases ending in a preposition. */
    @Test
    void the_clause_rules_keep_real_values() {
        assertThat(likes("That's why I love sailing.")).containsExactly("sailing");
        assertThat(likes("It reminds me why I'm so passionate about baking.")).containsExactly("baking");
        assertThat(likes("I love the sounds of the rain.")).containsExactly("sounds of the rain");
        assertThat(likes("I enjoy a lot of sports and chess.")).containsExactly("chess");
        assertThat(likes("I love jazz and have two cats.")).containsExactly("jazz");
        assertThat(likes("I love to have friends over.")).containsExactly("to have friends over");
        assertThat(only("I'm allergic to peanuts and have to carry an EpiPen.", "user.allergy").value())
                .isEqualTo("peanuts");
        assertThat(extractor.extract(new TurnInput(Role.USER, "The pollen I'm allergic to is really bad.", null, "t",
                AT))).noneMatch(f -> f.subject().equals("user.allergy"));
        assertThat(only("My favorite band is The Who.", "user.favorite.band").value()).isEqualTo("Who");
        assertThat(only("Descobri que eu adoro cozinhar.", "user.likes").value()).isEqualTo("cozinhar");
        assertThat(only("The only thing I'm allergic to is penicillin.", "user.allergy").value()).isEqualTo("penicillin");
        assertThat(likes("I like having someone to talk to.")).containsExactly("having someone to talk to");
        assertThat(only("Made in Abyss is my favorite anime.", "user.favorite.anime").value()).isEqualTo("Made in Abyss");
        assertThat(only("I work at Booking.com.", "user.employer").value()).isEqualTo("Booking.com");
    }

    /** A like that takes "to" is a verb phrase: it keeps its "to" in value and text, never reads as a noun. */
    @Test
    void an_infinitive_like_keeps_its_to() {
        ExtractedFact help = only("I love to help, so just shoot me a question anytime you need!", "user.likes");
        assertThat(help.value()).isEqualTo("to help");
        assertThat(help.text()).startsWith("User loves to help");
        assertThat(likes("I like to cook and bake.")).containsExactly("to cook", "to bake");
        // after a verb with its object, the list goes on with objects of that verb
        assertThat(likes("I love to eat sushi and ramen.")).containsExactly("to eat sushi", "ramen");
        ExtractedFact swim = only("I don't like to swim.", "user.dislikes");
        assertThat(swim.value()).isEqualTo("to swim");
        assertThat(swim.text()).startsWith("User doesn't like to swim");
        // the verb is kept whole ("do" is no article here), and a list after a verb phrase holds objects
        assertThat(likes("I love to do yoga and pilates.")).containsExactly("to do yoga", "pilates");
        assertThat(likes("I like to do it myself.")).isEmpty();
        assertThat(likes("I love to see it!")).isEmpty();
        assertThat(likes("I like to do the dishes.")).containsExactly("to do the dishes");
        // the sentence's own verb after the infinitive: a relative clause, no like
        assertThat(likes("The thing I love to do is travel.")).isEmpty();
        assertThat(likes("The food I like to eat is pasta.")).isEmpty();
        assertThat(likes("I love to the moon and back.")).isEmpty();
        // an item the list refuses does not make the next one the infinitive
        assertThat(likes("I love to spend every single weekend out on the big lake in the north of the state and "
                + "fishing.")).containsExactly("fishing");
        // "to" that belongs to the verb before the value is no infinitive
        assertThat(likes("I'm addicted to coffee.")).containsExactly("coffee");
        assertThat(likes("I love going to the beach.")).containsExactly("going to the beach");
    }

    /**
     * A value in the speaker's own first person ("my kids", "pushing myself") is quoted in the fact's
     * third-person text, so "my" reads as the speaker's, never as the reader's; a reflexive that is the
     * object of the value's verb stays, while an emphatic one after a thing is dropped as before.
     */
    @Test
    void a_first_person_value_is_quoted_and_keeps_its_reflexive_object() {
        ExtractedFact kids = only("I love spending time with my kids.", "user.likes");
        assertThat(kids.value()).isEqualTo("spending time with my kids");
        assertThat(kids.text()).isEqualTo("User loves \"spending time with my kids\"");
        ExtractedFact push = only("I love pushing myself.", "user.likes");
        assertThat(push.value()).isEqualTo("pushing myself");
        assertThat(push.text()).startsWith("User loves \"pushing myself\"");
        assertThat(likes("It's why I enjoy playing and pushing myself.")).containsExactly("playing", "pushing myself");
        assertThat(likes("I like to challenge myself.")).containsExactly("to challenge myself");
        assertThat(likes("We love going on trips with our family.")).containsExactly("going on trips with our family");
        ExtractedFact pt = only("Eu adoro passar tempo com meus filhos.", "user.likes");
        assertThat(pt.text()).isEqualTo("Usuário adora \"passar tempo com meus filhos\"");
        // an emphatic "myself" after a thing says nothing about it; a third-person value is not quoted
        ExtractedFact jazz = only("I love jazz myself.", "user.likes");
        assertThat(jazz.value()).isEqualTo("jazz");
        assertThat(jazz.text()).isEqualTo("User loves jazz");
        assertThat(likes("I love playing jazz myself.")).containsExactly("playing jazz");
        assertThat(likes("I like pudding myself.")).containsExactly("pudding");
        assertThat(likes("I love doing everything myself.")).containsExactly("doing everything");
        assertThat(likes("I like to do it myself.")).isEmpty();
        // a title in capitals is no first person
        assertThat(only("My favorite book is My Antonia.", "user.favorite.book").text())
                .isEqualTo("User's favorite book is My Antonia");
    }

    /** An allergy to something the speaker owns is a safety fact like any other, kept with its owner. */
    @Test
    void an_allergy_to_ones_own_thing_is_kept() {
        ExtractedFact pills = only("I'm allergic to my new blood pressure medication.", "user.allergy");
        assertThat(pills.value()).isEqualTo("my new blood pressure medication");
        assertThat(pills.polarity()).isEqualTo(Polarity.POSITIVE);
        assertThat(pills.text()).isEqualTo("User is allergic to \"my new blood pressure medication\"");
        assertThat(only("I'm not allergic to my cat anymore.", "user.allergy").polarity())
                .isEqualTo(Polarity.NEGATIVE);
        assertThat(only("Sou alérgica ao meu remédio novo.", "user.allergy").value()).isEqualTo("meu remédio novo");
        // a possessive alone owns nothing; a clause after "and" is no allergen
        noFact("user.allergy", "I'm allergic to my.");
        assertThat(only("I'm allergic to penicillin and my sister is too.", "user.allergy").value())
                .isEqualTo("penicillin");
    }

    /**
     * "I work at" inside a relative clause names no employer: what follows its preposition is the
     * sentence's own predicate, and a single-valued employer must never be superseded by it.
     */
    @Test
    void a_relative_clause_names_no_employer() {
        noFact("user.employer", "The shop I work at closes early on Sundays.",
                "The company that I work for just got acquired.", "Yeah, the place I work at is hiring.");
        // a verb before "I work" makes it the main clause's object; a time or a joint subject is no head
        assertThat(only("The thing is I work for Google.", "user.employer").value()).isEqualTo("Google");
        assertThat(only("These days I work at Google.", "user.employer").value()).isEqualTo("Google");
        assertThat(only("This year I work for Google.", "user.employer").value()).isEqualTo("Google");
        assertThat(only("My wife and I work at Google.", "user.employer").value()).isEqualTo("Google");
        assertThat(only("Actually I work for Google now.", "user.employer").value()).isEqualTo("Google");
    }

    /** A hedged fact keeps its sentence, so the doubt reaches the model with the fact, and is less sure. */
    @Test
    void a_hedged_fact_quotes_its_doubt() {
        ExtractedFact doubt = only("I don't know if I'm allergic to penicillin.", "user.allergy");
        assertThat(doubt.text()).isEqualTo("User is allergic to penicillin (\"I don't know if I'm allergic to penicillin.\")");
        ExtractedFact sure = only("I'm allergic to penicillin.", "user.allergy");
        assertThat(sure.text()).isEqualTo("User is allergic to penicillin");
        assertThat(doubt.confidence()).isLessThan(sure.confidence());
        assertThat(only("I wonder if I'm allergic to penicillin.", "user.allergy").confidence())
                .isLessThan(sure.confidence());
        assertThat(only("Acho que moro em Lisboa agora.", "user.location").text()).endsWith("(\"Acho que moro em Lisboa agora.\")");
        // a correction replaces the value, and the quote of the sentence that said the old one goes
        assertThat(only("I think I live in Porto. Actually, Lisbon.", "user.location").text())
                .isEqualTo("User lives in Lisbon");
        assertThat(only("I live in Porto (\"the city\"). Actually, Lisbon.", "user.location").text())
                .isEqualTo("User lives in Lisbon");
    }

    /** How to address the speaker is a name: a lower-case word after "I go by" is not one. */
    @Test
    void an_address_is_a_capitalised_name_in_english() {
        noFact("user.address_as", "The name I go by online is Shadow.");
        assertThat(only("I go by Liz online.", "user.address_as").value()).isEqualTo("Liz");
        assertThat(only("Prefiro ser chamada de bia.", "user.address_as").value()).isEqualTo("bia");
        // the other forms name an address in lower case too, and a lower-case writer's "go by" does
        assertThat(only("my nickname is bia", "user.address_as").value()).isEqualTo("bia");
        assertThat(only("I prefer to be called sam.", "user.address_as").value()).isEqualTo("sam");
        assertThat(only("i go by jj", "user.address_as").value()).isEqualTo("jj");
        noFact("user.address_as", "i go by bus to work", "the name i go by online is shadow");
    }

    /** Relationship status is one single-valued fact: a later status replaces the earlier one. */
    @Test
    void relationship_status_is_single_valued() {
        ExtractedFact single = only("I'm single again.", "user.relationship");
        assertThat(single.value()).isEqualTo("single");
        assertThat(single.cardinality()).isEqualTo(Cardinality.SINGLE);
        assertThat(single.text()).startsWith("User is single");
        assertThat(only("I got engaged last weekend!", "user.relationship").value()).isEqualTo("engaged");
        assertThat(only("I'm happily married.", "user.relationship").value()).isEqualTo("married");
        ExtractedFact over = only("I'm no longer married.", "user.relationship");
        assertThat(over.polarity()).isEqualTo(Polarity.NEGATIVE);
        assertThat(over.text()).startsWith("User is not married");
        assertThat(only("I'm married to my wonderful husband.", "user.relationship").value()).isEqualTo("married");
        assertThat(only("Sou solteira.", "user.relationship").value()).isEqualTo("solteira");
        assertThat(only("Me divorciei ano passado.", "user.relationship").value()).isEqualTo("divorciado(a)");
        assertThat(only("Não me casei.", "user.relationship").polarity()).isEqualTo(Polarity.NEGATIVE);
        assertThat(only("Eu não fiquei noiva.", "user.relationship").polarity()).isEqualTo(Polarity.NEGATIVE);
        assertThat(only("Me separei do João.", "user.relationship").value()).isEqualTo("separado(a)");
        // a condition in another clause does not hold the status back
        assertThat(only("I got divorced when I was 30 and I'm single now.", "user.relationship").value())
                .isEqualTo("single");
        assertThat(only("i'm married to paul", "user.relationship").value()).isEqualTo("married");
        // a turn too short to tell its language still gets the template of the words it matched
        assertThat(only("Tô solteiro.", "user.relationship").text()).endsWith(" está solteiro");
        assertThat(only("I'm engaged to Mark!", "user.relationship").value()).isEqualTo("engaged");
        // the last status of a sentence stands
        assertThat(only("I got divorced last year but I'm engaged again.", "user.relationship").value())
                .isEqualTo("engaged");
        assertThat(only("Eu me casei e depois me divorciei.", "user.relationship").value())
                .isEqualTo("divorciado(a)");
        // a status of a thing, or one not yet true, is none
        noFact("user.relationship", "I'm married to my job, lol.", "I'm single-handedly running the shop.",
                "I'm engaged in a lawsuit with my landlord.", "I'm so engaged with this book.",
                "I'm separated from my team at work.", "I'm divorced from reality lol",
                "I'm in a relationship with my work.", "When I'm married I want three kids.",
                "Once I'm divorced I'll move.", "I hope I'm engaged by next year.", "Me separei do meu sócio.",
                "Sou casada com o meu trabalho.", "Estou separada da minha equipe.", "Me separei dos meus amigos.",
                "Eu quase me casei.", "I'm really engaged by this book.", "I'm engaged in a love triangle.",
                "I'm separated by 3000 miles from my wife.");
    }

    /** A time after "born in" or "live in" is no place, and must not replace where someone is from. */
    @Test
    void a_date_is_no_place() {
        noFact(Set.of("user.origin", "user.location"), "I was born in 1990.", "I was born in May.",
                "I was born in May 1990.",
                "Nasci em maio de 1990.", "I was born in the 90s.", "I was born in the 80's.",
                "I was born in 1990 or 1991.", "I was born in the 21st century.", "I was born in Christmas 1990.",
                "I was born in 1990 in");
        assertThat(only("I was born in Lisbon in 1990.", "user.origin").value()).isEqualTo("Lisbon");
        assertThat(only("I was born in 1990 in Lisbon.", "user.origin").value()).isEqualTo("Lisbon");
        assertThat(only("I live at 221B Baker Street.", "user.location").value()).isEqualTo("221B Baker Street");
        // a city named like a holiday is a place: only a word of a time with a number or month is a time
        assertThat(only("Eu moro em Natal.", "user.location").value()).isEqualTo("Natal");
        assertThat(only("I live in Natal, Brazil.", "user.location").value()).isEqualTo("Natal");
    }

    /** A pet that died and a job that was lost end: NEGATIVE facts the dream cycle retires the old ones by. */
    @Test
    void a_lost_pet_or_job_is_a_negative_fact() {
        ExtractedFact luna = only("My cat Luna passed away.", "user.pet");
        assertThat(luna.value()).isEqualTo("Luna");
        assertThat(luna.polarity()).isEqualTo(Polarity.NEGATIVE);
        assertThat(luna.text()).startsWith("User no longer has a cat named Luna");
        assertThat(only("My dog died last week.", "user.pet").polarity()).isEqualTo(Polarity.NEGATIVE);
        assertThat(only("Meu gato Miau morreu.", "user.pet").polarity()).isEqualTo(Polarity.NEGATIVE);
        assertThat(only("We lost our old dog last year.", "user.pet").polarity()).isEqualTo(Polarity.NEGATIVE);
        // a negation before the pet, or a name that reads as a modal, does not hold the death back
        for (String text : List.of("I can't believe my dog died.", "I'm afraid my dog Max passed away.",
                "My dog Will died.", "My cat May passed away.", "Não acredito que meu cachorro morreu.",
                "I can't believe I lost my dog.")) {
            assertThat(facts(text))
                    .as(text).filteredOn(f -> f.subject().equals("user.pet")).isNotEmpty()
                    .allMatch(f -> f.polarity() == Polarity.NEGATIVE);
        }
        // a death or loss of something else, or one that did not happen, leaves the pet alive
        for (String text : List.of("My dog loves the park.", "I lost my keys while walking my dog.",
                "I have a dog named Max, he almost died last week.", "We got a puppy after our old dog died.",
                "My dog loves the park where my grandpa died.", "I lost my job so I adopted a cat.",
                "Meu cachorro quase morreu.", "My dog ran away but we found him.", "My dog hasn't died.",
                "My dog won't be put down.", "I'd be devastated if my dog died.", "Meu cachorro nunca morreu.",
                "I almost lost my dog.", "Quase perdi minha gata.", "I lost my dog's leash.",
                "My dog's owner died.", "My dog put down his toy.")) {
            assertThat(facts(text))
                    .as(text).filteredOn(f -> f.subject().equals("user.pet")).isNotEmpty()
                    .allMatch(f -> f.polarity() == Polarity.POSITIVE);
        }
        for (String text : List.of("I got fired from Amazon.", "I lost my job at Amazon.",
                "I was laid off from Amazon in March.")) {
            ExtractedFact job = only(text, "user.employer");
            assertThat(job.value()).as(text).isEqualTo("Amazon");
            assertThat(job.polarity()).as(text).isEqualTo(Polarity.NEGATIVE);
        }
        // after "lost my job" or "fired" only a name is an employer
        noFact("user.employer", "I was let go at the end of the month.", "I was let go by the new manager.",
                "I lost my job at 50.", "I lost my job with no warning.", "I was laid off from work yesterday.",
                "I got fired at my last job.");
        // "anymore" ends its own statement only, and a later statement names an employer only with a name
        assertThat(facts("I work at Meta now, I don't work at Google anymore."))
                .filteredOn(f -> f.subject().equals("user.employer"))
                .extracting(ExtractedFact::value, ExtractedFact::polarity)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("Meta", Polarity.POSITIVE),
                        org.assertj.core.groups.Tuple.tuple("Google", Polarity.NEGATIVE));
        for (String text : List.of("I work at Google, where I work for the ads team.",
                "I work for Google but I never work for free.")) {
            assertThat(facts(text))
                    .as(text).filteredOn(f -> f.subject().equals("user.employer"))
                    .extracting(ExtractedFact::value).containsExactly("Google");
        }
        assertThat(only("I've been laid off from Google.", "user.employer").polarity()).isEqualTo(Polarity.NEGATIVE);
        // each statement of the sentence counts, in order
        assertThat(facts("I was fired from Google but now I work at Meta."))
                .filteredOn(f -> f.subject().equals("user.employer"))
                .extracting(ExtractedFact::value, ExtractedFact::polarity)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("Google", Polarity.NEGATIVE),
                        org.assertj.core.groups.Tuple.tuple("Meta", Polarity.POSITIVE));
    }

    /** "Of all time" says how much, not what: the favourite's key is the thing itself, so a later one replaces it. */
    @Test
    void a_favorites_emphasis_is_not_its_key() {
        ExtractedFact movie = only("My favorite movie of all time is Inception.", "user.favorite.movie");
        assertThat(movie.value()).isEqualTo("Inception");
        assertThat(movie.text()).startsWith("User's favorite movie of all time is Inception");
        assertThat(only("My favorite movie is Alien.", "user.favorite.movie").value()).isEqualTo("Alien");
        // the emphasised and the plain favourite share one key: the later one of a turn replaces the earlier
        assertThat(facts("My favorite movie of all time is Inception. Actually, my favorite movie is Alien."))
                .filteredOn(f -> f.subject().equals("user.favorite.movie")).extracting(ExtractedFact::value)
                .containsExactly("Alien");
        assertThat(facts("My favorite ever is pizza."))
                .noneMatch(f -> f.subject().startsWith("user.favorite."));
    }

    /** After a common noun with an article, the place is the named one it is in. */
    @Test
    void a_place_within_a_common_noun_is_the_named_one() {
        assertThat(only("I'm from a small town in Ohio.", "user.origin").value()).isEqualTo("Ohio");
        assertThat(only("I live in a small apartment in Brooklyn.", "user.location").value()).isEqualTo("Brooklyn");
        assertThat(only("i'm from a small town in ohio", "user.origin").value()).isEqualTo("ohio");
        noFact(Set.of("user.origin", "user.location"), "I'm from work in Boston.", "I live in fear in my house.",
                "I live in a van down by the river.", "i live in a van down by the river");
    }

    /** Permanent facts are pinned into every context: a quantifier is no allergen, a verb no name. */
    @Test
    void no_permanent_fact_from_a_quantifier_or_a_verb() {
        noFact("user.allergy", "I don't have any allergies.", "I have some allergies.", "I'm not allergic to anything.",
                "Não tenho alergia a nada.");
        noFact("user.name", "My name's been on my mind.");
        assertThat(only("my name is ana", "user.name").value()).isEqualTo("ana");
        assertThat(only("My name is ana.", "user.name").value()).isEqualTo("ana");
        noFact("user.name", "my name's been on my mind lately");
        noFact("user.allergy", "I don't have any known allergies.", "I have several allergies.",
                "I have a food allergy.", "I have seasonal allergies.");
        assertThat(only("I have any nut allergies.", "user.allergy").value()).isEqualTo("nut");
        assertThat(only("I'm allergic to food coloring.", "user.allergy").value()).isEqualTo("food coloring");
        assertThat(only("I have a penicillin allergy.", "user.allergy").value()).isEqualTo("penicillin");
    }

    /** A skill the speaker lacks reads as English: the negative keeps the rule's verb. */
    @Test
    void a_negative_skill_keeps_its_verb() {
        assertThat(only("I can't speak French at all.", "user.skill").text()).startsWith("User does not speak French");
        assertThat(only("I don't play the guitar.", "user.skill").text()).startsWith("User does not play guitar");
        assertThat(only("I can't swim.", "user.skill").text()).isEqualTo("User cannot swim");
        assertThat(only("I don't know Python.", "user.skill").text()).isEqualTo("User does not know Python");
        assertThat(only("Não sei nadar.", "user.skill").text()).isEqualTo("Usuário não sabe nadar");
    }

    @Test
    void a_new_clause_after_and_ends_a_value() {
        assertThat(only("My uncle retired in March and it's been quiet since.", "user.family.uncle").value())
                .isEqualTo("retired in March");
        assertThat(only("I'm allergic to walnuts and they are in everything.", "user.allergy").value())
                .isEqualTo("walnuts");
    }

    @Test
    void a_possessive_ends_a_relatives_name() {
        assertThat(only("These photos are from my daughter Lina's graduation.", "user.family.daughter").value())
                .isEqualTo("Lina");
        assertThat(only("We stayed at my brother Jean Luc’s flat.", "user.family.brother").value())
                .isEqualTo("Jean Luc");
        noFact("user.name", "I'm Marina's mom.");
        assertThat(facts("You can call me Lina's mom."))
                .noneMatch(f -> f.value().equals("Lina"));
    }

    private List<String> likes(String text) {
        return facts(text).stream()
                .filter(f -> f.subject().equals("user.likes")).map(ExtractedFact::value).collect(Collectors.toList());
    }

    @Test
    void pasted_emails_articles_quotes_and_code_yield_no_fact_about_the_speaker() {
        List<String> pasted = List.of(
                "Can you help me reply to this email?\n\nHi Ana,\nI'm John, I live in Berlin. I'm allergic to peanuts."
                        + "\nBest, John",
                "Summarize this article: My name is Peter Smith. I am a vegetarian and I live in Paris.",
                "Translate this: I live in Oslo and I'm allergic to latex.",
                "Here is the text my friend sent:\nI live in Oslo and I'm allergic to latex.",
                "> I live in Oslo and I'm allergic to latex.",
                "```\nI live in Oslo and I'm allergic to latex.\n```",
                "From: rita@example.com\nSubject: visit\n\nI live in Oslo and I'm allergic to latex.",
                "Thanks!\nOn Mon, 3 Jun 2024 at 10:00, Rita <rita@example.com> wrote:\nI live in Oslo and I'm allergic to latex.",
                "-----Original Message-----\nI live in Oslo and I'm allergic to latex.",
                "Segue o e-mail que recebi:\n\nOlá, eu sou a Maria, moro em Oslo e sou alérgica a látex.",
                "Resuma este texto: moro em Oslo e sou alérgica a látex.",
                "Can you reply to this email?\nHi Bob, I live in Oslo and I'm allergic to latex.",
                "Translate to Portuguese:\n\nI live in Oslo and I'm allergic to latex.",
                "Can you translate this for me?\n\nI live in Oslo and I'm allergic to latex.",
                "My friend sent me this:\n\nI live in Oslo and I'm allergic to latex.",
                "Here's an email from my boss about my report:\n\nHi, I live in Oslo and I'm allergic to latex.",
                "Here is the web page:\nI live in Oslo. I'm allergic to latex.",
                "FYI the doctor's letter reads: I live in Oslo and I'm allergic to latex.",
                "Tweet by @bob: I live in Oslo and I'm allergic to latex",
                "Pasted from the website:\nI live in Oslo and I'm allergic to latex.",
                "Copy of the letter: \"I live in Oslo and I'm allergic to latex.\"",
                "[14:02, 03/01/2026] Rita: I live in Oslo and I'm allergic to latex\n[14:03, 03/01/2026] Rita: see you",
                "jake: I live in Oslo\nme: lol\njake: I'm allergic to latex",
                "Ana Souza  9:41 AM\nI live in Oslo and I'm allergic to latex.",
                "translate to english pls:\nI live in Oslo and I'm allergic to latex.",
                "she wrote \"I live in Oslo. I'm allergic to latex.\" and nothing else",
                "Fwd: intro\nHi, I live in Oslo and I'm allergic to latex.",
                "<p>I live in Oslo and I'm allergic to latex.</p>",
                "got this cover letter, is it any good?\nDear Sir,\nI live in Oslo and I'm allergic to latex.",
                "some post I saw\nI live in Oslo and I'm allergic to latex.\n^ what do you think?");
        for (String text : pasted) {
            assertThat(facts(text)).as(text).extracting(ExtractedFact::subject)
                    .doesNotContain("user.location", "user.allergy", "user.name", "user.diet");
        }
        // the speaker's own words around a pasted text, and a text they call their own, are theirs
        assertThat(facts("> I live in Oslo\nNo, I live in Lisbon.")).extracting(ExtractedFact::value).contains("Lisbon")
                .doesNotContain("Oslo");
        assertThat(facts("Check my cover letter: I live in Porto and I work at Siemens."))
                .extracting(ExtractedFact::subject).contains("user.location", "user.employer");
        assertThat(facts("I got a message from my boss today.\nI live in Porto now."))
                .extracting(ExtractedFact::subject).contains("user.location");
        assertThat(facts("I read the article and I think I'm going vegetarian.\n\nAlso, I live in Porto now."))
                .extracting(ExtractedFact::subject).contains("user.location");
        assertThat(facts("My name is Ana. Date: tomorrow\nI live in Porto")).extracting(ExtractedFact::subject)
                .contains("user.name", "user.location");
        // ordinary chat that names a text, a colon or a blank line is the speaker's own
        List<String> own = List.of(
                "Here are the answers to your questions:\n1. I'm 34\n2. I live in Rome\n3. I'm allergic to peanuts",
                "Help me write a cover letter.\n\nI live in Rome and I'm allergic to peanuts.",
                "Can you help me write a reply to my landlord?\n\nI live in Rome and I'm allergic to peanuts.",
                "I think the answer is no.\n\nAnyway, I live in Rome and I'm allergic to peanuts.",
                "I got a text from my sister today.\n\nI live in Rome and I'm allergic to peanuts.",
                "Can you check the reviews for this restaurant?\n\nI live in Rome and I'm allergic to peanuts.",
                "I read the article on https://example.com today. I live in Rome and I'm allergic to peanuts.",
                "I got the message at 7:30. I live in Rome and I'm allergic to peanuts.",
                "I think the answer is simple: I live in Rome and I'm allergic to peanuts.",
                "From: Lisbon\nTo: Rome\nI live in Rome and I'm allergic to peanuts.",
                "I said: I live in Rome and I'm allergic to peanuts.",
                "Update: I live in Rome now and I'm allergic to peanuts.",
                "Edit: I live in Rome now and I'm allergic to peanuts.",
                "[10:15] me: I live in Rome and I'm allergic to peanuts",
                "my coworker wrote:\n> I'm moving to Berlin\n\nI live in Rome and I'm allergic to peanuts.",
                "so my sister sent this to the group: \"I'm moving to Canada\" and I live in Rome and I'm allergic to peanuts",
                "Look at this post I made!\n\nI live in Rome and I'm allergic to peanuts.",
                "prepping for my interview:\nQ: tell me about yourself\nA: I live in Rome and I'm allergic to peanuts.");
        for (String text : own) {
            assertThat(facts(text)).as(text).extracting(ExtractedFact::subject)
                    .contains("user.location", "user.allergy");
        }
    }

    @Test
    void several_facts_come_from_one_turn() {
        List<ExtractedFact> facts = facts("Please call me Dra. Marina. I'm allergic to dipyrone.");
        assertThat(facts).extracting(ExtractedFact::subject).contains("user.address_as", "user.allergy");
    }

    @Test
    void style_facts_describe_length_language_emoji_and_formality() {
        List<ExtractedFact> facts = facts("lol yeah I'm gonna be there 😄");
        assertThat(styles(facts)).contains("user.style.length=short", "user.style.language=en",
                "user.style.emoji=yes", "user.style.formality=informal");
        facts = extractor.extract(new TurnInput(Role.USER,
                "Prezado senhor, gostaria de saber se poderia me enviar o relatório completo da reunião de ontem, "
                        + "com todos os anexos e as observações que foram discutidas pela equipe durante a tarde, "
                        + "para que eu possa revisar tudo com calma antes da apresentação de segunda-feira para a "
                        + "diretoria. Atenciosamente.", null, "t", AT));
        assertThat(styles(facts)).contains("user.style.length=long", "user.style.language=pt",
                "user.style.formality=formal");
        assertThat(styles(facts)).noneMatch(s -> s.startsWith("user.style.emoji"));
    }

    @Test
    void greetings_and_filler_produce_nothing_at_all() {
        for (String text : List.of("hi", "ok thanks!", "haha", "obrigado", "Bom dia!", "kkkk", "👍", "...", "  ")) {
            assertThat(facts(text)).as(text).isEmpty();
        }
    }

    @Test
    void assistant_turns_without_a_speaker_yield_nothing() {
        assertThat(extractor.extract(new TurnInput(Role.ASSISTANT,
                "Noted, Dra. Marina. I'm allergic to nothing, but you are allergic to dipyrone.", null, "t", AT)))
                .isEmpty();
    }

    @Test
    void assistant_turns_never_yield_facts_about_the_user_named_or_not() {
        String text = "I'm not allergic to dipyrone anymore. My name is Marina and I live in Recife. "
                + "I love jazz and I went to the beach yesterday with my sister.";
        for (String speaker : new String[] {null, "Ava", "User"}) {
            assertThat(extractor.extract(new TurnInput(Role.ASSISTANT, text, speaker, "t", AT))).as("speaker %s", speaker)
                    .isEmpty();
        }
    }

    @Test
    void assistant_commitments_are_typed_under_the_assistant_subject() {
        List<ExtractedFact> facts = extractor.extract(new TurnInput(Role.ASSISTANT,
                "Sure. I'll send you the full summary of the contract tomorrow morning. You are allergic to dipyrone.",
                "Ava", "t", AT));
        assertThat(facts).singleElement().satisfies(f -> {
            assertThat(f.subject()).isEqualTo("assistant.commitment");
            assertThat(f.kind()).isEqualTo(EVENT);
            assertThat(f.cardinality()).isEqualTo(Cardinality.MULTI);
            assertThat(f.text()).startsWith("Ava: I'll send you");
        });
    }

    @Test
    void a_draft_the_assistant_writes_for_the_user_is_no_commitment_of_its_own() {
        for (String text : List.of(
                "Sure! Here's a draft:\n\nI'm so sorry, I live in Oslo now and I'm allergic to peanuts, so I'll pass on the Thai place this time.",
                "You could reply something like: I'll be there at 7 and I'll bring wine.",
                "Aqui vai uma sugestão de mensagem: vou chegar às 19h e levo o vinho.")) {
            assertThat(extractor.extract(new TurnInput(Role.ASSISTANT, text, null, "t", AT))).as(text).isEmpty();
        }
        // its own plan after a colon stays a commitment
        assertThat(extractor.extract(new TurnInput(Role.ASSISTANT,
                "Here's my plan: I'll book the table for 7 and I'll send you the confirmation.", null, "t", AT)))
                .extracting(ExtractedFact::subject).containsExactly("assistant.commitment");
    }

    @Test
    void a_bracketed_mark_of_a_screenshot_or_a_forward_hands_over_what_follows() {
        noFact(Set.of("user.job", "user.location"),
                "[screenshot] I'm a registered nurse in Texas, DM me for scrubs deals\n\nIs this legit?",
                "[forwarded] I live in Texas now.", "[voice note from Sam] I live in Texas now.");
        assertThat(only("[Update] I moved to Denver", "user.location").value()).isEqualTo("Denver");
    }

    @Test
    void work_after_and_in_a_sentence_that_opens_on_the_speaker_is_theirs() {
        assertThat(only("I live in Montreal and work as a UX designer at Shopify.", "user.job").value())
                .isEqualTo("UX designer");
        assertThat(only("I rent a tiny flat in Croydon and work at Tesco.", "user.employer").value()).isEqualTo("Tesco");
        assertThat(only("I work remotely for Revolut now", "user.employer").value()).isEqualTo("Revolut");
        noFact("user.employer", "My sister and her husband live in Leeds and work at Tesco.");
    }

    @Test
    void a_correction_replaces_the_turns_earlier_values_of_a_list_too_and_an_addition_does_not() {
        assertThat(values("I'm allergic to almonds. Scratch that, I'm allergic to cashews.", "user.allergy"))
                .containsExactly("POSITIVE cashews");
        assertThat(values("I'm allergic to almonds. Sorry, I'm allergic to cashews.", "user.allergy"))
                .containsExactly("POSITIVE cashews");
        assertThat(values("I'm allergic to almonds and walnuts. Actually I'm also allergic to cashews.", "user.allergy"))
                .containsExactly("POSITIVE almonds", "POSITIVE walnuts", "POSITIVE cashews");
        // a tag that asks to keep a statement is not quoted with it (a question mark in the quote lowered its importance)
        assertThat(only("I'm gluten-free, you remember that, right?", "user.diet").text()).doesNotContain("remember");
    }

    @Test
    void more_openers_of_make_believe_put_the_rest_of_the_turn_in_character() {
        noFact(Set.of("user.name", "user.location", "user.job"),
                "Let's do a murder mystery. I'm Detective Hale and I live in 1920s London.",
                "Murder mystery time! I'm Detective Hale and I live in London",
                "Let's do a scene where I'm a pilot living in Dubai",
                "*in character* I am Lady Vex, and I live in the Shadow Keep.",
                "(in character) I live in the Shadow Keep.");
        assertThat(only("Let's do a story about my week: I moved to Lisbon on Monday.", "user.location").value())
                .isEqualTo("Lisbon");
        assertThat(only("Let's have a quick call. I live in Leeds.", "user.location").value()).isEqualTo("Leeds");
    }

    @Test
    void a_role_the_job_list_does_not_know_is_read_with_the_named_place_it_is_held_at() {
        assertThat(only("I'm a biostatistician at Harvard", "user.job").value()).isEqualTo("biostatistician");
        assertThat(only("I'm a biostatistician at Harvard", "user.employer").value()).isEqualTo("Harvard");
        assertThat(only("I'm a dental hygienist at Smile Co", "user.job").value()).isEqualTo("dental hygienist");
        noFact(Set.of("user.job", "user.employer"), "I'm a guest at Marriott", "I'm a regular at Starbucks",
                "I'm a little tired at Google", "I'm a bit annoyed at Apple");
    }

    @Test
    void a_named_speaker_owns_the_subjects_of_their_facts() {
        List<ExtractedFact> priya = extractor.extract(new TurnInput(Role.USER,
                "I live in Boston and I work as a nurse.", "Priya", "t", AT));
        List<ExtractedFact> joao = extractor.extract(new TurnInput(Role.USER,
                "I live in Lisbon and I'm allergic to penicillin.", "João Pedro", "t", AT));
        List<ExtractedFact> anonymous = facts("I live in Lisbon.");
        assertThat(priya).extracting(ExtractedFact::subject).contains("priya.location", "priya.job")
                .allMatch(s -> s.startsWith("priya."));
        assertThat(joao).extracting(ExtractedFact::subject).contains("joao_pedro.location", "joao_pedro.allergy")
                .allMatch(s -> s.startsWith("joao_pedro."));
        assertThat(anonymous).extracting(ExtractedFact::subject).contains("user.location");
    }

    @Test
    void speaker_keys_are_safe_ids() {
        assertThat(Subjects.speakerKey("Priya")).isEqualTo("priya");
        assertThat(Subjects.speakerKey("  Zoë  O'Brien ")).isEqualTo("zoe_o_brien");
        assertThat(Subjects.speakerKey("Assistant")).isEqualTo("speaker_assistant");
        assertThat(Subjects.speakerKey("Tool")).isEqualTo("speaker_tool");
        // someone named "User" never writes the facts of the end user whose turns name no speaker
        assertThat(Subjects.speakerKey("User")).isEqualTo("speaker_user");
        assertThat(Subjects.speakerKey(" USER ")).isEqualTo("speaker_user");
        assertThat(Subjects.speakerKey("2Pac")).isEqualTo("speaker_2pac");
        assertThat(Subjects.speakerKey("李明")).matches("speaker_[0-9a-f]+");
        assertThat(Subjects.speakerKey("x".repeat(128))).hasSize(40);
        // two people never share a key through their Latin part or their first 40 characters
        assertThat(Subjects.speakerKey("Анна Smith")).startsWith("smith_").isNotEqualTo(Subjects.speakerKey("Иван Smith"));
        assertThat(Subjects.speakerKey("Wang 芳")).isNotEqualTo(Subjects.speakerKey("Wang 伟"))
                .isEqualTo(Subjects.speakerKey("Wang  芳."));
        // names whose words all keep a Latin letter keep the keys they always had
        assertThat(Subjects.speakerKey("Işıl Yılmaz")).isEqualTo("is_l_y_lmaz");
        assertThat(Subjects.speakerKey("Guðrún")).isEqualTo("gu_run");
        // a word whose letters are mostly not Latin (small capitals) is the whole name's hash, not its Latin rest
        assertThat(Subjects.speakerKey("ᴀsʜ")).startsWith("s_").isNotEqualTo(Subjects.speakerKey("ᴜsᴇʀ"));
        // Latin letters outside a–z that are no look-alikes ("ɔ", "ɛ", "ə") keep the keys they always had
        assertThat(Subjects.speakerKey("Kɔfi Ɔsɛɛ")).isEqualTo("k_fi_s");
        assertThat(Subjects.speakerKey("Yaw Bɔɔ")).isEqualTo("yaw_b");
        assertThat(Subjects.speakerKey("a".repeat(45) + " Rita")).hasSize(40)
                .isNotEqualTo(Subjects.speakerKey("a".repeat(45) + " Rosa"));
        assertThat(Subjects.attribute("priya.family.mother")).isEqualTo("family.mother");
        assertThat(Subjects.owner("priya.family.mother")).isEqualTo("priya");
        assertThat(Subjects.rescope("user.location", "priya")).isEqualTo("priya.location");
        assertThat(Subjects.rescope("lena.location", "priya")).isEqualTo("priya.lena.location");
    }

    @Test
    void a_redaction_marker_is_never_a_facts_value() {
        for (String text : List.of("Call me [REDACTED:github_token] from now on.", "My name is [REDACTED:secret].",
                "I live in [REDACTED:password] now.")) {
            List<ExtractedFact> facts = extractor.extract(new TurnInput(Role.USER, text, null, "t", AT));
            assertThat(facts).as(text).noneMatch(f -> f.value() != null && f.value().contains("REDACTED")
                    && f.kind() != MemoryKind.EVENT);
        }
        // the rest of the sentence is still read
        assertThat(extractor.extract(new TurnInput(Role.USER,
                "I'm allergic to penicillin and my password is [REDACTED:password].", null, "t", AT)))
                .anyMatch(f -> f.subject().equals("user.allergy") && "penicillin".equals(f.value()));
    }

    @Test
    void tool_turns_yield_only_low_confidence_episodes() {
        List<ExtractedFact> facts = extractor.extract(new TurnInput(Role.TOOL,
                "Calendar: Friday 10:00 and 14:00 are free for the dentist appointment. I love jazz.", "calendar", "t", AT));
        assertThat(facts).isNotEmpty();
        assertThat(facts).allSatisfy(f -> {
            assertThat(f.subject()).startsWith("tool.episode.");
            assertThat(f.kind()).isEqualTo(EVENT);
            assertThat(f.confidence()).isLessThanOrEqualTo(0.3);
            assertThat(f.text()).startsWith("Tool (calendar): "); // a tool speaks as a tool, whatever its name
        });
    }

    @Test
    void hedged_statements_get_lower_confidence() {
        assertThat(only("I think I'm allergic to cats.", "user.allergy").confidence())
                .isLessThan(only("I'm allergic to cats.", "user.allergy").confidence());
    }

    @Test
    void each_statement_of_a_comma_splice_is_read() {
        assertThat(values("I don't live in Porto anymore, I moved to Lisbon", "user.location"))
                .containsExactly("NEGATIVE Porto", "POSITIVE Lisbon");
        assertThat(values("I used to be a teacher, now I'm a nurse", "user.job"))
                .containsExactly("NEGATIVE teacher", "POSITIVE nurse");
        assertThat(values("Eu não moro mais no Porto, eu moro em Lisboa agora", "user.location"))
                .containsExactly("NEGATIVE Porto", "POSITIVE Lisboa");
        assertThat(values("My name is Ana; I'm a nurse, and I live in Lisbon", "user.location"))
                .containsExactly("POSITIVE Lisbon");
        // each fact quotes its own statement, not the other one
        assertThat(facts("I don't live in Porto anymore, I moved to Lisbon")).filteredOn(f -> f.subject().equals("user.location"))
                .extracting(ExtractedFact::text)
                .containsExactly("User no longer lives in Porto (\"I don't live in Porto anymore\")", "User lives in Lisbon");
    }

    @Test
    void a_framing_or_qualifying_first_part_keeps_the_sentence_whole() {
        // a frame without a first-person word, a subordinate opening, a condition, a hedge, reported speech
        noFact("user.location", "Last summer, I lived in Porto", "When I was little, I lived in Porto",
                "If I ever get the job, I move to Berlin", "I don't know, I might move to Berlin",
                "My boss said I'm lazy, I live in my head");
        assertThat(values("I'm allergic to peanuts, I think", "user.allergy")).containsExactly("POSITIVE peanuts");
        assertThat(only("I'm allergic to peanuts, I think", "user.allergy").text()).contains("I think");
    }

    @Test
    void a_past_residence_is_not_where_the_user_lives() {
        noFact("user.location", "I lived in Porto as a kid", "I lived in Porto until 2019",
                "We lived in Porto for five years", "When I lived in Porto, I worked at a bakery");
        assertThat(values("I've lived in Porto for five years", "user.location")).containsExactly("POSITIVE Porto");
        assertThat(values("I have lived in Porto since 2010", "user.location")).containsExactly("POSITIVE Porto");
        assertThat(values("I lived in Porto, now I live in Lisbon", "user.location")).containsExactly("POSITIVE Lisbon");
    }

    @Test
    void anymore_ends_only_the_statement_it_is_said_in() {
        assertThat(values("I'm allergic to peanuts so I don't eat them anymore.", "user.allergy"))
                .containsExactly("POSITIVE peanuts");
        assertThat(values("I'm allergic to cats, which is why I don't visit my aunt anymore.", "user.allergy"))
                .containsExactly("POSITIVE cats");
        assertThat(values("I have epilepsy and can't drive anymore.", "user.health")).containsExactly("POSITIVE epilepsy");
        assertThat(values("I live in Lisbon but I don't like it anymore.", "user.location"))
                .containsExactly("POSITIVE Lisbon");
        assertThat(values("I'm not allergic to penicillin anymore.", "user.allergy"))
                .containsExactly("NEGATIVE penicillin");
        assertThat(values("I'm not allergic to peanuts but I am allergic to shellfish.", "user.allergy"))
                .containsExactly("NEGATIVE peanuts", "POSITIVE shellfish");
    }

    @Test
    void an_apology_or_an_aside_corrects_nothing() {
        for (String text : List.of("My name is Anna. Sorry for the typo.", "I'm 34 years old. Sorry, long day.",
                "I live in Lisbon. Sorry, I'm rambling.", "I work at Google. Sorry, gotta run.",
                "I work at Google. Actually, that's a secret.", "I'm from Brazil. Actually, it's a long story.",
                "I'm married. Actually, it's complicated.", "Meu nome é Ana. Desculpa a demora.",
                "Moro em Lisboa. Na verdade, é complicado.")) {
            List<ExtractedFact> first = facts(text.substring(0, text.indexOf('.') + 1));
            assertThat(facts(text)).as(text).filteredOn(f -> f.cardinality() == Cardinality.SINGLE && f.kind() != STYLE)
                    .extracting(ExtractedFact::value)
                    .containsExactlyElementsOf(first.stream()
                            .filter(f -> f.cardinality() == Cardinality.SINGLE && f.kind() != STYLE)
                            .map(ExtractedFact::value).collect(Collectors.toList()));
        }
        // a correction that names a value its rule reads still corrects
        assertThat(values("I work at Google. Sorry, it's Meta.", "user.employer")).containsExactly("POSITIVE Meta");
        assertThat(values("My favorite color is blue. Actually, it's green.", "user.favorite.color"))
                .containsExactly("POSITIVE green");
    }

    @Test
    void a_wish_a_condition_a_pretence_or_a_question_states_nothing() {
        noFact(Set.of("user.location", "user.allergy", "user.age", "user.job", "user.employer", "user.diet"),
                "It would be so nice if I lived in Lisbon.", "I really wish I lived in Tokyo.",
                "I'd be happier if I lived in Barcelona.", "Hypothetically, I live in Paris.",
                "For example, I live in Paris and work at Google.", "Example: I'm allergic to peanuts.",
                "Assume I'm 30 years old.", "Pretend I'm a doctor.", "Finge que eu moro em Paris.",
                "No jogo eu moro em Paris.", "where should I live in Paris", "how do I live in Paris on a budget",
                "How do I say I'm vegan in Japanese", "Será que sou alérgico a dipirona");
        // an "if" that says nothing of the speaker leaves their statement standing
        assertThat(values("I'm allergic to peanuts, so check if the dish has them.", "user.allergy"))
                .containsExactly("POSITIVE peanuts");
        assertThat(values("I live in Lisbon if that matters", "user.location")).containsExactly("POSITIVE Lisbon");
        assertThat(values("When I moved to Lisbon I was 20", "user.location")).containsExactly("POSITIVE Lisbon");
    }

    @Test
    void every_item_of_a_comma_list_is_read() {
        assertThat(values("I'm allergic to peanuts, tree nuts, and sesame.", "user.allergy"))
                .containsExactly("POSITIVE peanuts", "POSITIVE tree nuts", "POSITIVE sesame");
        assertThat(values("Tenho alergia a amendoim, camarão e leite.", "user.allergy"))
                .containsExactly("POSITIVE amendoim", "POSITIVE camarão", "POSITIVE leite");
        assertThat(values("I'm allergic to eggs, milk, etc.", "user.allergy"))
                .containsExactly("POSITIVE eggs", "POSITIVE milk");
        assertThat(values("I don't eat pork, beef, or chicken.", "user.diet"))
                .containsExactly("NEGATIVE pork", "NEGATIVE beef", "NEGATIVE chicken");
        // a single value is never a list: the comma still ends a place
        assertThat(values("I live in Lisbon, Porto and Faro are nice too", "user.location"))
                .containsExactly("POSITIVE Lisbon");
    }

    @Test
    void a_negation_before_the_statement_is_read() {
        noFact(Set.of("user.origin", "user.job", "user.address_as", "user.health"), "Não sou de São Paulo.",
                "Eu não nasci em Salvador.", "Não estou desempregado.", "I'm not retired.", "Me chama de Zé não.",
                "Não fui diagnosticado com TDAH.");
        assertThat(values("Don't answer in Portuguese.", "user.preference"))
                .containsExactly("NEGATIVE answers in Portuguese");
        assertThat(values("Não responda em inglês.", "user.preference")).containsExactly("NEGATIVE respostas em inglês");
        assertThat(values("Please answer in English.", "user.preference")).containsExactly("POSITIVE answers in English");
        assertThat(values("Sou de São Paulo.", "user.origin")).containsExactly("POSITIVE São Paulo");
        // a doubted allergy keeps its doubt in the text, never a bare "is allergic"
        for (String doubt : List.of("I don't think I'm allergic to gluten.", "I doubt I'm allergic to gluten.",
                "Não acho que sou alérgico a glúten.")) {
            assertThat(only(doubt, "user.allergy").text()).as(doubt).endsWith("(\"" + doubt + "\")");
        }
    }

    @Test
    void an_abbreviation_does_not_cut_a_value() {
        assertThat(values("I live in St. Louis.", "user.location")).containsExactly("POSITIVE St. Louis");
        assertThat(values("I work at J.P. Morgan.", "user.employer")).containsExactly("POSITIVE J.P. Morgan");
        assertThat(values("I live in Lisbon. My sister lives in Porto.", "user.location"))
                .containsExactly("POSITIVE Lisbon");
    }

    @Test
    void what_others_think_denials_quotes_and_tasks_are_not_the_speakers_facts() {
        noFact(Set.of("user.origin", "user.diet", "user.location", "user.allergy"), "People think I'm from Spain.",
                "Everyone assumes I'm vegan.", "I never said I live in Paris.", "I lied and said I live in Paris.",
                "Todo mundo pensa que sou de São Paulo.", "Dizem que sou de Minas.", "My sister: I live in Berlin now.",
                "Quoting my wife: I'm allergic to cats.", "Rita: I live in Lisbon.", "Translate: I live in Paris.",
                "Write a story where I live in Tokyo.", "Traduz: moro em Lisboa.",
                "Minha mãe vive repetindo \"sou alérgica a gato\".", "Minha irmã mandou: \"moro em Paris agora\".");
        // the speaker's own labels and restatements stand
        assertThat(values("Update: I moved to Lisbon.", "user.location")).containsExactly("POSITIVE Lisbon");
        for (String label : List.of("Atenção: sou alérgico a dipirona.", "Attention: I'm allergic to dipirona.",
                "O problema: sou alérgico a dipirona.", "Tip: I always carry an EpiPen because I'm allergic to dipirona.")) {
            assertThat(values(label, "user.allergy")).as(label).containsExactly("POSITIVE dipirona");
        }
        noFact("user.location", "Minha mãe mandou: moro em Paris agora.");
        // a lower-case writer labels others too, by name or relation; a common word before a colon is theirs
        noFact(Set.of("user.location", "user.allergy"), "jake: I just moved to Lima!", "mom: I moved to Berlin!",
                "sis: I'm allergic to cats.");
        assertThat(values("lol: I moved to Lima", "user.location")).containsExactly("POSITIVE Lima");
        assertThat(values("lunch: sushi again, I'm allergic to peanuts", "user.allergy"))
                .containsExactly("POSITIVE peanuts");
        // a game of make-believe: what the speaker says in character is not their life
        noFact(Set.of("user.location", "user.job"),
                "Let's role-play: you're the innkeeper and I'm Zorg the barbarian. I live in Madrid and I'm a pilot.",
                "Pretend you're my landlord. I live in Flat 4 and I work as a nurse.",
                "Vamos fingir que você é o meu chefe. Eu moro em Lisboa e trabalho como piloto.");
        assertThat(values("I live in Madrid. Let's play a game where you guess my job.", "user.location"))
                .containsExactly("POSITIVE Madrid");
        noFact(Set.of("user.location", "user.name"), "(RP) My name is Aragorn, I live in Rivendell.",
                "Character bio (first person) \u2014 I'm Kael, a blacksmith from Ironforge.",
                "Help me continue my story. Chapter 1: I was born in Faro. My name is Lúcia and I live in Faro.");
        // figures of speech are no allergies and no jobs; an adverb or an enclitic does not hide the fact
        noFact("user.allergy", "I'm allergic to Mondays 🙃", "I'm allergic to small talk, honestly.",
                "Sou alérgica a segunda-feira kkkk");
        noFact("user.job", "Eu trabalho como um cão", "I work like a dog.");
        assertThat(values("From now on i'm fully vegan, no more cheese", "user.diet")).containsExactly("POSITIVE vegan");
        assertThat(values("Mudei-me para Faro na semana passada.", "user.location")).containsExactly("POSITIVE Faro");
        // a new name is said with "now"; an emphatic "myself" after a place is no part of it
        assertThat(values("I got married, so my name is now Marina Costa.", "user.name"))
                .containsExactly("POSITIVE Marina Costa");
        assertThat(values("Separate thing: I just moved to Valencia myself.", "user.location"))
                .containsExactly("POSITIVE Valencia");
        assertThat(values("Fun fact: I'm allergic to nuts.", "user.allergy")).containsExactly("POSITIVE nuts");
        assertThat(values("I told you I live in Lisbon.", "user.location")).containsExactly("POSITIVE Lisbon");
        assertThat(values("I said I live in Paris but actually I live in Lyon.", "user.location"))
                .containsExactly("POSITIVE Lyon");
    }

    @Test
    void figures_of_speech_tools_times_and_amounts_are_no_place_or_employer() {
        noFact(Set.of("user.location", "user.origin", "user.employer"), "i basically live in excel",
                "I basically live in VS Code these days.", "praticamente moro na academia",
                "Assisti ao show ao vivo no Maracanã.", "We moved to Kubernetes last year.", "I moved to Python 3 last week.",
                "We moved to AWS in 2021.", "I come from Python, so Rust is hard for me.", "I come from Java background.",
                "I work at 9 on Mondays.", "I work at 7am.", "I work for 8 hours a day.", "I work for 3 clients.",
                "I never work for free.");
        assertThat(values("I work at 3M.", "user.employer")).containsExactly("POSITIVE 3M");
        assertThat(values("I work at 7-Eleven.", "user.employer")).containsExactly("POSITIVE 7-Eleven");
        assertThat(values("Vivo em Lisboa.", "user.location")).containsExactly("POSITIVE Lisboa");
        assertThat(values("I moved to Lisbon last year.", "user.location")).containsExactly("POSITIVE Lisbon");
    }

    @Test
    void predicates_modifiers_and_comparisons_are_no_job_age_name_or_favourite() {
        noFact("user.job", "My job is killing me.", "My job is stressful.", "My job is in Lisbon.",
                "I work as hard as I can.", "We work as a team.", "Trabalho como um louco.", "I'm a Doctor Who fan.",
                "I'm a retired nurse.", "I'm a former teacher.", "I'm an aspiring actor.");
        noFact("user.age", "I'm 5 years older than my sister.", "I feel like I'm 80 years old.", "Fiz 30 anos de casada.",
                "Tenho 2 anos nessa empresa.");
        noFact("user.birthday", "My birthday is in 3 weeks.", "Meu aniversário é daqui a 3 dias.");
        noFact("user.name", "My name is hard to pronounce.", "My name is spelled with two n's.");
        noFact("user.address_as", "Everyone calls me crazy.", "My teacher used to call me Speedy.",
                "Me chama de louco mas eu gosto de abacaxi na pizza.");
        noFact(Set.of("user.favorite.restaurant", "user.favorite.movie", "user.favorite.band"),
                "My favorite restaurant is closed now.", "My favorite movie is hard to pick.",
                "My favorite band is not Coldplay.");
        noFact("user.preference", "I speak in English at work.");
        // what is said plainly still counts
        assertThat(values("I work as a sommelier.", "user.job")).containsExactly("POSITIVE sommelier");
        assertThat(values("I'm a 34 year old nurse from Lisbon.", "user.job")).containsExactly("POSITIVE nurse");
        assertThat(values("Tenho 30 anos.", "user.age")).containsExactly("POSITIVE 30");
        assertThat(values("Fiz 30 anos ontem.", "user.age")).containsExactly("POSITIVE 30");
        assertThat(values("my name is ana", "user.name")).containsExactly("POSITIVE ana");
        assertThat(values("Please call me Bob.", "user.address_as")).containsExactly("POSITIVE Bob");
        assertThat(values("My favorite movie is probably Inception.", "user.favorite.movie"))
                .containsExactly("POSITIVE Inception");
    }

    @Test
    void a_statement_taken_back_leaves_no_fact() {
        noFact(Set.of("user.location", "user.employer"), "I live in Paris. Not.", "i got a job at amazon lol jk",
                "I work at Google. Just kidding, I'm unemployed.", "Moro em Lisboa só que não.",
                "Yeah right, I live in a mansion in Beverly Hills.");
        assertThat(values("I work at Google. Just kidding, I'm unemployed.", "user.job"))
                .containsExactly("POSITIVE unemployed");
        assertThat(values("I work at Google. Not kidding!", "user.employer")).containsExactly("POSITIVE Google");
        assertThat(values("I live in Lisbon. Not sure for how long though.", "user.location"))
                .containsExactly("POSITIVE Lisbon");
    }

    @Test
    void changes_of_employer_home_and_pet_are_read() {
        assertThat(values("I just started at Acme.", "user.employer")).containsExactly("POSITIVE Acme");
        assertThat(values("Got a job at Google!", "user.employer")).containsExactly("POSITIVE Google");
        assertThat(values("Comecei a trabalhar na Ambev.", "user.employer")).containsExactly("POSITIVE Ambev");
        assertThat(values("I quit Google.", "user.employer")).containsExactly("NEGATIVE Google");
        assertThat(values("I'm no longer at Google.", "user.employer")).containsExactly("NEGATIVE Google");
        assertThat(values("Pedi demissão da Vale.", "user.employer")).containsExactly("NEGATIVE Vale");
        noFact("user.employer", "I quit smoking.", "I started at the bottom.", "I just started at 9am.");
        assertThat(values("I moved from Paris to Lisbon.", "user.location")).containsExactly("POSITIVE Lisbon");
        assertThat(values("Just moved to Lisbon!", "user.location")).containsExactly("POSITIVE Lisbon");
        assertThat(values("I had to put my dog down yesterday.", "user.pet")).containsExactly("NEGATIVE dog");
        assertThat(values("We had to put our cat to sleep.", "user.pet")).containsExactly("NEGATIVE cat");
        assertThat(values("I put my dog in the car.", "user.pet")).containsExactly("POSITIVE dog");
    }

    @Test
    void a_skill_is_an_ability_not_a_one_off_an_offer_or_a_clause() {
        noFact("user.skill", "I know Python is hard.", "I know Java developers are expensive.",
                "I can't drive today, my car is broken.", "I can't cook tonight.", "I can drive you home.");
        assertThat(values("I know Python.", "user.skill")).containsExactly("POSITIVE Python");
        assertThat(values("I can't drive.", "user.skill")).containsExactly("NEGATIVE drive");
    }

    @Test
    void names_keep_their_particles_and_negatives_say_no_longer_only_when_something_ended() {
        assertThat(values("Meu nome é José da Silva.", "user.name")).containsExactly("POSITIVE José da Silva");
        assertThat(values("My name is Ludwig van Beethoven.", "user.name")).containsExactly("POSITIVE Ludwig van Beethoven");
        assertThat(only("I don't have a peanut allergy.", "user.allergy").text()).isEqualTo("User is not allergic to peanut");
        assertThat(only("I don't have diabetes.", "user.health").text()).isEqualTo("User does not have diabetes");
        assertThat(only("I'm not allergic to penicillin anymore.", "user.allergy").text())
                .isEqualTo("User is no longer allergic to penicillin");
        assertThat(only("Não moro mais em Lisboa.", "user.location").text()).isEqualTo("Usuário não mora mais em Lisboa");
        assertThat(only("Não sou alérgico a dipirona.", "user.allergy").text()).isEqualTo("Usuário não tem alergia a dipirona");
    }

    @Test
    void an_allergy_said_plainly_in_any_common_form_is_read() {
        for (String text : List.of("allergic to penicillin", "Allergic to penicillin btw.", "We're allergic to penicillin.",
                "My son and I are allergic to penicillin.", "I've become allergic to penicillin.",
                "i'm alergic to penicillin", "I developed an allergy to penicillin last year.",
                "I carry an EpiPen for my penicillin allergy.", "My allergy is to penicillin.",
                "Alérgico a penicillin, só pra constar.", "Desenvolvi alergia a penicillin.")) {
            assertThat(values(text, "user.allergy")).as(text).containsExactly("POSITIVE penicillin");
        }
        assertThat(values("I'm allergic to: peanuts, shellfish, latex.", "user.allergy"))
                .containsExactly("POSITIVE peanuts", "POSITIVE shellfish", "POSITIVE latex");
        assertThat(values("Allergies: peanuts, shellfish.", "user.allergy"))
                .containsExactly("POSITIVE peanuts", "POSITIVE shellfish");
        assertThat(values("Minhas alergias: amendoim e camarão.", "user.allergy"))
                .containsExactly("POSITIVE amendoim", "POSITIVE camarão");
        noFact("user.allergy", "My son's peanut allergy is bad.", "My allergy medicine ran out.");
    }

    @Test
    void safety_facts_survive_an_if_a_joke_word_a_trailing_no_or_someone_elses_opinion_in_another_clause() {
        for (String text : List.of("I'm allergic to penicillin so let me know if I need a substitute.",
                "I'm allergic to penicillin, no kidding.", "My friends think it's funny but I'm allergic to penicillin.",
                "Sou alérgico a penicillin, se eu tomar fico mal.", "Tenho alergia a penicillin, não é brincadeira.",
                "Tenho alergia a penicillin, então remédio não.")) {
            assertThat(values(text, "user.allergy")).as(text).containsExactly("POSITIVE penicillin");
        }
        assertThat(values("Tenho asma e se eu corro fico sem ar.", "user.health")).containsExactly("POSITIVE asma");
        assertThat(values("My name is JK.", "user.name")).containsExactly("POSITIVE JK");
        assertThat(values("I live in Lisbon. Kidding aside, I love it here.", "user.location"))
                .containsExactly("POSITIVE Lisbon");
        // an apology that names a value its rule reads corrects it
        assertThat(values("My name is Ana. Sorry, Anna.", "user.name")).containsExactly("POSITIVE Anna");
        assertThat(values("I live in Lisbon. Oops, Porto.", "user.location")).containsExactly("POSITIVE Porto");
        // a comma list stops at what is no item
        assertThat(values("I'm allergic to peanuts, no kidding.", "user.allergy")).containsExactly("POSITIVE peanuts");
        assertThat(values("I'm allergic to cats, dust, and need an inhaler.", "user.allergy"))
                .containsExactly("POSITIVE cats", "POSITIVE dust");
    }

    @Test
    void the_guards_leave_ordinary_statements_alone() {
        assertThat(values("Tenho 34 anos kkk", "user.age")).containsExactly("POSITIVE 34");
        assertThat(values("Fiz 40 anos em março.", "user.age")).containsExactly("POSITIVE 40");
        assertThat(values("Like I said I'm 30 years old.", "user.age")).containsExactly("POSITIVE 30");
        assertThat(values("I work as a family doctor.", "user.job")).containsExactly("POSITIVE family doctor");
        assertThat(values("I work at 24 Hour Fitness.", "user.employer")).containsExactly("POSITIVE 24 Hour Fitness");
        assertThat(values("My favorite band is Dead Kennedys.", "user.favorite.band")).containsExactly("POSITIVE Dead Kennedys");
        assertThat(values("I live in Spring Hill, Florida.", "user.location")).containsExactly("POSITIVE Spring Hill");
        assertThat(values("I basically just moved to Berlin.", "user.location")).containsExactly("POSITIVE Berlin");
        assertThat(values("My preference is that you call me Bob.", "user.address_as")).containsExactly("POSITIVE Bob");
        assertThat(values("I can swim now.", "user.skill")).containsExactly("POSITIVE swim");
        assertThat(values("I live in Berlin, well, not anymore.", "user.location")).containsExactly("NEGATIVE Berlin");
        assertThat(values("I lived in Berlin but not anymore.", "user.location")).containsExactly("NEGATIVE Berlin");
        assertThat(values("I'm originally from Lagos but I grew up in London.", "user.origin")).containsExactly("POSITIVE Lagos");
        assertThat(values("Sou o Pedro do RH.", "user.name")).containsExactly("POSITIVE Pedro");
        noFact("user.employer", "I quit Friday.", "I started with Python.", "I'm no longer with Sarah.");
        noFact("user.location", "I moved from Windows to Mac.");
        assertThat(values("I put my puppy down for a nap.", "user.pet")).containsExactly("POSITIVE puppy");
        assertThat(values("I never had to put my dog down.", "user.pet")).containsExactly("POSITIVE dog");
    }

    @Test
    void a_line_labelled_with_the_speakers_own_name_is_theirs() {
        List<ExtractedFact> own = extractor.extract(new TurnInput(Role.USER,
                "Rita: I live in Lisbon and I'm allergic to penicillin.", "Rita Souza", "t", AT));
        assertThat(own).extracting(ExtractedFact::subject).contains("rita_souza.location", "rita_souza.allergy");
        List<ExtractedFact> other = extractor.extract(new TurnInput(Role.USER,
                "Rita: I live in Lisbon and I'm allergic to penicillin.", "Bruno", "t", AT));
        assertThat(other).extracting(ExtractedFact::subject).doesNotContain("bruno.location", "bruno.allergy");
    }

    /** Each fact of {@code subject} from {@code text}, as "POLARITY value", in order. */
    private List<String> values(String text, String subject) {
        return facts(text).stream().filter(f -> f.subject().equals(subject))
                .map(f -> f.polarity() + " " + f.value()).collect(Collectors.toList());
    }

    @Test
    void builder_switches_off_style_and_episodes_and_validates() {
        RuleBasedExtractor quiet = RuleBasedExtractor.builder().styleFacts(false).episodes(false).build();
        List<ExtractedFact> facts = quiet.extract(new TurnInput(Role.USER,
                "The book club has made me feel valued and given me strength to believe in myself.", "Priya", "t", AT));
        assertThat(facts).isEmpty();
        assertThatThrownBy(() -> RuleBasedExtractor.builder().episodeMinContentWords(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("episodeMinContentWords must be at least 1, was 0");
    }

    @Test
    void never_throws_on_random_input() {
        Random random = new Random(42);
        String alphabet = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ0123456789.,!?;:'\"-()[]{}@#$%&*/\\\n\t"
                + "áéíóúãõçâêôàÁÉÍÓÚÃÕÇ’“”…—–😄👍🇧🇷\u0000\u200b\uD800\uDC00\uDBFF";
        String[] words = ("I i'm my name is call me allergic to love hate live in moro em sou tenho gosto de não no "
                + "longer yesterday ontem next friday sexta que vem actually na verdade é it's my sister minha irmã "
                + "said disse \" ' ? . , and e or ou").split(" ");
        int calls = 0;
        for (int i = 0; i < 3_000; i++) {
            StringBuilder sb = new StringBuilder();
            int len = random.nextInt(i % 100 == 0 ? 30_000 : 300);
            while (sb.length() < len) {
                if (random.nextBoolean()) {
                    sb.append(words[random.nextInt(words.length)]).append(' ');
                } else {
                    sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            Role role = TURN_ROLES[random.nextInt(TURN_ROLES.length)];
            String speaker = random.nextInt(4) == 0 ? "Speaker" + i : null;
            List<ExtractedFact> facts = extractor.extract(new TurnInput(role, sb.toString(), speaker, "t" + i, AT));
            assertThat(facts).isNotNull();
            calls++;
        }
        assertThat(calls).isEqualTo(3_000);
    }

    @Test
    void is_safe_to_share_between_threads() throws Exception {
        List<String> texts = TABLE.stream().map(Row::text).collect(Collectors.toList());
        List<List<String>> baseline = new ArrayList<>();
        for (String t : texts) {
            baseline.add(render(extractor.extract(new TurnInput(Role.USER, t, null, "t", AT))));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                results.add(pool.submit(() -> {
                    for (int round = 0; round < 20; round++) {
                        for (int i = 0; i < texts.size(); i++) {
                            List<String> got = render(extractor.extract(new TurnInput(Role.USER, texts.get(i), null, "t", AT)));
                            if (!got.equals(baseline.get(i))) {
                                return false;
                            }
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> f : results) {
                assertThat(f.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    // ------------------------------------------------------------------------------------------

    /**
     * The table is written with {@code user.} subjects: a named speaker's facts, which must all be
     * keyed under the speaker, are compared by their attribute.
     */
    private static List<ExtractedFact> asUser(List<ExtractedFact> facts, String speaker) {
        if (speaker == null) {
            return facts;
        }
        String owner = Subjects.speakerKey(speaker);
        return facts.stream().map(f -> {
            assertThat(Subjects.owner(f.subject())).as("owner of %s", f).isEqualTo(owner);
            return new ExtractedFact(f.kind(), f.text(), Subjects.of(Subjects.USER, Subjects.attribute(f.subject())),
                    f.value(), f.cardinality(), f.polarity(), f.confidence(), f.eventTime());
        }).collect(Collectors.toList());
    }

    @Test
    void a_paragraph_of_a_pasted_letter_above_its_closing_is_the_letters_even_when_it_starts_like_the_speaker() {
        // "Also, …" and "So, …" end a paste when the speaker speaks again, but not inside a letter that
        // goes on to its closing: a pasted email cannot make its writer's facts the user's
        List<String> letters = List.of(
                "Can you summarize this email?\n\nHi team,\nThe launch moved to Friday.\n\nAlso, I'm allergic to "
                        + "penicillin and I live in Berlin.\n\nBest,\nMark",
                "Can you reply to this email for me?\n\nHello,\nThanks for the invite.\n\nSo, I live in Berlin now "
                        + "and I'm allergic to penicillin.\n\nKind regards, Mark Peters",
                "Resume este email:\n\nOlá,\nA reunião mudou para sexta.\n\nTambém, moro em Berlim e sou alérgico a "
                        + "penicilina.\n\nAbraços,\nJoão",
                "Summarize this email please:\n\nHi,\nQuick update.\n\nAnyway, I live in Berlin and I'm allergic to "
                        + "penicillin.\n\n--\nMark Peters, Acme GmbH");
        for (String text : letters) {
            assertThat(facts(text)).as(text).extracting(ExtractedFact::subject)
                    .doesNotContain("user.location", "user.allergy");
        }
        // below the closing, or without one, the speaker speaks again
        assertThat(facts("Can you summarize this email?\n\nHi team,\nThe launch moved to Friday.\n\nBest,\nMark"
                + "\n\nAnyway, I live in Porto now.")).extracting(ExtractedFact::value).contains("Porto");
        assertThat(facts("Summarize this article:\nThe mayor said I live in Paris.\n\nAlso, I live in Porto.\n\n"
                + "Thanks!")).extracting(ExtractedFact::value).contains("Porto").doesNotContain("Paris");
    }

    @Test
    void a_user_text_too_long_to_read_is_a_document_and_yields_no_fact_while_a_tool_output_is_read_in_part() {
        String own = "I live in Oslo and I'm allergic to latex. ";
        StringBuilder doc = new StringBuilder(own);
        while (doc.length() <= RuleBasedExtractor.MAX_TEXT_CHARS) {
            doc.append("The committee reviewed the quarterly figures and approved the budget for the new wing. ");
        }
        String longText = doc.toString();
        // as the rendering and the session summary take it: pasted, unread (not its first characters as the user's)
        assertThat(dev.reverie.internal.PastedContent.pastes(longText)).isTrue();
        assertThat(facts(longText)).isEmpty();
        // at the limit it is read, and the user's own sentence is theirs
        String atLimit = longText.substring(0, RuleBasedExtractor.MAX_TEXT_CHARS);
        assertThat(facts(atLimit)).extracting(ExtractedFact::subject).contains("user.location", "user.allergy");
        // the user's own words above a document too long to read are theirs; nothing of the document is
        String article = "The mayor said I live in Paris and I'm allergic to walnuts. ".repeat(400);
        List<ExtractedFact> handed = facts("I'm allergic to latex and I live in Oslo. Can you summarize this "
                + "article:\n" + article);
        assertThat(handed).extracting(ExtractedFact::value).contains("latex", "Oslo")
                .noneMatch(v -> v.contains("Paris") || v.contains("walnut"));
        // a tool's output is never the user's; its first characters are read as the tool's episodes
        assertThat(extractor.extract(new TurnInput(Role.TOOL, longText, "search", "t", AT))).isNotEmpty()
                .extracting(ExtractedFact::subject).doesNotContain("user.location", "user.allergy");
    }

    @Test
    void a_sentence_without_a_subject_is_somebody_elses_only_right_after_one_about_them() {
        // about somebody else: their news, not the speaker's
        for (String text : List.of("Oh she's great. Moved to Manchester last month.", "My sister? Moved to Lyon.",
                "My brother is fine. Got a job at Google.", "Mom's fine. Allergic to shellfish now though.",
                "Carol's doing well. Just moved to Lyon.", "Dad? Moved to Faro last month.",
                "Did you see Carol? Moved to Lyon last month, apparently.", "Her? Moved to Chicago.",
                "Tom's kid is adorable. Severely allergic to peanuts though.", "the new intern is nice. moved to seattle last week",
                "My roommate is a mess lately. Allergic to cats now, which is a problem since we have two.",
                "He's fine I guess. Just got a job at Pfizer.", "Got a job at Tesla, from what I hear.")) {
            assertThat(facts(text)).as(text).noneMatch(f -> f.subject().equals("user.location")
                    || f.subject().equals("user.employer") || f.subject().equals("user.allergy"));
        }
        // the speaker's: no other person opens the sentence before, that sentence is about something
        // else, thanks close the answer, another sentence comes between, or the sentence asks something
        assertThat(subjects("Lisbon was great. Moved to Porto last month.")).contains("user.location");
        assertThat(subjects("Chicago is freezing. Moved to Miami last month.")).contains("user.location");
        assertThat(subjects("They're closed on Mondays. Moved to Lyon anyway.")).contains("user.location");
        assertThat(subjects("He's doing well, thanks for asking! Moved to Lyon last month.")).contains("user.location");
        assertThat(subjects("My brother is visiting. Work is crazy. Started at Amazon two weeks ago."))
                .contains("user.employer"); // "Started at Amazon": the speaker's new job, said without the "I"
        assertThat(subjects("My boss is on vacation. Allergic to peanuts, so please skip the satay."))
                .contains("user.allergy");
        assertThat(subjects("Mom, guess what! Allergic to kiwi now.")).contains("user.allergy");
        assertThat(subjects("She's amazing. I moved to Lyon for her.")).contains("user.location");
        assertThat(subjects("Dan's doing fine. Anyway!! Moved back to Ohio.")).contains("user.location");
        // a short answer to somebody else's question about a person keeps that person the topic
        for (String[] qa : List.of(new String[] {"How's your brother doing these days?", "Good! Moved to Phoenix in April."},
                new String[] {"How's the baby doing?", "Great, severely allergic to milk though."},
                new String[] {"Como está o teu irmão?", "Bem! Alérgico a amendoim, descobriu ontem."})) {
            assertThat(extractor.extract(new TurnInput(Role.USER, qa[1], null, "t", AT, qa[0]))).as(qa[1])
                    .noneMatch(f -> f.subject().equals("user.location") || f.subject().equals("user.allergy"));
        }
        assertThat(extractor.extract(new TurnInput(Role.USER, "Moved to Phoenix in April.", null, "t", AT,
                "How are you?"))).extracting(ExtractedFact::subject).contains("user.location");
        assertThat(subjects("I moved to Lyon, apparently the best decision of my life.")).contains("user.location");
    }

    @Test
    void a_label_is_somebody_elses_only_when_it_names_a_person_and_how_they_sent_the_text() {
        noFact("user.allergy", "Sam (my coworker): I'm allergic to nuts.", "Dr. Patel: I'm allergic to nuts.",
                "My boss just emailed: I'm allergic to nuts.", "Mom (on the phone): I'm allergic to nuts.",
                "Saw this on reddit: I'm allergic to nuts.",
                "Voicemail from the landlord (auto-transcribed): I'm allergic to nuts.",
                "My manager just messaged: I'm allergic to nuts.");
        noFact("user.location", "Mãe ao telefone: eu moro em Faro agora");
        noFact("user.location", "Mom on the phone just now: I live in Faro.", "The family chat, from Dad: I live in Faro.",
                "My sister on WhatsApp: I moved to Lyon!");
        // headings of the speaker's own
        assertThat(subjects("Tokyo (day 3): I'm allergic to shellfish so sushi was tricky.")).contains("user.allergy");
        assertThat(subjects("Portugal (since 2019): I live in Porto.")).contains("user.location");
        assertThat(subjects("Mom in the hospital: I'm flying to Leeds tomorrow to be with her.")).contains("user.plan");
        assertThat(subjects("Stripe via LinkedIn: I got an offer, I'm moving to Dublin.")).contains("user.plan");
        assertThat(subjects("Just found this out: I'm lactose intolerant.")).contains("user.health");
        assertThat(subjects("Can you proofread this: I'm a nurse in Leeds. It's for my LinkedIn profile."))
                .contains("user.job");
    }

    @Test
    void a_sentence_without_a_subject_after_the_speakers_own_label_is_theirs() {
        assertThat(only("Update: moved to Denver!", "user.location").value()).isEqualTo("Denver");
        assertThat(only("Health note: allergic to penicillin.", "user.allergy").value()).isEqualTo("penicillin");
        assertThat(only("Big news: got a job at Google!!", "user.employer").value()).isEqualTo("Google");
        noFact("user.location", "Her update: moved to Denver!", "Mom: moved to Denver!", "Family news: moved to Denver!");
    }

    @Test
    void chat_interjections_without_a_comma_do_not_hide_the_statement_after_them() {
        assertThat(only("yeah allergic to sesame lol", "user.allergy").value()).isEqualTo("sesame");
        assertThat(only("ok allergic to sesame", "user.allergy").value()).isEqualTo("sesame");
        assertThat(only("okay moved to Denver last week", "user.location").value()).isEqualTo("Denver");
        assertThat(only("lol got a job at Google", "user.employer").value()).isEqualTo("Google");
        // the interjection does not make somebody else's sentence the speaker's
        noFact("user.location", "yeah he moved to Denver", "lol my sister moved to Denver");
        noFact("user.allergy", "no allergic reactions so far");
    }

    @Test
    void a_condition_that_does_not_open_with_if_states_nothing() {
        noFact(Set.of("user.health", "user.allergy", "user.diet", "user.location"),
                "In case I'm pregnant, which medicines should I avoid?",
                "Just in case I'm allergic to penicillin, what else can I take?",
                "In the event that I'm diabetic, what should I eat?", "Whether or not I'm allergic to nuts, I avoid them.",
                "Assuming I'm vegan, what's for dinner?", "Provided I'm still in Denver next year, I'll host.");
        // a reason is no condition
        assertThat(only("Since I live in Arizona, I get hay fever.", "user.location").value()).isEqualTo("Arizona");
        assertThat(only("I'm pregnant, just in case you wondered.", "user.health").value()).isEqualTo("pregnant");
        assertThat(only("In case you were wondering, I'm vegan.", "user.diet").value()).isEqualTo("vegan");
        assertThat(only("Whether I like it or not, I live in Leeds now.", "user.location").value()).isEqualTo("Leeds");
    }

    @Test
    void a_trailing_phrase_of_time_or_stance_is_no_part_of_the_value() {
        assertThat(only("I live in Bern right now.", "user.location").value()).isEqualTo("Bern");
        assertThat(only("I work at Intel right now.", "user.employer").value()).isEqualTo("Intel");
        ExtractedFact notAllergic = only("Turns out I'm not allergic to penicillin after all.", "user.allergy");
        assertThat(notAllergic.value()).isEqualTo("penicillin");
        assertThat(notAllergic.polarity()).isEqualTo(Polarity.NEGATIVE);
    }

    @Test
    void an_age_said_as_a_bare_number_is_read() {
        assertThat(only("I'm 41.", "user.age").value()).isEqualTo("41");
        assertThat(only("Oops, I typed that wrong last time, I'm 44.", "user.age").value()).isEqualTo("44");
        assertThat(only("I'm 52 and I work at a bank.", "user.age").value()).isEqualTo("52");
        assertThat(only("My age is 44.", "user.age").value()).isEqualTo("44");
        noFact("user.age", "I'm 5 minutes away", "I'm 100% sure", "I'm 2 weeks pregnant", "I'm 30 pages in",
                "I'm 5 years older than him", "He's 41.", "If I'm 40, am I old?", "I'm 3 and 0 this season");
    }

    @Test
    void a_request_or_a_tag_after_a_statement_leaves_it_the_speakers() {
        assertThat(only("Also I'm allergic to latex, tell the dentist.", "user.allergy").value()).isEqualTo("latex");
        assertThat(only("I live in Denver, please tell the driver.", "user.location").value()).isEqualTo("Denver");
        assertThat(only("I'm vegan, remember?", "user.diet").value()).isEqualTo("vegan");
        assertThat(only("I'm gluten-free, you remember that, right?", "user.diet").value()).isEqualTo("gluten-free");
        // somebody else's words stay theirs; a question stays a question
        noFact("user.location", "She told me, I live in Paris", "My sister told everyone, I live in Paris now",
                "Do you remember I live in Denver, ok?");
    }

    @Test
    void a_judgement_of_how_well_is_no_job_and_we_got_married_is_a_status() {
        noFact("user.job", "I'm a terrible cook myself", "I'm a great driver", "Sou uma péssima cozinheira");
        assertThat(only("I'm a registered nurse", "user.job").value()).isEqualTo("registered nurse");
        assertThat(only("We got married on Saturday!", "user.relationship").value()).isEqualTo("married");
        noFact("user.relationship", "We got married to our jobs", "If we got married, where would we live?");
    }

    @Test
    void a_job_at_a_company_named_like_its_product_is_an_employer() {
        assertThat(only("Got a job at Netflix", "user.employer").value()).isEqualTo("Netflix");
        assertThat(only("Nope, got a new job at SAP", "user.employer").value()).isEqualTo("SAP");
        assertThat(only("I started working at Spotify", "user.employer").value()).isEqualTo("Spotify");
        // without a job word a tool's name after "started at" is no employer
        noFact("user.employer", "I started at Python");
    }

    @Test
    void a_statement_before_a_question_in_one_sentence_is_read() {
        assertThat(only("I'm vegan, what should I cook tonight?", "user.diet").value()).isEqualTo("vegan");
        assertThat(only("I live in Denver, any good gyms?", "user.location").value()).isEqualTo("Denver");
        assertThat(only("I'm allergic to peanuts - can you suggest snacks?", "user.allergy").value())
                .isEqualTo("peanuts");
        assertThat(only("Sou alérgica a camarão, o que posso comer no jantar?", "user.allergy").value())
                .isEqualTo("camarão");
        // a question or a condition before the question states nothing
        noFact("user.allergy", "Am I allergic to penicillin?", "Do you think I'm allergic to cats, or what?");
        noFact("user.location", "If I move to Berlin, will I need a visa?", "Should I live in Denver, what do you think?");
    }

    @Test
    void where_the_speaker_lives_and_is_from_without_an_i() {
        assertThat(only("Been living in Tromsø since 2018, originally from Bergen.", "user.location").value())
                .isEqualTo("Tromsø");
        assertThat(only("Been living in Tromsø since 2018, originally from Bergen.", "user.origin").value())
                .isEqualTo("Bergen");
        assertThat(only("I'm Ilse by the way, 29, based in Utrecht.", "user.location").value()).isEqualTo("Utrecht");
        assertThat(only("Based in Valencia, working remotely for now.", "user.location").value()).isEqualTo("Valencia");
        assertThat(only("Originally from Cork.", "user.origin").value()).isEqualTo("Cork");
        assertThat(only("Born and raised in Nebraska.", "user.origin").value()).isEqualTo("Nebraska");
        // somebody else's, a time, a figure of speech, an opening that is no residence
        noFact(Set.of("user.location", "user.origin"), "I have a sister, living in Paris.",
                "I married a guy, born in Texas.", "I visited once, but living in Tokyo is a different story.",
                "i'm ok, living in denial lol", "I'm Nadia, based in Glasgow, well, not anymore.",
                "My cousin, based in Derby, works at Boots.",
                "Born in 1990.", "Living the dream in Lisbon.", "Based on what you said, I'd pick Lisbon.",
                "Been living in my car for a week lol", "She said, originally from Peru, she moved here.");
        // after a question about somebody else, a sentence without a subject is theirs
        assertThat(extractor.extract(new TurnInput(Role.USER, "Originally from Lima.", null, "t", AT,
                "What about your new colleague?"))).noneMatch(f -> f.subject().equals("user.origin"));
    }

    @Test
    void what_the_speaker_teaches_is_their_job_and_an_age_may_come_before_it() {
        assertThat(only("I teach high school chemistry, so summers are my only break.", "user.job").value())
                .isEqualTo("high school chemistry");
        assertThat(only("Dou aula de geografia numa escola em Natal.", "user.job").value()).isEqualTo("geografia");
        assertThat(only("I'm 34 and a carpenter, not an architect lol.", "user.job").value()).isEqualTo("carpenter");
        noFact("user.job", "I teach my kids to read at home.", "Teach me how to cook rice.",
                "If I teach English abroad, will I need a visa?", "I don't teach anymore.", "I taught history for years.");
    }

    @Test
    void a_yes_to_a_question_about_the_speaker_says_what_the_question_asked() {
        ExtractedFact diet = extractor.extract(new TurnInput(Role.USER, "Yep, for about six years now.", null, "t", AT,
                "Quick question before I plan your meals: are you vegetarian?")).stream()
                .filter(f -> f.subject().equals("user.diet")).findFirst().orElseThrow();
        assertThat(diet.value()).isEqualTo("vegetarian");
        assertThat(diet.text()).contains("are you vegetarian?").contains("Yep, for about six years now.");
        assertThat(answer("Do you live in Gdańsk?", "Yes.")).contains("user.location");
        assertThat(answer("You're allergic to sesame, right?", "Yes, badly.")).contains("user.allergy");
        assertThat(answer("Você mora em Londrina?", "Sim, há dez anos.")).contains("user.location");
        // a narrowed or taken-back yes, a question about somebody else, a yes to no fact, no question at all
        assertThat(answer("Are you allergic to cats?", "Yes, but not anymore.")).doesNotContain("user.allergy");
        assertThat(answer("Is your sister vegan?", "Yes.")).doesNotContain("user.diet");
        assertThat(answer("Are you and your wife moving to Porto?", "yes")).doesNotContain("user.location");
        assertThat(answer("Are you sure?", "Yes")).isEmpty();
        assertThat(answer("I live in Gdańsk.", "Yes.")).doesNotContain("user.location");
        assertThat(answer("Are you vegetarian?", "Yes? Why do you ask?")).doesNotContain("user.diet");
        // taken back, narrowed, no yes at all, a condition or a choice in the question, "você e" (and)
        assertThat(answer("Are you pregnant?", "Yes! Just kidding.")).doesNotContain("user.health");
        assertThat(answer("Are you vegetarian?", "Right now I eat everything.")).doesNotContain("user.diet");
        assertThat(answer("Você é vegetariana?", "Isso depende do dia.")).doesNotContain("user.diet");
        assertThat(answer("Are you vegan?", "Yes, mostly.")).doesNotContain("user.diet");
        // (the answer's own "retired now" is the speaker's job now: not the nurse the question asked about)
        assertThat(extractor.extract(new TurnInput(Role.USER, "Yes, retired now.", null, "t", AT, "Are you a nurse?"))
                .stream().filter(f -> f.subject().equals("user.job")).map(ExtractedFact::value).toList())
                .containsExactly("retired");
        assertThat(answer("If you're vegetarian, should I skip the bacon?", "Sure, skip it.")).doesNotContain("user.diet");
        assertThat(answer("Do you live in Denver or Boulder?", "Yeah, Boulder.")).doesNotContain("user.location");
        assertThat(answer("Você e o João, né?", "Isso!")).doesNotContain("user.name");
        assertThat(answer("Do you live in Lisbon?", "Yes I do.")).contains("user.location");
    }

    @Test
    void a_short_answer_to_a_question_about_the_speaker_says_what_the_question_asked() {
        assertThat(answered("Where are you based these days?", "manchester! moved up from london last spring",
                "user.location")).isEqualTo("Manchester");
        assertThat(answered("Você mora onde?", "em niterói, do ladinho do rio", "user.location")).isEqualTo("Niterói");
        assertThat(answered("Where are you from originally?", "Cork, but I left at 19", "user.origin")).isEqualTo("Cork");
        assertThat(answered("Where do you work?", "amazon, warehouse side", "user.employer")).isEqualTo("Amazon");
        assertThat(answered("What do you do for work?", "Nursing, mostly nights.", "user.job")).isEqualTo("Nursing");
        assertThat(answered("How old are you, if you don't mind me asking?", "27, why?", "user.age")).isEqualTo("27");
        assertThat(answered("When's your birthday?", "march 3rd! same day as my dad", "user.birthday"))
                .isEqualTo("march 3rd");
        assertThat(answered("Hi! What's your name?", "i'm dani 👋", "user.name")).isEqualTo("Dani");
        assertThat(answered("What should I call you?", "just sam", "user.address_as")).isEqualTo("Sam");
        assertThat(answered("How would you like me to address you?", "Dr. Okafor", "user.address_as"))
                .isEqualTo("Dr. Okafor");
        assertThat(answered("How would you like me to address you?", "just sam is fine", "user.address_as"))
                .isEqualTo("Sam");
        assertThat(answered("Is English your first language?", "no, polish. been here 10 yrs", "user.native_language"))
                .isEqualTo("Polish");
        assertThat(answered("Do you have any pets?", "a bearded dragon called steve lol", "user.pet")).isEqualTo("Steve");
        assertThat(answered("What's your favourite colour?", "green, always green", "user.favorite.color"))
                .isEqualTo("green");
        assertThat(answered("Do you have a partner?", "nope, single as a pringle", "user.relationship"))
                .isEqualTo("single");
        List<String> allergens = extractor.extract(new TurnInput(Role.USER, "penicillin, and cats but that's not food lol",
                        null, "t", AT, "Any allergies I should know about?")).stream()
                .filter(f -> f.subject().equals("user.allergy")).map(ExtractedFact::value).toList();
        assertThat(allergens).containsExactly("penicillin", "cats");
        // the text quotes the exchange, never the statement the answer was read as
        ExtractedFact where = extractor.extract(new TurnInput(Role.USER, "Leeds, since last spring", "Priya", "t", AT,
                "Where do you live now?")).stream().filter(f -> f.subject().equals("priya.location")).findFirst()
                .orElseThrow();
        assertThat(where.text()).isEqualTo("Priya lives in Leeds (answering \"Where do you live now?\": "
                + "\"Leeds, since last spring\")");
        // a refusal, a joke, a denial, a choice or a condition, somebody else named, a sentence of the
        // speaker's own (read by the statement rules), an answer that is no value of the kind asked
        assertThat(answer("Where do you live?", "Mars lol jk")).doesNotContain("user.location");
        assertThat(answer("Where do you live?", "idk anymore tbh")).doesNotContain("user.location");
        assertThat(answer("Where do you live?", "not telling you that haha")).doesNotContain("user.location");
        // a question to somebody else by name: not the speaker's (without a speaker, the one end user is "Tom")
        assertThat(extractor.extract(new TurnInput(Role.USER, "Leeds", "Ann", "t", AT, "Where do you live, Tom?")))
                .noneMatch(f -> f.subject().equals("ann.location"));
        assertThat(extractor.extract(new TurnInput(Role.USER, "Leeds", "Ann", "t", AT, "Tom, where do you live?")))
                .noneMatch(f -> f.subject().equals("ann.location"));
        assertThat(extractor.extract(new TurnInput(Role.USER, "Leeds", "Tom", "t", AT, "Where do you live, Tom?")))
                .anyMatch(f -> f.subject().equals("tom.location"));
        assertThat(answer("Where do you live, Paris or Rome?", "Rome!")).doesNotContain("user.location");
        assertThat(answer("If you could live anywhere, where do you live in your dreams?", "Kyoto"))
                .doesNotContain("user.location");
        assertThat(answer("How old is your daughter?", "7")).doesNotContain("user.age");
        assertThat(answer("How old are you?", "old enough lol")).doesNotContain("user.age");
        assertThat(answer("When's your birthday?", "soon!")).doesNotContain("user.birthday");
        assertThat(answer("Any allergies?", "none, thankfully")).doesNotContain("user.allergy");
        assertThat(answer("What do you do for work?", "nothing much, between jobs")).doesNotContain("user.job");
        assertThat(answer("Where's the meeting?", "Leeds")).doesNotContain("user.location");
        assertThat(extractor.extract(new TurnInput(Role.USER, "My sister lives in Leeds, I'm in York.", null, "t", AT,
                "Where do you live?")).stream().filter(f -> f.subject().equals("user.location"))
                .map(ExtractedFact::value).toList()).doesNotContain("Leeds");
        assertThat(answer("Do you have a partner?", "nope, working on it")).doesNotContain("user.relationship");
        // a question about somebody or something else, or about "you" in general
        for (String[] qa : List.of(new String[] {"Onde mora a sua irmã?", "Porto"},
                new String[] {"Quantos anos tem o seu filho?", "7"}, new String[] {"De onde é esse vinho?", "do Douro"},
                new String[] {"Como se chama aquele filme?", "Titanic"},
                new String[] {"Seu filho tem alguma alergia?", "amendoim"},
                new String[] {"Does your son have any allergies?", "peanuts"},
                new String[] {"How old are you supposed to be to drink in the US?", "21"},
                new String[] {"How old are you in this photo?", "7"},
                new String[] {"Your flight got cancelled. What do you do?", "panic"},
                new String[] {"Where are you living next year?", "Berlin"},
                new String[] {"Em que empresa você gostaria de trabalhar?", "Google"})) {
            assertThat(extractor.extract(new TurnInput(Role.USER, qa[1], null, "t", AT, qa[0]))).as(qa[0])
                    .noneMatch(f -> f.subject().matches("user\\.(?:location|age|origin|name|allergy|job|employer)"));
        }
        // a question back, an answer doubted or taken back, a value that is no value of the kind asked
        for (String[] qa : List.of(new String[] {"Where do you live?", "why do you ask?"},
                new String[] {"What's your name?", "who's asking?"}, new String[] {"Are you married?", "married? me? lol"},
                new String[] {"Where do you live?", "Paris, I wish 😂"}, new String[] {"Where do you work?", "Google, until last week"},
                new String[] {"Where do you live?", "Leeds is where my parents live. I'm in York."},
                new String[] {"Where do you live?", "with parents"}, new String[] {"Where do you live?", "on a boat lol"},
                new String[] {"Where do you work?", "from home mostly"}, new String[] {"Where do you work?", "self employed"},
                new String[] {"What do you do for work?", "as little as possible lol"},
                new String[] {"What's your hometown like?", "pretty boring tbh"}, new String[] {"How old are you?", "12 lol"},
                new String[] {"Are you married?", "married to the job"})) {
            assertThat(extractor.extract(new TurnInput(Role.USER, qa[1], null, "t", AT, qa[0]))).as(qa[0] + " " + qa[1])
                    .noneMatch(f -> f.subject().matches(
                            "user\\.(?:location|age|origin|name|employer|job|relationship)") && f.text().contains("answering"));
        }
        // only what the question asked: "a dog and a husband" answers the pet question with a dog
        assertThat(answer("Do you have any pets?", "a dog and a husband lol")).contains("user.pet")
                .doesNotContain("user.family.husband");
        assertThat(answered("Você tem algum animal?", "um gato", "user.pet")).isEqualTo("gato");
        assertThat(answered("Qual é a sua língua materna?", "português", "user.native_language")).isEqualTo("Português");
    }

    @Test
    void everyday_phrasings_of_health_diet_status_birthdays_and_tastes() {
        // conditions and diets said in passing or as a greeting
        assertThat(only("My asthma's been so bad since the wildfires started.", "user.health").value()).isEqualTo("asthma");
        assertThat(only("I've been dealing with depression for years.", "user.health").value()).isEqualTo("depression");
        assertThat(only("Type 1 diabetic here, so carb counts please.", "user.health").value()).isEqualTo("diabetic");
        assertThat(only("I'm 28 weeks pregnant.", "user.health").value()).isEqualTo("pregnant");
        assertThat(only("Vegetarian for 8 years now.", "user.diet").value()).isEqualTo("Vegetarian");
        assertThat(only("I've gone fully vegan since January.", "user.diet").value()).isEqualTo("vegan");
        ExtractedFact drink = only("I quit drinking in March.", "user.diet");
        assertThat(drink.value()).isEqualTo("alcohol");
        assertThat(drink.polarity()).isEqualTo(Polarity.NEGATIVE);
        noFact(Set.of("user.health", "user.diet"), "My sister's asthma is bad.", "My eczema cleared up after I moved.",
                "Is my asthma going to get worse?", "If my depression comes back, what do I do?",
                "My mom is dealing with depression.", "My friend went vegan last year.", "Vegan for 2 years now? Wow.");
        // relationship status said by what the speaker goes through or celebrates
        assertThat(only("I'm newly single.", "user.relationship").value()).isEqualTo("single");
        assertThat(only("I'm going through a divorce right now.", "user.relationship").value())
                .isEqualTo("going through a divorce");
        assertThat(only("Me and my husband just celebrated 10 years married.", "user.relationship").value())
                .isEqualTo("married");
        assertThat(only("I'm happily engaged to the love of my life.", "user.relationship").value()).isEqualTo("engaged");
        noFact("user.relationship", "My parents are going through a divorce.", "We celebrated 10 years of our company.",
                "I'm not going through a divorce, don't worry.", "My parents celebrated 40 years married.");
        // birthdays and ages said otherwise
        assertThat(only("My birthday's on the 14th of Feb.", "user.birthday").value()).isEqualTo("14th of Feb");
        assertThat(only("I was born 7 July 1990.", "user.birthday").value()).isEqualTo("7 July 1990");
        assertThat(only("Faço anos a 2 de setembro.", "user.birthday").value()).isEqualTo("2 de setembro");
        assertThat(only("As a 52 year old woman, is lifting safe?", "user.age").value()).isEqualTo("52");
        noFact("user.birthday", "I was born 2 weeks early.", "My birthday is coming up soon.", "I was born in 1990.");
        noFact("user.age", "I'm 5 years old emotionally.", "As a 5 year old, I loved trains.");
        // native languages
        assertThat(only("I grew up speaking Hindi at home.", "user.native_language").value()).isEqualTo("Hindi");
        assertThat(only("As a native German speaker, word order trips me up.", "user.native_language").value())
                .isEqualTo("German");
        assertThat(only("English isn't my first language (it's Tagalog).", "user.native_language").value())
                .isEqualTo("Tagalog");
        noFact("user.native_language", "My brother grew up speaking French.", "English isn't my first language either.",
                "I grew up speaking to my grandma every day.");
        // tastes said by a judgement
        assertThat(only("Mushrooms are the worst.", "user.dislikes").value()).isEqualTo("Mushrooms");
        assertThat(only("I find podcasts so boring.", "user.dislikes").value()).isEqualTo("podcasts");
        assertThat(only("Nothing beats a long hike on a Sunday morning.", "user.likes").value()).isEqualTo("long hike");
        assertThat(only("Big fan of Studio Ghibli.", "user.likes").value()).isEqualTo("Studio Ghibli");
        assertThat(only("Sou doida por fado.", "user.likes").value()).isEqualTo("fado");
        assertThat(only("Sou muito fã de Chico Buarque.", "user.likes").value()).isEqualTo("Chico Buarque");
        // a statement before an emoji and a question is read; ended likes, conditions and diets are negative
        assertThat(only("gone fully vegan since january 🌱 any good protein ideas that aren't tofu?", "user.diet").value())
                .isEqualTo("vegan");
        ExtractedFact birthday = only("meu aniversário é dia 15 de maio, já tô planejando o churrasco 🍖 vc me ajuda?",
                "user.birthday");
        assertThat(birthday.text()).startsWith("O aniversário de Usuário é 15 de maio");
        assertThat(only("I used to love running.", "user.likes").polarity()).isEqualTo(Polarity.NEGATIVE);
        ExtractedFact eczema = only("i used to have really bad eczema but it cleared up completely.", "user.health");
        assertThat(eczema.value()).isEqualTo("eczema");
        assertThat(eczema.polarity()).isEqualTo(Polarity.NEGATIVE);
        assertThat(only("I had asthma as a kid.", "user.health").polarity()).isEqualTo(Polarity.NEGATIVE);
        assertThat(only("i was vegan for 3 years but started eating fish again", "user.diet").polarity())
                .isEqualTo(Polarity.NEGATIVE);
        assertThat(only("the office is hands down my fav show", "user.favorite.show").value()).isEqualTo("office");
        noFact("user.health", "I had a cold last week.", "I had asthma attacks all week.");
        noFact("user.diet", "I was a vegan chef.", "If I moved to Berlin 🙂 would I go vegan?");
        // what the speaker works as, said with "as a … I", "freelancing as", "working as"
        assertThat(only("as a high school chem teacher i can confirm teenagers skip the safety sheet", "user.job").value())
                .isEqualTo("high school chem teacher");
        assertThat(only("i've been freelancing as a graphic designer for about six years", "user.job").value())
                .isEqualTo("graphic designer");
        assertThat(only("I'm working as a waiter this summer.", "user.job").value()).isEqualTo("waiter");
        noFact("user.employer", "i've been freelancing as a graphic designer for about six years",
                "I work for about 3 clients.");
        noFact("user.job", "As a kid I lived in Ohio.", "As a result I moved.", "My sister is working as a nurse.");
        // names and forms of address said otherwise
        assertThat(only("hey, kate here. quick question about my tax return", "user.name").value()).isEqualTo("kate");
        assertThat(only("This is Jamal btw.", "user.name").value()).isEqualTo("Jamal");
        assertThat(only("Olá! Chamo-me Leonor e preciso de ajuda.", "user.name").value()).isEqualTo("Leonor");
        noFact("user.name", "This is Jamal, my brother.", "This is crazy.", "Nurse here, quick question.", "Mom here.",
                "Same here.", "Newbie here, hi all", "this is amazing btw", "Everyone here is nice.", "Tom here is my brother.",
                "Looky here, I got this new pup for you!", "Listen here!", "Over here!");
        assertThat(only("please call me liz, only my mom calls me elizabeth", "user.address_as").value()).isEqualTo("liz");
        assertThat(only("Trate-me por Manel, toda a gente me conhece assim.", "user.address_as").value())
                .isEqualTo("Manel");
        assertThat(only("in formal stuff pls address me as Dr. Okafor", "user.address_as").value()).isEqualTo("Dr. Okafor");
        ExtractedFact sir = only("Don't address me as sir.", "user.address_as");
        assertThat(sir.polarity()).isEqualTo(Polarity.NEGATIVE);
        noFact("user.address_as", "call me later pls", "call me crazy but i like it", "call me back when you can");
        // a stay of years is a home; a stay of months, a trade or an institution is not
        assertThat(only("been in denver 3 yrs now and i still cant get used to the altitude", "user.location").value())
                .isEqualTo("Denver");
        assertThat(only("I've been in Porto for six years now.", "user.location").value()).isEqualTo("Porto");
        assertThat(only("We've been in Austin since 2015.", "user.location").value()).isEqualTo("Austin");
        noFact("user.location", "I've been in Lisbon since March.", "I've been in marketing for 10 years.",
                "I've been in the hospital for 3 days.", "My sister has been in Paris for 3 years.",
                "I've never been in Paris for 2 years.", "been in prison for 5 years lol", "I'm in Porto for the weekend.");
        // skills with their amount or their years
        assertThat(only("been playing the piano since i was 6, mostly classical", "user.skill").value()).isEqualTo("piano");
        assertThat(facts("Falo inglês e um pouco de francês.").stream().filter(f -> f.subject().equals("user.skill"))
                .map(ExtractedFact::value).toList()).containsExactly("inglês", "francês");
        noFact("user.skill", "I'm playing the piano tonight.");
        // a home or a workplace is not read from a passing "here in X", "my house in X", "N years at X"
        noFact(Set.of("user.location", "user.employer"), "I'll be back here in June for the wedding.",
                "We just sold our house in Denver.", "My husband just hit 10 years at Boeing this month!",
                "My boss at Google fired me last week.", "aqui em casa todo mundo gosta de pizza");
        // a time after "quit" names no employer
        noFact("user.employer", "used to be an accountant but i quit in 2021 to open my own bakery.",
                "I quit last week.");
        // the "I" left out: read as said with it
        ExtractedFact quit = only("quit drinking in march, feeling way better.", "user.diet");
        assertThat(quit.value()).isEqualTo("alcohol");
        assertThat(quit.text()).endsWith("(\"quit drinking in march, feeling way better.\")");
        assertThat(only("newly single and honestly thriving", "user.relationship").value()).isEqualTo("single");
        assertThat(only("happily engaged to the love of my life, wedding is in october 🥰 now i need a dress",
                "user.relationship").value()).isEqualTo("engaged");
        assertThat(only("Divorciei-me no ano passado e agora vivo sozinho.", "user.relationship").value())
                .isEqualTo("divorciado(a)");
        noFact("user.relationship", "Separei as roupas para lavar.", "Separei uma parte do dinheiro para a viagem.",
                "Married, I think.");
        assertThat(only("turned 30 on sunday and everyone keeps asking", "user.age").value()).isEqualTo("30");
        assertThat(only("retired last year after 35 years on the railways", "user.job").value()).isEqualTo("retired");
        assertThat(only("I'm from Cork originally.", "user.origin").value()).isEqualTo("Cork");
        noFact(Set.of("user.health", "user.relationship", "user.job", "user.origin", "user.employer", "user.location",
                        "user.age", "user.skill", "user.native_language"), "Pregnant women shouldn't eat brie.",
                "Single parents have it hard.", "Newly married couples often struggle.", "Retired people love cruises.",
                "From Lisbon, the best day trip is Sintra.", "Work at Google sounds fun.", "Live in Lisbon is super expensive.",
                "Turned 45 degrees and it worked.", "Speak French please.", "Grew up speaking French is common in Quebec.");
        noFact(Set.of("user.relationship", "user.location", "user.diet"), "married to my job lol", "been to Paris twice",
                "My brother is visiting. Quit drinking in March.", "Quit drinking? Never.");
        noFact(Set.of("user.likes", "user.dislikes"), "Sarah is the best.", "Plan A is the best.", "Into the fridge it goes.",
                "The second one is the best.");
        assertThat(only("Sou viciada em café.", "user.likes").value()).isEqualTo("café");
        assertThat(only("Weddings truly are the best!", "user.likes").value()).isEqualTo("Weddings");
        noFact("user.health", "I'm too lazy to research alternative pets for my allergies.");
        noFact(Set.of("user.diet", "user.health", "user.relationship", "user.location", "user.name", "user.age",
                        "user.address_as"), "Vegan for a week was hard.", "Keto for two weeks and I gave up.",
                "I went vegan for a month in 2019 but quit.", "Living with depression is something my sister knows well.",
                "Dealing with depression at work: a guide.", "Today would have been our 10th wedding anniversary.",
                "We're getting a divorce lawyer for my mom.", "i've been in pain for 3 years now",
                "been in denial for 2 years lol", "Been in AA for 3 years.", "I've been in Congress for 12 years.",
                "Lunchtime here.", "Summer here!", "This is Max.", "This is Sparta!", "call me dramatic but that movie sucked",
                "I'm a 2-year-old's mom and exhausted.", "As a 10-year-old company, we value our customers.");
        noFact(Set.of("user.likes", "user.dislikes"), "You are the worst.", "This is the best.", "My boss is the worst.",
                "The best part is the ending.", "I find him annoying.", "I find it boring.", "Nothing beats you.",
                "Sou muito feliz.");
    }

    private String answered(String before, String text, String subject) {
        return extractor.extract(new TurnInput(Role.USER, text, null, "t", AT, before)).stream()
                .filter(f -> f.subject().equals(subject)).findFirst().orElseThrow(
                        () -> new AssertionError("no " + subject + " from \"" + text + "\" after \"" + before + "\""))
                .value();
    }

    @Test
    void a_present_perfect_of_being_or_having_says_what_still_holds() {
        assertThat(only("I've been a paramedic for ten years.", "user.job").value()).isEqualTo("paramedic");
        assertThat(only("I've been vegan since 2015.", "user.diet").value()).isEqualTo("vegan");
        assertThat(only("I've been type 1 diabetic since I was a kid.", "user.health").value()).isEqualTo("diabetic");
        assertThat(only("I've been working at Infosys for 3 years.", "user.employer").value()).isEqualTo("Infosys");
        assertThat(only("I've got a golden retriever named Bolt.", "user.pet").value()).isEqualTo("Bolt");
        assertThat(only("We've been living in Braga since 2020.", "user.location").value()).isEqualTo("Braga");
        // travel, a passing state, an obligation and a continuing activity are no facts of these kinds
        noFact(Set.of("user.relationship", "user.health"), "I've been married twice.", "I've been pregnant three times.");
        noFact(Set.of("user.location", "user.health", "user.job"), "I've been to Lisbon twice.",
                "I've been sick all week.", "I've got to go.", "I've been in Lisbon since March.");
    }

    @Test
    void more_ways_to_say_where_one_works_lives_and_what_one_does() {
        assertThat(only("I work in marketing at Heineken.", "user.employer").value()).isEqualTo("Heineken");
        assertThat(only("I'm working at Zalando.", "user.employer").value()).isEqualTo("Zalando");
        assertThat(only("Just started a new job at Accenture.", "user.employer").value()).isEqualTo("Accenture");
        assertThat(only("Live in Boise now.", "user.location").value()).isEqualTo("Boise");
        assertThat(only("I'm from Angola but live in Porto.", "user.location").value()).isEqualTo("Porto");
        assertThat(only("Me and my wife live in Braga.", "user.location").value()).isEqualTo("Braga");
        assertThat(only("Me and my girlfriend moved to Leeds in January.", "user.location").value()).isEqualTo("Leeds");
        noFact("user.location", "Me and my wife love Braga.", "My wife and her sister live in Braga.");
        assertThat(only("I do bookkeeping for a living.", "user.job").value()).isEqualTo("bookkeeping");
        assertThat(only("We have a beagle, Pepper, she's 14.", "user.pet").value()).isEqualTo("Pepper");
        noFact("user.employer", "I work in the morning at the cafe.", "I'm not working at Zalando anymore.");
        noFact("user.location", "I'd love to live in Paris.", "I think you live in Paris.");
        noFact("user.job", "What do you do for a living?", "I don't do this for a living.", "I teach for a living.",
                "I teach online", "I do not write for a living", "I cleaned houses for a living before college");
        noFact("user.pet", "I have a husky voice.");
    }

    @Test
    void an_opening_that_says_what_the_speaker_is_is_read_as_a_statement() {
        assertThat(only("As someone who's allergic to latex, which gloves can I use?", "user.allergy").value())
                .isEqualTo("latex");
        assertThat(only("As someone with asthma, should I run outside?", "user.health").value()).isEqualTo("asthma");
        assertThat(only("As a vegetarian, what can I eat in Lyon?", "user.diet").value()).isEqualTo("vegetarian");
        assertThat(only("As a type 1 diabetic, can I fast?", "user.health").value()).isEqualTo("diabetic");
        assertThat(only("I'm a diabetic.", "user.health").value()).isEqualTo("diabetic");
        // the listener's role, a role asked of the assistant, a phrase that only opens like one
        noFact(Set.of("user.job", "user.diet", "user.health"), "As a doctor, what would you recommend?",
                "As a vegan chef, what would you cook?", "As a result, I moved.", "As a kid I lived in Ohio.",
                "I'm a blind date expert", "I'm a deaf ear to that");
    }

    private List<String> answer(String before, String text) {
        return extractor.extract(new TurnInput(Role.USER, text, null, "t", AT, before)).stream()
                .map(ExtractedFact::subject).toList();
    }

    private List<String> subjects(String text) {
        return facts(text).stream().map(ExtractedFact::subject).toList();
    }

    private List<ExtractedFact> facts(String text) {
        return extractor.extract(new TurnInput(Role.USER, text, null, "t", AT));
    }

    /** Asserts that none of {@code texts} yields a fact of {@code subject}. */
    private void noFact(String subject, String... texts) {
        noFact(Set.of(subject), texts);
    }

    /** Asserts that none of {@code texts} yields a fact of any of {@code subjects}. */
    private void noFact(Set<String> subjects, String... texts) {
        for (String text : texts) {
            assertThat(facts(text)).as(text).noneMatch(f -> subjects.contains(f.subject()));
        }
    }

    private ExtractedFact only(String text, String subject) {
        List<ExtractedFact> facts = facts(text).stream()
                .filter(f -> f.subject().equals(subject)).collect(Collectors.toList());
        assertThat(facts).as("facts with subject %s from: %s", subject, text).hasSize(1);
        return facts.get(0);
    }

    private String eventDay(String text) {
        List<ExtractedFact> events = facts(text).stream()
                .filter(f -> f.kind() == EVENT && f.eventTime() != null).collect(Collectors.toList());
        assertThat(events).as("a dated event from: %s", text).isNotEmpty();
        return events.get(0).eventTime().toString().substring(0, 10);
    }

    private ExtractedFact episode(String text, String speaker) {
        return extractor.extract(new TurnInput(Role.USER, text, speaker, "t", AT)).stream()
                .filter(f -> Subjects.attribute(f.subject()).startsWith("episode.")).findFirst().orElseThrow();
    }

    private static List<String> styles(List<ExtractedFact> facts) {
        return facts.stream().filter(f -> f.kind() == MemoryKind.STYLE).map(f -> f.subject() + "=" + f.value())
                .collect(Collectors.toList());
    }

    private static List<String> render(List<ExtractedFact> facts) {
        return facts.stream().map(ExtractedFact::toString).collect(Collectors.toList());
    }

    private static String norm(String s) {
        return String.join(" ", Arrays.asList(Terms.foldKeepingLength(s).replaceAll("[^\\p{L}\\p{N}' ]", " ").trim().split("\\s+")));
    }
}
