/**
 * Spring Boot auto-configuration for Reverie, driven by {@code reverie.*} properties: the
 * {@code ContextManager} ({@link dev.reverie.springboot.ReverieAutoConfiguration}), the Spring AI
 * advisor and recall tool, the Micrometer binder, the Actuator health indicator and the scheduled
 * dream cycle, each present only when its library is on the class path. Optional: the core runs
 * without Spring. See {@code docs/spring-ai.md}.
 */
package dev.reverie.springboot;
