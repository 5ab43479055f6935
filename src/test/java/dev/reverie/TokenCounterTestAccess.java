package dev.reverie;

import dev.reverie.spi.TokenCounter;

/** Token counts as the default manager computes them, for assertions. */
final class TokenCounterTestAccess {
    private TokenCounterTestAccess() {
    }

    static int messageTokens(String content) {
        return TokenCounter.o200k().countMessage(content);
    }
}
