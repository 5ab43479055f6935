package dev.reverie.spi;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Byte-level search of a store's files, for erasure tests: which of some strings still occur, as
 * UTF-8 bytes, in any regular file under a folder. Stateless; shipped in the tests jar with the kits.
 */
public final class FileScan {

    private FileScan() {
    }

    /** The needles, in the given order, found in at least one regular file under {@code root}. */
    public static List<String> needlesIn(Path root, List<String> needles) throws IOException {
        List<byte[]> contents = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.filter(Files::isRegularFile).toList()) {
                try {
                    contents.add(Files.readAllBytes(p));
                } catch (NoSuchFileException gone) {
                    // deleted while walking: holds nothing
                }
            }
        }
        List<String> found = new ArrayList<>();
        for (String needle : needles) {
            byte[] n = needle.getBytes(StandardCharsets.UTF_8);
            if (contents.stream().anyMatch(c -> indexOf(c, n) >= 0)) {
                found.add(needle);
            }
        }
        return found;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
