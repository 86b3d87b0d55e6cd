package dev.sextant.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.provider.DirectoryConfigProvider;
import org.apache.kafka.common.config.provider.FileConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kafka's config providers resolve secrets anywhere in Sextant's configuration, and errors name the key. */
class ConfigProvidersTest {

    @TempDir
    Path dir;

    private Map<String, Object> base() {
        Map<String, Object> props = new HashMap<>();
        props.put("source.bootstrap.servers", "127.0.0.1:9092");
        props.put("destination.bootstrap.servers", "127.0.0.1:9093");
        props.put("config.providers", "file,env");
        props.put("config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider");
        props.put("config.providers.env.class", "org.apache.kafka.common.config.provider.EnvVarConfigProvider");
        return props;
    }

    @Test
    void fileAndEnvironmentReferencesAreResolvedInEveryKindOfKey() throws Exception {
        Path secrets = dir.resolve("secrets.properties");
        Files.writeString(secrets, "jaas=org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"sextant\" password=\"pw-from-file\";\ntoken=tok-from-file\n");
        Map<String, Object> props = base();
        props.put("source.sasl.jaas.config", "${file:" + secrets + ":jaas}");
        props.put("query.auth.token", "${file:" + secrets + ":token}");
        props.put("destination.client.id", "${env:HOME}");
        SextantConfig config = SextantConfigLoader.load(props, Map.of());
        assertTrue(config.sourceClientConfig().get("sasl.jaas.config").toString().contains("pw-from-file"));
        assertEquals("tok-from-file", config.queryAuthToken().orElseThrow());
        assertEquals(System.getenv("HOME"), config.destinationClientConfig().get("client.id"));
        assertFalse(config.toString().contains("pw-from-file"), config.toString());
        assertFalse(config.toString().contains("tok-from-file"), config.toString());
    }

    @Test
    void aKeyMissingFromTheFileNamesTheKeyThatRefersToIt() throws Exception {
        Path secrets = dir.resolve("secrets.properties");
        Files.writeString(secrets, "other=x\n");
        Map<String, Object> props = base();
        props.put("query.auth.token", "${file:" + secrets + ":token}");
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> SextantConfigLoader.load(props, Map.of()));
        assertEquals("query.auth.token", e.key());
        assertTrue(e.getMessage().contains("did not find"), e.getMessage());
    }

    @Test
    void anUnlistedProviderAndAMissingClassAreNamed() {
        Map<String, Object> props = base();
        props.put("query.auth.token", "${vault:secret/sextant:token}");
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> SextantConfigLoader.load(props, Map.of()));
        assertTrue(e.getMessage().contains("'vault', which config.providers does not list"), e.getMessage());

        Map<String, Object> noClass = base();
        noClass.put("config.providers", "file,vault");
        InvalidConfigurationException e2 = assertThrows(InvalidConfigurationException.class,
                () -> SextantConfigLoader.load(noClass, Map.of()));
        assertEquals("config.providers.vault.class", e2.key());
    }

    /** What 'config acls' loads: it reads no secret, and Strimzi creates the secrets only from what it prints. */
    @Test
    void withoutSecretsTheReferencesInSecretsStayAndTheOthersAreResolved() throws Exception {
        Path settings = dir.resolve("settings.properties");
        Files.writeString(settings, "app=sextant-east\n");
        Path file = dir.resolve("sextant.properties");
        Files.writeString(file, """
                source.bootstrap.servers=127.0.0.1:9092
                destination.bootstrap.servers=127.0.0.1:9093
                config.providers=dir,file
                config.providers.dir.class=%s
                config.providers.file.class=%s
                source.sasl.jaas.config=${dir:/nonexistent/sextant-east:sasl.jaas.config}
                destination.ssl.keystore.password=${dir:/nonexistent/sextant-west:user.password}
                application.id=${file:%s:app}
                """.formatted(DirectoryConfigProvider.class.getName(), FileConfigProvider.class.getName(), settings));
        SextantConfig config = SextantConfigLoader.loadWithoutSecrets(file, Map.of());
        assertEquals("sextant-east", config.applicationId());
        assertEquals("${dir:/nonexistent/sextant-east:sasl.jaas.config}",
                config.sourceClientConfig().get("sasl.jaas.config").toString());
        assertFalse(config.destinationClientConfig().containsKey("config.providers"));
        // loaded to run, the same file needs its secrets
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> SextantConfigLoader.load(file, Map.of()));
        assertTrue(e.getMessage().contains("config provider"), e.getMessage());
    }

    /** Strimzi's Secrets are mounted only where Sextant runs: an allowed.paths there must not stop 'config acls'. */
    @Test
    void withOnlySecretsReferringTheProvidersAreNotOpenedWithoutSecrets() throws Exception {
        Path file = dir.resolve("sextant.properties");
        Files.writeString(file, """
                source.bootstrap.servers=127.0.0.1:9092
                destination.bootstrap.servers=127.0.0.1:9093
                config.providers=dir
                config.providers.dir.class=%s
                config.providers.dir.param.allowed.paths=/nonexistent/strimzi
                source.sasl.jaas.config=${dir:/nonexistent/strimzi/sextant-east:sasl.jaas.config}
                """.formatted(DirectoryConfigProvider.class.getName()));
        assertEquals("${dir:/nonexistent/strimzi/sextant-east:sasl.jaas.config}",
                SextantConfigLoader.loadWithoutSecrets(file, Map.of()).sourceClientConfig().get("sasl.jaas.config")
                        .toString());
        // to run, the provider is opened, and its refusal of the path is a configuration error naming it
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> SextantConfigLoader.load(file, Map.of()));
        assertEquals("config.providers.dir.param.*", e.key());
        assertTrue(e.getMessage().contains("/nonexistent/strimzi"), e.getMessage());
    }
}
