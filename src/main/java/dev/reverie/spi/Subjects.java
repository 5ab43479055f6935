package dev.reverie.spi;

import dev.reverie.Role;

import java.text.Normalizer;
import java.util.Locale;
import java.util.Set;

/**
 * The one home of subject keys: a subject is {@code <owner>.<attribute>}, where the owner says whose
 * fact it is and the attribute what it is about ({@code user.location}, {@code ana.location},
 * {@code assistant.commitment}, {@code tool.episode.<hash>}). A user turn without a speaker is owned
 * by {@value #USER}; a user turn with a speaker by the speaker's key ({@link #speakerKey}), so two
 * people in one scope never share a subject and never supersede or merge each other's facts.
 * Assistant turns are owned by {@value #ASSISTANT} and tool turns by {@value #TOOL}, whoever the
 * speaker. Everything that interprets a subject (importance, permanence, style) reads its
 * {@link #attribute}, never a hard-coded {@code user.} prefix. Stateless and thread-safe.
 */
public final class Subjects {

    /** Owner of the facts of a user turn without a speaker. */
    public static final String USER = "user";
    /** Owner of the assistant's own commitments. */
    public static final String ASSISTANT = "assistant";
    /** Owner of what tool output says (third-party). */
    public static final String TOOL = "tool";
    /** Owner of REM's syntheses. */
    public static final String SYNTHESIS = "synthesis";

    /** Owners that are not a person. */
    private static final Set<String> NOT_PEOPLE = Set.of(ASSISTANT, TOOL, SYNTHESIS);
    /**
     * Owners a named speaker never takes: those that are not a person, and the end user of the turns
     * that name no speaker. A speaker whose key would collide gets a {@code speaker_} prefix, so
     * someone named "User" in a group chat cannot rewrite the end user's facts.
     */
    private static final Set<String> RESERVED = Set.of(USER, ASSISTANT, TOOL, SYNTHESIS);
    private static final int MAX_KEY = 40;

    private Subjects() {
    }

    /**
     * The owner of the facts of a turn said by {@code role} (USER, ASSISTANT or TOOL), with
     * {@code speaker} (may be null).
     */
    public static String owner(Role role, String speaker) {
        return switch (role) {
            case ASSISTANT -> ASSISTANT;
            case TOOL -> TOOL;
            case USER -> speaker == null || speaker.isBlank() ? USER : speakerKey(speaker);
            case SYSTEM -> throw new IllegalArgumentException("role must be USER, ASSISTANT or TOOL for a turn's"
                    + " facts, was SYSTEM: a turn is never SYSTEM (TurnInput refuses it)");
        };
    }

    /**
     * A speaker's name as a subject owner: accents and case folded, letters and digits kept (ASCII),
     * other runs of characters as one {@code _}, at most {@value #MAX_KEY} characters
     * ({@code "Zoë Ann"} → {@code zoe_ann}); a name with a word of which fewer than half the letters are
     * Latin ({@code "Анна Smith"}, small capitals {@code "ᴀsʜ"}) or longer than that ends in a stable hash
     * of the whole name's words ({@code smith_<hex>}),
     * so two people never share a key through their Latin part or their first characters. A name with no such character gets a stable
     * {@code speaker_<hex>} key; a name equal to a reserved owner ({@code "Assistant"}, {@code "User"})
     * gets {@code speaker_} in front, so a person can never speak as the assistant, a tool, or the end
     * user whose turns name no speaker.
     */
    /**
     * Small capitals, Latin letters that read as capitals of others ("ᴜsᴇʀ"); the same letters as in the
     * look-alike table of {@code internal.Terms}, which the SPI may not use (ArchitectureTest).
     */
    private static final String SMALL_CAPITALS = "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡʏᴢ";

    public static String speakerKey(String speaker) {
        String s = speaker == null ? "" : speaker.strip();
        String folded = Normalizer.normalize(s.toLowerCase(Locale.ROOT)
                        .replace("ß", "ss").replace("æ", "ae").replace("ø", "o").replace("œ", "oe")
                        .replace("ł", "l").replace("đ", "d").replace("þ", "th"), Normalizer.Form.NFD)
                .replaceAll("\\p{M}+", "");
        String key = folded.replaceAll("[^a-z0-9]+", "_").replaceAll("^_+|_+$", "");
        if (key.isEmpty()) {
            return "speaker_" + Integer.toHexString(s.hashCode());
        }
        // letters the key cannot hold ("Анна Smith", "Wang 芳") or a cut name: two people must not share
        // a key because only their Latin part or their first 40 characters agree, so the key takes a
        // stable hash of the whole name
        // (a word of the name with no Latin letter at all is what is lost; a name whose words keep some,
        // "Işıl", "Guðrún", keeps the key it always had); spacing and punctuation do not change the hash
        String words = folded.replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
        boolean dropped = false;
        for (String w : words.split(" ")) {
            // a word keeps its key while at least half of its letters are the key's: "Işıl" and "Guðrún" keep
            // theirs; "ᴀsʜ" and "ᴜsᴇʀ" (small capitals, which no fold makes Latin) would both be "s"
            int kept = 0;
            for (int i = 0; i < w.length(); i++) {
                char c = w.charAt(i);
                // a Latin letter the key cannot hold ("ɔ" of "Kɔfi") counts as kept, a small capital does not
                kept += c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
                        || Character.isLetter(c) && Character.UnicodeScript.of(c) == Character.UnicodeScript.LATIN
                        && SMALL_CAPITALS.indexOf(c) < 0 ? 1 : 0;
            }
            dropped |= !w.isEmpty() && 2 * kept < w.codePointCount(0, w.length());
        }
        if (dropped || key.length() > MAX_KEY) {
            String hash = String.format(Locale.ROOT, "%08x", words.hashCode());
            key = key.substring(0, Math.min(key.length(), MAX_KEY - hash.length() - 1)).replaceAll("_+$", "") + "_" + hash;
        }
        return RESERVED.contains(key) || !Character.isLetter(key.charAt(0)) ? "speaker_" + key : key;
    }

    /** The owner part of a subject ({@code ana.location} → {@code ana}); empty when it has no dot. */
    public static String owner(String subject) {
        int dot = subject.indexOf('.');
        return dot < 0 ? "" : subject.substring(0, dot);
    }

    /** The attribute part of a subject ({@code ana.family.mother} → {@code family.mother}). */
    public static String attribute(String subject) {
        int dot = subject.indexOf('.');
        return dot < 0 ? subject : subject.substring(dot + 1);
    }

    /** The subject of {@code attribute} owned by {@code owner}. */
    public static String of(String owner, String attribute) {
        return owner + "." + attribute;
    }

    /**
     * {@code subject} owned by {@code owner}: a {@code user.} key (what extractors and prompts write)
     * gets the owner; a key already owned by it stays; any other key is put under the owner whole,
     * so an extractor can never write into another owner's subjects.
     */
    public static String rescope(String subject, String owner) {
        if (subject.startsWith(owner + ".")) {
            return subject;
        }
        if (subject.startsWith(USER + ".")) {
            return of(owner, attribute(subject));
        }
        return of(owner, subject);
    }

    /** Whether the subject is about a person (a user or a named speaker), not the assistant, a tool or REM. */
    public static boolean aboutPerson(String subject) {
        String owner = owner(subject);
        return !owner.isEmpty() && !NOT_PEOPLE.contains(owner);
    }
}
