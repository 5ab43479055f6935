package dev.reverie;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SecretRedactorTest {

    private final SecretRedactor redactor = new SecretRedactor();

    /** A text that holds {@code secret}, which must be replaced by a marker of {@code type}. */
    private record Positive(String type, String secret, String text) {
    }

    private static final String JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6Ik"
            + "pvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";
    private static final String PEM_BODY = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\n"
            + "MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu\n"
            + "NMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCdPEovGhLa0VzMaQ8s+CLOyS56YyCFGeJZ";

    private static final List<Positive> POSITIVES = List.of(
            // OpenAI / Anthropic
            new Positive("openai_key", "sk-4f9Kq2LmN8pR3sT6vW1xY5zA7bC0dE2fG4hJ6kL8mN0pQ",
                    "Here is my key sk-4f9Kq2LmN8pR3sT6vW1xY5zA7bC0dE2fG4hJ6kL8mN0pQ, please keep it safe."),
            new Positive("openai_key", "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z_Ab3dEf6hIj9kLm2n",
                    "OPENAI_API_KEY=sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z_Ab3dEf6hIj9kLm2n"),
            new Positive("openai_key", "sk-9xQ2wE4rT6yU8iO0pA1sD3fG5hJ7kL9zX",
                    "Minha chave da OpenAI é sk-9xQ2wE4rT6yU8iO0pA1sD3fG5hJ7kL9zX, não compartilhe."),
            new Positive("openai_key", "sk-svcacct-Zz81Yy72Xx63Ww54Vv45Uu36Tt27",
                    "the service account uses sk-svcacct-Zz81Yy72Xx63Ww54Vv45Uu36Tt27 in prod"),
            new Positive("anthropic_key", "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0Ed-Cb9Aa8Zz7Yy6Xx5Ww4-AbCdEf",
                    "I pasted sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0Ed-Cb9Aa8Zz7Yy6Xx5Ww4-AbCdEf into the config."),
            new Positive("anthropic_key", "sk-ant-admin01-Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9L",
                    "Use a chave sk-ant-admin01-Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9L para o Claude."),
            // AWS
            new Positive("aws_access_key", "AKIAIOSFODNN7EXAMPLE",
                    "My AWS access key is AKIAIOSFODNN7EXAMPLE and it works in us-east-1."),
            new Positive("aws_access_key", "ASIAY34FZKBOKMUTVV7A",
                    "temporary creds: ASIAY34FZKBOKMUTVV7A (expires in an hour)"),
            new Positive("aws_access_key", "AKIAZ7QW3ER5TY6UI8OP",
                    "A chave de acesso é AKIAZ7QW3ER5TY6UI8OP, guarda pra mim."),
            new Positive("aws_secret_key", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            new Positive("aws_secret_key", "Zq8+Lm3/Np5Rt7Vx9Bz1Cd3Fg5Hj7Kl9Mn1Pq3St",
                    "and the AWS secret is Zq8+Lm3/Np5Rt7Vx9Bz1Cd3Fg5Hj7Kl9Mn1Pq3St — rotate it monthly"),
            new Positive("aws_secret_key", "h7Jk9Lm1Np3Qr5St7Uv9Wx1Yz3Ab5Cd7Ef9Gh1Ij",
                    "O secret da AWS: h7Jk9Lm1Np3Qr5St7Uv9Wx1Yz3Ab5Cd7Ef9Gh1Ij"),
            // GitHub / GitLab / Slack / Google / Stripe
            new Positive("github_token", "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R",
                    "export GITHUB_TOKEN=ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"),
            new Positive("github_token", "gho_Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0EdCb9A",
                    "the oauth token gho_Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0EdCb9A was leaked"),
            new Positive("github_token", "ghs_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
                    "CI uses ghs_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 for checkout."),
            new Positive("github_token", "ghu_5tR4eW3qA2sD1fG0hJ9kL8zX7cV6bN5mQ4wE",
                    "meu token do github é ghu_5tR4eW3qA2sD1fG0hJ9kL8zX7cV6bN5mQ4wE"),
            new Positive("github_token", "ghr_0oI9uY8tR7eW6qA5sD4fG3hJ2kL1zX0cV9bN",
                    "refresh: ghr_0oI9uY8tR7eW6qA5sD4fG3hJ2kL1zX0cV9bN"),
            new Positive("github_token",
                    "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ab",
                    "Fine-grained PAT: github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ab ok?"),
            new Positive("gitlab_token", "glpat-xY9z8W7v6U5t4S3r2Q1p",
                    "GitLab token glpat-xY9z8W7v6U5t4S3r2Q1p for the runner"),
            new Positive("gitlab_token", "glpat-Ab12Cd34Ef56Gh78Ij90",
                    "Coloca glpat-Ab12Cd34Ef56Gh78Ij90 no .gitlab-ci, por favor."),
            new Positive("slack_token", "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx",
                    "The bot token is xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx."),
            new Positive("slack_token", "xoxp-2222222222-3333333333-4444444444-abcdef",
                    "user token xoxp-2222222222-3333333333-4444444444-abcdef"),
            new Positive("google_api_key", "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
                    "Maps key: AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"),
            new Positive("google_api_key", "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
                    "a chave do Google Maps é AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"),
            new Positive("stripe_key", "sk_live_51H8xYzAbCdEfGhIjKlMnOpQr",
                    "Stripe live secret sk_live_51H8xYzAbCdEfGhIjKlMnOpQr in the env file"),
            new Positive("stripe_key", "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
                    "use sk_test_4eC39HqLyjWDarjtT1zdp7dc for the sandbox"),
            new Positive("stripe_key", "rk_live_9Zy8Xw7Vu6Ts5Rq4Po3Nm2L",
                    "restricted key rk_live_9Zy8Xw7Vu6Ts5Rq4Po3Nm2L"),
            new Positive("stripe_key", "pk_live_1A2b3C4d5E6f7G8h9I0j",
                    "publishable pk_live_1A2b3C4d5E6f7G8h9I0j na página de checkout"),
            // bearer / JWT
            new Positive("bearer_token", "8f3a9c2e71b44d0fa6e5c1d2b3a49f7e",
                    "curl -H 'Authorization: Bearer 8f3a9c2e71b44d0fa6e5c1d2b3a49f7e' https://api.example.com"),
            new Positive("bearer_token", "ya29.a0AfH6SMBx3kQ9Lm2Np4Rt6Vx8",
                    "the header was bearer ya29.a0AfH6SMBx3kQ9Lm2Np4Rt6Vx8 and it failed"),
            new Positive("bearer_token", "Tk_7721xq_ZZ90pl_44mn",
                    "Manda o header Bearer Tk_7721xq_ZZ90pl_44mn na requisição."),
            new Positive("jwt", JWT, "My session token: " + JWT),
            new Positive("jwt", JWT, "Authorization: Bearer " + JWT),
            new Positive("jwt", JWT, "o cookie tinha " + JWT + " dentro"),
            // private keys
            new Positive("private_key", PEM_BODY,
                    "Here is the key:\n-----BEGIN PRIVATE KEY-----\n" + PEM_BODY + "\n-----END PRIVATE KEY-----\nthanks"),
            new Positive("private_key", PEM_BODY,
                    "-----BEGIN RSA PRIVATE KEY-----\n" + PEM_BODY + "\n-----END RSA PRIVATE KEY-----"),
            new Positive("private_key", PEM_BODY,
                    "segue a chave -----BEGIN OPENSSH PRIVATE KEY-----\n" + PEM_BODY + "\n-----END OPENSSH PRIVATE KEY----- ok"),
            new Positive("private_key", PEM_BODY,
                    "truncated paste: -----BEGIN EC PRIVATE KEY-----\n" + PEM_BODY),
            // passwords, English
            new Positive("password", "hunter2", "My password is hunter2."),
            new Positive("password", "Tr0ub4dor&3", "password: Tr0ub4dor&3"),
            new Positive("password", "s3cr3t!", "login with user=admin password=s3cr3t! please"),
            new Positive("password", "CorrectHorse9", "The wifi password is CorrectHorse9, it's on the fridge too."),
            new Positive("password", "letmein2024", "pwd=letmein2024"),
            new Positive("password", "qwerty123", "my passwd: qwerty123"),
            new Positive("password", "blue sky 42", "the passphrase is \"blue sky 42\""),
            new Positive("password", "Summer#2023", "{\"user\": \"ana\", \"password\": \"Summer#2023\"}"),
            new Positive("password", "banana", "my password for the router is banana"),
            new Positive("password", "P@ssw0rd!", "Password => P@ssw0rd!"),
            // passwords, Portuguese
            new Positive("password", "abc123", "Minha senha é abc123."),
            new Positive("password", "Flamengo1981", "a senha do wifi é Flamengo1981"),
            new Positive("password", "m1nh@s3nh@", "senha: m1nh@s3nh@"),
            new Positive("password", "gatinho22", "senha=gatinho22"),
            new Positive("password", "Recife#2020", "Anota aí: a senha do banco é Recife#2020, não esquece."),
            new Positive("password", "123456", "A senha do cofre é 123456!"),
            new Positive("password", "casa_azul", "Minha senha agora é casa_azul"),
            new Positive("password", "pato-donald", "palavra-passe: pato-donald"),
            // connection strings
            new Positive("connection_string", "S3cr3tPass", "postgres://admin:S3cr3tPass@db.internal:5432/app"),
            new Positive("connection_string", "toor123", "connect with mysql://root:toor123@localhost/shop now"),
            new Positive("connection_string", "p4ssw0rd",
                    "MONGO_URL=mongodb+srv://user:p4ssw0rd@cluster0.mongodb.net/test?retryWrites=true"),
            new Positive("connection_string", "redisPass99", "cache em redis://:redisPass99@cache:6379/0"),
            new Positive("connection_string", "guest123", "amqp://guest:guest123@rabbit:5672/vhost"),
            new Positive("connection_string", "Jdbc$ecret1",
                    "jdbc:postgresql://db:5432/app?user=app&password=Jdbc$ecret1"),
            new Positive("connection_string", "Sql$erver22",
                    "a string é jdbc:sqlserver://srv:1433;databaseName=erp;user=sa;password=Sql$erver22"),
            new Positive("connection_string", "hunter22",
                    "O banco de produção é postgresql://app_user:hunter22@10.0.0.5/prod"),
            // cards
            new Positive("card_number", "4111 1111 1111 1111", "My card is 4111 1111 1111 1111, exp 12/27."),
            new Positive("card_number", "5555-5555-5555-4444", "charge 5555-5555-5555-4444 please"),
            new Positive("card_number", "378282246310005", "Amex 378282246310005 on file"),
            new Positive("card_number", "6011 1111 1111 1117", "meu cartão é 6011 1111 1111 1117"),
            new Positive("card_number", "4012888888881881", "O número do cartão: 4012888888881881."),
            new Positive("card_number", "3782 822463 10005", "cartão Amex 3782 822463 10005 vence em março"),
            new Positive("card_number", "2223003122003222", "new Mastercard 2223003122003222"),
            // generic labelled secrets
            new Positive("secret", "a9f8e7d6c5b4a3f2e1d0", "api_key=a9f8e7d6c5b4a3f2e1d0"),
            new Positive("secret", "Zm9vYmFyYmF6cXV4MTIz", "client_secret: Zm9vYmFyYmF6cXV4MTIz"),
            new Positive("secret", "tok_9981ab77cd55ef33", "token = tok_9981ab77cd55ef33"));

    private static final List<String> NEGATIVES = List.of(
            // identifiers
            "The request id was 550e8400-e29b-41d4-a716-446655440000.",
            "Trace 123e4567-e89b-12d3-a456-426614174000 shows the timeout.",
            "Fixed in commit 9fceb02d0ae598e95dc970b74767f19372d61af8 yesterday.",
            "git sha 3f786850e387550fdab836ed7e6dc881de23001b fixed the secret rotation bug",
            "commit 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b for the aws secret rotation",
            "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 matches",
            "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7VJTUt9Us8cKjMzEfYyjiWA4R4 ana@laptop",
            "-----BEGIN CERTIFICATE----- is the public part, that one is fine to share",
            "The image is named aGVsbG8gd29ybGQgdGhpcyBpcyBh.png",
            "thumbnail iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ.png was uploaded",
            // numbers, dates, money
            "We met on 2023-05-08 at 10:30.",
            "A consulta é dia 08/05/2023 às 14h.",
            "It cost $1,299.99 plus tax.",
            "Custou R$ 1.234,56 no total.",
            "Invoice INV-2023-000123 is overdue.",
            "Nota fiscal 35230512345678000190550010000012341000012345 emitida.",
            "My order number is 100200300400500.",
            "Pedido número 1234567890123 foi enviado.",
            "Tracking 9400111899223344556677 says delivered.",
            "The timestamp 1683552960000 is in milliseconds.",
            "ISBN 978-3-16-148410-0 is the book.",
            "CPF com dígito errado 123.456.789-00 e o CNPJ 12.345.678/0001-95.",
            "Version 2.14.3 broke the build on 192.168.0.1.",
            "I ran 5 km in 27 minutes and 43 seconds.",
            "The population is 213,993,437 people.",
            "Meeting ID 845 2231 9087, see you there.",
            "Account 0001 2345 6789 at branch 42.",
            // phones
            "Call me at +55 81 99876-5432 tomorrow.",
            "My number is (415) 555-2671.",
            "Ligue para 0800 123 4567.",
            "Reach me on +1 415 555 2671 ext 12.",
            "WhatsApp: +351 912 345 678",
            "Meu celular é 81 98765 4321.",
            // word look-alikes
            "I forgot my password again.",
            "Can you help me reset my password?",
            "The password is too short.",
            "The password is incorrect, try again.",
            "Password protected files are slow to open.",
            "Password: see the vault.",
            "A senha está errada.",
            "Esqueci minha senha do banco.",
            "Minha senha é fraca demais, preciso trocar.",
            "Qual é a senha do wifi?",
            "A senha do wifi está na geladeira.",
            "Use a token bucket to rate limit.",
            "The token count is 1500 per request.",
            "The session token expired last night.",
            "O token de acesso expirou ontem.",
            "API key rotation is scheduled for Friday.",
            "Where do I find my API key?",
            "Bearer bonds were popular in the 1980s.",
            "I use scikit-learn and sk-learn-pipelines daily.",
            "The task-1234567890abcdefghij ticket is done.",
            "AKIA is the name of my cat.",
            "eyJ is how base64 JSON starts, nothing more.",
            "The JWT spec is RFC 7519.",
            "Connect to postgres://db.internal:5432/app with your usual account.",
            "The docs are at https://github.com/org/repo/blob/main/README.md",
            "Email me at john.doe@example.com or mailto:ana@example.org.",
            "The secret to a good risotto is patience.",
            "O segredo do bolo é a manteiga.",
            "AWS region us-east-1 and bucket my-bucket-2023 are set.",
            "Keep your keys private and your tokens rotated.",
            "Eu gosto de jazz e moro em Recife.",
            "I'm allergic to dipyrone and my daughter Ana is 7.",
            "We sold 4,000,000 units in 2022 and 3,500,000 in 2021.");

    @Test
    void secrets_disguised_with_look_alike_or_invisible_characters_are_redacted() {
        Map<String, String> disguised = new TreeMap<>(Map.of(
                "my key is sk-proj-Zq8\u200BvN2xT7pLm4Rk9Wc3Hs6Yb1Jf5Gd0Qa", "vN2xT7pLm4Rk9Wc3Hs6Yb1Jf5Gd0Qa",
                "my\u00A0password\u00A0is\u00A0Kiwi#Lamp77", "Kiwi#Lamp77",
                "my p\u0430ssword is Tr0ub4dor&3xq", "Tr0ub4dor&3xq",
                "card: \uFF14\uFF11\uFF11\uFF11 \uFF11\uFF11\uFF11\uFF11 \uFF11\uFF11\uFF11\uFF11"
                        + " \uFF11\uFF11\uFF11\uFF11", "1111",
                "my ssn is \uFF11\uFF12\uFF13-\uFF14\uFF15-\uFF16\uFF17\uFF18\uFF19", "6789",
                "token ghp_\u200Da1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
                "AKIA\u200BIOSFODNN7EXAMPLE is my aws access key", "IOSFODNN7EXAMPLE",
                "\uFF50\uFF41\uFF53\uFF53\uFF57\uFF4F\uFF52\uFF44: Grape%Wall29", "Grape%Wall29"));
        for (Map.Entry<String, String> e : disguised.entrySet()) {
            Redaction r = redactor.redact(e.getKey());
            assertThat(r.total()).as(e.getKey()).isPositive();
            assertThat(r.text()).as(e.getKey()).contains("[REDACTED:").doesNotContain(e.getValue());
            // nor the secret's full-width or interrupted form
            assertThat(SecretRedactor.undisguised(r.text())).as(e.getKey()).doesNotContain(e.getValue());
        }
        // text with such characters and no secret is kept as written, byte for byte
        for (String kept : List.of("Пароль от Wi\u2011Fi я не помню", "我的电话是\uFF11\uFF12\uFF13\uFF14号楼",
                "caf\u00E9\u00A0au lait, s'il vous pla\u00EEt", "Zo\u00EB\u200D\uD83D\uDC69 loves \u03B1\u03B2\u03B3",
                "the Greek word \u03BB\u03CC\u03B3\u03BF\u03C2 and the Russian \u0441\u043B\u043E\u0432\u043E")) {
            assertThat(redactor.redact(kept).text()).isEqualTo(kept);
        }
        // only a word that mixes scripts is folded: a Russian word stays Cyrillic
        assertThat(SecretRedactor.undisguised("п\u0430роль p\u0430ssword")).isEqualTo("п\u0430роль password");
        // every look-alike maps to its own Latin letter: Greek (ι, κ, υ, χ and the capitals) and small capitals too
        assertThat(SecretRedactor.undisguised("\u03B9\u03BAey pa\u03C5l \u03C7y t\u039Fken \u1D1Cs\u1D07\u0280 \u1D00s\u029C"))
                .isEqualTo("ikey paul xy tOken user ash");
    }

    @Test
    void every_positive_secret_is_replaced_by_its_marker() {
        assertThat(POSITIVES).hasSizeGreaterThanOrEqualTo(60);
        Map<String, Integer> perType = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (Positive p : POSITIVES) {
            assertThat(p.text()).as("sample must contain its secret").contains(p.secret());
            Redaction r = redactor.redact(p.text());
            String marker = Redaction.marker(p.type());
            if (r.text().contains(p.secret()) || !r.text().contains(marker)) {
                failures.add(p.type() + ": " + p.text() + "  ->  " + r.text());
            }
            perType.merge(p.type(), 1, Integer::sum);
        }
        System.out.printf("SecretRedactor positives: %d samples over %d types %s; failures %d%n",
                POSITIVES.size(), perType.size(), perType, failures.size());
        assertThat(failures).as("positives whose secret survived or got the wrong marker").isEmpty();
        assertThat(perType.keySet()).contains("openai_key", "anthropic_key", "aws_access_key", "aws_secret_key",
                "github_token", "gitlab_token", "slack_token", "google_api_key", "stripe_key", "bearer_token", "jwt",
                "private_key", "password", "connection_string", "card_number");
    }

    @Test
    void look_alikes_are_left_alone() {
        assertThat(NEGATIVES).hasSizeGreaterThanOrEqualTo(60);
        List<String> changed = new ArrayList<>();
        for (String text : NEGATIVES) {
            Redaction r = redactor.redact(text);
            if (r.changed()) {
                changed.add(text + "  ->  " + r.text());
            }
        }
        double rate = (double) changed.size() / NEGATIVES.size();
        System.out.printf("SecretRedactor negatives: %d samples, %d changed (%.1f %%)%n", NEGATIVES.size(),
                changed.size(), rate * 100);
        changed.forEach(c -> System.out.println("  changed negative: " + c));
        assertThat(rate).as("share of look-alikes changed: %s", changed).isLessThanOrEqualTo(0.02);
    }

    @Test
    void password_label_is_kept_and_value_dropped() {
        assertThat(redactor.redact("My password is hunter2.").text()).isEqualTo("My password is [REDACTED:password].");
        assertThat(redactor.redact("Minha senha é abc123.").text()).isEqualTo("Minha senha é [REDACTED:password].");
        assertThat(redactor.redact("senha: m1nh@s3nh@").text()).isEqualTo("senha: [REDACTED:password]");
    }

    @Test
    void counts_are_reported_per_type() {
        Redaction r = redactor.redact("key AKIAIOSFODNN7EXAMPLE, card 4111 1111 1111 1111 and card 5555555555554444, "
                + "password: hunter2");
        assertThat(r.countsByType()).containsExactlyInAnyOrderEntriesOf(
                Map.of("aws_access_key", 1, "card_number", 2, "password", 1));
        assertThat(r.total()).isEqualTo(4);
        assertThat(r.changed()).isTrue();
    }

    @Test
    void text_without_secrets_is_returned_as_is() {
        String text = "I went to a chess club meetup yesterday and it was so relaxing.";
        Redaction r = redactor.redact(text);
        assertThat(r.text()).isSameAs(text);
        assertThat(r.total()).isZero();
        assertThat(r.countsByType()).isEmpty();
    }

    @Test
    void connection_string_keeps_scheme_and_host() {
        assertThat(redactor.redact("postgres://admin:S3cr3tPass@db.internal:5432/app").text())
                .isEqualTo("postgres://[REDACTED:connection_string]@db.internal:5432/app");
    }

    @Test
    void redaction_is_idempotent() {
        for (Positive p : POSITIVES) {
            String once = redactor.redact(p.text()).text();
            Redaction twice = redactor.redact(once);
            assertThat(twice.text()).as(p.text()).isEqualTo(once);
            assertThat(twice.total()).as(p.text()).isZero();
        }
    }

    @Test
    void adversarial_inputs_finish_quickly() {
        Random random = new Random(7);
        StringBuilder digits = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            digits.append((char) ('0' + random.nextInt(10))).append(i % 3 == 0 ? " " : "");
        }
        List<String> inputs = List.of(
                "a".repeat(50_000),
                "password=" + "x".repeat(50_000),
                "postgres://" + "u".repeat(10_000) + ":" + "p".repeat(10_000),
                "jdbc:" + "a;".repeat(20_000),
                "-----BEGIN PRIVATE KEY-----" + "A".repeat(50_000),
                "aws secret " + "Ab1/".repeat(12_000),
                "eyJ" + "a".repeat(20_000) + "." + "b".repeat(20_000),
                digits.toString(),
                "senha é ".repeat(5_000),
                "my password is " + "word ".repeat(10_000),
                "DB_PASSWORD".repeat(5_000) + "=x",
                "api_key=".repeat(6_000),
                "token=".repeat(10_000),
                "auth token ".repeat(5_000),
                "the password is the word ".repeat(2_000),
                "mysql://u:" + "@".repeat(20_000) + "h",
                "a://" + "b:c@".repeat(10_000),
                "AB12".repeat(10_000),
                "123.456.".repeat(6_000),
                "SG.".repeat(15_000),
                "Authorization: Basic " + "QUJD".repeat(10_000));
        for (String input : inputs) {
            long start = System.nanoTime();
            redactor.redact(input);
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertThat(ms).as("redacting %s... took %d ms", input.substring(0, 20), ms).isLessThan(2_000);
        }
    }

    /** Issue 14, defect 5: the formats an adversarial run found kept. */
    @Test
    void issue_14_formats_are_redacted() {
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("DB_PASSWORD=Pa55w0rd!", "DB_PASSWORD=[REDACTED:password]");
        cases.put("export X_TOKEN=abcdef123456", "export X_TOKEN=[REDACTED:secret]");
        cases.put("the password is: hunter2", "the password is: [REDACTED:password]");
        cases.put("pass: letmein", "pass: [REDACTED:password]");
        cases.put("my password is correct horse battery staple", "my password is [REDACTED:password]");
        cases.put("minha senha é cavalo correto bateria grampo.", "minha senha é [REDACTED:password].");
        cases.put("mysql://admin:p@ss:w0rd#1@db.example.com:3306/app",
                "mysql://[REDACTED:connection_string]@db.example.com:3306/app");
        cases.put("mongodb://admin:S3cr3t@Pass@mongo1:27017,mongo2:27017/?replicaSet=rs0",
                "mongodb://[REDACTED:connection_string]@mongo1:27017,mongo2:27017/?replicaSet=rs0");
        cases.put("redis://default:r3d!s#pw@cache:6379", "redis://[REDACTED:connection_string]@cache:6379");
        cases.put("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", "[REDACTED:sendgrid_key]");
        cases.put("AccountName=acct;AccountKey=lJzRc1YdHaAA2KCNJJ1tkYwF/+mKK6Ygw0NGe170Xu592euJv2wYUtBlV8z+qnlcNQSnIYVTkLWnt"
                + "UO1F8j8rQ==;EndpointSuffix=core.windows.net",
                "AccountName=acct;AccountKey=[REDACTED:azure_storage_key];EndpointSuffix=core.windows.net");
        cases.put("npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "[REDACTED:npm_token]");
        cases.put("CPF: 123.456.789-09 ou 12345678909", "CPF: [REDACTED:cpf] ou [REDACTED:cpf]");
        cases.put("IBAN DE89 3704 0044 0532 0130 00 and GB29NWBK60161331926819",
                "IBAN [REDACTED:iban] and [REDACTED:iban]");
        cases.forEach((in, out) -> assertThat(redactor.redact(in).text()).as(in).isEqualTo(out));
    }

    @Test
    void null_text_is_rejected_with_a_clear_message() {
        assertThatThrownBy(() -> redactor.redact(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("text must not be null");
    }

    @Test
    void luhn_check_matches_known_numbers() {
        assertThat(SecretRedactor.luhn("4111111111111111")).isTrue();
        assertThat(SecretRedactor.luhn("4111111111111112")).isFalse();
        assertThat(SecretRedactor.isCardNumber("4111-1111-1111-1111")).isTrue();
        assertThat(SecretRedactor.isCardNumber("41-111111-11111111")).as("odd grouping").isFalse();
        assertThat(SecretRedactor.isCardNumber("1111111111111117")).as("no card network starts with 1").isFalse();
    }
}
