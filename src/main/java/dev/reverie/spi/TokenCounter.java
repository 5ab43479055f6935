package dev.reverie.spi;

/**
 * Counts tokens the way the target model's tokenizer does, so an assembled context never exceeds
 * its budget. The default is JTokkit's {@code o200k_base}. Implementations must be thread-safe.
 */
public interface TokenCounter {

    /** Tokens in {@code text}. */
    int count(String text);

    /** Tokens a chat message costs beyond its content (role markers); default 4. */
    default int messageOverhead() {
        return 4;
    }

    /**
     * Whether counts add up across a newline: {@code count(a + b) == count(a) + count(b)} whenever
     * {@code a} ends with a newline and {@code b} is non-empty and starts with neither white space nor
     * a slash. True for the built-in o200k counter (its pre-tokenizer never runs past such a newline,
     * and BPE never merges across pre-tokens), so a long rendering made of recurring lines is counted
     * from their cached counts. The default is {@code false}: the whole text is counted.
     */
    default boolean additiveAfterNewline() {
        return false;
    }

    /** Tokens of a message holding {@code content}, overhead included. */
    default int countMessage(String content) {
        return count(content) + messageOverhead();
    }

    /** The default counter: JTokkit {@code o200k_base}, the GPT-4o family encoding. */
    static TokenCounter o200k() {
        return JTokkitTokenCounter.o200kBase();
    }
}
