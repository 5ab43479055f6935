package dev.reverie.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * File-system names for tenants, shared by the stores that keep one file or folder per tenant:
 * lower-case letters, digits, '-' and '_' as they are; any other character escaped as {@code ~hh},
 * so ids differing only in case or punctuation never share a name (on case-insensitive file systems
 * too); ids whose escaped name would pass 200 characters become {@code tenant~<sha256>}.
 *
 * <p>The mapping is injective by construction: every escaped name starts with {@code tenant-} and
 * every hashed name with {@code tenant~}, so no tenant id (valid ids are ASCII letters, digits and
 * {@code . _ : @ -}, see {@link Checks#id}) can be given another id's hashed name. The stores also keep
 * the tenant id inside each file and refuse a file that belongs to another tenant. Stateless and
 * thread-safe. Not API.
 */
public final class TenantNames {
    private TenantNames() {
    }

    /** {@code tenant-<escaped id>}, or {@code tenant~<sha256 of the id>} when that would pass 200 characters. */
    public static String of(String tenantId) {
        StringBuilder sb = new StringBuilder("tenant-");
        for (char ch : tenantId.toCharArray()) {
            if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_') {
                sb.append(ch);
            } else {
                sb.append('~').append(String.format(Locale.ROOT, "%02x", (int) ch));
            }
        }
        String name = sb.toString();
        // '~' after "tenant" never starts an escaped name (those continue with '-'), so hashed names are their own space
        return name.length() > 200 ? "tenant~" + sha256(tenantId) : name;
    }

    /** Hex SHA-256 of a string's UTF-8 bytes. */
    public static String sha256(String s) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
