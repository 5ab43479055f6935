package dev.reverie.internal;

import java.time.Instant;
import java.time.LocalDate;

/**
 * Parses the one instant shape Reverie writes ({@code DateTimeFormatter.ISO_INSTANT}:
 * {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z}, years 0000–9999) without a formatter: stored records carry
 * several instants each and reading them was 8 % of {@code buildContext}. Anything else (another
 * shape, an out-of-range field) gives {@code null}, and the caller falls back to the full parser,
 * which also reports the errors. Stateless and thread-safe. Not API.
 */
final class IsoInstants {
    private IsoInstants() {
    }

    /** The instant {@code text} denotes, exactly as {@link Instant#parse} reads it, or {@code null}. */
    public static Instant parse(String text) {
        int n = text.length();
        if (n < 20 || text.charAt(n - 1) != 'Z' || text.charAt(4) != '-' || text.charAt(7) != '-'
                || text.charAt(10) != 'T' || text.charAt(13) != ':' || text.charAt(16) != ':') {
            return null;
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 2);
        int day = digits(text, 8, 2);
        int hour = digits(text, 11, 2);
        int minute = digits(text, 14, 2);
        int second = digits(text, 17, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23
                || minute < 0 || minute > 59 || second < 0 || second > 59) {
            return null; // ISO_INSTANT's leap-second and 24:00 handling stay with the full parser
        }
        int nanos = 0;
        if (n > 20) {
            int fraction = n - 21;
            if (text.charAt(19) != '.' || fraction < 1 || fraction > 9) {
                return null;
            }
            int f = digits(text, 20, fraction);
            if (f < 0) {
                return null;
            }
            nanos = f;
            for (int i = fraction; i < 9; i++) {
                nanos *= 10;
            }
        }
        if (day > 28 && day > LocalDate.of(year, month, 1).lengthOfMonth()) {
            return null;
        }
        long epochDay = LocalDate.of(year, month, day).toEpochDay();
        return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3_600L + minute * 60L + second, nanos);
    }

    /** The non-negative number written by {@code count} ASCII digits at {@code from}, or -1. */
    private static int digits(String s, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
