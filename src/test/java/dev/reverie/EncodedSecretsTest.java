package dev.reverie;

import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Secrets hidden by an encoding ({@link EncodedSecrets}): base64 of a text that holds one, of
 * {@code user:password}, of a DER private key (a PEM body without its header lines), and
 * percent-encoded text; and the encoded texts that hold none, which stay as they are. Keys are
 * generated for each run, as a host would paste them.
 */
class EncodedSecretsTest {

    private final SecretRedactor redactor = new SecretRedactor();

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    /** PEM-style: 64 characters a line. */
    private static String wrapped(byte[] der) {
        return Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    }

    /** A seeded generator: the same keys on every run (tests are deterministic). */
    private static SecureRandom seeded(long seed) throws Exception {
        SecureRandom random = SecureRandom.getInstance("SHA1PRNG");
        random.setSeed(seed);
        return random;
    }

    private static KeyPair rsa() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048, seeded(11));
        return g.generateKeyPair();
    }

    private void assertRedacted(String text, String secret, String type) {
        Redaction r = redactor.redact(text);
        assertThat(r.text()).as(text).doesNotContain(secret);
        assertThat(r.text()).as(text).contains(Redaction.marker(type));
        // every chunk of 12 characters of the secret is gone, not only the whole
        for (int i = 0; i + 12 <= secret.length(); i += 12) {
            assertThat(r.text()).doesNotContain(secret.substring(i, i + 12));
        }
    }

    @Test
    void a_base64_wrapped_key_is_redacted_with_the_type_of_what_it_wraps() {
        String key = "sk-proj-4f9Kq2LmN8pR3sT6vW1xY5zA7bC0dE2fG4hJ6kL8mN0pQ";
        String data = b64(key);
        assertRedacted("apiVersion: v1\nkind: Secret\ndata:\n  openai: " + data + "\n", data, "openai_key");
        assertRedacted("echo " + data + " | base64 -d", data, "openai_key");
    }

    @Test
    void a_pem_body_without_its_header_lines_is_a_private_key() throws Exception {
        String body = wrapped(rsa().getPrivate().getEncoded()); // PKCS#8, 64-character lines
        String text = "the key body (I removed the header lines):\n" + body + "\nuse it for the deploy";
        Redaction r = redactor.redact(text);
        assertThat(r.text()).isEqualTo("the key body (I removed the header lines):\n[REDACTED:private_key]\n"
                + "use it for the deploy");
        // EC keys (SEC1 inside PKCS#8) and an indented block, as in YAML
        KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
        ec.initialize(new ECGenParameterSpec("secp256r1"), seeded(12));
        String ecBody = wrapped(ec.generateKeyPair().getPrivate().getEncoded());
        assertRedacted("key: |\n  " + ecBody.replace("\n", "\n  "), ecBody.substring(0, 40), "private_key");
    }

    @Test
    void key_bodies_in_other_wraps_and_containers_are_private_keys() throws Exception {
        byte[] der = rsa().getPrivate().getEncoded();
        // re-wrapped at 50 characters (not a multiple of four), and with trailing blanks
        String body50 = Base64.getMimeEncoder(50, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        assertRedacted("key:\n" + body50 + "\nthanks", body50.substring(0, 48), "private_key");
        assertRedacted("key:\n" + wrapped(der).replace("\n", "  \n") + "\n", wrapped(der).substring(64, 120),
                "private_key");
        // an OpenSSH key's binary body (OpenSSH wraps at 70 characters)
        byte[] openssh = new byte[400];
        new Random(3).nextBytes(openssh);
        System.arraycopy("openssh-key-v1\0".getBytes(StandardCharsets.US_ASCII), 0, openssh, 0, 15);
        String sshBody = Base64.getMimeEncoder(70, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(openssh);
        Redaction r = redactor.redact("the key without its lines:\n" + sshBody + "\n");
        assertThat(r.text()).isEqualTo("the key without its lines:\n[REDACTED:private_key]\n");
        // a PKCS#12 file in base64 (it carries the key)
        java.security.KeyStore p12 = java.security.KeyStore.getInstance("PKCS12");
        p12.load(null, null);
        javax.crypto.KeyGenerator aes = javax.crypto.KeyGenerator.getInstance("AES");
        aes.init(128, seeded(13));
        p12.setEntry("k", new java.security.KeyStore.SecretKeyEntry(aes.generateKey()),
                new java.security.KeyStore.PasswordProtection("changeit".toCharArray()));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        p12.store(out, "changeit".toCharArray());
        String p12b64 = Base64.getEncoder().encodeToString(out.toByteArray());
        assertRedacted("P12_BASE64: " + p12b64, p12b64.substring(0, 40), "private_key");
    }

    @Test
    void values_one_per_line_are_judged_one_by_one() {
        String first = b64("just an ordinary note for the team wiki page");
        String second = b64("password=Xk9mP2qL7zR4AbCdEfGhIjKlMnOp");
        assertThat(first.length()).isGreaterThanOrEqualTo(40);
        Redaction r = redactor.redact(first + "\n" + second + "\n");
        assertThat(r.text()).isEqualTo(first + "\n[REDACTED:password]\n");
    }

    @Test
    void a_base64_encoded_pem_file_is_redacted_whole() throws Exception {
        String pem = "-----BEGIN PRIVATE KEY-----\n" + wrapped(rsa().getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        String data = b64(pem);
        assertRedacted("users:\n- name: admin\n  user:\n    client-key-data: " + data + "\n", data, "private_key");
        // base64 of base64: a secret two encodings deep
        String twice = b64(b64("password=Xk9mP2qL7zR4"));
        assertRedacted("token blob " + twice, twice, "password");
    }

    @Test
    void base64_of_user_and_password_is_basic_auth() {
        String data = b64("ana.souza:BsvWqyI5YbCo");
        assertRedacted("the encoded credentials are " + data, data, "basic_auth");
    }

    @Test
    void percent_encoded_text_with_a_secret_is_redacted() {
        String q = URLEncoder.encode("{\"user\":\"ana\",\"password\":\"Uj6fartuEp9v\"}", StandardCharsets.UTF_8);
        assertRedacted("GET /login?q=" + q + " returned 200", q, "password");
    }

    @Test
    void encoded_text_without_a_secret_is_kept() throws Exception {
        String[] kept = {
            "aGVsbG8gd29ybGQsIHRoaXMgaXMgYW4gb3JkaW5hcnkgc2VudGVuY2U=", // base64 of an ordinary sentence
            "see https://example.com/search?q=caf%C3%A9%20com%20leite&lang=pt for the recipe",
            "public key: " + wrapped(rsa().getPublic().getEncoded()), // SPKI: a public key is no secret
            "build id 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 passed",
            "the file is src/main/java/dev/reverie/ContextManager.java, see README-Installation-Guide",
            "uuid 123e4567-e89b-12d3-a456-426614174000 and Supercalifragilisticexpialidocious",
        };
        for (String text : kept) {
            assertThat(redactor.redact(text).text()).as(text).isEqualTo(text);
        }
        // random bytes (an image, a hash) decode to no text and no key
        Random random = new Random(7);
        for (int i = 0; i < 200; i++) {
            byte[] b = new byte[16 + random.nextInt(300)];
            random.nextBytes(b);
            String text = "blob " + Base64.getEncoder().encodeToString(b) + " end";
            assertThat(redactor.redact(text).text()).as(text).isEqualTo(text);
        }
    }

    @Test
    void a_base64_run_followed_by_percent_escapes_is_redacted_without_failing() {
        // "=" padding percent-encoded, as in URLs and cookies: the base64 run ends at the "%"
        String creds = b64("bob:Tr0ub4dor&3x").replace("=", "%3D");
        assertRedacted("Cookie: creds=" + creds, creds.substring(0, 20), "basic_auth");
        String token = b64("token: ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R");
        assertRedacted("x " + token + "%20%20 y", token, "github_token");
    }

    @Test
    void a_line_after_a_value_is_not_joined_to_it_unless_it_continues_the_block() {
        // unpadded values whose length is a multiple of four, followed by ordinary lines
        String value = b64("{\"password\":\"Hunter2Secret99\"}");
        assertRedacted("data:\n  config.json: " + value + "\n  other: b2s=", value, "password");
        String creds = b64("deploy:Passw0rd12345678901234567890xyzab");
        assertRedacted("creds:\n" + creds + "\nthanks!", creds, "basic_auth");
    }

    @Test
    void a_key_wrapped_by_a_terminal_loses_its_tail_too_and_the_next_sentence_stays() {
        String head = "sk-proj-EcSDkLNNR4OqmtX5z7t5j4isWVmCPgUTNbwe9xJIm8aDXcuIlJO17wqGCVLS8DjaGKA8LCH_";
        String tail = "H-T3BlbkFJAXPTct0dHPS1JowVtUdefsbNqA19hdIAWHie02cHg1HDwlHIdfRpx0O9iKgbc";
        assertThat(redactor.redact("my key:\n" + head + "\n" + tail + "\nthanks").text())
                .isEqualTo("my key:\n[REDACTED:openai_key]\nthanks");
        assertThat(redactor.redact("my key is " + head + "\nThanks a lot, see you tomorrow").text())
                .isEqualTo("my key is [REDACTED:openai_key]\nThanks a lot, see you tomorrow");
        // a short secret's next line is not taken for its tail
        assertThat(redactor.redact("password: Xk9mP2qL7z\nOrder4711").text()).endsWith("\nOrder4711");
    }

    @Test
    void a_table_column_or_a_map_of_secrets_is_redacted_cell_by_cell() {
        assertThat(redactor.redact("| user | password |\n|---|---|\n| admin | Tb9e7IZpX6RT |\n| ana | `x8Kq2!pw` |").text())
                .isEqualTo("| user | password |\n|---|---|\n| admin | [REDACTED:password] |\n| ana | `[REDACTED:password]` |");
        assertThat(redactor.redact("| Service | API key | Notes |\n| :--- | --- | --- |\n| billing | k3J8vQ2mX7pR5tL9 | prod |").text())
                .isEqualTo("| Service | API key | Notes |\n| :--- | --- | --- |\n| billing | [REDACTED:secret] | prod |");
        assertThat(redactor.redact("passwords:\n  admin: Ads5hJuYXJB5MM\n  readonly: ro-uV4QUoWh\nregion: eu").text())
                .isEqualTo("passwords:\n  admin: [REDACTED:password]\n  readonly: [REDACTED:password]\nregion: eu");
        assertThat(redactor.redact("credentials:\n  db:\n    user: app\n    token: \"q9Zt2KfL8mWx\"").text())
                .isEqualTo("credentials:\n  db:\n    user: app\n    token: \"[REDACTED:secret]\"");
        // tables and maps that name no secret, or hold placeholders, stay
        String[] kept = {
            "| name | role |\n|---|---|\n| Ana | admin |",
            "| password rule | example |\n|---|---|\n| at least 12 chars | n/a |",
            "| user | password |\n|---|---|\n| admin | **** |\n| ana | <password> |",
            "tokens:\n  max: 4096\n  used: 120",
            "| user | password |\n|---|---|\n| admin | n/a |\n| bob | TBD |",
            "| Time | Session | Room |\n|---|---|---|\n| 9:00 | Keynote | A1 |",
            "| Token | ID |\n|---|---|\n| hello | 1 |\n| world | 2 |",
            "| Aspect | Session auth | Token auth |\n|---|---|---|\n| State | Server | Client |",
            "| Password sharing | Allowed |\n|---|---|\n| family | Yes |",
            "Tokens:\n   Prompt: 1,234\n   Completion: 567",
            "tokens:\n  model: gpt-4o-mini\n  cost: 0.0021",
            "secrets:\n  storageClass: standard\n  Note: rotate every 90 days",
            "| a |\n" + "|" + " ".repeat(20_000) + "x\n",
        };
        for (String text : kept) {
            assertThat(redactor.redact(text).text()).as(text).isEqualTo(text);
        }
    }

    @Test
    void a_jwt_is_judged_whole_by_its_rule() {
        String jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
                + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
        assertThat(redactor.redact("token: " + jwt).text()).isEqualTo("token: [REDACTED:jwt]");
    }

    @Test
    void redaction_stays_idempotent_and_linear_on_long_runs() {
        String data = b64("password=Xk9mP2qL7zR4");
        String once = redactor.redact("a " + data + " b").text();
        assertThat(redactor.redact(once).text()).isEqualTo(once);
        // a long unbroken base64 run of text is decoded once, not once per position
        String longRun = b64("lorem ipsum dolor sit amet ".repeat(4_000));
        assertThat(redactor.redact(longRun).text()).isEqualTo(longRun);
    }

    @Test
    void der_private_key_shapes_are_told_from_public_ones() throws Exception {
        assertThat(EncodedSecrets.derPrivateKey(rsa().getPrivate().getEncoded())).isTrue();
        assertThat(EncodedSecrets.derPrivateKey(rsa().getPublic().getEncoded())).isFalse();
        assertThat(EncodedSecrets.derPrivateKey(new byte[] {0x30, 0x03, 0x02, 0x01, 0x00})).isFalse();
        assertThat(EncodedSecrets.derPrivateKey(new byte[0])).isFalse();
    }
}
