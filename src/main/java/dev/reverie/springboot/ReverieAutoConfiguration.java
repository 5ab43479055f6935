package dev.reverie.springboot;

import dev.reverie.ConfigurationException;
import dev.reverie.ContextManager;
import dev.reverie.ImmutableLayer;
import dev.reverie.MemoryPolicy;
import dev.reverie.spi.Embedder;
import dev.reverie.spi.LanguageModel;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.Resource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Spring Boot auto-configuration of Reverie's {@link ContextManager}, present when the property
 * {@code reverie.store} is set and no {@code ContextManager} bean is defined: the store is opened
 * from that URI, the IMMUTABLE layer read from {@code reverie.immutable}, the recall mode taken from
 * {@code reverie.recall-mode}; an {@link Embedder}, {@link LanguageModel} or {@link MemoryPolicy}
 * bean is used when the application defines one. The manager is closed with the application
 * context (closing the store it opened). The advisor, health indicator, metrics and scheduled dream
 * come from sibling auto-configurations that run after this one.
 */
@AutoConfiguration
@EnableConfigurationProperties(ReverieProperties.class)
public class ReverieAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "reverie", name = "store")
    ContextManager reverieContextManager(ReverieProperties properties, ObjectProvider<Embedder> embedder,
                                         ObjectProvider<LanguageModel> languageModel,
                                         ObjectProvider<MemoryPolicy> policy) {
        ContextManager.Builder b = ContextManager.builder().store(properties.getStore());
        if (properties.getImmutable() != null) {
            b.immutable(ImmutableLayer.of(read(properties.getImmutable())));
        }
        if (properties.getRecallMode() != null) {
            b.recallMode(properties.getRecallMode());
        }
        embedder.ifAvailable(b::embedder);
        languageModel.ifAvailable(b::languageModel);
        policy.ifAvailable(b::policy);
        return b.build();
    }

    private static String read(Resource resource) {
        if (!resource.exists()) {
            throw new ConfigurationException("reverie.immutable names " + resource.getDescription()
                    + ", which does not exist: point the property at an existing file or classpath resource");
        }
        try (InputStream in = resource.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigurationException("reverie.immutable could not be read from " + resource.getDescription()
                    + " (" + e + "): check that it is readable", e);
        }
    }
}
