/**
 * Governance machinery behind {@link dev.reverie.MemoryAdmin} and {@link dev.reverie.LayerHealth}:
 * the export file format, the failed-run forgetting criterion and the health counters. Not API:
 * these types may change in any release; use them through {@link dev.reverie.ContextManager}.
 */
package dev.reverie.governance;
