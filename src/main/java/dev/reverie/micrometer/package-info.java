/**
 * Micrometer metrics for Reverie: {@link dev.reverie.micrometer.ReverieMetrics}, a
 * {@code MeterBinder} usable with or without Spring. Micrometer is an optional dependency: the core
 * runs without it.
 */
package dev.reverie.micrometer;
