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
 * The calendar dates a query names ("on 3 June, 2023", "June 3rd", "in March 2024", "2024-03-05",
 * "em junho de 2023"): a question about what was said on a day or in a month is about what was said
 * then, whatever words it shares with the turns of that day. Days are UTC days, as the context dates
 * its turns ({@link Rendering}). English and Portuguese month names (full, and English abbreviations
 * with or without a dot); a month named without a year matches that month in any year, a day without a year
 * that day in any year. A month name alone counts only after a preposition ("in May", "em maio"), so
 * the verb "may" is not a date. Numeric dates other than ISO (3/6/2023) are left alone: their order
 * depends on the writer's locale. Immutable and thread-safe.
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

    /** One named date: a day or a whole month, of one year or ({@code year == 0}) of any year. */
    record Span(int year, int month, int day) {

        /** Whether {@code at} falls on this day or in this month (UTC). */
        boolean covers(Instant at) {
            LocalDate d = LocalDate.ofInstant(at, ZoneOffset.UTC);
            return (year == 0 || d.getYear() == year) && d.getMonthValue() == month
                    && (day == 0 || d.getDayOfMonth() == day);
        }
    }

    private QueryDates() {
    }

    /** The dates {@code query} names, in order; empty when it names none. */
    static List<Span> of(String query) {
        if (query == null || !mayHoldDate(query)) {
            return List.of();
        }
        List<Span> out = new ArrayList<>(2);
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
        return out;
    }

    /** Whether {@code at} falls in one of {@code spans}. */
    static boolean covers(List<Span> spans, Instant at) {
        for (Span s : spans) {
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

    /** A cheap first look: a date needs a digit or a month name's first letters. */
    private static boolean mayHoldDate(String q) {
        for (int i = 0; i < q.length(); i++) {
            char c = q.charAt(i);
            if (c >= '0' && c <= '9') {
                return true;
            }
        }
        String lower = q.toLowerCase(Locale.ROOT);
        for (String prefix : PREFIXES) {
            if (lower.contains(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static final String[] PREFIXES = {"jan", "feb", "fev", "mar", "apr", "abr", "may", "mai", "jun", "jul",
        "aug", "ago", "sep", "set", "oct", "out", "nov", "dec", "dez"};

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
