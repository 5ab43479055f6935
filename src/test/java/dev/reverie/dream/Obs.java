package dev.reverie.dream;

import dev.reverie.Cardinality;
import dev.reverie.Embedding;
import dev.reverie.MemoryKind;
import dev.reverie.Observation;
import dev.reverie.ObservationStatus;
import dev.reverie.Outcome;
import dev.reverie.Polarity;
import dev.reverie.Provenance;
import dev.reverie.Scope;
import dev.reverie.Source;
import dev.reverie.Trust;
import dev.reverie.spi.MemoryStore;
import dev.reverie.spi.WriteBatch;

import java.time.Instant;
import java.util.List;

/** Builds L3 observations the way the write path leaves them (PENDING, one turn each). */
final class Obs {
    private final Scope scope;
    private final String id;
    private MemoryKind kind = MemoryKind.FACT;
    private String text;
    private String subject;
    private String value = "";
    private Cardinality cardinality = Cardinality.MULTI;
    private Polarity polarity = Polarity.POSITIVE;
    private double confidence = 0.8;
    private Instant at;
    private String session = "s1";
    private Source source = Source.USER;
    private Trust trust = Trust.FIRST_PARTY;
    private Outcome outcome = Outcome.UNKNOWN;
    private List<String> turns;
    private Embedding embedding;

    private Obs(Scope scope, String id) {
        this.scope = scope;
        this.id = id;
    }

    static Obs of(Scope scope, String id) {
        return new Obs(scope, id);
    }

    /** A fact with a subject and value, e.g. {@code fact(s, "o1", "user.allergy", "dipyrone", "I'm allergic to dipyrone")}. */
    static Obs fact(Scope scope, String id, String subject, String value, String text) {
        return of(scope, id).subject(subject).value(value).text(text);
    }

    /** An episodic fallback: an EVENT keyed by a hash of its text. */
    static Obs episode(Scope scope, String id, String text) {
        return of(scope, id).kind(MemoryKind.EVENT).subject("user.episode." + Integer.toHexString(text.hashCode()))
                .text(text);
    }

    Obs kind(MemoryKind v) { kind = v; return this; }
    Obs text(String v) { text = v; return this; }
    Obs subject(String v) { subject = v; return this; }
    Obs value(String v) { value = v; return this; }
    Obs single() { cardinality = Cardinality.SINGLE; return this; }
    Obs negative() { polarity = Polarity.NEGATIVE; return this; }
    Obs confidence(double v) { confidence = v; return this; }
    Obs at(Instant v) { at = v; return this; }
    Obs session(String v) { session = v; return this; }
    Obs thirdParty() { source = Source.TOOL; trust = Trust.THIRD_PARTY; return this; }
    Obs assistant() { source = Source.ASSISTANT; return this; }
    Obs failed() { outcome = Outcome.FAILED; return this; }
    Obs turns(String... v) { turns = List.of(v); return this; }
    Obs embedding(float... v) { embedding = Embedding.of(v); return this; }

    Observation build() {
        List<String> t = turns == null ? List.of("t-" + id) : turns;
        return new Observation(id, scope, kind, text, subject, value, cardinality, polarity, confidence, at, session,
                new Provenance(source, session, t.get(0), at, outcome, trust), t, 1, ObservationStatus.PENDING, null,
                embedding);
    }

    /** Writes observations in one batch, as the write path does after a turn. */
    static void write(MemoryStore store, Observation... observations) {
        WriteBatch b = WriteBatch.of(observations[0].scope());
        for (Observation o : observations) {
            b.put(o);
        }
        store.write(b);
    }

    static void write(MemoryStore store, Obs... observations) {
        Observation[] built = new Observation[observations.length];
        for (int i = 0; i < observations.length; i++) {
            built[i] = observations[i].build();
        }
        write(store, built);
    }
}
