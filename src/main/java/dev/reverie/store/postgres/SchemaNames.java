package dev.reverie.store.postgres;

import dev.reverie.internal.TenantNames;

import java.util.Locale;

/**
 * PostgreSQL schema names for tenants: {@code reverie_t_} followed by the tenant id with lower-case
 * letters, digits, {@code -} and {@code _} kept and any other character escaped as {@code ~hh}, so
 * ids differing only in case or punctuation never share a schema. An id whose name would pass
 * PostgreSQL's 63-byte identifier limit gets {@code reverie_h_<first 48 hex digits of its SHA-256>}
 * instead; escaped names always continue {@code t_} and hashed ones {@code h_}, so no id can be given
 * another's hashed name. Names are always double-quoted in SQL ({@link #quoted}). Stateless and
 * thread-safe.
 */
final class SchemaNames {

    /** PostgreSQL's identifier limit (NAMEDATALEN - 1), in bytes; every name here is ASCII. */
    static final int MAX_IDENTIFIER = 63;

    private SchemaNames() {
    }

    static String of(String tenantId) {
        StringBuilder sb = new StringBuilder("reverie_t_");
        for (char ch : tenantId.toCharArray()) {
            if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_') {
                sb.append(ch);
            } else {
                sb.append('~').append(String.format(Locale.ROOT, "%02x", (int) ch));
            }
        }
        return sb.length() <= MAX_IDENTIFIER ? sb.toString()
                : "reverie_h_" + TenantNames.sha256(tenantId).substring(0, 48);
    }

    /** {@code name} as a quoted identifier (any double quote doubled, though generated names have none). */
    static String quoted(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }
}
