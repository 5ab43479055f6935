package dev.reverie;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Secrets the rules of {@code secret-rules.tsv} cannot see because they are encoded: a base64 run
 * (a line-wrapped block counts as one run) that decodes to text holding a secret (a Kubernetes
 * {@code Secret}'s data, a base64-wrapped service-account JSON, a PEM file encoded once more), to
 * {@code user:password}, or to a private key (a PEM body pasted without its BEGIN/END lines: a DER
 * key, a PKCS#12 file, an OpenSSH key's binary body); and a percent-encoded run whose decoding
 * holds a secret ({@code q=%7B%22password%22…}). The
 * decoded text is checked by the whole redactor ({@code inner}), encodings within encodings up to
 * {@link SecretRedactor}'s depth. The whole encoded run is replaced: its parts cannot be told apart
 * without decoding. Stateless and thread-safe.
 */
final class EncodedSecrets {

    /** The shortest base64 run looked at (12 decoded bytes): shorter ones hold no key worth the decode. */
    static final int MIN_BASE64 = 16;
    /** The longest run decoded (longer ones are data, e.g. an image, and are left to the rules). */
    private static final int MAX_RUN = 1 << 16;
    /** A wrapped line continues a run only when at least this long (any width: the lines' concatenation decodes). */
    private static final int MIN_WRAPPED_LINE = 40;
    private static final Pattern CREDENTIALS = Pattern.compile("[\\p{L}\\p{N}._@+\\-]{1,128}:[^\\s:]{6,256}");
    private static final Pattern PERCENT = Pattern.compile("%[0-9A-Fa-f]{2}");
    /** The start of an OpenSSH private key's binary body ({@code -----BEGIN OPENSSH PRIVATE KEY-----}). */
    private static final byte[] OPENSSH_MAGIC = "openssh-key-v1\0".getBytes(StandardCharsets.US_ASCII);
    /** OID 1.2.840.113549.1.7.1 (PKCS#7 data), the content type a PKCS#12 file starts its AuthenticatedSafe with. */
    private static final byte[] PKCS7_DATA = {0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01,
        0x07, 0x01};

    /** One secret found: the span of the encoded run in the text and the marker type. */
    record Found(int start, int end, String type) {
    }

    private EncodedSecrets() {
    }

    /**
     * The first encoded secret in {@code text} at or after {@code from}, or {@code null}. {@code inner}
     * redacts a decoded text and returns the type of the first secret it found, or {@code null}.
     */
    static Found next(String text, int from, Function<String, String> inner) {
        int n = text.length();
        int i = from;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '%' && i + 2 < n && isHex(text.charAt(i + 1)) && isHex(text.charAt(i + 2))) {
                Found f = percentRun(text, from, i, inner);
                if (f != null) {
                    return f;
                }
                i = runEnd(text, i);
                continue;
            }
            if (!isBase64(c) || (i > 0 && (isBase64(text.charAt(i - 1)) || text.charAt(i - 1) == '%'))) {
                i++;
                continue;
            }
            int end = base64End(text, i);
            // a dot-joined token (a JWT, a Discord token) is the rules' to judge whole
            boolean dotted = (end + 1 < n && text.charAt(end) == '.' && isBase64(text.charAt(end + 1)))
                    || (i >= 2 && text.charAt(i - 1) == '.' && isBase64(text.charAt(i - 2)));
            if (end - i >= MIN_BASE64 && !dotted) {
                Found f = base64Run(text, i, end, inner);
                // lines joined that are no block (a value, then a line that only looks like more of it,
                // or values of a list one per line): each line alone, each decoded once more
                int line = i;
                while (f == null && line < end) {
                    int lineEnd = line;
                    while (lineEnd < end && isBase64(text.charAt(lineEnd))) {
                        lineEnd++;
                    }
                    while (lineEnd < end && text.charAt(lineEnd) == '=') {
                        lineEnd++;
                    }
                    if (line == i && lineEnd >= end) {
                        break; // one line: judged whole already
                    }
                    if (lineEnd - line >= MIN_BASE64) {
                        f = base64Run(text, line, lineEnd, inner);
                    }
                    line = lineEnd;
                    while (line < end && !isBase64(text.charAt(line))) {
                        line++;
                    }
                }
                if (f != null) {
                    return f;
                }
            }
            i = Math.max(end, i + 1);
        }
        return null;
    }

    /** The end of the base64 run from {@code start}: padding kept, wrapped lines of a block joined. */
    private static int base64End(String text, int start) {
        int n = text.length();
        int i = start;
        while (true) {
            int lineStart = i;
            while (i < n && isBase64(text.charAt(i))) {
                i++;
            }
            int line = i - lineStart;
            int pad = 0;
            while (i < n && text.charAt(i) == '=' && pad < 2) {
                i++;
                pad++;
            }
            if (pad > 0 || line < MIN_WRAPPED_LINE || i - start >= MAX_RUN) {
                return i;
            }
            // trailing blanks, a line break, the next line's indentation, then more of the block
            int j = i;
            while (j < n && (text.charAt(j) == ' ' || text.charAt(j) == '\t')) {
                j++;
            }
            if (j < n && text.charAt(j) == '\r') {
                j++;
            }
            if (j >= n || text.charAt(j) != '\n') {
                return i;
            }
            j++;
            while (j < n && (text.charAt(j) == ' ' || text.charAt(j) == '\t')) {
                j++;
            }
            if (j >= n || !isBase64(text.charAt(j)) || !wholeLine(text, j)) {
                return i;
            }
            i = j;
        }
    }

    /** Whether the line from {@code at} is base64 to its end (padding allowed): a block's next line, not prose. */
    private static boolean wholeLine(String text, int at) {
        int i = at;
        while (i < text.length() && isBase64(text.charAt(i))) {
            i++;
        }
        while (i < text.length() && text.charAt(i) == '=') {
            i++;
        }
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        return i == text.length() || text.charAt(i) == '\n' || text.charAt(i) == '\r';
    }

    private static Found base64Run(String text, int start, int end, Function<String, String> inner) {
        if (end - start > MAX_RUN) {
            return null;
        }
        StringBuilder run = new StringBuilder(end - start);
        boolean upper = false;
        boolean digit = false;
        boolean standard = false;
        boolean urlSafe = false;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r' || c == ' ' || c == '\t' || c == '=') {
                continue;
            }
            upper |= c >= 'A' && c <= 'Z';
            digit |= c >= '0' && c <= '9';
            standard |= c == '+' || c == '/';
            urlSafe |= c == '-' || c == '_';
            run.append(c);
        }
        // words, paths and names ("well-known", "src/main") are not base64 of anything; a run mixing the
        // two alphabets is neither
        if (!upper || !(digit || run.length() >= 24) || (standard && urlSafe) || run.length() % 4 == 1) {
            return null;
        }
        while (run.length() % 4 != 0) {
            run.append('=');
        }
        byte[] bytes;
        try {
            bytes = (urlSafe ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(run.toString());
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (derPrivateKey(bytes) || startsWith(bytes, 0, OPENSSH_MAGIC)) {
            return new Found(start, end, "private_key");
        }
        String decoded = printable(bytes);
        if (decoded == null) {
            return null;
        }
        if (CREDENTIALS.matcher(decoded).matches() && hasLetterAndDigit(decoded.substring(decoded.indexOf(':') + 1))) {
            return new Found(start, end, "basic_auth");
        }
        String type = inner.apply(decoded);
        return type == null ? null : new Found(start, end, type);
    }

    /** A run of non-space characters holding at least two percent escapes whose decoding holds a secret. */
    private static Found percentRun(String text, int from, int at, Function<String, String> inner) {
        int start = at;
        // never before {@code from}: what lies before it was judged already (and may have been replaced)
        while (start > from && !Character.isWhitespace(text.charAt(start - 1)) && at - start < MAX_RUN) {
            start--;
        }
        int end = runEnd(text, at);
        String run = text.substring(start, end);
        java.util.regex.Matcher m = PERCENT.matcher(run);
        int escapes = 0;
        while (m.find() && escapes < 2) {
            escapes++;
        }
        if (escapes < 2) {
            return null;
        }
        String decoded = percentDecoded(run);
        if (decoded == null || decoded.equals(run)) {
            return null;
        }
        String type = inner.apply(decoded);
        return type == null ? null : new Found(start, end, type);
    }

    private static int runEnd(String text, int from) {
        int i = from;
        while (i < text.length() && !Character.isWhitespace(text.charAt(i)) && i - from < MAX_RUN) {
            i++;
        }
        return Math.max(i, from + 1);
    }

    /** {@code %XX} escapes decoded as UTF-8 (other characters as they are), or {@code null} when not UTF-8. */
    static String percentDecoded(String s) {
        byte[] out = new byte[s.length() * 3];
        int k = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length() && isHex(s.charAt(i + 1)) && isHex(s.charAt(i + 2))) {
                out[k++] = (byte) Integer.parseInt(s, i + 1, i + 3, 16);
                i += 2;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
                    b = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                System.arraycopy(b, 0, out, k, b.length);
                k += b.length;
            }
        }
        return printable(java.util.Arrays.copyOf(out, k));
    }

    /** {@code bytes} as UTF-8 text without control characters other than line breaks and tabs, or {@code null}. */
    static String printable(byte[] bytes) {
        String s;
        try {
            s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c < 0x20 && c != '\n' && c != '\r' && c != '\t') || c == 0x7F) {
                return null;
            }
        }
        return s;
    }

    /**
     * Whether {@code der} is a DER private key: a SEQUENCE whose first element is the version INTEGER
     * 0 or 1 followed by an INTEGER (PKCS#1 RSA, DSA), an AlgorithmIdentifier SEQUENCE (PKCS#8) or an
     * OCTET STRING (SEC1 EC); or an encrypted PKCS#8 key (PBES2 or PKCS#12 PBE). Certificates and
     * public keys start with a SEQUENCE, not a version, and are not secrets.
     */
    static boolean derPrivateKey(byte[] der) {
        if (der.length < 32 || der[0] != 0x30) {
            return false;
        }
        int[] at = {1};
        int len = length(der, at);
        if (len < 24 || at[0] + len > der.length) {
            return false;
        }
        int i = at[0];
        if (der[i] == 0x02 && der[i + 1] == 0x01 && (der[i + 2] == 0x00 || der[i + 2] == 0x01)) {
            byte next = der[i + 3];
            return next == 0x02 || next == 0x30 || next == 0x04;
        }
        if (der[i] == 0x02 && der[i + 1] == 0x01 && der[i + 2] == 0x03 && der[i + 3] == 0x30) {
            // PKCS#12 (.p12, .pfx): version 3, then the AuthenticatedSafe as PKCS#7 data; it carries a key
            at[0] = i + 4;
            return length(der, at) >= 0 && startsWith(der, at[0], PKCS7_DATA);
        }
        if (der[i] == 0x30) {
            at[0] = i + 1;
            if (length(der, at) < 0 || at[0] + 13 > der.length) {
                return false;
            }
            int j = at[0];
            // OID 1.2.840.113549.1.5.13 (PBES2) or 1.2.840.113549.1.12.1.x (PKCS#12 PBE)
            return der[j] == 0x06 && startsWith(der, j + 2, new byte[] {0x2a, (byte) 0x86, 0x48, (byte) 0x86,
                    (byte) 0xf7, 0x0d, 0x01})
                    && ((der[j + 1] == 0x09 && der[j + 9] == 0x05 && der[j + 10] == 0x0d)
                    || (der[j + 1] == 0x0a && der[j + 9] == 0x0c && der[j + 10] == 0x01));
        }
        return false;
    }

    /** A DER length at {@code at[0]} (advanced past it), or -1. */
    private static int length(byte[] der, int[] at) {
        if (at[0] >= der.length) {
            return -1;
        }
        int first = der[at[0]++] & 0xff;
        if (first < 0x80) {
            return first;
        }
        int bytes = first & 0x7f;
        if (bytes < 1 || bytes > 3 || at[0] + bytes > der.length) {
            return -1;
        }
        int len = 0;
        for (int k = 0; k < bytes; k++) {
            len = (len << 8) | (der[at[0]++] & 0xff);
        }
        return len;
    }

    private static boolean startsWith(byte[] b, int at, byte[] prefix) {
        if (at + prefix.length > b.length) {
            return false;
        }
        for (int k = 0; k < prefix.length; k++) {
            if (b[at + k] != prefix[k]) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasLetterAndDigit(String s) {
        boolean letter = false;
        boolean digit = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            letter |= Character.isLetter(c);
            digit |= Character.isDigit(c);
        }
        return letter && digit;
    }

    static boolean isBase64(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/'
                || c == '-' || c == '_';
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
