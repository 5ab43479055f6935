package dev.reverie;

import dev.reverie.internal.Terms;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * The checks a rule in {@code secret-rules.tsv} can name in its {@code validator} column: each
 * decides whether a match is a secret and returns the exact span to replace (it may narrow the
 * match, e.g. drop quotes or sentence punctuation, or widen it, e.g. a passphrase to the end of its
 * clause), or {@code null} to keep the text. Stateless and thread-safe.
 */
enum SecretValidator {

    /** Every match is a secret. */
    NONE {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            return new Span(start, end);
        }
    },
    /** The secret holds a letter and a digit. */
    MIXED {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            return hasLetter(text, start, end) && hasDigit(text, start, end) ? new Span(start, end) : null;
        }
    },
    /** The secret holds an upper-case letter, a lower-case letter and a digit (random-looking keys). */
    MIXED_CASE {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            boolean upper = false;
            boolean lower = false;
            for (int i = start; i < end; i++) {
                char c = text.charAt(i);
                upper |= c >= 'A' && c <= 'Z';
                lower |= c >= 'a' && c <= 'z';
            }
            return upper && lower && hasDigit(text, start, end) ? new Span(start, end) : null;
        }
    },
    /**
     * A password told in a sentence that names it, after a verb: letters and digits mixed in 5+
     * characters, or 6+ digits (see {@link SecretAssignments#credentialShaped}); trailing sentence
     * punctuation is left out.
     */
    CREDENTIAL {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            while (end > start && ".!?)]}".indexOf(text.charAt(end - 1)) >= 0) {
                end--;
            }
            if (end <= start || SecretAssignments.isPlaceholder(text.substring(start, end))) {
                return null;
            }
            return SecretAssignments.credentialShaped(text, start, end) ? new Span(start, end) : null;
        }
    },
    /**
     * A password after a weak label ("my pass is X"): mixed case and a digit, and not a name made of
     * words ("GoldTier2024", "EpicPass2024" are passes, "Psf4FzjxUa" is a password).
     */
    RANDOM_PASSWORD {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            Span mixed = MIXED_CASE.check(text, m, start, end);
            return mixed == null || identifierLike(text, start, end) ? null : mixed;
        }
    },
    /**
     * A random-looking token: 20+ characters with a digit and 3+ bits of entropy per character,
     * in mixed case or as 32+ hexadecimal digits; a UUID (an identifier) and a public key are not.
     */
    RANDOM_TOKEN {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            int length = end - start;
            if (length < 20) {
                return null;
            }
            // the shape first (one pass): mixed case, or all hexadecimal and 32+ long
            Shape shape = Shape.of(text, start, end);
            if (!(shape.upper() > 0 && shape.lower() > 0) && !(shape.hex() && length >= 32) || shape.digits() == 0
                    || entropy(text, start, end) < 3.0 || UUID.matcher(text).region(start, end).matches()) {
                return null;
            }
            String label = text.substring(Math.max(0, m.start() - 12), start).toLowerCase(Locale.ROOT);
            if (PUBLIC.matcher(label).find() || NAMED_HASH.matcher(label).find()) {
                return null; // a public key is meant to be shared; "… flagged commit 9fceb02…" names a hash
            }
            if (NOT_SECRET_KEY.matcher(text.substring(Math.max(0, m.start() - 16), m.start())).find()) {
                return null; // "the cache key is …", "the i18n key": a key that names data, not one that opens it
            }
            if (identifierLike(text, start, end) || fileName(text, end)) {
                return null; // "MyServiceImplTest2Handler", "uploads/2024/IMG_3920_Hd8s.jpg": names, not keys
            }
            String gap = text.substring(m.start(), start).toLowerCase(Locale.ROOT);
            boolean told = TOLD.matcher(gap).find(); // "the token in staging is …": the label is told its value
            if (!told && NARRATIVE_GAP.matcher(gap).find()) {
                return null; // "the key change landed in 9fceb02…": the label word is not labelling this value
            }
            if (shape.hex() && (length == 40 || length == 64) && !told && !ADJACENT.matcher(gap).matches()) {
                return null; // a SHA-1 or SHA-256 far from its label is a commit or a checksum
            }
            return new Span(start, end);
        }
    },
    /**
     * A key made the way most providers now make them, a short vendor prefix and a random body
     * ({@code tvly-…}, {@code lsv2_pt_…_…}, {@code dp.st.…}, {@code rubygems_…}). No label is needed:
     * the shape is the evidence. The longest part (28+ letters and digits) must read as random: 3+
     * capitals, 3+ lower-case letters and a digit, not a name made of words, with 3.5+ bits per
     * character; or 32+ hexadecimal digits with 3+ bits; or letters of one case and digits of which
     * neither is rare, with 3.5+ bits ("EU-Datenschutzgrundverordnung…2018" has one capital). The
     * prefix is no name of words ({@code userProfile_v2_…}), no object id ({@code chatcmpl-…},
     * {@code req_…}, {@code fc_…}; Firecrawl's {@code fc-…} is a key), no hash ({@code sha384-…};
     * OpenShift's {@code sha256~…} is a key), and a hexadecimal body of a hash's length (32, 40 or 64)
     * does not follow a word that names what a hash names ({@code release-…}, {@code build-…},
     * {@code checkpoint-…}); the token holds no UUID, and no data or public key is named before it.
     */
    PREFIXED_TOKEN {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            int prefixEnd = start;
            while (prefixEnd < end && Character.isLetterOrDigit(text.charAt(prefixEnd))) {
                prefixEnd++;
            }
            String prefix = text.substring(start, prefixEnd).toLowerCase(Locale.ROOT);
            char separator = text.charAt(prefixEnd); // the pattern puts one after at most 20 characters
            if (HASH_PREFIXES.contains(prefix) && separator != '~') {
                return null; // "sha256~…" is OpenShift's access token, "sha384-…" a subresource hash
            }
            if (ID_PREFIXES.contains(prefix) || ID_PREFIXES.contains(prefix + separator)
                    || identifierLike(text, start, prefixEnd)) {
                return null; // "chatcmpl-…", "fc_…", "pk_live_…", "userProfile_v2_…": ids, public keys, names
            }
            String before = text.substring(Math.max(0, start - 40), start);
            if (DATA_KEY_BEFORE.matcher(before).find() || PUBLIC_BEFORE.matcher(before).find()
                    || NAMED_HASH.matcher(before).find()) {
                return null; // "the cache key is …", "public key: …", "etag: …"
            }
            Span longest = longestRun(text, start, end);
            int bodyStart = longest.start();
            int bodyEnd = longest.end();
            if (bodyEnd - bodyStart < 28 || bodyStart == start || !hasDigit(text, bodyStart, bodyEnd)
                    || UUID.matcher(text).region(start, end).find()) {
                return null;
            }
            Shape body = Shape.of(text, bodyStart, bodyEnd);
            int n = bodyEnd - bodyStart;
            double bits = entropy(text, bodyStart, bodyEnd);
            if (body.hex() && n >= 32) {
                boolean hashLength = n == 32 || n == 40 || n == 64;
                return bits >= 3.0 && !(hashLength && HASH_CONTEXT.contains(prefix)) ? new Span(start, end) : null;
            }
            if (body.upper() >= 3 && body.lower() >= 3) {
                return bits >= 3.5 && !identifierLike(text, bodyStart, bodyEnd) ? new Span(start, end) : null;
            }
            boolean oneCase = body.upper() == 0 || body.lower() == 0;
            return oneCase && body.digits() * 8 >= n && (n - body.digits()) * 8 >= n && bits >= 3.5
                    ? new Span(start, end) : null;
        }
    },
    /**
     * A random token handed over with nothing around it: a line that is only the token, or the token
     * after "here:", "use", "it's", "pega aí:", "voici" … ("here: TkA9…", a key pasted alone). With no
     * label, the token itself must be the evidence: its longest run of letters and digits 20+ long
     * with 3+ capitals, 3+ lower-case letters and a digit, 3.5+ bits per character, not a name made of
     * words. What is random and public is kept: an address ({@code 0x…}, a Base58 Bitcoin address of
     * 25–35 characters starting 1 or 3), a subresource hash ({@code sha384-…}), a UUID, a file name,
     * and base64 that decodes to text.
     */
    HANDED_TOKEN {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            String token = text.substring(start, end);
            String lower = token.toLowerCase(Locale.ROOT);
            int cut = 0;
            while (cut < token.length() && Character.isLetterOrDigit(token.charAt(cut))) {
                cut++;
            }
            if (cut < token.length() && (ID_PREFIXES.contains(lower.substring(0, cut))
                    || ID_PREFIXES.contains(lower.substring(0, cut + 1)))) {
                return null; // "chatcmpl-…", "file-…", "msg_…": an object's id
            }
            if (lower.startsWith("0x") || lower.matches("sha(?:1|224|256|384|512)[\\-_].*")
                    || UUID.matcher(text).region(start, end).find() || identifierLike(text, start, end)
                    || fileName(text, end) || base58Address(token) || base64Text(token)
                    || TextFacts.of(text).armourBefore(start) || inBlock(text, start, end)) {
                return null; // a line of an armoured block or of a base64 dump (a certificate, a public key)
            }
            Span longest = longestRun(text, start, end);
            int bodyStart = longest.start();
            int bodyEnd = longest.end();
            if (bodyEnd - bodyStart < 20) {
                return null;
            }
            Shape body = Shape.of(text, bodyStart, bodyEnd);
            return body.upper() >= 3 && body.lower() >= 3 && body.digits() > 0
                    && entropy(text, bodyStart, bodyEnd) >= 3.5 && !identifierLike(text, bodyStart, bodyEnd)
                    ? new Span(start, end) : null;
        }
    },
    /**
     * A random token with no label and no hand-over at all ("swapped the old one for yy7w…", a key
     * pasted before its question): the token itself is the whole evidence, so it must be more clearly
     * random than a handed-over one — its longest run of letters and digits 24+ long with 3+
     * capitals, 3+ lower-case letters and 2+ digits, 3.5+ bits per character, not a name made of
     * words — and it stands alone (the rule's pattern keeps tokens inside URLs, paths, dotted names
     * and e-mail addresses out). What is random and public stays: everything {@link #HANDED_TOKEN}
     * keeps, base64 with "+" or "/" longer than a 64-byte key's 88 characters (data: an image, a blob),
     * base64 of a file's or compressed data's first bytes, pure Base58 of an address's or a content
     * id's length in a text about wallets, transfers or content ids (Solana, IPFS), an SSH public key's
     * body ({@code AAAA…}), and a token named just before it as an id, a hash, an address, a signature or
     * data ("blob", "payload").
     */
    BARE_TOKEN {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            String token = text.substring(start, end);
            String before = text.substring(Math.max(0, start - 40), start);
            int equals = token.indexOf('=');
            boolean standardBase64 = token.indexOf('+') >= 0 || token.indexOf('/') >= 0;
            if (equals >= 0 && equals < token.length() - 2 || DATA_MAGIC.matcher(token).lookingAt()
                    || standardBase64 && token.length() > 88 // longer than a 64-byte key in base64: data
                    || token.contains("BAQEFAAOC") // an RSA public key's DER header
                    || token.startsWith("AAAA") || EXTENDED_PUBLIC.matcher(token).lookingAt()
                    || pureBase58(token) && (token.length() <= 50 && TextFacts.of(text).chainWords()
                            || WIF_SHAPE.matcher(token).matches()) // a WIF key's shape whose checksum failed
                    || text.startsWith("base64,", Math.max(0, start - 7)) // a data: URI's payload
                    || KEYED_VALUE.matcher(before).find() // a keyed value: the rules that read keys decide
                    || NAMED_PUBLIC.matcher(before).find() || PUBLIC_BEFORE.matcher(before).find()
                    || DATA_KEY_BEFORE.matcher(before).find() || repeats(text, start, end)) {
                return null;
            }
            Span handed = HANDED_TOKEN.check(text, m, start, end);
            if (handed == null) {
                return null;
            }
            Span longest = longestRun(text, start, end);
            if (longest.end() - longest.start() < 24) {
                return null;
            }
            return Shape.of(text, longest.start(), longest.end()).digits() >= 2 ? handed : null;
        }
    },
    /**
     * A password passed by position to a call that logs in or connects, with no key name to read:
     * {@code s.login("ana@x.com", "…")}, {@code new NetworkCredential("svc", "…", "DOMAIN")},
     * {@code new PasswordAuthentication("u", "…".toCharArray())}, {@code mysqli_connect("localhost",
     * "app", "…", "db")}, {@code DriverManager.getConnection(url, "app", "…")}, {@code ssh.connect("10.0.0.5",
     * 22, "deploy", "…")}. The call's last name must be a login, an authentication, a credential or a
     * connection (whole or as its end: not {@code trackLoginEvent}, {@code requireAuth}); among the
     * string literals passed, a host or data source first is passed over, the next is the user and the
     * one after it the password. A variable, an empty string, a placeholder or a reference is none.
     */
    CALL_CREDENTIAL {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            String callee = m.group("callee");
            String name = callee.substring(Math.max(callee.lastIndexOf('.'), Math.max(callee.lastIndexOf(':'),
                    callee.lastIndexOf('>'))) + 1).toLowerCase(Locale.ROOT);
            if (!LOGIN_CALL.matcher(name).matches() && !CONNECT_CALL.matcher(name).matches()) {
                return null;
            }
            // the string literals among the arguments, numbers (a port) passed over: a host or data
            // source first is dropped, then the user, then the password
            List<Span> literals = new java.util.ArrayList<>();
            for (int[] arg : arguments(text, start, end)) {
                Span literal = literal(text, arg[0], arg[1]);
                if (literal != null) {
                    literals.add(literal);
                }
            }
            int first = 0;
            if (!literals.isEmpty() && hostLike(text.substring(literals.get(0).start(), literals.get(0).end()))) {
                first = 1;
            }
            if (literals.size() < first + 2) {
                return null;
            }
            Span value = literals.get(first + 1);
            String v = text.substring(value.start(), value.end());
            return v.length() < 4 || hostLike(v) || SecretAssignments.isPlaceholder(v) || SecretAssignments.isReference(v)
                    || v.indexOf(' ') >= 0 && v.length() > 64 ? null : value;
        }
    },

    /**
     * A strong password anywhere in a sentence that speaks of a password, with no label right before
     * it ("pw's Kx8-…", "j'ai changé mon mot de passe Free en …", "와이파이 비번 …", "if you need to get
     * into my laptop it's …", "requirepass …"): the label rules read "password is X"; this one reads the
     * value's shape when the words around it vary. The value must look made to be a password — 8+
     * characters of three kinds among capitals, lower-case letters, digits and symbols (6+ with all
     * four) — and not be something else with that shape: a link, an address, a path, a file name, a
     * version or date, a name of words, a value named as a user, an account, a network or a host, or a
     * service named before or after the password word ("the password for Office365 is …", "my Steam2
     * password").
     */
    CREDENTIAL_SENTENCE {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            while (end > start && text.charAt(end - 1) == '.') {
                end--;
            }
            if (!passwordShaped(text, start, end)) {
                return null;
            }
            int from = sentenceStart(text, start);
            int to = sentenceEnd(text, end);
            Matcher cue = PASSWORD_CUE.matcher(text).region(from, to);
            boolean found = false;
            while (cue.find()) {
                if (cue.end() <= start || cue.start() >= end) {
                    String word = cue.group().toLowerCase(Locale.ROOT);
                    if (!NOT_PASSWORD_CUES.contains(word.replace("'s", ""))) {
                        found = true;
                        if (cue.start() >= end && cue.start() - end <= 3) {
                            return null; // "my Office365 password": the value names the service
                        }
                    }
                }
            }
            if (!found) {
                return null;
            }
            String before = text.substring(Math.max(from, start - 40), start);
            String value = text.substring(start, end);
            if (value.indexOf('=') > 0 && value.indexOf('=') < value.length() - 2 || value.contains("{")
                    || value.contains("}") || PASSWORD_WORD_INSIDE.matcher(value).find() || base64Text(value)) {
                return null; // "PASSWORD_MIN_LENGTH=12", "${DB_PASSWORD}", "1Password", base64 of words
            }
            if (NAMED_NOT_PASSWORD.matcher(before).find() || SERVICE_BEFORE.matcher(before).find()
                    || THING_BEFORE.matcher(before).find()
                    || SecretAssignments.isPlaceholder(value) || SecretAssignments.isReference(value)
                    || fileName(text, end) || !hasSymbol(value) && identifierLike(text, start, end)) {
                return null; // "UserService2Impl" is a name; "tartine-Miel-34", made of words too, is a password
            }
            return new Span(start, end);
        }
    },
    /**
     * A one-time code as messages carry it, the value before or after its words ("G-538201 is your
     * Google verification code", "Código do WhatsApp: 402-118", "인증번호 [481736]", "el código 7 2 9 4
     * 0 1 por SMS"): the value's sentence must name a code and say what kind (verification, login,
     * SMS, WhatsApp, 2FA …), and the code word must be the value's own, with only articles,
     * possessives, copulas, kinds and names between them. Not a value named as something else just
     * before it (an error, area, postal, order, phone number …), not a year.
     */
    MESSAGE_CODE {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            int from = sentenceStart(text, m.start());
            int to = sentenceEnd(text, m.end());
            String sentence = text.substring(from, to);
            if (!CODE_WORD.matcher(sentence).find()
                    || !CODE_KIND.matcher(sentence).find() && !ADDRESSED_CODE.matcher(sentence).find()) {
                return null; // a kind, or a message's own address: "Your Uber code: 4821"
            }
            String value = text.substring(start, end);
            String before = text.substring(Math.max(from, m.start() - 24), m.start());
            if (NOT_A_CODE_BEFORE.matcher(before).find() || value.matches("(?:19|20)\\d{2}")) {
                return null;
            }
            // the code word must be the value's own: only small words, kinds and names between them
            // ("Código do WhatsApp: 402-118", "G-538201 is your Google verification code"), not
            // "our login code handles 250000 requests"
            String left = text.substring(Math.max(from, m.start() - 40), m.start());
            Matcher word = CODE_WORD.matcher(left);
            int lastEnd = -1;
            while (word.find()) {
                lastEnd = word.end();
            }
            boolean own = lastEnd >= 0 && onlyCodeWords(left.substring(lastEnd));
            if (!own) {
                String right = text.substring(m.end(), Math.min(to, m.end() + 40));
                Matcher after = CODE_WORD.matcher(right);
                own = after.find() && onlyCodeWords(right.substring(0, after.start()));
            }
            return own ? new Span(start, end) : null;
        }
    },
    /**
     * A licence, product or gift-card key: 3–8 groups of 4–6 letters and digits joined by dashes, the
     * letters all of one case, 2+ letters and 2+ digits, and a digit in at least half the groups
     * ("VK7JG-NPHTM-C97JM-9MPGT-3V66T"); one rule asks for a licence word in the text, the other for
     * Windows' shape, five groups of five capitals and digits.
     */
    LICENSE_KEY {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            String[] groups = text.substring(start, end).split("-");
            int letters = 0;
            int digits = 0;
            int upper = 0;
            int withDigit = 0;
            for (String g : groups) {
                boolean digit = false;
                for (int i = 0; i < g.length(); i++) {
                    char c = g.charAt(i);
                    if (Character.isDigit(c)) {
                        digits++;
                        digit = true;
                    } else {
                        letters++;
                        upper += Character.isUpperCase(c) ? 1 : 0;
                    }
                }
                withDigit += digit ? 1 : 0;
            }
            boolean oneCase = upper == 0 || upper == letters;
            return oneCase && letters >= 2 && digits >= 2 && withDigit * 2 >= groups.length
                    ? new Span(start, end) : null;
        }
    },
    /**
     * The secret part of a webhook's URL, after its hook word ({@code …/webhookb2/…},
     * {@code maker.ifttt.com/trigger/…/with/key/…}, {@code …/bot/v2/hook/…}, {@code hooks.zapier.com/hooks/catch/…}):
     * whoever holds the path can post. It must hold a random part (6+ letters and digits mixed: a
     * token, a UUID, hexadecimal digits); a settings page's numeric id ({@code …/settings/hooks/123456}) is none.
     */
    WEBHOOK_PATH {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            while (end > start && ".,;:!".indexOf(text.charAt(end - 1)) >= 0) {
                end--;
            }
            for (String part : text.substring(start, end).split("[/@]")) {
                boolean letter = false;
                boolean digit = false;
                for (int i = 0; i < part.length(); i++) {
                    letter |= Character.isLetter(part.charAt(i));
                    digit |= Character.isDigit(part.charAt(i));
                }
                if (letter && digit && part.length() >= 6 && entropy(part, 0, part.length()) >= 2.5) {
                    return new Span(start, end);
                }
            }
            return null;
        }
    },
    /**
     * A wireless network's password after its key word or after the network's name and a slash
     * ("SSID Casa, WPA2 key 8chaves9portas", "WLAN-Schlüssel: apfelbaum77", "wifi: CasaNet /
     * sunflower2024"): letters with a digit or a symbol ("requirements", "management" are words); not a link, a host, a
     * placeholder, a frequency or a speed.
     */
    WIFI_VALUE {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            while (end > start && ".!?)]}".indexOf(text.charAt(end - 1)) >= 0) {
                end--;
            }
            String v = text.substring(start, end);
            boolean letter = hasLetter(text, start, end);
            boolean digitOrSymbol = hasDigit(text, start, end) || hasSymbol(v);
            if (v.length() < 6 || !letter || !digitOrSymbol || hostLike(v)
                    || SecretAssignments.isPlaceholder(v) || SecretAssignments.isReference(v)
                    || v.matches("(?i)[\\d.,]+\\s?(?:ghz|mhz|mbps|gbps|mb/s|db|dbm|g|ac|ax|n)?")) {
                return null;
            }
            return new Span(start, end);
        }
    },
    /**
     * A lock's code after the verb or label that gives it ("opens with 2-7-0-4", "type 3902#", "Code
     * 4471", "phone unlock is 190382", "code d'entrée : A3917"), in a sentence about a lock, a door, a
     * safe, a locker, an alarm or a phone: 4–8 digits, dashes between them, a leading letter or a
     * trailing '#'. Not a year, and not a number named as something else just before it.
     */
    LOCK_CODE {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            int from = sentenceStart(text, m.start());
            int to = sentenceEnd(text, m.end());
            if (!LOCK_CUE.matcher(text).region(from, to).find()) {
                return null;
            }
            String value = text.substring(start, end);
            String before = text.substring(Math.max(from, m.start() - 24), m.start());
            if (COUNTED_AFTER.matcher(text).region(end, Math.min(text.length(), end + 24)).lookingAt()) {
                return null; // "type 8000 words a day", "enter 2500 steps": a count
            }
            boolean unlock = text.substring(m.start(), start).toLowerCase(Locale.ROOT).contains("unlock"); // "phone unlock is …"
            return value.matches("(?:19|20)\\d{2}") || !unlock && NOT_A_CODE_BEFORE.matcher(before).find()
                    ? null : new Span(start, end);
        }
    },
    /**
     * A Bitcoin-style private key in Base58Check: a WIF key (version 0x80 or 0xEF, 32 key bytes and an
     * optional compression flag) or an extended private key ({@code xprv…}, 78 bytes); the four
     * check bytes must be the start of the double SHA-256 of the rest, which a random word never is.
     */
    BASE58_PRIVATE_KEY {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            byte[] decoded = base58(text, start, end);
            if (decoded == null || decoded.length < 5) {
                return null;
            }
            int n = decoded.length - 4;
            boolean wif = (decoded[0] == (byte) 0x80 || decoded[0] == (byte) 0xEF)
                    && (n == 33 || n == 34 && decoded[33] == 1);
            if (!wif && n != 78) {
                return null;
            }
            try {
                java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
                sha.update(decoded, 0, n);
                byte[] check = sha.digest(sha.digest());
                for (int i = 0; i < 4; i++) {
                    if (check[i] != decoded[n + i]) {
                        return null;
                    }
                }
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is required of every Java platform", e);
            }
            return new Span(start, end);
        }
    },
    /** The secret holds a digit (a bearer token, not "bearer bonds"). */
    HAS_DIGIT {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            return hasDigit(text, start, end) ? new Span(start, end) : null;
        }
    },
    /** Shannon entropy of at least 3 bits per character: random, not a word. */
    ENTROPY {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            return entropy(text, start, end) >= 3.0 ? new Span(start, end) : null;
        }
    },
    /** A 40-character base64 run is an AWS secret only with mixed case, a digit or symbol, and "aws"/"secret" before it. */
    AWS_SECRET {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            boolean upper = false;
            boolean lower = false;
            boolean other = false;
            for (int i = start; i < end; i++) {
                char c = text.charAt(i);
                if (c >= 'A' && c <= 'Z') {
                    upper = true;
                } else if (c >= 'a' && c <= 'z') {
                    lower = true;
                } else {
                    other = true;
                }
            }
            if (!(upper && lower && other)) {
                return null;
            }
            String before = text.substring(Math.max(0, start - 80), start).toLowerCase(Locale.ROOT);
            // or after its access key id ("the key pair: AKIA… and the private half …")
            return before.contains("aws") || before.contains("secret") || before.contains("akia")
                    || before.contains("asia") ? new Span(start, end) : null;
        }
    },
    /** {@code Basic <base64>} whose payload decodes to printable {@code user:password}. */
    BASIC_AUTH {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            try {
                String decoded = new String(Base64.getDecoder().decode(text.substring(start, end)),
                        StandardCharsets.UTF_8);
                int colon = decoded.indexOf(':');
                if (colon < 0 || colon == decoded.length() - 1) {
                    return null;
                }
                for (int i = 0; i < decoded.length(); i++) {
                    if (decoded.charAt(i) < 0x20 || decoded.charAt(i) == 0xFFFD) {
                        return null;
                    }
                }
                return new Span(start, end);
            } catch (IllegalArgumentException notBase64) {
                return null;
            }
        }
    },
    /** Card numbers: 13–19 digits in a card grouping, an issuer's first digit, and the Luhn check. */
    LUHN {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            String run = text.substring(start, end);
            if (!isCardNumber(run)) {
                // "4108 3984 6720 6786 09/27": the expiry's month joined the run; the card is the run
                // without its last group(s)
                int cut = end;
                do {
                    while (cut > start && Character.isDigit(text.charAt(cut - 1))) {
                        cut--;
                    }
                    while (cut > start && !Character.isDigit(text.charAt(cut - 1))) {
                        cut--;
                    }
                } while (cut > start && !isCardNumber(text.substring(start, cut)) && end - cut <= 6);
                if (cut <= start || end - cut > 6 || !isCardNumber(text.substring(start, cut))) {
                    return null;
                }
                run = text.substring(start, cut);
                end = cut;
            }
            // one digit in ten passes Luhn: an unbroken run of a length few cards have (13, 14, 17–19
            // digits: a product id, a chat app's message id) is a card only when the text says so
            int n = end - start;
            boolean unbroken = run.chars().allMatch(c -> c >= '0' && c <= '9');
            if (unbroken && n != 15 && n != 16 && !CARD_WORDS.matcher(text.substring(Math.max(0, start - 60), start)).find()) {
                return null;
            }
            return new Span(start, end);
        }
    },
    /**
     * A US Social Security number as issued: area not 000, 666 or 900–999, group not 00, serial not
     * 0000 (the numbers the SSA never assigns: a part number or a date-like code is not taken).
     */
    SSN {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            String digits = text.substring(start, end).replaceAll("[^0-9]", "");
            if (digits.length() != 9) {
                return null;
            }
            int area = Integer.parseInt(digits.substring(0, 3));
            int group = Integer.parseInt(digits.substring(3, 5));
            int serial = Integer.parseInt(digits.substring(5));
            return area == 0 || area == 666 || area >= 900 || group == 0 || serial == 0 ? null : new Span(start, end);
        }
    },
    /**
     * A list of one-time codes after its label ("recovery codes: 8f2k-x9q1 …"): the codes run while
     * each holds a digit, so the words after the list stay; no code with a digit, no secret.
     */
    CODES {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            int i = start;
            int last = -1;
            while (i < end) {
                int tokenEnd = i;
                while (tokenEnd < end && !Character.isWhitespace(text.charAt(tokenEnd))
                        && text.charAt(tokenEnd) != ',' && text.charAt(tokenEnd) != ';') {
                    tokenEnd++;
                }
                if (!hasDigit(text, i, tokenEnd)) {
                    break;
                }
                last = tokenEnd;
                i = tokenEnd;
                while (i < end && (Character.isWhitespace(text.charAt(i)) || text.charAt(i) == ','
                        || text.charAt(i) == ';')) {
                    i++;
                }
            }
            return last < 0 ? null : new Span(start, last);
        }
    },
    /**
     * A seed phrase: 12–24 words none of which is a function word (the BIP-39 lists hold none of
     * them; a sentence after "the recovery phrase is" does).
     */
    SEED_PHRASE {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            for (String w : text.substring(start, end).toLowerCase(Locale.ROOT).split("[\\s,]+")) {
                if (FUNCTION_WORDS.contains(w)) {
                    return null;
                }
            }
            return new Span(start, end);
        }
    },
    /**
     * A bare BIP-39 seed phrase: 12, 15, 18, 21 or 24 consecutive words of the BIP-39 English list
     * whose checksum holds (one in 16 to one in 256 random word runs passes it, and prose almost never
     * strings 12 list words together), so a wallet's phrase is caught without its label.
     */
    BIP39 {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            return Bip39.find(text, start, end);
        }
    },
    /** A BIP-39 phrase written as a numbered list in any layout or case, checksum validated ({@link Bip39#findNumbered}). */
    BIP39_NUMBERED {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            return Bip39.findNumbered(text, start, end);
        }
    },
    /** An {@code <add key="…" value="…"/>} setting whose key ({@code k}) names a password or a secret. */
    SETTING_KEY {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            return start < end && SecretAssignments.namesAnySecret(m.group("k"))
                    && !SecretAssignments.isPlaceholder(text.substring(start, end)) ? new Span(start, end) : null;
        }
    },
    /**
     * A value paired with a key that names a secret, outside an assignment: a name/value pair
     * ({@code - name: DB_PASSWORD⏎  value: "…"}, {@code {"name":"API_KEY","value":"…"}}), a call's two
     * strings ({@code define('DB_PASSWORD', '…')}), a Dockerfile's {@code ENV DB_PASSWORD …}. The value,
     * unquoted, must be no placeholder and, when it is letters only, no ordinary word ({@code
     * t("password", "Password")} is a label).
     */
    PAIR_VALUE {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            if (!SecretAssignments.namesAnySecret(m.group("k"))) {
                return null;
            }
            Span v = SecretAssignments.unquote(text, start, end);
            if (v == null) {
                return null;
            }
            String value = text.substring(v.start(), v.end()).strip();
            if (value.length() < 4 || SecretAssignments.isPlaceholder(value)
                    || letters(value).equals(letters(m.group("k")))) {
                return null; // t("password", "Password"): a label's text
            }
            if (value.length() < 12 && value.chars().allMatch(c -> c >= '0' && c <= '9')) {
                return null; // a setting's number ("tokenValiditySeconds" = 1209600)
            }
            boolean lettersOnly = value.chars().allMatch(Character::isLetter);
            if (lettersOnly && (Terms.ordinaryWord(value.toLowerCase(Locale.ROOT))
                    || SecretAssignments.NOT_A_PASSWORD.contains(value.toLowerCase(Locale.ROOT))
                    || identifierLike(text, v.start(), v.end()))) {
                return null; // a word or a name made of words ("customKeyGenerator")
            }
            return v;
        }
    },
    /**
     * The value of a command line's password or key flag ({@code -storepass …}, {@code --passphrase '…'})
     * or of a credential pair ("creds are admin / …"): at least four characters and no placeholder
     * ({@code $PASS}, {@code <password>}); quoted, any such value; bare, one shaped like a password (a
     * digit among letters, or one of {@code ! @ # $ % ^ & * + = ? ~}) that is no path or file name
     * ({@code --private-key ./keys/deploy.pem}, {@code --ask-become-pass site.yml}).
     */
    FLAG_VALUE {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            return flagValue(text, start, end, false);
        }
    },
    /**
     * The value of a one-letter password flag after a user flag ({@code sqlcmd -U sa -P '…'}, {@code
     * ldapsearch -D … -w …}): as {@link #FLAG_VALUE}, and bare only with one of {@code ! @ # $ % ^ & * + =
     * ? ~} (one letter means many things: {@code docker run -u 1000 -p 8080:80}, {@code -w /app}, {@code
     * mvn -U -P dev,ci}, {@code mysql -u root -p mydb2} names a database).
     */
    SHORT_FLAG_VALUE {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            return flagValue(text, start, end, true);
        }
    },
    /**
     * A YAML block scalar ({@code password: |}): the lines after the key that are indented deeper than
     * the key's line (blank lines inside kept), from the first one's text to the last one's end.
     */
    BLOCK {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            if (!SecretAssignments.namesAnySecret(m.group("k"))) {
                return null; // password_policy: |, token_usage: >
            }
            int lineStart = text.lastIndexOf('\n', m.start()) + 1;
            int keyIndent = indentation(text, lineStart);
            int first = -1;
            int last = -1;
            int i = start;
            while (i < end) {
                int eol = text.indexOf('\n', i);
                int lineEnd = eol < 0 || eol > end ? end : eol;
                int ind = indentation(text, i);
                boolean blank = i + ind >= lineEnd || text.substring(i, lineEnd).isBlank();
                if (!blank && ind <= keyIndent) {
                    break;
                }
                if (!blank) {
                    if (first < 0) {
                        first = i + ind;
                    }
                    last = lineEnd > i && text.charAt(lineEnd - 1) == '\r' ? lineEnd - 1 : lineEnd;
                }
                i = lineEnd + 1;
            }
            return first < 0 ? null : new Span(first, last);
        }
    },
    /** Brazilian CPF: 11 digits, not all equal, both check digits right. */
    CPF {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            return isCpf(text.substring(start, end)) ? new Span(start, end) : null;
        }
    },
    /** A Spanish DNI or NIE: eight digits (an NIE: X, Y or Z and seven), then the letter their value mod 23 gives. */
    DNI_LETTER {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            String id = text.substring(start, end).replaceAll("[ \\-]", "").toUpperCase(Locale.ROOT);
            if (id.length() != 9) {
                return null;
            }
            String digits = "XYZ".indexOf(id.charAt(0)) >= 0 ? "XYZ".indexOf(id.charAt(0)) + id.substring(1, 8)
                    : id.substring(0, 8);
            if (!digits.chars().allMatch(Character::isDigit)) {
                return null;
            }
            return "TRWAGMYFPDXBNJZSQVHLCKE".charAt(Integer.parseInt(digits) % 23) == id.charAt(8)
                    ? new Span(start, end) : null;
        }
    },
    /** An identity or tax number after its label: 6 to 20 digits among at most as many letters. */
    ID_NUMBER {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            int digits = 0;
            int letters = 0;
            for (int i = start; i < end; i++) {
                char c = text.charAt(i);
                digits += c >= '0' && c <= '9' ? 1 : 0;
                letters += Character.isLetter(c) ? 1 : 0;
            }
            String value = text.substring(start, end);
            if (DATE_OR_RANGE.matcher(value).matches()) {
                return null; // "tax id: 2023-04-15 was the filing date", "7230-7235"
            }
            if (thingsId(text, m.start())) {
                return null; // "support ticket ID number 01353499": a thing's number, not a person's
            }
            return digits >= 6 && digits <= 20 && letters <= 12 ? new Span(start, end) : null;
        }
    },
    /** Twelve digits that pass the Verhoeff check (an Indian Aadhaar number). */
    VERHOEFF {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            String digits = text.substring(start, end).replaceAll("[^0-9]", "");
            return digits.length() == 12 && verhoeff(digits) ? new Span(start, end) : null;
        }
    },
    /** Nine digits that pass the Luhn check (a Canadian Social Insurance Number). */
    LUHN_DIGITS {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            String digits = text.substring(start, end).replaceAll("[^0-9]", "");
            return digits.length() == 9 && digits.charAt(0) != '0' && luhn(digits) ? new Span(start, end) : null;
        }
    },
    /** A bare 11-digit CPF: as {@link #CPF}, and not announced as a phone number. */
    CPF_BARE {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            if (!isCpf(text.substring(start, end))) {
                return null;
            }
            if (text.substring(Math.max(0, start - 12), start).toLowerCase(Locale.ROOT).contains("cpf")) {
                return new Span(start, end); // labelled: "Contato: Ana, CPF 07568485633" is no phone
            }
            String before = text.substring(Math.max(0, start - 30), start).toLowerCase(Locale.ROOT);
            for (String phone : PHONE_WORDS) {
                if (before.contains(phone)) {
                    return null;
                }
            }
            return new Span(start, end);
        }
    },
    /** IBAN: the longest prefix of the match, at a character boundary, of 15–34 characters passing mod-97. */
    IBAN {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            for (int e = end; e > start; e--) {
                char last = text.charAt(e - 1);
                if (last == ' ' || last == '-') {
                    continue;
                }
                // written in lower case or grouped by dashes too ("de89-3704-…", "gb82 west …")
                String compact = text.substring(start, e).replace(" ", "").replace("-", "")
                        .toUpperCase(java.util.Locale.ROOT);
                if (compact.length() < 15) {
                    return null;
                }
                if (compact.length() <= 34 && ibanMod97(compact)) {
                    return new Span(start, e);
                }
            }
            return null;
        }
    },
    /**
     * {@code KEY=value}, {@code key: value}, {@code "key": "value"}: the key (named group {@code id})
     * must name a secret, the value (group {@code s}) must not be a placeholder; see
     * {@link SecretAssignments}.
     */
    ASSIGNMENT_PASSWORD {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            return SecretAssignments.check(text, m, start, end, true);
        }
    },
    /** As {@link #ASSIGNMENT_PASSWORD} for API keys, tokens and secrets. */
    ASSIGNMENT_SECRET {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            return SecretAssignments.check(text, m, start, end, false);
        }
    },
    /**
     * A password disclosed in prose ("my password is X", "a senha é: X"): the value runs to the end
     * of its clause, so a multi-word passphrase is taken whole; see {@link SecretAssignments#passphrase}.
     */
    PASSPHRASE {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            Span s = SecretAssignments.passphrase(text, start);
            if (s == null) {
                return null;
            }
            // a template in brackets ("**Password:** `<your password here>`", "{{db_password}}") hides none
            String value = text.substring(s.start(), s.end()).strip();
            return value.startsWith("<") && value.endsWith(">") || value.startsWith("{{") || value.startsWith("[")
                    && value.endsWith("]") ? null : s;
        }
    },
    /**
     * {@code user:password} in a URL: any characters in the password ({@code @ # : / ?} included, up
     * to the last {@code @} before the host), but not a port followed by a path, which is
     * {@code host:8080/x?mail=a@b.com}.
     */
    USERINFO {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            int colon = text.indexOf(':', start);
            int i = colon + 1;
            while (i < end && text.charAt(i) >= '0' && text.charAt(i) <= '9') {
                i++;
            }
            if (i > colon + 1 && i < end && "/?#".indexOf(text.charAt(i)) >= 0) {
                return null;
            }
            String password = text.substring(colon + 1, end).toLowerCase(Locale.ROOT);
            if (PLACEHOLDER_PASSWORDS.contains(password.replaceAll("^[<\\[{]+|[>\\]}]+$", ""))
                    || SecretAssignments.isPlaceholder(password)) {
                return null; // "postgres://USER:PASSWORD@HOST/DB": a template, not a credential
            }
            return new Span(start, end);
        }
    },
    /**
     * A password after a weak label ("pass: X"): after another word ("boarding pass: B12") it must
     * look like one (a digit, a symbol or inner capitals); at the start of a line or after
     * punctuation ("user: ana / pass: letmein") any value that is not an ordinary word.
     */
    WEAK_PASSWORD {
        @Override
        Span check(String text, Matcher m, int start, int end) {
            Span s = SecretAssignments.trimValue(text, start, end);
            if (s == null || SecretAssignments.isPlaceholder(text.substring(s.start(), s.end()))) {
                return null;
            }
            int before = m.start() - 1;
            while (before >= 0 && (text.charAt(before) == ' ' || text.charAt(before) == '\t')) {
                before--;
            }
            if (before < 0 || !Character.isLetterOrDigit(text.charAt(before))) {
                String value = text.substring(s.start(), s.end()).toLowerCase(Locale.ROOT);
                if (value.length() >= 4 && !SecretAssignments.NOT_A_PASSWORD.contains(value)
                        && !SecretAssignments.FUNCTION_WORDS.contains(value)) {
                    return s;
                }
            }
            boolean lower = false;
            boolean other = false;
            for (int i = s.start(); i < s.end(); i++) {
                char c = text.charAt(i);
                lower |= Character.isLowerCase(c);
                other |= !Character.isLetter(c);
            }
            return other || (lower && hasInnerUpper(text, s)) ? s : null;
        }
    };

    /** Decides whether {@code [start, end)}, the rule's group in match {@code m}, is a secret; null keeps it. */
    /** A run's ASCII capitals, lower-case letters and digits, and whether it is all hexadecimal digits. */
    record Shape(int upper, int lower, int digits, boolean hex) {
        static Shape of(String text, int from, int to) {
            int upper = 0;
            int lower = 0;
            int digits = 0;
            boolean hex = true;
            for (int i = from; i < to; i++) {
                char c = text.charAt(i);
                upper += c >= 'A' && c <= 'Z' ? 1 : 0;
                lower += c >= 'a' && c <= 'z' ? 1 : 0;
                digits += c >= '0' && c <= '9' ? 1 : 0;
                hex &= (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            }
            return new Shape(upper, lower, digits, hex);
        }
    }

    abstract Span check(String text, Matcher m, int start, int end);

    /** A span of the text to replace. */
    record Span(int start, int end) {
    }

    /**
     * Things that have an "ID number" of their own, not a person's national one: "support ticket ID
     * number", "order id number", "employee ID number". Any other word before the label ("my wife's",
     * "Brazilian", "government-issued") leaves it a person's.
     */
    private static final Set<String> THING_ID_WORDS = Set.of("ticket", "order", "case", "tracking", "support",
            "invoice", "reference", "ref", "transaction", "request", "booking", "reservation", "confirmation",
            "product", "item", "shipment", "parcel", "package", "session", "job", "incident", "bug", "issue",
            "claim", "device", "serial", "employee", "student", "member", "customer", "account", "user", "app",
            "build", "version", "model", "part", "batch", "lot", "vehicle", "license", "policy", "application",
            "registration", "loyalty", "membership", "subscription", "project", "task", "event", "record",
            "message", "chat", "thread", "post", "video", "file", "document", "pedido", "protocolo", "chamado");

    /** Whether the "ID number" label at {@code labelStart} follows a word that names a thing ({@link #THING_ID_WORDS}). */
    private static boolean thingsId(String text, int labelStart) {
        if (!text.regionMatches(true, labelStart, "id", 0, 2)) {
            return false;
        }
        int i = labelStart - 1;
        while (i >= 0 && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i--;
        }
        int end = i + 1;
        while (i >= 0 && (Character.isLetter(text.charAt(i)) || text.charAt(i) == '\'' || text.charAt(i) == '-')) {
            i--;
        }
        if (end - (i + 1) < 2 || end == labelStart) {
            return false; // the label opens the text or follows punctuation
        }
        return THING_ID_WORDS.contains(text.substring(i + 1, end).toLowerCase(Locale.ROOT));
    }

    /** Words that announce a payment card ("card", "Visa", "cartão", "tarjeta", "PAN"). */
    private static final java.util.regex.Pattern CARD_WORDS = java.util.regex.Pattern.compile(
            "(?iu)\\b(?:cards?|credit|debit|visa|master\\s?card|amex|american\\s+express|discover|maestro|diners|jcb|"
                    + "unionpay|rupay|elo|hipercard|pan|cart[ãa]o|tarjeta|carte|karte|carta|kaart|karta|cc)\\b");

    /** The letters and digits of {@code s}, lower case: "DB_PASSWORD" and "db password" alike. */
    private static String letters(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            if (Character.isLetterOrDigit(s.charAt(i))) {
                b.append(Character.toLowerCase(s.charAt(i)));
            }
        }
        return b.toString();
    }

    /** Characters of a password that no path, port mapping, list or identifier holds. */
    private static final String PASSWORD_SYMBOLS = "!@#$%^&*+=?~";

    /** {@link #FLAG_VALUE} and {@link #SHORT_FLAG_VALUE}. */
    private static Span flagValue(String text, int start, int end, boolean symbolNeeded) {
        boolean quoted = end - start >= 2 && (text.charAt(start) == '"' || text.charAt(start) == '\'');
        Span v = SecretAssignments.unquote(text, start, end);
        if (v == null) {
            return null;
        }
        String value = text.substring(v.start(), v.end());
        if (value.length() < 4 || SecretAssignments.isPlaceholder(value)) {
            return null;
        }
        if (quoted) {
            return v;
        }
        if (value.indexOf('/') >= 0 || value.startsWith(".") || value.startsWith("~")
                || value.matches("(?s).*\\.[A-Za-z]{1,5}")) {
            return null; // a path or a file name
        }
        boolean symbol = false;
        boolean digit = false;
        boolean letter = false;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            symbol |= PASSWORD_SYMBOLS.indexOf(c) >= 0;
            digit |= c >= '0' && c <= '9';
            letter |= Character.isLetter(c);
        }
        return symbol || !symbolNeeded && digit && letter ? v : null;
    }

    /** How many spaces and tabs start the line at {@code from}. */
    private static int indentation(String text, int from) {
        int i = from;
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        return i - from;
    }

    private static final Set<String> FUNCTION_WORDS = Set.of("the", "and", "you", "are", "with", "this", "that", "for",
            "not", "have", "your", "from", "they", "will", "what", "when", "them", "then", "than", "our", "but",
            "was", "were", "has", "had", "its", "his", "her", "she", "him", "can", "should", "would", "could",
            "there", "these", "those", "which", "who", "into", "been");
    private static final List<String> PHONE_WORDS = List.of("tel", "cel", "fone", "phone", "whats", "zap",
            "ligue", "ligar", "call", "mobile", "contato", "contact");

    static final Set<String> ISSUER_FIRST_DIGITS = Set.of("2", "3", "4", "5", "6");

    private static boolean hasInnerUpper(String text, Span s) {
        for (int i = s.start() + 1; i < s.end(); i++) {
            if (Character.isUpperCase(text.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /** The longest run of letters and digits in {@code text[start, end)} (the first of equals; empty at start if none). */
    private static Span longestRun(String text, int start, int end) {
        int bodyStart = start;
        int bodyEnd = start;
        for (int i = start; i < end; ) {
            int j = i;
            while (j < end && Character.isLetterOrDigit(text.charAt(j))) {
                j++;
            }
            if (j - i > bodyEnd - bodyStart) {
                bodyStart = i;
                bodyEnd = j;
            }
            i = j + 1;
        }
        return new Span(bodyStart, bodyEnd);
    }

    /** Whether the line before or after {@code [start, end)} is another long base64 line: a block, not one token. */
    private static boolean inBlock(String text, int start, int end) {
        // the lines of a block are short (64–76 characters): a line break farther away than LINE_REACH
        // ends no block line, and looking no farther keeps a text of many tokens linear
        int lineStart = newlineBefore(text, start - 1);
        if (lineStart > 0) {
            int previous = newlineBefore(text, lineStart - 1) + 1;
            if ((previous > 0 || lineStart <= LINE_REACH)
                    && BLOCK_LINE.matcher(text).region(previous, lineStart).matches()) {
                return true;
            }
        }
        int lineEnd = newlineAfter(text, end);
        if (lineEnd < 0) {
            return false;
        }
        int next = newlineAfter(text, lineEnd + 1);
        return BLOCK_LINE.matcher(text).region(lineEnd + 1, next < 0 ? Math.min(text.length(), lineEnd + 1 + LINE_REACH) : next)
                .matches();
    }

    private static final int LINE_REACH = 4096;

    /** The last line break at or before {@code from}, no farther back than {@link #LINE_REACH}; -1 when none. */
    private static int newlineBefore(String text, int from) {
        for (int i = from; i >= 0 && i > from - LINE_REACH; i--) {
            if (text.charAt(i) == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** The first line break at or after {@code from}, no farther than {@link #LINE_REACH}; -1 when none. */
    private static int newlineAfter(String text, int from) {
        int stop = Math.min(text.length(), from + LINE_REACH);
        for (int i = Math.max(0, from); i < stop; i++) {
            if (text.charAt(i) == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static final java.util.regex.Pattern BLOCK_LINE = java.util.regex.Pattern.compile("\\s*[A-Za-z0-9+/=]{20,}\\s*");

    /** Names of calls that log in or authenticate with (user, password): the call's last name, whole or as its end. */
    private static final java.util.regex.Pattern LOGIN_CALL = java.util.regex.Pattern.compile(
            "(?:\\w*_)?(?:log_?in|log_?on|sign_?in|authenticate|auth|basicauth|httpbasicauth|httpdigestauth|digestauth"
                    + "|\\w*credentials?|\\w*passwordauthentication)");

    /** Names of calls that open a database or server connection with (host, user, password). */
    private static final java.util.regex.Pattern CONNECT_CALL = java.util.regex.Pattern.compile(
            "\\w*connect|getconnection|createconnection|pdo|mysqli|\\w*_connect");

    /** Endings of host names: a dotted name is a host only with one of them ("svc.backup", "john.doe" are users). */
    private static final Set<String> HOST_ENDINGS = Set.of("com", "net", "org", "io", "dev", "app", "co", "ai",
            "cloud", "local", "localdomain", "internal", "lan", "corp", "home", "intra", "info", "biz", "me", "tech",
            "site", "online", "xyz", "eu", "us", "uk", "de", "fr", "es", "it", "nl", "br", "pt", "ca", "au", "jp",
            "cn", "ru", "in", "ch", "se", "no", "dk", "fi", "pl", "be", "at", "mx", "ar", "cl", "za", "nz", "ie");

    /** A host, an address, a URL or a data source name: what comes before the user, never the password. */
    private static boolean hostLike(String v) {
        if (v.equalsIgnoreCase("localhost") || v.contains("://") || v.startsWith("jdbc:")
                || v.matches("\\d{1,3}(?:\\.\\d{1,3}){3}(?::\\d{1,5})?|(?i)[a-z]{2,12}:(?:host|dbname|server|data source)=.*")) {
            return true;
        }
        if (!v.matches("(?i)[a-z0-9\\-]+(?:\\.[a-z0-9\\-]+)+(?::\\d{1,5})?")) {
            return false;
        }
        String host = v.replaceAll(":\\d+$", "").toLowerCase(Locale.ROOT);
        return HOST_ENDINGS.contains(host.substring(host.lastIndexOf('.') + 1));
    }

    /** The arguments of a call's argument list {@code [start, end)}: commas outside quotes and brackets split them. */
    private static List<int[]> arguments(String text, int start, int end) {
        List<int[]> out = new java.util.ArrayList<>();
        int depth = 0;
        char quote = 0;
        int from = start;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '"' || c == '\'' || c == '`') {
                quote = c;
            } else if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if (c == ')' || c == ']' || c == '}') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(new int[] {from, i});
                from = i + 1;
            }
        }
        out.add(new int[] {from, end});
        return out;
    }

    /**
     * The inside of the string literal that opens the argument {@code [start, end)} (after blanks and a
     * prefix such as Python's {@code b}/{@code r} or C#'s {@code @}), or null when it opens with none.
     */
    private static Span literal(String text, int start, int end) {
        int i = start;
        while (i < end && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        if (i < end && "bBrRuU@".indexOf(text.charAt(i)) >= 0 && i + 1 < end && "\"'".indexOf(text.charAt(i + 1)) >= 0) {
            i++;
        }
        if (i >= end || "\"'`".indexOf(text.charAt(i)) < 0) {
            return null;
        }
        char quote = text.charAt(i);
        int close = i + 1;
        while (close < end && text.charAt(close) != quote) {
            close += text.charAt(close) == '\\' ? 2 : 1;
        }
        return close < end ? new Span(i + 1, close) : null;
    }

    /** Words that speak of a password, in the languages the other password rules read, and configuration names ending in one. */
    private static final java.util.regex.Pattern PASSWORD_CUE = java.util.regex.Pattern.compile(
            "(?iu)(?<![\\p{L}\\p{N}])(?:[\\p{L}_]{0,16}(?:pass(?:words?|wd|phrase|code)?|pwd?)(?:'s)?|senhas?|contrase[ñn]as?|"
                    + "claves?|mot\\s(?:de\\s)?passe|mdp|passw[öo]rter|kennw[öo]rt(?:er)?|wachtwoord|has[łl]o|parola|"
                    + "log\\s?in|log\\s(?:me\\s)?into|sign\\s?in|get\\sinto|unlock|credentials?|creds|wi-?fi|wlan|"
                    + "пароль|пароля|パスワード|暗証番号|密码|密碼|비번|비밀번호|패스워드|암호|[şs]ifre(?:si|m)?|l[öo]senord|"
                    + "salasana|jelsz[óo]|heslo|adgangskode|passord)(?![\\p{L}\\p{N}])");

    /** A password word inside a value: the value is a product or a setting named after passwords ("1Password", "KeePassXC"). */
    private static final java.util.regex.Pattern PASSWORD_WORD_INSIDE = java.util.regex.Pattern.compile(
            "(?i)pass(?:word|wd|phrase)?|pwd|senha|secret|token");

    /** Words that end in "pass" and speak of no password. */
    private static final Set<String> NOT_PASSWORD_CUES = Set.of("bypass", "compass", "trespass", "overpass",
            "underpass", "surpass", "encompass", "impass");

    /** A label just before a value that names it as something other than the password. */
    private static final java.util.regex.Pattern NAMED_NOT_PASSWORD = java.util.regex.Pattern.compile(
            "(?iu)\\b(?:user(?:name)?|login|account|acct|e-?mail|network|ssid|wi-?fi\\sname|network\\sname|"
                    + "host(?:name)?|server|id|usu[áa]rio|utilisateur|benutzer(?:name)?|nome|name|rede|red|r[ée]seau)"
                    + "[\\s:=`'\"]{1,4}$");

    /** A service named before a value, as what the password is of ("the password for Office365 is …"). */
    private static final java.util.regex.Pattern SERVICE_BEFORE = java.util.regex.Pattern.compile(
            "(?iu)\\b(?:for|on|at|of|from|del|della|dello|du|des|von|vom|f[üu]r|pour|do|da|dos|das)\\s{1,3}(?:my\\s|the\\s|meu\\s|minha\\s)?[`'\"]?$");

    /** Words right before a value that make it a thing, not a password: "a Netgear-R7000", "hashed with …", "to pass …". */
    private static final java.util.regex.Pattern THING_BEFORE = java.util.regex.Pattern.compile(
            "(?iu)\\b(?:a|an|the|with|via|during|model|version|pass|passed|passing|upgrade\\s+to|update\\s+to)\\s{1,3}[`'\"]?$");

    /**
     * 8+ characters of three kinds among capitals, lower-case letters, digits and symbols (6+ with all
     * four), and not a standard's name (no lower-case letter, with a dash or an underscore).
     */
    private static boolean passwordShaped(String text, int start, int end) {
        int n = end - start;
        if (n < 6 || n > 64) {
            return false;
        }
        int upper = 0;
        int lower = 0;
        int digit = 0;
        int symbol = 0;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (Character.isUpperCase(c)) {
                upper++;
            } else if (Character.isLowerCase(c)) {
                lower++;
            } else if (Character.isDigit(c)) {
                digit++;
            } else if ("/\\@:".indexOf(c) >= 0 || Character.isWhitespace(c) || Character.isLetter(c)) {
                return false; // a path, an address, a link, or letters without case
            } else {
                symbol++;
            }
        }
        int kinds = (upper > 0 ? 1 : 0) + (lower > 0 ? 1 : 0) + (digit > 0 ? 1 : 0) + (symbol > 0 ? 1 : 0);
        if (upper + lower < 2 || digit == 0 && symbol == 0 || kinds < 3 || kinds == 3 && n < 8) {
            return false;
        }
        String v = text.substring(start, end);
        if (lower == 0 && (v.indexOf('-') >= 0 || v.indexOf('_') >= 0)) {
            return false; // "PBKDF2-SHA256", "WPA2-PSK", "COVID-19", "AWS-SAA-C03": names of standards and things
        }
        return !v.startsWith("#") && !v.matches("(?i)v?\\d+(?:[.\\-]\\w+)+|[\\w\\-]+\\.[a-z]{2,6}|.*\\.\\.+.*");
    }

    private static boolean hasSymbol(String v) {
        for (int i = 0; i < v.length(); i++) {
            if (!Character.isLetterOrDigit(v.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    private static int sentenceStart(String text, int at) {
        int i = at - 1;
        int limit = Math.max(0, at - 200);
        while (i >= limit) {
            char c = text.charAt(i);
            if (c == '\n' || "。！？".indexOf(c) >= 0 || ".!?".indexOf(c) >= 0 && i + 1 < text.length()
                    && Character.isWhitespace(text.charAt(i + 1))) {
                return i + 1;
            }
            i--;
        }
        return limit;
    }

    private static int sentenceEnd(String text, int at) {
        int limit = Math.min(text.length(), at + 200);
        for (int i = at; i < limit; i++) {
            char c = text.charAt(i);
            if (c == '\n' || "。！？".indexOf(c) >= 0 || ".!?".indexOf(c) >= 0 && (i + 1 == text.length()
                    || Character.isWhitespace(text.charAt(i + 1)))) {
                return i;
            }
        }
        return limit;
    }

    /** A plural noun or a decimal right after a number: it counts or measures something ("8000 words", "1004.5"). */
    private static final java.util.regex.Pattern COUNTED_AFTER = java.util.regex.Pattern.compile(
            "[.,]\\d|\\s{1,3}(?:[a-z]{2,20}s|people|times|percent|per|euros?|dollars?|reais|pounds?|km|kg|mb|gb)\\b");

    /** What a lock's code opens: a lock, a door, a safe, a locker, an alarm, a phone, in the languages the other rules read. */
    private static final java.util.regex.Pattern LOCK_CUE = java.util.regex.Pattern.compile(
            "(?iu)(?<![\\p{L}])(?:locks?|padlock|safe|key\\s?safe|lockbox|door|gate|garage|entry|entrance|building|"
                    + "buzz\\p{L}*|intercom|keypad|alarm|locker|schlie(?:ß|ss)fach|t[üu]r\\p{L}*|tor|porta|port[ãa]o|cadeado|"
                    + "cofre|puerta|candado|caja\\s{1,3}fuerte|porte|entr[ée]e|digicode|cadenas|coffre|kap[ıi]|kilit|phone|"
                    + "iphone|android|ipad|tablet|laptop|screen|unlock|spind|tresor)(?![\\p{L}])"
                    + "|(?<![\\p{L}])\\p{L}{0,12}(?:schloss|schl[öo]sser|t[üu]r|fach|tresor)(?![\\p{L}])|玄関|ドア|金庫|门|현관|도어락");

    /** A word for a code, in the languages the code rules read. */
    private static final java.util.regex.Pattern CODE_WORD = java.util.regex.Pattern.compile(
            "(?iu)(?<![\\p{L}])(?:codes?|c[óo]digos?|codice|kod(?:u|em)?|код\\p{L}{0,2}|passcode|otp)(?![\\p{L}])"
                    + "|コード|번호|码|碼|인증|验证|驗證");

    /** A code addressed to its reader, as a message words it ("Your Uber code:", "Seu código", "Votre code"). */
    private static final java.util.regex.Pattern ADDRESSED_CODE = java.util.regex.Pattern.compile(
            "(?iu)\\b(?:your|seu|sua|tu|votre|ihr|dein|il\\stuo)\\s(?:[\\p{Lu}][\\p{L}\\p{N}]{0,15}\\s)?(?:code|c[óo]digo|codice)\\b");

    /** Words that may stand between a one-time code and its code word: articles, possessives, copulas, kinds, names. */
    private static final Set<String> CODE_GAP_WORDS = Set.of("do", "da", "de", "del", "du", "des", "di", "von",
            "vom", "for", "from", "of", "is", "é", "es", "est", "ist", "è", "was", "your", "seu", "sua", "tu", "votre",
            "ihr", "dein", "il", "tuo", "el", "la", "o", "a", "le", "der", "die", "das", "the", "my", "meu", "minha",
            "mi", "mon", "ma", "mein", "sent", "texted", "new", "novo", "nuevo", "nouveau", "neuer", "as", "como");

    private static boolean onlyCodeWords(String gap) {
        if (gap.length() > 32) {
            return false;
        }
        for (String w : gap.split("[^\\p{L}\\p{N}]+")) {
            if (!w.isEmpty() && !CODE_GAP_WORDS.contains(w.toLowerCase(Locale.ROOT))
                    && !Character.isUpperCase(w.charAt(0)) && !CODE_KIND.matcher(w).matches()
                    && !CODE_WORD.matcher(w).matches()) {
                return false;
            }
        }
        return true;
    }

    /** What says a code is a one-time one: its purpose or the channel that carried it. */
    private static final java.util.regex.Pattern CODE_KIND = java.util.regex.Pattern.compile(
            "(?iu)(?<![\\p{L}])(?:verif\\p{L}*|v[ée]rif\\p{L}*|confirm\\p{L}*|security|seguran[çc]a|seguridad|sicherheit\\p{L}*|"
                    + "bestätigung\\p{L}*|login|log-?in|sign-?in|one-?time|otp|2fa|mfa|two-?factor|auth\\p{L}*|autentica\\p{L}*|"
                    + "access|acesso|acceso|whatsapp|telegram|signal|sms|text(?:ed)?|doğrulama|weryfikac\\p{L}*|подтвержд\\p{L}*|"
                    + "проверочн\\p{L}*)(?![\\p{L}])|認証|確認|인증|验证|驗證|[Ww]eb발신");

    /** Words right before a number that name it as something other than a one-time code. */
    private static final java.util.regex.Pattern NOT_A_CODE_BEFORE = java.util.regex.Pattern.compile(
            "(?iu)\\b(?:error|erro|area|zip|postal|post|status|country|dial|product|promo|discount|coupon|tracking|"
                    + "order|pedido|exit|http|response|return|reason|item|tax|bar|qr|phone|tel|telefone|call|room|flight|"
                    + "invoice|ref|account|conta|cuenta|page|line|version|build|ticket|case|protocolo|n[úu]mero\\s(?:do|de)\\s(?:pedido|protocolo))"
                    + "\\b[^\\p{L}\\n]{0,6}(?:\\p{L}{1,12}\\s{1,2})?(?:code|c[óo]digo|codice|is|é|:|#|nº)?[\\s:#]{0,3}$");

    /** Drops the text {@link TextFacts} remembers for this thread (it still holds the secrets redaction removes). */
    static void forgetText() {
        TextFacts.forget();
    }

    /**
     * What the token validators ask of a whole text, found once per text and thread: where its first
     * armoured block starts and whether it speaks of wallets or transfers. A rule's pass hands every
     * match of one text the same string, so asking again is an identity check, not a scan (a hostile
     * text of many tokens costs linear time, not one scan per token).
     */
    private record TextFacts(String text, int firstArmour, boolean chainWords) {
        private static final ThreadLocal<TextFacts> LAST = new ThreadLocal<>();

        static TextFacts of(String text) {
            TextFacts last = LAST.get();
            if (last != null && last.text == text) {
                return last;
            }
            TextFacts facts = new TextFacts(text, text.indexOf("-----BEGIN"), CHAIN_WORDS.matcher(text).find());
            LAST.set(facts);
            return facts;
        }

        static void forget() {
            LAST.remove();
        }

        /** Whether an armoured block ("-----BEGIN") starts at or before {@code at}. */
        boolean armourBefore(int at) {
            return firstArmour >= 0 && firstArmour <= at;
        }
    }

    /** Whether every character of {@code token} is a Base58 one (no 0, O, I, l, no symbol). */
    private static boolean pureBase58(String token) {
        for (int i = 0; i < token.length(); i++) {
            if (BASE58.indexOf(token.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /** An extended public key of a wallet ({@code xpub…}, {@code zpub…}, {@code tpub…}) or a Nostr public key. */
    private static final java.util.regex.Pattern EXTENDED_PUBLIC = java.util.regex.Pattern.compile("(?:[xyzuvt]pub|npub1)");

    /**
     * Base64 of a file or of compressed data, known by its first bytes: gzip ({@code H4sI}), zip,
     * PNG, JPEG, GIF, PDF, an EC public key's DER header.
     */
    private static final java.util.regex.Pattern DATA_MAGIC = java.util.regex.Pattern.compile(
            "H4sI|UEsDB|iVBORw0KGgo|/9j/|R0lGOD|JVBERi0|MFkwEwYHKoZIzj0CAQ|MCowBQYDK2Vw|UklGR");

    /** A Base58 WIF private key's shape (51 or 52 characters after its version byte's letter). */
    private static final java.util.regex.Pattern WIF_SHAPE = java.util.regex.Pattern.compile("[5KL9c][1-9A-HJ-NP-Za-km-z]{50,51}");

    /**
     * A value right after a key of JSON ({@code "x": "}), of an assignment ({@code name=}) or of a
     * YAML line ({@code  nonce: }): whether it is a secret is for the rules that read the key's name.
     */
    private static final java.util.regex.Pattern KEYED_VALUE = java.util.regex.Pattern.compile(
            "(?:[\"'][\\w.\\-]{1,40}[\"']\\s{0,3}:\\s{0,3}[\"'`]?|[\\w.\\-]{1,40}\\s{0,3}=\\s{0,3}[\"'`]?"
                    + "|(?m:^)[ \\t\\-]{0,12}[\\w.\\-]{1,40}:[ \\t]{1,3}[\"'`]?)$");

    /** Whether an 8-character piece of {@code [start, end)} occurs twice in it: a pattern, not a random draw. */
    private static boolean repeats(String text, int start, int end) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = start; i + 8 <= end; i++) {
            if (!seen.add(text.substring(i, i + 8))) {
                return true;
            }
        }
        return false;
    }

    /** Words of a text about a blockchain or content addressing, where pure Base58 is an address or a content id. */
    private static final java.util.regex.Pattern CHAIN_WORDS = java.util.regex.Pattern.compile(
            "(?iu)\\b(?:wallet|carteira|billetera|address|endere[çc]o|direcci[óo]n|adresse|solana|sol|phantom|ipfs|cid|"
                    + "mint|nft|airdrop|send|sent|transfer|explorer|solscan|blockchain|on-?chain|crypto|bitcoin|btc|"
                    + "pubkey|program|tx|txid|transaction|signature)\\b");

    /**
     * Words just before a token that name it as something public or as data: an id, a hash, an
     * address, a signature, a transaction, a blob or a payload ("playlist id PLx…", "tx signature 5Vf…").
     */
    private static final java.util.regex.Pattern NAMED_PUBLIC = java.util.regex.Pattern.compile(
            "(?iu)\\b(?:ids?|identifier|commit|sha\\d*|hash|checksum|digest|etag|fingerprint|address|addr|wallet|"
                    + "signature|sig|tx|txid|txn|transaction|playlist|video|channel|document|doc|folder|file|"
                    + "cid|trace|correlation|request|order|tracking|invoice|receipt|ref|reference|nonce|iv|"
                    + "blob|payload|body|bytes|image|ciphertext|encrypted|data)"
                    + "(?:\\s\\p{L}{1,12})?(?:\\s{1,3}(?:is|was|=))?[\\s:=#(\\[]{1,4}[\"'`]?$");

    /** A legacy Bitcoin address's shape: Base58, 25–35 characters, starting 1 (P2PKH) or 3 (P2SH). */
    private static boolean base58Address(String token) {
        if (token.length() < 25 || token.length() > 35 || token.charAt(0) != '1' && token.charAt(0) != '3') {
            return false;
        }
        for (int i = 0; i < token.length(); i++) {
            if (BASE58.indexOf(token.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code token} is base64 of text: it decodes to printable UTF-8 (data, not a key). */
    private static boolean base64Text(String token) {
        if (token.length() % 4 != 0 || !token.matches("[A-Za-z0-9+/]+={0,2}")) {
            return false;
        }
        byte[] bytes;
        try {
            bytes = java.util.Base64.getDecoder().decode(token);
        } catch (IllegalArgumentException notBase64) {
            return false;
        }
        java.nio.charset.CharsetDecoder utf8 = java.nio.charset.StandardCharsets.UTF_8.newDecoder();
        String decoded;
        try {
            decoded = utf8.decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException notText) {
            return false;
        }
        for (int k = 0; k < decoded.length(); k++) {
            char c = decoded.charAt(k);
            if (Character.isISOControl(c) && c != '\n' && c != '\r' && c != '\t') {
                return false;
            }
        }
        return !decoded.isEmpty();
    }

    static boolean hasDigit(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                return true;
            }
        }
        return false;
    }

    static boolean hasLetter(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (Character.isLetter(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /** What a template writes where a password goes: {@code USER:PASSWORD@HOST}, {@code user:<password>@host}. */
    private static final java.util.Set<String> PLACEHOLDER_PASSWORDS = java.util.Set.of("password", "pass",
            "passwd", "pwd", "pw", "secret", "senha", "your_password", "your-password", "yourpassword", "mypassword",
            "my_password", "db_password", "db_pass", "pass_word", "token", "user_password");

    private static final java.util.regex.Pattern PUBLIC =
            java.util.regex.Pattern.compile("(?u)\\b(?:pub|public|publishable|p[úu]blic[ao])\\b");

    /** Words that make "key" a key into data ("cache key", "sort key", "S3 key"). */
    private static final String DATA_KEY_WORDS = "(?:cache|i18n|translation|primary|foreign|sort|partition|"
            + "idempotency|lookup|map|dictionary|registry|hot|shortcut|music|composite|unique|index|row|routing|"
            + "dedup|deduplication|cursor|pagination|page|group)";

    /** A word of {@link #DATA_KEY_WORDS} right before the label. */
    private static final java.util.regex.Pattern NOT_SECRET_KEY = java.util.regex.Pattern.compile(
            "(?iu)\\b" + DATA_KEY_WORDS + "[\\s_\\-]$");

    /** A key into data named shortly before a value ("the cache key is …", "cache key: …"). */
    private static final java.util.regex.Pattern DATA_KEY_BEFORE = java.util.regex.Pattern.compile(
            "(?iu)\\b" + DATA_KEY_WORDS + "[\\s_\\-]keys?\\b[^.!?\\n]{0,16}$");

    /** A public key named shortly before a value ("public key: …", "pubkey = …"). */
    private static final java.util.regex.Pattern PUBLIC_BEFORE = java.util.regex.Pattern.compile(
            "(?iu)\\b(?:pub|public|publishable|p[úu]blic[ao])[\\s_\\-]?(?:key|chave)\\b[^.!?\\n]{0,16}$");

    /** Words between a label and a value that tell a story about something else ("landed in", "merged"). */
    private static final java.util.regex.Pattern NARRATIVE_GAP = java.util.regex.Pattern.compile(
            "(?u)\\b(?:in|into|at|on|landed|merged|fixed|changed|moved|pushed|committed|deployed|released|refactor\\w*|"
                    + "takeaway|change|changes|file|path|folder|bucket|object|branch|tag|class|method|function|field|"
                    + "takeaways|point|idea|part|step|moment|factor|player|role)\\b");

    /** A label's phrase that ends by telling the value: "… is", "… was", "… é", "…:", "… =". */
    private static final java.util.regex.Pattern TOLD = java.util.regex.Pattern.compile(
            "(?iu)(?:\\b(?:is|was|are|é|era)|[:=])\\s*[\"'`]?$");

    /** A label right before its value: only separators or a copula between them. */
    private static final java.util.regex.Pattern ADJACENT = java.util.regex.Pattern.compile(
            "(?iu)[\\p{L}_\\- ]{1,20}?(?:\\s(?:is|was|é))?[\\s:=\"'`]{1,5}");

    /**
     * Whether a token reads as a name made of words ({@code dashboardWelcomeTitleV2Label},
     * {@code MyServiceImplTest2Handler}, {@code GoldTier2024}): most of its letters sit in
     * camel-case or snake-case parts of 4+ letters with a vowel, which a random key's rarely do.
     */
    static boolean identifierLike(String text, int start, int end) {
        int words = 0;
        int inWords = 0;
        int letters = 0;
        int i = start;
        while (i < end) {
            char c = text.charAt(i);
            if (!Character.isLetter(c)) {
                i++;
                continue;
            }
            int ws = i;
            i++;
            if (Character.isUpperCase(c) && i < end && Character.isUpperCase(text.charAt(i))) {
                while (i < end && Character.isUpperCase(text.charAt(i))) {
                    i++; // an acronym ("HTTP") ends where a capitalised word starts
                }
                if (i < end && Character.isLowerCase(text.charAt(i))) {
                    i--;
                }
            } else {
                while (i < end && Character.isLowerCase(text.charAt(i))) {
                    i++;
                }
            }
            int n = i - ws;
            letters += n;
            boolean acronym = n > 1 && Character.isUpperCase(text.charAt(i - 1));
            if (n >= 4 && !acronym && hasVowel(text, ws, i)) {
                inWords += n; // a word, lower-case or capitalised; an all-capital run is no evidence
                words++;
            }
        }
        return letters > 0 && words >= 2 && inWords * 10 >= (end - start) * 6;
    }

    private static boolean hasVowel(String text, int from, int to) {
        for (int i = from; i < to; i++) {
            if ("aeiouAEIOU".indexOf(text.charAt(i)) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** Whether the token is followed by a file extension ({@code …Hd8s.jpg}). */
    private static boolean fileName(String text, int end) {
        int i = end;
        if (i >= text.length() || text.charAt(i) != '.') {
            return false;
        }
        int e = i + 1;
        while (e < text.length() && e - i <= 5 && Character.isLetterOrDigit(text.charAt(e))) {
            e++;
        }
        return e - i >= 3 && e - i <= 5 && (e == text.length() || !Character.isLetterOrDigit(text.charAt(e)));
    }

    /** A hash or an identifier named right before the value: {@code commit 9fceb02…}, {@code sha256: …}. */
    private static final java.util.regex.Pattern NAMED_HASH = java.util.regex.Pattern.compile(
            "(?iu)\\b(?:commit|sha|sha1|sha-1|sha256|sha-256|md5|hash|checksum|digest|revision|rev|fingerprint|"
                    + "id|uuid|guid|etag|nonce)[\\s:=#]{1,4}[\"'`]?$");

    /** Prefixes of hashes and encodings written like a vendor's key prefix ({@code sha256~…}, {@code sha512-…}). */
    private static final Set<String> HASH_PREFIXES = Set.of("sha", "sha1", "sha224", "sha256", "sha384", "sha512",
            "md5", "blake2b", "blake2s", "blake3", "base64", "base32", "hex", "crc32", "xxh64", "murmur3", "data");

    /**
     * Prefixes of object ids written like keys by the APIs an LLM application talks to (OpenAI's
     * completions, messages, runs and files, Anthropic's tool uses, Stripe's objects), and of public
     * keys (Stripe's publishable {@code pk_}, Nostr's {@code npub}): they open nothing. Stripe's
     * secret {@code sk_}/{@code rk_} keys have rules of their own.
     */
    private static final Set<String> ID_PREFIXES = Set.of("pk", "pub", "npub", "id", "uuid", "req", "request",
            "chatcmpl", "cmpl", "msg", "run", "thread", "asst", "file", "batch", "ft", "ftjob", "call", "resp",
            "conv", "toolu", "evt", "cus", "ch", "pi", "pm", "txn", "price", "prod", "sub", "inv", "acct", "po",
            "seti", "src", "org", "proj", "user", "usr", "span", "trace", "order",
            // with their separator: OpenAI's function calls, reasoning items and web searches, Stripe's
            // checkout sessions, Vercel's deployments (Firecrawl's keys are fc-…)
            "fc_", "rs_", "ws_", "cs_", "dpl_");

    /** Words before a hexadecimal body of a hash's length that say it is one: {@code release-<sha>}. */
    private static final Set<String> HASH_CONTEXT = Set.of("release", "build", "commit", "rev", "revision",
            "checkpoint", "snapshot", "version", "tag", "image", "digest", "hash", "etag", "object", "blob", "tree",
            "ref", "job", "artifact", "cache", "chunk", "block", "layer", "file", "bundle", "asset", "chk", "md5",
            "checksum", "sum", "fingerprint", "cid", "tx", "txid");

    private static final String BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

    /** The bytes of a Base58 text (Bitcoin's alphabet, leading '1's as zero bytes); null for a character not in it. */
    static byte[] base58(String text, int start, int end) {
        java.math.BigInteger value = java.math.BigInteger.ZERO;
        java.math.BigInteger radix = java.math.BigInteger.valueOf(58);
        int zeros = 0;
        boolean leading = true;
        for (int i = start; i < end; i++) {
            int digit = BASE58.indexOf(text.charAt(i));
            if (digit < 0) {
                return null;
            }
            if (leading && digit == 0) {
                zeros++;
            } else {
                leading = false;
            }
            value = value.multiply(radix).add(java.math.BigInteger.valueOf(digit));
        }
        byte[] magnitude = value.signum() == 0 ? new byte[0] : value.toByteArray();
        int skip = magnitude.length > 1 && magnitude[0] == 0 ? 1 : 0; // BigInteger's sign byte
        byte[] out = new byte[zeros + magnitude.length - skip];
        System.arraycopy(magnitude, skip, out, zeros, magnitude.length - skip);
        return out;
    }

    private static final java.util.regex.Pattern UUID =
            java.util.regex.Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    static double entropy(String s, int from, int to) {
        int[] counts = new int[128];
        int other = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < 128) {
                counts[c]++;
            } else {
                other++;
            }
        }
        double n = to - from;
        double h = 0;
        for (int c : counts) {
            if (c > 0) {
                double p = c / n;
                h -= p * Math.log(p) / Math.log(2);
            }
        }
        if (other > 0) {
            double p = other / n;
            h -= p * Math.log(p) / Math.log(2);
        }
        return h;
    }

    static boolean isCpf(String candidate) {
        int[] d = new int[11];
        int n = 0;
        for (int i = 0; i < candidate.length(); i++) {
            char c = candidate.charAt(i);
            if (c >= '0' && c <= '9') {
                if (n == 11) {
                    return false;
                }
                d[n++] = c - '0';
            }
        }
        if (n != 11) {
            return false;
        }
        boolean allEqual = true;
        for (int i = 1; i < 11; i++) {
            allEqual &= d[i] == d[0];
        }
        if (allEqual) {
            return false;
        }
        return d[9] == cpfDigit(d, 9) && d[10] == cpfDigit(d, 10);
    }

    private static int cpfDigit(int[] d, int count) {
        int sum = 0;
        for (int i = 0; i < count; i++) {
            sum += d[i] * (count + 1 - i);
        }
        int r = (sum * 10) % 11;
        return r == 10 ? 0 : r;
    }

    static boolean ibanMod97(String compact) {
        if (compact.length() < 5 || !Character.isLetter(compact.charAt(0)) || !Character.isLetter(compact.charAt(1))
                || !Character.isDigit(compact.charAt(2)) || !Character.isDigit(compact.charAt(3))) {
            return false;
        }
        String rearranged = compact.substring(4) + compact.substring(0, 4);
        int mod = 0;
        for (int i = 0; i < rearranged.length(); i++) {
            char c = rearranged.charAt(i);
            if (c >= '0' && c <= '9') {
                mod = (mod * 10 + (c - '0')) % 97;
            } else if (c >= 'A' && c <= 'Z') {
                mod = (mod * 100 + (c - 'A' + 10)) % 97;
            } else {
                return false;
            }
        }
        return mod == 1;
    }

    static boolean isCardNumber(String candidate) {
        int digits = 0;
        List<Integer> groups = new ArrayList<>(5);
        int groupLen = 0;
        for (int i = 0; i < candidate.length(); i++) {
            char c = candidate.charAt(i);
            if (c >= '0' && c <= '9') {
                digits++;
                groupLen++;
            } else if (groupLen > 0) {
                groups.add(groupLen); // a run of separators ("5482  9809") is one
                groupLen = 0;
            }
        }
        groups.add(groupLen);
        if (digits < 13 || digits > 19) {
            return false;
        }
        if (!ISSUER_FIRST_DIGITS.contains(candidate.substring(0, 1))) {
            return false; // issuer ranges in use: Mastercard 2/5, Amex/Diners/JCB 3, Visa 4, Discover 6
        }
        if (candidate.charAt(0) == '2') {
            // the 2-series in use: Mir 2200–2204, Mastercard 2221–2720 ("2025061100048213" is a dated reference)
            String d = candidate.replaceAll("[^0-9]", "");
            int four = Integer.parseInt(d.substring(0, 4));
            if (!(four >= 2200 && four <= 2204 || four >= 2221 && four <= 2720)) {
                return false;
            }
        }
        if (groups.size() > 1 && !validGrouping(groups)) {
            return false;
        }
        if (digits == 15) {
            // 15 digits is American Express (34, 37) or JCB's old 2131/1800 range; an IMEI is 15 digits too
            String d = candidate.replaceAll("[^0-9]", "");
            if (!(d.startsWith("34") || d.startsWith("37") || d.startsWith("2131") || d.startsWith("1800"))) {
                return false;
            }
        }
        return luhn(candidate);
    }

    /** 4-4-4-4(-3) with a shorter last group, or the Amex/Diners 4-6-5 and 4-6-4 shapes. */
    private static boolean validGrouping(List<Integer> lens) {
        int n = lens.size();
        if (n == 3 && lens.get(0) == 4 && lens.get(1) == 6 && (lens.get(2) == 5 || lens.get(2) == 4)) {
            return true;
        }
        for (int i = 0; i < n - 1; i++) {
            if (lens.get(i) != 4) {
                return false;
            }
        }
        return lens.get(n - 1) >= 1 && lens.get(n - 1) <= 4;
    }

    /** A date (2023-04-15, 15/04/2023) or a range of numbers (7230-7235, 2024-2026): no id. */
    private static final java.util.regex.Pattern DATE_OR_RANGE = java.util.regex.Pattern.compile(
            "\\d{4}[-/.]\\d{1,2}[-/.]\\d{1,2}|\\d{1,2}[-/.]\\d{1,2}[-/.]\\d{2,4}|\\d{4}\\s?[-/]\\s?\\d{4}");

    private static final int[][] VERHOEFF_D = {
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 3, 4, 0, 6, 7, 8, 9, 5}, {2, 3, 4, 0, 1, 7, 8, 9, 5, 6},
        {3, 4, 0, 1, 2, 8, 9, 5, 6, 7}, {4, 0, 1, 2, 3, 9, 5, 6, 7, 8}, {5, 9, 8, 7, 6, 0, 4, 3, 2, 1},
        {6, 5, 9, 8, 7, 1, 0, 4, 3, 2}, {7, 6, 5, 9, 8, 2, 1, 0, 4, 3}, {8, 7, 6, 5, 9, 3, 2, 1, 0, 4},
        {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}};
    private static final int[][] VERHOEFF_P = {
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 5, 7, 6, 2, 8, 3, 0, 9, 4}, {5, 8, 0, 3, 7, 9, 6, 1, 4, 2},
        {8, 9, 1, 6, 0, 4, 3, 5, 2, 7}, {9, 4, 5, 3, 1, 2, 6, 8, 7, 0}, {4, 2, 8, 6, 5, 7, 3, 9, 0, 1},
        {2, 7, 9, 3, 8, 0, 6, 4, 1, 5}, {7, 0, 4, 6, 9, 1, 3, 2, 5, 8}};

    /** The Verhoeff check over {@code digits} (its check digit last): the product comes to 0. */
    static boolean verhoeff(String digits) {
        int c = 0;
        for (int i = 0; i < digits.length(); i++) {
            int d = digits.charAt(digits.length() - 1 - i) - '0';
            c = VERHOEFF_D[c][VERHOEFF_P[i % 8][d]];
        }
        return c == 0;
    }

    static boolean luhn(String candidate) {
        int sum = 0;
        boolean dbl = false;
        for (int i = candidate.length() - 1; i >= 0; i--) {
            char c = candidate.charAt(i);
            if (c < '0' || c > '9') {
                continue;
            }
            int d = c - '0';
            if (dbl) {
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
            dbl = !dbl;
        }
        return sum % 10 == 0;
    }
}
