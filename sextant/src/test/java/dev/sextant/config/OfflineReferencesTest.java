package dev.sextant.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** config check --offline: references checked, never resolved; nothing read (issue 50, item 5). */
class OfflineReferencesTest {

    private static final String BASE = "source.bootstrap.servers=a:9092\ndestination.bootstrap.servers=b:9092\n";
    private static final String DIR = "config.providers=dir\n"
            + "config.providers.dir.class=org.apache.kafka.common.config.provider.DirectoryConfigProvider\n"
            + "config.providers.dir.param.allowed.paths=/etc/strimzi\n";

    @TempDir
    Path dir;

    private SextantConfig offline(String text) throws Exception {
        return SextantConfigLoader.loadOffline(Files.writeString(dir.resolve("c.properties"), BASE + text), Map.of());
    }

    private InvalidConfigurationException refused(String text) {
        return assertThrows(InvalidConfigurationException.class, () -> offline(text));
    }

    @Test
    void referencesToPathsThatDoNotExistHerePass() throws Exception {
        SextantConfig config = offline(DIR + "source.sasl.jaas.config=${dir:/etc/strimzi/u:sasl.jaas.config}\n"
                + "destination.ssl.keystore.password=${dir:/etc/strimzi/w:user.password}\n"
                + "query.auth.token=${dir:/etc/strimzi/t:token}\n");
        assertEquals("sextant", config.applicationId());
        assertEquals(List.of(), config.warnings());
    }

    @Test
    void aReferenceToAProviderNotListedIsRefused() {
        InvalidConfigurationException e = refused("query.auth.token=${vault:secret/sextant:token}\n");
        assertEquals("query.auth.token", e.key());
        assertTrue(e.getMessage().contains("config provider 'vault', which config.providers does not list"),
                e.getMessage());
    }

    @Test
    void aPathOutsideAllowedPathsIsRefused() {
        InvalidConfigurationException e = refused(DIR + "source.sasl.jaas.config=${dir:/etc/secrets/u:jaas}\n");
        assertTrue(e.getMessage().contains("outside its allowed.paths (/etc/strimzi)"), e.getMessage());
        assertTrue(refused(DIR + "source.sasl.jaas.config=${dir:/etc/strimzi/../secrets/u:jaas}\n").getMessage()
                .contains("outside"), "normalized as the provider does");
    }

    @Test
    void anUnclosedReferenceIsRefused() {
        InvalidConfigurationException e = refused(DIR + "source.sasl.jaas.config=${dir:/etc/strimzi/u:jaas\n");
        assertTrue(e.getMessage().contains("no complete config-provider reference"), e.getMessage());
    }

    @Test
    void aProviderWithoutAClassIsRefusedAndOneNotHereIsAWarning() throws Exception {
        assertEquals("config.providers.file.class", refused("config.providers=file\n").key());
        SextantConfig plugin = offline("config.providers=vault\nconfig.providers.vault.class=com.example.Vault\n"
                + "query.auth.token=${vault:secret/sextant:token}\n");
        assertTrue(plugin.warnings().stream().anyMatch(w -> w.contains("com.example.Vault")
                && w.contains("not on this classpath")), plugin.warnings().toString());
        assertTrue(refused("config.providers=x\nconfig.providers.x.class=java.lang.String\n").getMessage()
                .contains("is no org.apache.kafka.common.config.provider.ConfigProvider"));
    }

    /** A number known only once resolved is not checked; the key itself still is. */
    @Test
    void aValueThatIsNoTextIsLeftToWhereItResolves() throws Exception {
        SextantConfig config = offline("config.providers=env\n"
                + "config.providers.env.class=org.apache.kafka.common.config.provider.EnvVarConfigProvider\n"
                + "sync.interval.ms=${env:SYNC_INTERVAL}\n");
        assertTrue(config.warnings().stream().anyMatch(w -> w.startsWith("'sync.interval.ms' is not checked "
                + "offline")), config.warnings().toString());
        assertEquals("sync.intervl.ms", refused("sync.intervl.ms=5\n").key(), "an unknown key, as online");
        assertEquals("sync.rewind", refused("sync.rewind=sometimes\n").key(), "a bad value, as online");
    }

    @Test
    void filesAndPluginClassesNamedAreNotLookedFor() throws Exception {
        SextantConfig config = offline("query.tls.keystore.location=/etc/sextant/tls/keystore.p12\n"
                + "destination.sasl.client.callback.handler.class=software.amazon.msk.auth.iam.IAMClientCallbackHandler"
                + "\n");
        assertTrue(config.queryTls());
        assertTrue(config.warnings().stream().anyMatch(w -> w.contains("IAMClientCallbackHandler")),
                config.warnings().toString());
        assertThrows(InvalidConfigurationException.class, () -> SextantConfigLoader.load(
                Files.writeString(dir.resolve("online.properties"), BASE
                        + "query.tls.keystore.location=/etc/sextant/tls/keystore.p12\n"), Map.of()),
                "online the store must be there");
    }
}
