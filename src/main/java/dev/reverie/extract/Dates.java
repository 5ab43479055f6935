package dev.reverie.extract;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.temporal.TemporalAdjusters;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the first date expression of a sentence and resolves it against the turn's UTC date:
 * relative days ("yesterday", "anteontem", "the day after tomorrow"), weeks, weekends, months and
 * years ("last week", "semana que vem", "next month"), weekdays ("next Friday", "sexta que vem",
 * "last Saturday"), counts ("3 days ago", "há duas semanas", "in two weeks", "daqui a 3 dias") and
 * absolute dates ("May 8, 2023", "8 de maio", "2023-05-08", "08/05/2023"). Conventions: "next/last
 * &lt;weekday&gt;" is the first such day strictly after/before the turn's day; a bare weekday points
 * forward in a sentence about the future and backward otherwise; "last/next week" is seven days
 * before/after; "this weekend" is the Saturday of the turn's week. Stateless and thread-safe.
 */
final class Dates {

    /** A date expression at {@code [start, end)} of the sentence, resolved to {@code date}. */
    record Found(int start, int end, LocalDate date) {
    }

    private static final Set<String> FUTURE = Lexicon.words("future");

    private static final String WEEKDAYS_EN = "monday|tuesday|wednesday|thursday|friday|saturday|sunday|mondays"
            + "|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays";
    private static final String MONTHS_EN = "january|february|march|april|may|june|july|august|september|october"
            + "|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec";
    private static final String MONTHS_PT = "janeiro|fevereiro|marco|abril|maio|junho|julho|agosto|setembro|outubro"
            + "|novembro|dezembro";
    /** Month and weekday names, English and Portuguese, folded: no place is called only that. */
    static final java.util.Set<String> CALENDAR_WORDS = java.util.Set.of((WEEKDAYS_EN + "|" + MONTHS_EN + "|"
            + MONTHS_PT + "|segunda|terca|quarta|quinta|sexta|sabado|domingo").split("\\|"));

    private static final String NUM_EN = "(a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
            + "|a\\s+few|a\\s+couple(?:\\s+of)?|couple(?:\\s+of)?|several|\\d{1,3})";
    private static final String NUM_PT = "(um|uma|dois|duas|tres|quatro|cinco|seis|sete|oito|nove|dez|onze|doze"
            + "|quinze|vinte|trinta|alguns|algumas|poucos|poucas|\\d{1,3})";
    private static final String WEEKDAY_EN = "(monday|tuesday|wednesday|thursday|friday|saturday|sunday)";
    private static final String MONTH_EN = "(january|february|march|april|may|june|july|august|september|october"
            + "|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)";
    private static final String MONTH_PT = "(janeiro|fevereiro|marco|abril|maio|junho|julho|agosto|setembro"
            + "|outubro|novembro|dezembro)";

    private enum Unit { DAY, WEEK, WEEKEND, MONTH, YEAR }

    private interface Resolver {
        LocalDate resolve(Matcher m, LocalDate today, boolean future, boolean pt);
    }

    /** A date pattern, tried only when the sentence has one of its trigger words (or a digit, for numeric ones). */
    private record Rule(Set<String> triggers, boolean numeric, Pattern pattern, Resolver resolver) {
        boolean applies(Sentence s, long mask, int index) {
            return (mask & (1L << index)) != 0 || numeric && s.hasDigit();
        }
    }

    private static final List<Rule> RULES = List.of(
            rule("before|anteontem", "\\b(?:the\\s+)?day\\s+before\\s+yesterday\\b|\\banteontem\\b", (m, t, f, pt) -> t.minusDays(2)),
            rule("after|depois", "\\b(?:the\\s+)?day\\s+after\\s+tomorrow\\b|\\bdepois\\s+de\\s+amanha\\b", (m, t, f, pt) -> t.plusDays(2)),
            rule("yesterday|night|ontem", "\\byesterday\\b|\\blast\\s+night\\b|\\bontem\\b", (m, t, f, pt) -> t.minusDays(1)),
            rule("tomorrow|amanha", "\\btomorrow\\b|\\bamanha\\b", (m, t, f, pt) -> t.plusDays(1)),
            rule("today|tonight|morning|afternoon|evening|hoje|noite", "\\btoday\\b|\\btonight\\b|\\bthis\\s+(?:morning|afternoon|evening)\\b|\\bhoje\\b"
                    + "|\\b(?:esta|essa|nesta|nessa)\\s+noite\\b", (m, t, f, pt) -> t),
            rule("week|weekend|month|year", "\\b(last|next|this\\s+past|this\\s+coming|this|coming|past)\\s+(week|weekend|month|year)\\b",
                    (m, t, f, pt) -> relative(t, m.group(1), unit(m.group(2)))),
            rule("semana|mes|ano|fim|final", "\\b(?:n?[ao]\\s+)?(semana|mes|ano|fim\\s+de\\s+semana|final\\s+de\\s+semana)\\s+"
                    + "(passad[oa]|retrasad[oa]|que\\s+vem)\\b",
                    (m, t, f, pt) -> relative(t, m.group(2), unit(m.group(1)))),
            rule("semana|mes|ano|fim|final", "\\b(?:n?[ao]\\s+)?(proxim[oa]|ultim[oa])\\s+(semana|mes|ano|fim\\s+de\\s+semana|final\\s+de\\s+semana)\\b",
                    (m, t, f, pt) -> relative(t, m.group(1), unit(m.group(2)))),
            rule("semana|mes|ano|fim|final", "\\b(?:n?est[ea]|n?ess[ea])\\s+(semana|mes|ano|fim\\s+de\\s+semana|final\\s+de\\s+semana)\\b",
                    (m, t, f, pt) -> relative(t, "this", unit(m.group(1)))),
            rule(WEEKDAYS_EN, "\\b(?:(last|next|this\\s+past|this\\s+coming|this|coming|on)\\s+)?" + WEEKDAY_EN + "(s)?\\b",
                    (m, t, f, pt) -> m.group(3) != null ? null : weekday(t, m.group(1), day(m.group(2)), f)),
            rule("segunda|terca|quarta|quinta|sexta|sabado|domingo", "\\b(?:(na|no|nesta|nessa|neste|nesse|esta|essa|este|esse|proxima|proximo|ultima|ultimo"
                    + "|na\\s+proxima|no\\s+proximo|na\\s+ultima|no\\s+ultimo)\\s+)?"
                    + "(segunda|terca|quarta|quinta|sexta|sabado|domingo)(-feira|\\s+feira)?"
                    + "(?:\\s+(que\\s+vem|passad[oa]|retrasad[oa]))?\\b",
                    Dates::portugueseWeekday),
            rule("ago", "\\b" + NUM_EN + "\\s+(day|week|weekend|month|year)s?\\s+ago\\b",
                    (m, t, f, pt) -> shift(t, -count(m.group(1)), unit(m.group(2)))),
            rule("day|days|week|weeks|month|months|year|years", "\\bin\\s+" + NUM_EN + "\\s+(day|week|month|year)s?\\b",
                    (m, t, f, pt) -> shift(t, count(m.group(1)), unit(m.group(2)))),
            rule("ha|atras", "\\bha\\s+" + NUM_PT + "\\s+(dias?|semanas?|mes|meses|anos?)\\b|\\b" + NUM_PT
                    + "\\s+(dias?|semanas?|mes|meses|anos?)\\s+atras\\b",
                    (m, t, f, pt) -> m.group(1) != null ? shift(t, -count(m.group(1)), unit(m.group(2)))
                            : shift(t, -count(m.group(3)), unit(m.group(4)))),
            rule("daqui|dias|semanas|meses|anos", "\\b(?:daqui\\s+a|em)\\s+" + NUM_PT + "\\s+(dias?|semanas?|meses|anos?)\\b",
                    (m, t, f, pt) -> shift(t, count(m.group(1)), unit(m.group(2)))),
            numeric("", "\\b(\\d{4})-(\\d{1,2})-(\\d{1,2})\\b",
                    (m, t, f, pt) -> date(num(m.group(1)), num(m.group(2)), num(m.group(3)))),
            rule(MONTHS_EN, "\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?" + MONTH_EN + "\\b(?:,?\\s+(\\d{4})\\b)?",
                    (m, t, f, pt) -> date(year(m.group(3), t), month(m.group(2)), num(m.group(1)))),
            rule(MONTHS_EN, "\\b" + MONTH_EN + "\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4})\\b)?",
                    (m, t, f, pt) -> date(year(m.group(3), t), month(m.group(1)), num(m.group(2)))),
            rule(MONTHS_PT, "\\b(\\d{1,2})\\s+de\\s+" + MONTH_PT + "(?:\\s+de\\s+(\\d{4}))?\\b",
                    (m, t, f, pt) -> date(year(m.group(3), t), month(m.group(2)), num(m.group(1)))),
            numeric("", "(?<![\\d/.])(\\d{1,2})/(\\d{1,2})(?:/(\\d{4}|\\d{2}))?(?![\\d/])", Dates::slashDate));

    /** For each trigger word, the bit set of the rules it enables: one map lookup per token instead of one per rule. */
    private static final Map<String, Long> RULES_BY_WORD = rulesByWord();

    private static Map<String, Long> rulesByWord() {
        Map<String, Long> m = new java.util.HashMap<>();
        for (int i = 0; i < RULES.size(); i++) {
            for (String w : RULES.get(i).triggers) {
                m.merge(w, 1L << i, (a, b) -> a | b);
            }
        }
        return Map.copyOf(m);
    }

    private static final Map<String, Integer> NUMBERS = Map.ofEntries(
            Map.entry("a", 1), Map.entry("an", 1), Map.entry("one", 1), Map.entry("two", 2), Map.entry("three", 3),
            Map.entry("four", 4), Map.entry("five", 5), Map.entry("six", 6), Map.entry("seven", 7),
            Map.entry("eight", 8), Map.entry("nine", 9), Map.entry("ten", 10), Map.entry("eleven", 11),
            Map.entry("twelve", 12), Map.entry("several", 3), Map.entry("um", 1), Map.entry("uma", 1),
            Map.entry("dois", 2), Map.entry("duas", 2), Map.entry("tres", 3), Map.entry("quatro", 4),
            Map.entry("cinco", 5), Map.entry("seis", 6), Map.entry("sete", 7), Map.entry("oito", 8),
            Map.entry("nove", 9), Map.entry("dez", 10), Map.entry("onze", 11), Map.entry("doze", 12),
            Map.entry("quinze", 15), Map.entry("vinte", 20), Map.entry("trinta", 30), Map.entry("alguns", 3),
            Map.entry("algumas", 3), Map.entry("poucos", 3), Map.entry("poucas", 3));

    private Dates() {
    }

    private static Rule rule(String triggers, String regex, Resolver resolver) {
        return new Rule(triggers.isEmpty() ? Set.of() : Lexicon.set(triggers), false, Pattern.compile(regex), resolver);
    }

    private static Rule numeric(String triggers, String regex, Resolver resolver) {
        return new Rule(triggers.isEmpty() ? Set.of() : Lexicon.set(triggers), true, Pattern.compile(regex), resolver);
    }

    /** Whether the sentence speaks about the future (so a bare weekday points forward). */
    static boolean future(Sentence s) {
        for (String t : s.tokens) {
            if (FUTURE.contains(t) || t.endsWith("'ll")) {
                return true;
            }
        }
        return false;
    }

    /** The first resolvable date expression in the sentence body, or null. */
    static Found find(Sentence s, LocalDate today, boolean future) {
        long mask = 0;
        for (String t : s.tokens) {
            Long bits = RULES_BY_WORD.get(t);
            if (bits != null) {
                mask |= bits;
            }
        }
        Found best = null;
        for (int i = 0; i < RULES.size(); i++) {
            Rule r = RULES.get(i);
            if (!r.applies(s, mask, i)) {
                continue;
            }
            Matcher m = s.match(r.pattern);
            while (m.find()) {
                if (best != null && m.start() >= best.start) {
                    break;
                }
                LocalDate d;
                try {
                    d = r.resolver.resolve(m, today, future, s.pt());
                } catch (DateTimeException | ArithmeticException e) {
                    d = null;
                }
                if (d != null) {
                    best = new Found(m.start(), m.end(), d);
                    break;
                }
            }
        }
        return best;
    }

    private static Unit unit(String word) {
        String w = word.replaceAll("\\s+", " ");
        if (w.startsWith("weekend") || w.startsWith("fim") || w.startsWith("final")) {
            return Unit.WEEKEND;
        }
        if (w.startsWith("day") || w.startsWith("dia")) {
            return Unit.DAY;
        }
        if (w.startsWith("week") || w.startsWith("semana")) {
            return Unit.WEEK;
        }
        if (w.startsWith("month") || w.startsWith("mes")) {
            return Unit.MONTH;
        }
        return Unit.YEAR;
    }

    private static int direction(String word) {
        String w = word.replaceAll("\\s+", " ");
        if (w.equals("last") || w.equals("this past") || w.equals("past") || w.startsWith("passad")
                || w.startsWith("ultim")) {
            return -1;
        }
        if (w.startsWith("retrasad")) {
            return -2;
        }
        if (w.equals("next") || w.equals("this coming") || w.equals("coming") || w.startsWith("proxim")
                || w.equals("que vem")) {
            return 1;
        }
        return 0;
    }

    private static LocalDate relative(LocalDate today, String which, Unit unit) {
        int dir = direction(which);
        if (unit == Unit.WEEKEND) {
            LocalDate thisSaturday = today.getDayOfWeek() == DayOfWeek.SUNDAY ? today.minusDays(1)
                    : today.with(TemporalAdjusters.nextOrSame(DayOfWeek.SATURDAY));
            if (dir == 0) {
                return thisSaturday;
            }
            if (dir > 0) {
                return today.with(TemporalAdjusters.next(DayOfWeek.SATURDAY));
            }
            LocalDate last = today.with(TemporalAdjusters.previous(DayOfWeek.SATURDAY));
            if (today.getDayOfWeek() == DayOfWeek.SUNDAY || today.getDayOfWeek() == DayOfWeek.SATURDAY) {
                last = thisSaturday.minusWeeks(1);
            }
            return last.minusWeeks(Math.max(0, -dir - 1));
        }
        return shift(today, dir, unit);
    }

    private static LocalDate shift(LocalDate today, int n, Unit unit) {
        switch (unit) {
            case DAY:
                return today.plusDays(n);
            case WEEK:
            case WEEKEND:
                return today.plusWeeks(n);
            case MONTH:
                return today.plusMonths(n);
            default:
                return today.plusYears(n);
        }
    }

    private static LocalDate weekday(LocalDate today, String which, DayOfWeek day, boolean future) {
        int dir = which == null || which.equals("on") ? (future ? 1 : -1)
                : which.startsWith("this") && !which.equals("this past") && !which.equals("this coming")
                ? (future ? 0 : -1) : direction(which);
        return onWeekday(today, day, dir);
    }

    private static LocalDate onWeekday(LocalDate today, DayOfWeek day, int dir) {
        if (dir > 0) {
            return today.with(TemporalAdjusters.next(day));
        }
        if (dir == 0) {
            return today.with(TemporalAdjusters.nextOrSame(day));
        }
        LocalDate d = today.with(TemporalAdjusters.previous(day));
        return dir < -1 ? d.minusWeeks(-dir - 1) : d;
    }

    private static LocalDate portugueseWeekday(Matcher m, LocalDate today, boolean future, boolean pt) {
        String prefix = m.group(1);
        String name = m.group(2);
        String feira = m.group(3);
        String suffix = m.group(4);
        boolean weekend = name.equals("sabado") || name.equals("domingo");
        if (prefix == null && suffix == null && feira == null && !weekend) {
            return null; // "segunda vez", "quinta série": not a weekday without a marker
        }
        DayOfWeek day = switch (name) {
            case "segunda" -> DayOfWeek.MONDAY;
            case "terca" -> DayOfWeek.TUESDAY;
            case "quarta" -> DayOfWeek.WEDNESDAY;
            case "quinta" -> DayOfWeek.THURSDAY;
            case "sexta" -> DayOfWeek.FRIDAY;
            case "sabado" -> DayOfWeek.SATURDAY;
            default -> DayOfWeek.SUNDAY;
        };
        int dir;
        if (suffix != null) {
            dir = direction(suffix.replaceAll("\\s+", " "));
        } else if (prefix != null && (prefix.contains("proxim") || prefix.contains("ultim"))) {
            dir = direction(prefix.replaceAll("^n[ao]\\s+", ""));
        } else if (prefix != null && (prefix.startsWith("est") || prefix.startsWith("ess") || prefix.startsWith("nest")
                || prefix.startsWith("ness"))) {
            dir = future ? 0 : -1;
        } else {
            dir = future ? 1 : -1;
        }
        return onWeekday(today, day, dir);
    }

    private static LocalDate slashDate(Matcher m, LocalDate today, boolean future, boolean pt) {
        int a = num(m.group(1));
        int b = num(m.group(2));
        int y = m.group(3) == null ? today.getYear() : num(m.group(3));
        if (y < 100) {
            y += 2000;
        }
        int dayOfMonth;
        int month;
        if (a > 12) {
            dayOfMonth = a;
            month = b;
        } else if (b > 12) {
            dayOfMonth = b;
            month = a;
        } else if (pt) {
            dayOfMonth = a;
            month = b;
        } else {
            month = a;
            dayOfMonth = b;
        }
        return date(y, month, dayOfMonth);
    }

    private static DayOfWeek day(String name) {
        return DayOfWeek.valueOf(name.toUpperCase(java.util.Locale.ROOT));
    }

    private static int count(String word) {
        String w = word.replaceAll("\\s+", " ");
        if (w.startsWith("a few")) {
            return 3;
        }
        if (w.contains("couple")) {
            return 2;
        }
        Integer n = NUMBERS.get(w);
        return n != null ? n : num(w);
    }

    private static int month(String name) {
        return switch (name.substring(0, 3)) {
            case "jan" -> 1;
            case "feb", "fev" -> 2;
            case "mar" -> 3;
            case "apr", "abr" -> 4;
            case "may", "mai" -> 5;
            case "jun" -> 6;
            case "jul" -> 7;
            case "aug", "ago" -> 8;
            case "sep", "set" -> 9;
            case "oct", "out" -> 10;
            case "nov" -> 11;
            default -> 12;
        };
    }

    private static int year(String group, LocalDate today) {
        return group == null ? today.getYear() : num(group);
    }

    private static int num(String digits) {
        return Integer.parseInt(digits);
    }

    private static LocalDate date(int year, int month, int day) {
        if (year < 1900 || year > 2200) {
            return null;
        }
        return LocalDate.of(year, month, day);
    }
}
