/**
 * The LangChain4j integration: Reverie as a LangChain4j {@code ChatMemory} (through
 * {@link dev.reverie.langchain4j.ReverieChatMemoryProvider}), any LangChain4j {@code EmbeddingModel} as a
 * Reverie {@link dev.reverie.spi.Embedder}, any {@code ChatModel} as a Reverie
 * {@link dev.reverie.spi.LanguageModel}, and the recall tool as a LangChain4j tool for
 * {@link dev.reverie.RecallMode#ON_DEMAND}.
 *
 * <p>LangChain4j is an optional dependency of the Reverie jar: a host that uses this package adds
 * {@code dev.langchain4j:langchain4j} (1.x) itself; nothing else in Reverie loads these classes. See
 * {@code docs/langchain4j.md} for the wiring.
 */
package dev.reverie.langchain4j;
