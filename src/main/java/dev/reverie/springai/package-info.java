/**
 * Spring AI 2.0 integration: {@link dev.reverie.springai.ReverieAdvisor} (a call and stream advisor
 * that assembles the prompt and records the exchange), {@link dev.reverie.springai.ReverieToolCallback}
 * (the recall tool, scope sealed by the host) and {@link dev.reverie.springai.ReverieChatMemory} (for
 * applications on {@code MessageChatMemoryAdvisor}). Spring AI is an optional dependency: the core
 * runs without it. See {@code docs/spring-ai.md}.
 */
package dev.reverie.springai;
