package dev.reverie.spi;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;

/**
 * {@link TokenCounter} on JTokkit, behind {@link TokenCounter#o200k()}; thread-safe (JTokkit
 * encodings are). Package-private: it lives beside the interface so that the SPI depends on no
 * implementation package.
 */
final class JTokkitTokenCounter implements TokenCounter {
    private static final JTokkitTokenCounter O200K =
            new JTokkitTokenCounter(Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE));

    private final Encoding encoding;

    private JTokkitTokenCounter(Encoding encoding) {
        this.encoding = encoding;
    }

    static JTokkitTokenCounter o200kBase() {
        return O200K;
    }

    @Override
    public int count(String text) {
        return text.isEmpty() ? 0 : encoding.countTokensOrdinary(text);
    }

    /**
     * o200k's pre-tokenizer continues past a newline only into white space
     * ({@code \s*[\r\n]+}) or a slash ({@code ?[^\s\p{L}\p{N}]+[\r\n/]*}); checked on two million
     * random piece pairs and in {@code BlockTokensTest}.
     */
    @Override
    public boolean additiveAfterNewline() {
        return true;
    }
}
