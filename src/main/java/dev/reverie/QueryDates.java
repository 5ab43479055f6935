package dev.reverie;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The dates a query names, absolute ("on 3 June, 2023", "June 3rd", "in March 2024", "2024-03-05",
 * "em junho de 2023") or relative to the time of the call ("yesterday", "three days ago", "last
 * week", "last month", "há 2 dias"): a question about what was said on a day or in a month is about
 * what was said then, whatever words it shares with the turns of that day. Days are UTC days, as the context dates
 * its turns ({@link Rendering}). English and Portuguese month names (full, and English abbreviations
 * with or without a dot); a month named without a year matches that month in any year, a day without a year
 * that day in any year. A month name alone counts only after a preposition ("in May", "em maio"), so
 * the verb "may" is not a date. Numeric dates other than ISO (3/6/2023) are left alone: their order
 * depends on the writer's locale. Relative spans are generous where speech is loose: "N days ago"
 * covers the day before and after too, "N weeks ago" a week either side, "last week" the 14 days
 * before today; "last month" and "last year" are the calendar ones. Immutable and thread-safe.
 */
final class QueryDates {

    private static final String MONTH = "(january|february|march|april|may|june|july|august|september|october"
            + "|november|december|janeiro|fevereiro|mar\u00e7o|marco|abril|maio|junho|julho|agosto|setembro|outubro"
            + "|novembro|dezembro|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)";
    private static final String DAY = "(\\d{1,2})(?:st|nd|rd|th|\u00ba)?";
    private static final String YEAR = "(\\d{4})";
    /** Between a day and a month, or a month and a year: "3 June", "3rd of June", "3 de junho", "June, 2023". */
    private static final String JOIN = "\\.?(?:\\s*,\\s*|\\s+(?:of\\s+|de\\s+)?)";

    /**
     * The forms, most specific first at each position; groups: ISO year-month-day (1–3); day, month,
     * optional year (4–6); month, day, optional year (7–9); month, year (10–11); month after a
     * preposition (12), looked behind for so that a year or day after the month is read by the forms
     * before it.
     */
    private static final Pattern DATE = Pattern.compile(
            "\\b" + YEAR + "-(\\d{2})-(\\d{2})\\b"
                    + "|\\b" + DAY + JOIN + MONTH + "\\b(?:" + JOIN + YEAR + "\\b)?"
                    + "|\\b" + MONTH + "\\.?\\s+" + DAY + "\\b(?:" + JOIN + YEAR + "\\b)?"
                    + "|\\b" + MONTH + JOIN + YEAR + "\\b"
                    + "|(?<=\\b(?:in|during|since|until|by|early|late|mid|last|this|next|em|de|desde|at\u00e9)[\\s-]{1,3})"
                    + MONTH + "\\b",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    private static final String COUNT = "(\\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|um|uma|dois"
            + "|duas|tr\u00eas|tres|quatro|cinco|seis|sete|oito|nove|dez)";

    /**
     * Spans relative to the time of the call; groups: the day before yesterday (1), yesterday (2),
     * today (3), a count and unit ago (4–5, English; 6–7, Portuguese "há"), last/past/this and a unit
     * (8–9, English), a Portuguese unit and passado/passada (10) or esta/este and a unit (11).
     */
    private static final Pattern RELATIVE = Pattern.compile(
            "\\b((?:the\\s+)?day\\s+before\\s+yesterday|anteontem)\\b"
                    + "|\\b(yesterday|ontem)\\b"
                    + "|\\b(today|hoje)\\b"
                    + "|\\b" + COUNT + "\\s+(day|week|month|year)s?\\s+ago\\b"
                    + "|\\bh[\u00e1a]\\s+" + COUNT + "\\s+(dias?|semanas?|m[\u00eae]s|meses|anos?)\\b"
                    + "|\\b(last|past|previous|this)\\s+(week|month|year)\\b"
                    + "|\\b(semana|m[\u00eae]s|ano)\\s+passad[oa]\\b"
                    + "|\\b(?:esta|este|neste|nesta)\\s+(semana|m[\u00eae]s|ano)\\b",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    /** A span of time a query names. */
    sealed interface When permits Span, Between {

        /** Whether {@code at} falls in it. */
        boolean covers(Instant at);
    }

    /** From {@code from} (inclusive) to {@code to} (exclusive). */
    record Between(Instant from, Instant to) implements When {

        @Override
        public boolean covers(Instant at) {
            return !at.isBefore(from) && at.isBefore(to);
        }
    }

    /** One named date: a day or a whole month, of one year or ({@code year == 0}) of any year. */
    record Span(int year, int month, int day) implements When {

        /** Whether {@code at} falls on this day or in this month (UTC). */
        @Override
        public boolean covers(Instant at) {
            LocalDate d = LocalDate.ofInstant(at, ZoneOffset.UTC);
            return (year == 0 || d.getYear() == year) && d.getMonthValue() == month
                    && (day == 0 || d.getDayOfMonth() == day);
        }
    }

    private QueryDates() {
    }

    /**
     * The spans {@code query} names, absolute ones first, each in order of appearance; empty when it
     * names none. Relative ones are taken from {@code now}'s UTC day.
     */
    static List<When> of(String query, Instant now) {
        if (query == null || query.isEmpty()) {
            return List.of();
        }
        List<When> out = new ArrayList<>(2);
        Matcher m = DATE.matcher(query);
        while (m.find()) {
            Span s;
            if (m.group(1) != null) {
                s = span(number(m.group(1)), number(m.group(2)), number(m.group(3)));
            } else if (m.group(4) != null) {
                s = span(year(m.group(6)), month(m.group(5)), number(m.group(4)));
            } else if (m.group(7) != null) {
                s = span(year(m.group(9)), month(m.group(7)), number(m.group(8)));
            } else if (m.group(10) != null) {
                s = span(number(m.group(11)), month(m.group(10)), 0);
            } else {
                s = span(0, month(m.group(12)), 0);
            }
            if (s != null && !out.contains(s)) {
                out.add(s);
            }
        }
        LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
        Matcher r = RELATIVE.matcher(query);
        while (r.find()) {
            When w = relative(r, today);
            if (w != null && !out.contains(w)) {
                out.add(w);
            }
        }
        return out;
    }

    private static When relative(Matcher r, LocalDate today) {
        if (r.group(1) != null) {
            return days(today.minusDays(2), 1);
        }
        if (r.group(2) != null) {
            return days(today.minusDays(1), 1);
        }
        if (r.group(3) != null) {
            return days(today, 1);
        }
        if (r.group(4) != null || r.group(6) != null) {
            int n = r.group(4) != null ? count(r.group(4)) : count(r.group(6));
            String unit = (r.group(5) != null ? r.group(5) : r.group(7)).toLowerCase(Locale.ROOT);
            if (unit.startsWith("day") || unit.startsWith("dia")) {
                return days(today.minusDays(n + 1L), 3);
            }
            if (unit.startsWith("week") || unit.startsWith("semana")) {
                return days(today.minusWeeks(n + 1L), 14);
            }
            if (unit.startsWith("year") || unit.startsWith("ano")) {
                return today.getYear() - n >= 1 ? yearOf(today.getYear() - n) : null;
            }
            LocalDate month = today.minusMonths(Math.min(n, 12L * today.getYear() - 12));
            return new Span(month.getYear(), month.getMonthValue(), 0);
        }
        String which;
        String unit;
        if (r.group(8) != null) {
            which = r.group(8).toLowerCase(Locale.ROOT);
            unit = r.group(9).toLowerCase(Locale.ROOT);
        } else if (r.group(10) != null) {
            which = "last";
            unit = r.group(10).toLowerCase(Locale.ROOT);
        } else {
            which = "this";
            unit = r.group(11).toLowerCase(Locale.ROOT);
        }
        boolean week = unit.startsWith("week") || unit.startsWith("semana");
        boolean year = unit.startsWith("year") || unit.startsWith("ano");
        if (week) {
            return switch (which) {
                case "last", "previous" -> days(today.minusDays(14), 14);
                default -> days(today.minusDays(7), 8); // past, this: the last seven days and today
            };
        }
        if (year) {
            return switch (which) {
                case "last", "previous" -> yearOf(today.getYear() - 1);
                case "this" -> yearOf(today.getYear());
                default -> days(today.minusDays(366), 367);
            };
        }
        return switch (which) {
            case "last", "previous" -> new Span(today.minusMonths(1).getYear(), today.minusMonths(1).getMonthValue(), 0);
            case "this" -> new Span(today.getYear(), today.getMonthValue(), 0);
            default -> days(today.minusDays(31), 32);
        };
    }

    /** {@code count} UTC days from {@code first}. */
    private static When days(LocalDate first, int count) {
        return new Between(first.atStartOfDay(ZoneOffset.UTC).toInstant(),
                first.plusDays(count).atStartOfDay(ZoneOffset.UTC).toInstant());
    }

    private static When yearOf(int year) {
        return days(LocalDate.of(year, 1, 1), LocalDate.of(year, 1, 1).lengthOfYear());
    }

    private static int count(String word) {
        return switch (word.toLowerCase(Locale.ROOT)) {
            case "a", "an", "one", "um", "uma" -> 1;
            case "two", "dois", "duas" -> 2;
            case "three", "tr\u00eas", "tres" -> 3;
            case "four", "quatro" -> 4;
            case "five", "cinco" -> 5;
            case "six", "seis" -> 6;
            case "seven", "sete" -> 7;
            case "eight", "oito" -> 8;
            case "nine", "nove" -> 9;
            case "ten", "dez" -> 10;
            default -> Integer.parseInt(word);
        };
    }

    /** Whether {@code at} falls in one of {@code spans}. */
    static boolean covers(List<When> spans, Instant at) {
        for (When s : spans) {
            if (s.covers(at)) {
                return true;
            }
        }
        return false;
    }

    /** A valid span, or {@code null} for a date that does not exist (31 February, month 13). */
    private static Span span(int year, int month, int day) {
        if (month < 1 || month > 12 || day < 0 || day > 31 || year < 0 || year > 9999) {
            return null;
        }
        if (day > 0) {
            try {
                LocalDate.of(year == 0 ? 2000 : year, month, day); // 2000: a leap year, so 29 February is valid
            } catch (DateTimeException e) {
                return null;
            }
        }
        return new Span(year, month, day);
    }

    private static int number(String digits) {
        return Integer.parseInt(digits);
    }

    private static int year(String digits) {
        return digits == null ? 0 : Integer.parseInt(digits);
    }

    private static int month(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "january", "janeiro", "jan" -> 1;
            case "february", "fevereiro", "feb" -> 2;
            case "march", "mar\u00e7o", "marco", "mar" -> 3;
            case "april", "abril", "apr" -> 4;
            case "may", "maio" -> 5;
            case "june", "junho", "jun" -> 6;
            case "july", "julho", "jul" -> 7;
            case "august", "agosto", "aug" -> 8;
            case "september", "setembro", "sept", "sep" -> 9;
            case "october", "outubro", "oct" -> 10;
            case "november", "novembro", "nov" -> 11;
            case "december", "dezembro", "dec" -> 12;
            default -> 0;
        };
    }
}
