package dev.reverie.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain-text table for the terminal: left-aligned columns, long cells cut with an ellipsis, and
 * every control or formatting character of stored text made visible, so a memory cannot move the
 * cursor, recolour the terminal or reorder a line (ANSI escapes, bidi overrides). Not thread-safe.
 */
final class Table {

    /** The widest a cell may be before it is cut. */
    static final int MAX_CELL = 60;

    private final List<String> headers;
    private final List<String[]> rows = new ArrayList<>();

    Table(String... headers) {
        this.headers = List.of(headers);
    }

    Table row(Object... cells) {
        String[] r = new String[headers.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = i < cells.length ? cut(clean(cells[i])) : "";
        }
        rows.add(r);
        return this;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    void print(PrintStream out) {
        int[] width = new int[headers.size()];
        for (int i = 0; i < width.length; i++) {
            width[i] = headers.get(i).length();
        }
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].codePointCount(0, r[i].length()));
            }
        }
        out.println(line(headers.toArray(String[]::new), width));
        for (String[] r : rows) {
            out.println(line(r, width));
        }
    }

    private static String line(String[] cells, int[] width) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            b.append(cells[i]);
            if (i < cells.length - 1) {
                int pad = width[i] - cells[i].codePointCount(0, cells[i].length()) + 2;
                b.append(" ".repeat(pad));
            }
        }
        return b.toString().stripTrailing();
    }

    private static String cut(String s) {
        if (s.codePointCount(0, s.length()) <= MAX_CELL) {
            return s;
        }
        return s.substring(0, s.offsetByCodePoints(0, MAX_CELL - 1)) + "…";
    }

    /** The value as one line of harmless text: newlines as {@code ⏎}, other control or format characters as {@code ?}. */
    static String clean(Object value) {
        if (value == null) {
            return "-";
        }
        String s = value.toString();
        StringBuilder b = new StringBuilder(s.length());
        s.codePoints().forEach(c -> {
            if (c == '\n') {
                b.append('⏎');
            } else if (c == '\t') {
                b.append(' ');
            } else if (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT
                    || Character.getType(c) == Character.SURROGATE || c == 0x2028 || c == 0x2029) {
                b.append('?');
            } else {
                b.appendCodePoint(c);
            }
        });
        return b.toString();
    }

    /** Prints {@code key: value} lines, values cleaned but not cut. */
    static void details(PrintStream out, Object... keyValues) {
        int width = 0;
        for (int i = 0; i < keyValues.length; i += 2) {
            width = Math.max(width, keyValues[i].toString().length());
        }
        for (int i = 0; i < keyValues.length; i += 2) {
            String key = keyValues[i] + ":";
            out.println(key + " ".repeat(width + 2 - key.length() + 1) + clean(keyValues[i + 1]));
        }
    }

    @Override
    public String toString() {
        return headers + " " + rows.stream().map(Arrays::toString).toList();
    }
}
