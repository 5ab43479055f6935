package dev.reverie.internal;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.reverie.spi.TokenCounter;

/** {@link TokenCounter} on JTokkit; thread-safe (JTokkit encodings are). Not API. */
public final class JTokkitTokenCounter implements TokenCounter {
    private static final JTokkitTokenCounter O200K =
            new JTokkitTokenCounter(Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE));

    private final Encoding encoding;

    private JTokkitTokenCounter(Encoding encoding) {
        this.encoding = encoding;
    }

    public static JTokkitTokenCounter o200kBase() {
        return O200K;
    }

    @Override
    public int count(String text) {
        return text.isEmpty() ? 0 : encoding.countTokensOrdinary(text);
    }
}
