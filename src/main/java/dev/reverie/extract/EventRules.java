package dev.reverie.extract;

import dev.reverie.Cardinality;
import dev.reverie.MemoryKind;
import dev.reverie.Polarity;
import dev.reverie.internal.Terms;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Plans, dated events and the episodic fallback, all EVENT facts whose value is the statement and
 * whose text is the speaker-prefixed sentence (so every word stays searchable):
 * {@code user.plan} ("I'm going to...", "vou viajar amanhã", "I have a dentist appointment on
 * Friday"), {@code user.event} (a first-person statement with a resolvable date that is not about
 * the future), and {@code user.episode.<hash>} for any other substantive statement. The event time
 * is the resolved date (UTC start of day) or null. Stateless and thread-safe.
 */
final class EventRules {

    private static final String ADV = IdentityRules.ADV;
    private static final String OCCASION_EN = "(?:appointment|meeting|interview|exam|test|surgery|trip|flight|date"
            + "|party|wedding|game|match|concert|class|presentation|deadline|checkup|check-up|consultation|vacation"
            + "|holiday|recital|race|marathon|tournament|show|gig|performance|conference|workshop|session|shift"
            + "|reunion|graduation|ceremony|audition|competition|event|visit|birthday|anniversary)";
    private static final String OCCASION_PT = "(?:consulta|reuniao|entrevista|prova|cirurgia|viagem|voo|festa"
            + "|casamento|aula|apresentacao|exame|show|jogo|compromisso|encontro|formatura|plantao|palestra"
            + "|conferencia|aniversario|ferias|competicao|corrida|maratona|audicao|sessao|evento|visita)";

    private static final Pattern PLAN_EN = Pattern.compile(
            "\\b(?:i'm|im|i\\s+am|we're|we\\s+are)\\s+(?:(not)\\s+)?" + ADV + "{0,2}(?:going\\s+to|gonna|planning\\s+(?:to|on)"
                    + "|about\\s+to|thinking\\s+(?:about|of)|hoping\\s+to|looking\\s+forward\\s+to|scheduled\\s+to"
                    + "|supposed\\s+to|flying\\s+to|leaving\\s+for|heading\\s+to|moving\\s+to|traveling\\s+to"
                    + "|travelling\\s+to|visiting|attending|getting\\s+married)\\b"
                    + "|\\b(?:i|we)\\s+" + ADV + "{0,2}(?:(don't|do\\s+not|no\\s+longer)\\s+)?(?:plan|intend|hope|want|'d\\s+like"
                    + "|would\\s+like|wanna)\\s+to\\b"
                    + "|\\b(?:i|we)\\s+(?:have|'ve\\s+got|got)\\s+(?:an?|my|the|our)\\s+(?:[a-z'\\-]+\\s+){0,2}?" + OCCASION_EN + "\\b"
                    + "|\\bmy\\s+(?:[a-z'\\-]+\\s+){0,2}?" + OCCASION_EN + "\\s+is\\s+(?:on|at|in|next|this|tomorrow|today|tonight)\\b"
                    + "|^(?:gonna|going\\s+to|planning\\s+to|plan\\s+to|about\\s+to|hoping\\s+to|will)\\s+");
    private static final Pattern WILL_EN = Pattern.compile(
            "\\b(?:i'll|ill|i\\s+will|we'll|we\\s+will|i\\s+shall)\\s+(?:(not|never)\\s+)?|\\b(?:i|we)\\s+(?:need|have)\\s+to\\s+");
    private static final Pattern PLAN_PT = Pattern.compile(
            "(?:^|\\beu\\s+|\\ba\\s+gente\\s+|\\bnos\\s+|[,;]\\s*|\\b(?:e|mas|entao|amanha|hoje|ai|agora|depois)\\s+)"
                    + "(?:(nao)\\s+)?(?:vou|vamos|pretendo|planejo|pretendemos|quero|queremos|estou\\s+planejando"
                    + "|to\\s+planejando|estou\\s+pensando\\s+em|to\\s+pensando\\s+em|estou\\s+indo|to\\s+indo|irei)\\s+"
                    + "|\\b(?:eu\\s+)?(?:tenho|temos)\\s+(?:uma?\\s+)?" + OCCASION_PT + "\\b"
                    + "|\\b(?:minha|meu)\\s+" + OCCASION_PT + "\\s+(?:de\\s+[a-z]+\\s+)?(?:e|vai\\s+ser|sera)\\s+");
    private static final Pattern MUST_PT = Pattern.compile("\\b(?:eu\\s+)?(?:tenho\\s+que|preciso)\\s+");

    private EventRules() {
    }

    /**
     * Plans and dated events of a first-person sentence; returns whether one was recorded.
     */
    static boolean plansAndEvents(Sentence s, Facts out) {
        boolean future = s.future();
        Dates.Found date = s.date();
        if (!s.firstPerson) {
            return false; // plans and dated events are the speaker's own ("I", "we", "my", a dropped "I")
        }
        String value = s.bodyText();
        if (value.isBlank() || s.contentWords < 3) {
            return false; // "I'm going to bed", "so tired today": no durable plan or event
        }
        Matcher m = s.match(s.pt() ? PLAN_PT : PLAN_EN);
        boolean plan = m.find();
        boolean negated = false;
        if (plan) {
            negated = s.pt() ? m.group(1) != null : m.group(1) != null || m.group(2) != null;
        } else if (!s.pt()) {
            m = s.match(WILL_EN);
            if (m.find()) {
                int contentAfter = contentWords(s, m.end());
                plan = date != null || contentAfter >= 3;
                negated = plan && m.group(1) != null;
            }
        } else {
            m = s.match(MUST_PT);
            plan = date != null && m.find();
        }
        if (!plan && date != null && future && s.firstPerson) {
            plan = true; // "my surgery is next Tuesday", "semana que vem tenho prova"
        }
        if (plan) {
            out.sentenceFact(MemoryKind.EVENT, "user.plan", value, Cardinality.MULTI,
                    negated ? Polarity.NEGATIVE : Polarity.POSITIVE, Facts.EVENT,
                    date == null ? null : Facts.atStartOfDay(date.date()));
            return true;
        }
        if (date != null && s.firstPerson) {
            out.sentenceFact(MemoryKind.EVENT, "user.event", value, Cardinality.MULTI, Polarity.POSITIVE, Facts.EVENT,
                    Facts.atStartOfDay(date.date()));
            return true;
        }
        return false;
    }

    /** The episodic fallback: any substantive statement becomes a dated EVENT with a stable subject. */
    static void episode(Sentence s, Facts out, String subjectPrefix, double confidence) {
        String value = s.bodyText();
        if (value.isBlank()) {
            return;
        }
        Dates.Found date = s.date();
        out.sentenceFact(MemoryKind.EVENT, subjectPrefix + Terms.stableHash(value), value, Cardinality.MULTI,
                Polarity.POSITIVE, confidence, date == null ? null : Facts.atStartOfDay(date.date()));
    }

    private static int contentWords(Sentence s, int from) {
        int n = 0;
        for (String t : Terms.wordTokens(s.folded.substring(from))) {
            if (!Lexicon.STOP.contains(t) && (t.length() > 1 || Character.isDigit(t.charAt(0)))) {
                n++;
            }
        }
        return n;
    }
}
