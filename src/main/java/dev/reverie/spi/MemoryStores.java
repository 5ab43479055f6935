package dev.reverie.spi;

import dev.reverie.ConfigurationException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Opens a {@link MemoryStore} from a URI such as {@code sqlite:./data}, {@code sqlite::memory:} or
 * {@code lucene:./idx}, choosing the {@link MemoryStoreProvider} by scheme through
 * {@link ServiceLoader}. An unknown scheme fails with the list of schemes found; two providers for
 * one scheme fail with both class names. Stateless and thread-safe.
 */
public final class MemoryStores {

    private MemoryStores() {
    }

    /** Opens the store named by {@code uri} using the providers visible to this class's loader. */
    public static MemoryStore open(String uri) {
        return open(uri, MemoryStores.class.getClassLoader());
    }

    /** Opens the store named by {@code uri} using the providers visible to {@code loader}. */
    public static MemoryStore open(String uri, ClassLoader loader) {
        if (uri == null || uri.isBlank()) {
            throw new IllegalArgumentException("store uri must not be blank (try sqlite:./reverie-data or sqlite::memory:)");
        }
        int colon = uri.indexOf(':');
        if (colon <= 0 || colon == uri.length() - 1) {
            throw new IllegalArgumentException("store uri '" + dev.reverie.internal.Checks.withoutCredentials(uri)
                    + "' must look like <scheme>:<location>, e.g. sqlite:./reverie-data");
        }
        String scheme = uri.substring(0, colon).toLowerCase(Locale.ROOT);
        String location = uri.substring(colon + 1);
        Map<String, List<MemoryStoreProvider>> byScheme = providers(loader);
        List<MemoryStoreProvider> found = byScheme.get(scheme);
        if (found == null) {
            throw new ConfigurationException("no MemoryStoreProvider for scheme '" + scheme + "' in '"
                    + dev.reverie.internal.Checks.withoutCredentials(uri)
                    + "'; schemes found: " + byScheme.keySet()
                    + ". Add the store's jar to the class path or pass a MemoryStore instance to the builder.");
        }
        if (found.size() > 1) {
            List<String> names = new ArrayList<>();
            found.forEach(p -> names.add(p.getClass().getName()));
            throw new ConfigurationException("several MemoryStoreProviders serve scheme '" + scheme + "': " + names
                    + "; remove one from the class path or pass a MemoryStore instance to the builder.");
        }
        return found.get(0).open(location);
    }

    /** The schemes that can be opened, sorted. */
    public static List<String> schemes() {
        return List.copyOf(providers(MemoryStores.class.getClassLoader()).keySet());
    }

    private static Map<String, List<MemoryStoreProvider>> providers(ClassLoader loader) {
        Map<String, List<MemoryStoreProvider>> byScheme = new TreeMap<>();
        ServiceLoader<MemoryStoreProvider> serviceLoader = ServiceLoader.load(MemoryStoreProvider.class, loader);
        var it = serviceLoader.iterator();
        while (true) {
            MemoryStoreProvider provider;
            try {
                if (!it.hasNext()) {
                    break;
                }
                provider = it.next();
            } catch (ServiceConfigurationError e) {
                throw new ConfigurationException("a MemoryStoreProvider could not be loaded (" + e.getMessage()
                        + "): check the provider's META-INF/services entry and that its dependencies are on the class path", e);
            }
            byScheme.computeIfAbsent(provider.scheme().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(provider);
        }
        return byScheme;
    }
}
