package dev.sextant.config;

import static dev.sextant.config.TestConfigs.assertContains;
import static dev.sextant.config.TestConfigs.assertNamesKey;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SextantConfigLoaderTest {

    private static final Path EXAMPLE =
            Path.of(System.getProperty("basedir", "."), "..", "config", "sextant.properties");

    @TempDir
    Path dir;

    private Path write(String... lines) throws IOException {
        Path file = dir.resolve("sextant.properties");
        Files.write(file, List.of(lines), StandardCharsets.UTF_8);
        return file;
    }

    // ---------------------------------------------------------------- environment names

    @Test
    void environmentVariableNames() {
        assertEquals("SEXTANT_SYNC_INTERVAL_MS", SextantConfigLoader.environmentVariable("sync.interval.ms"));
        assertEquals("SEXTANT_SOURCE_BOOTSTRAP_SERVERS",
                SextantConfigLoader.environmentVariable("source.bootstrap.servers"));
        assertEquals("SEXTANT_REPLICATION_POLICY_INTERNAL_TOPIC_SEPARATOR_ENABLED",
                SextantConfigLoader.environmentVariable("replication.policy.internal.topic.separator.enabled"));
        assertEquals("SEXTANT_A_B_C", SextantConfigLoader.environmentVariable("a.b-c"));
    }

    @Test
    void everyDefinedKeyRoundTripsThroughItsEnvironmentVariable() {
        for (String key : SextantConfig.definedKeys()) {
            assertEquals(Optional.of(key),
                    SextantConfigLoader.keyForEnvironmentVariable(SextantConfigLoader.environmentVariable(key)), key);
        }
    }

    @Test
    void prefixedEnvironmentVariablesMapToLowerCaseDottedKeys() {
        assertEquals(Optional.of("source.bootstrap.servers"),
                SextantConfigLoader.keyForEnvironmentVariable("SEXTANT_SOURCE_BOOTSTRAP_SERVERS"));
        assertEquals(Optional.of("source.sasl.jaas.config"),
                SextantConfigLoader.keyForEnvironmentVariable("SEXTANT_SOURCE_SASL_JAAS_CONFIG"));
        assertEquals(Optional.of("destination.security.protocol"),
                SextantConfigLoader.keyForEnvironmentVariable("SEXTANT_DESTINATION_SECURITY_PROTOCOL"));
        assertEquals(Optional.of("streams.num.standby.replicas"),
                SextantConfigLoader.keyForEnvironmentVariable("SEXTANT_STREAMS_NUM_STANDBY_REPLICAS"));
        assertEquals(Optional.of("source.alias"),
                SextantConfigLoader.keyForEnvironmentVariable("SEXTANT_SOURCE_ALIAS"));
        assertEquals(Optional.empty(), SextantConfigLoader.keyForEnvironmentVariable("SEXTANT_SOURCE_"));
        assertEquals(Optional.empty(), SextantConfigLoader.keyForEnvironmentVariable("SEXTANT_HEAP_OPTS"));
        assertEquals(Optional.empty(), SextantConfigLoader.keyForEnvironmentVariable("PATH"));
    }

    @Test
    void fromEnvironmentIgnoresUnrelatedVariables() {
        Map<String, String> env = Map.of(
                "PATH", "/usr/bin", "HOME", "/root", "SEXTANT_OPTS", "-Xmx1g", "SEXTANT_SYNC_INTERVALMS", "5",
                "SEXTANT_SYNC_INTERVAL_MS", "500", "SEXTANT_STREAMS_NUM_STREAM_THREADS", "2");
        assertEquals(Map.of("sync.interval.ms", "500", "streams.num.stream.threads", "2"),
                SextantConfigLoader.fromEnvironment(env));
    }

    // ---------------------------------------------------------------- precedence

    @Test
    void environmentWinsOverTheFile() throws IOException {
        Path file = write("source.bootstrap.servers=file:9092", "destination.bootstrap.servers=file:9093",
                "sync.interval.ms=1000", "groups.include=orders-.*", "streams.num.stream.threads=2");
        SextantConfig c = SextantConfigLoader.load(file, Map.of(
                "SEXTANT_SYNC_INTERVAL_MS", "500",
                "SEXTANT_SOURCE_BOOTSTRAP_SERVERS", "env:9092",
                "SEXTANT_STREAMS_NUM_STREAM_THREADS", "4",
                "SEXTANT_SOURCE_SECURITY_PROTOCOL", "SSL",
                "SEXTANT_SYNC_REWIND", "never"));
        assertEquals(500L, c.syncIntervalMs());
        assertEquals("env:9092", c.sourceClientConfig().get("bootstrap.servers"));
        assertEquals("SSL", c.sourceClientConfig().get("security.protocol"));
        assertEquals("file:9093", c.destinationClientConfig().get("bootstrap.servers"));
        assertEquals("4", c.streamsOverrides().get("num.stream.threads"));
        assertEquals("orders-.*", c.groupsInclude().pattern());
        assertEquals(RewindPolicy.NEVER, c.rewindPolicy());
    }

    @Test
    void mapOverridesTheFileAndEnvironmentOverridesTheMap() throws IOException {
        Path file = write("source.bootstrap.servers=file:9092", "destination.bootstrap.servers=file:9093",
                "sync.interval.ms=1000", "dlq.topic=from-file");
        SextantConfig c = SextantConfigLoader.load(file,
                Map.of("sync.interval.ms", "2000", "dlq.topic", "from-map"),
                Map.of("SEXTANT_SYNC_INTERVAL_MS", "3000"));
        assertEquals(3000L, c.syncIntervalMs());
        assertEquals("from-map", c.dlqTopic());
    }

    @Test
    void environmentAloneIsEnough() {
        SextantConfig c = SextantConfigLoader.load(Map.of(), Map.of(
                "SEXTANT_SOURCE_BOOTSTRAP_SERVERS", "127.0.0.1:9092",
                "SEXTANT_DESTINATION_BOOTSTRAP_SERVERS", "127.0.0.1:9093",
                "SEXTANT_DESTINATION_ALIAS", "backup"));
        assertEquals("mm2-offset-syncs.backup.internal", c.offsetSyncsTopic());
    }

    // ---------------------------------------------------------------- errors name their origin

    @Test
    void errorsNameTheFile() throws IOException {
        Path file = write("source.bootstrap.servers=127.0.0.1:9092", "destination.bootstrap.servers=127.0.0.1:9093",
                "sync.interval.ms=fast");
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> SextantConfigLoader.load(file, Map.of()));
        assertNamesKey(e, "sync.interval.ms");
        assertContains(e.getMessage(), "from file " + file);
    }

    @Test
    void errorsNameTheEnvironmentVariable() throws IOException {
        Path file = write("source.bootstrap.servers=127.0.0.1:9092", "destination.bootstrap.servers=127.0.0.1:9093");
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> SextantConfigLoader.load(file, Map.of("SEXTANT_SYNC_INTERVAL_MS", "1")));
        assertNamesKey(e, "sync.interval.ms");
        assertContains(e.getMessage(), "from environment variable SEXTANT_SYNC_INTERVAL_MS");

        e = assertThrows(InvalidConfigurationException.class,
                () -> SextantConfigLoader.load(file, Map.of("SEXTANT_STREAMS_STATE_DIR", "/x")));
        assertNamesKey(e, "streams.state.dir");
        assertContains(e.getMessage(), "SEXTANT_STREAMS_STATE_DIR");
        assertContains(e.getMessage(), "SEXTANT_STATE_DIR");
    }

    /** A misspelt client key in a variable was passed to the clients, which ignored it: it is refused now. */
    @Test
    void aMisspeltClientKeyInAVariableIsRefusedWithTheFilesProblems() throws IOException {
        Path file = write("source.bootstrap.servers=127.0.0.1:9092", "destination.bootstrap.servers=127.0.0.1:9093",
                "groups=orders.*, payments");
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> SextantConfigLoader.load(file, Map.of("SEXTANT_SOURCE_SASL_MECHANIZM", "PLAIN")));
        assertEquals(List.of("groups", "source.sasl.mechanizm"),
                e.problems().stream().map(InvalidConfigurationException::key).toList());
        assertContains(e.getMessage(), "'groups' (from file " + file + ") is MirrorMaker 2's key");
        assertContains(e.getMessage(), "Unknown configuration key 'source.sasl.mechanizm' (from environment variable "
                + "SEXTANT_SOURCE_SASL_MECHANIZM). Kafka defines no such config for the source's clients or Kafka "
                + "Streams. Did you mean 'source.sasl.mechanism'?");
    }

    @Test
    void unknownKeyInTheFile() throws IOException {
        Path file = write("source.bootstrap.servers=127.0.0.1:9092", "destination.bootstrap.servers=127.0.0.1:9093",
                "dlq.topik=x");
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> SextantConfigLoader.load(file, Map.of()));
        assertNamesKey(e, "dlq.topik");
        assertContains(e.getMessage(), "Did you mean 'dlq.topic'?");
    }

    @Test
    void missingRequiredKeyInTheFile() throws IOException {
        Path file = write("source.bootstrap.servers=127.0.0.1:9092");
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> SextantConfigLoader.load(file, Map.of()));
        assertNamesKey(e, "destination.bootstrap.servers");
    }

    // ---------------------------------------------------------------- unreadable files

    @Test
    void missingFile() {
        Path file = dir.resolve("nope.properties");
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> SextantConfigLoader.load(file, Map.of()));
        assertNull(e.key());
        assertContains(e.getMessage(), "'" + file + "'");
        assertContains(e.getMessage(), "does not exist");
        assertContains(e.getMessage(), "Fix: ");
    }

    @Test
    void directoryInsteadOfFile() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> SextantConfigLoader.load(dir, Map.of()));
        assertContains(e.getMessage(), "'" + dir + "'");
        assertContains(e.getMessage(), "is a directory");
    }

    @Test
    void malformedPropertiesFile() throws IOException {
        Path file = write("source.bootstrap.servers=\\u12zz");
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> SextantConfigLoader.readFile(file));
        assertContains(e.getMessage(), "'" + file + "'");
        assertContains(e.getMessage(), "not a valid properties file");
    }

    @Test
    void unreadableFile() throws IOException {
        Path file = write("source.bootstrap.servers=127.0.0.1:9092");
        boolean changed = file.toFile().setReadable(false, false);
        try {
            if (changed && !Files.isReadable(file)) {
                InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                        () -> SextantConfigLoader.readFile(file));
                assertContains(e.getMessage(), "'" + file + "'");
                assertContains(e.getMessage(), "permission denied");
            } // as root every file stays readable: the missing-file and directory cases cover the path
        } finally {
            file.toFile().setReadable(true, false);
        }
    }

    @Test
    void fileInLatin1IsRead() throws IOException {
        Path file = dir.resolve("latin1.properties");
        Files.write(file, List.of("source.bootstrap.servers=127.0.0.1:9092",
                "destination.bootstrap.servers=127.0.0.1:9093", "dlq.topic=caf\u00e9"), StandardCharsets.ISO_8859_1);
        assertEquals("caf\u00e9", SextantConfigLoader.readFile(file).get("dlq.topic"));
    }

    // ---------------------------------------------------------------- the shipped example

    @Test
    void exampleConfigurationLoads() {
        SextantConfig c = SextantConfigLoader.load(EXAMPLE, Map.of());
        assertEquals("127.0.0.1:9092", c.sourceClientConfig().get("bootstrap.servers"));
        assertEquals("127.0.0.1:9093", c.destinationClientConfig().get("bootstrap.servers"));
        assertEquals("mm2-offset-syncs.destination.internal", c.offsetSyncsTopic());
    }

    @Test
    void exampleConfigurationListsEveryKeyWithAValidValue() throws IOException {
        String text = Files.readString(EXAMPLE, StandardCharsets.UTF_8);
        Map<String, String> uncommented = new HashMap<>();
        Matcher m = Pattern.compile("(?m)^#?([a-z][a-z.\\-]*)=(.*)$").matcher(text);
        while (m.find()) {
            uncommented.put(m.group(1), m.group(2));
        }
        for (String key : SextantConfig.definedKeys()) {
            assertTrue(uncommented.containsKey(key), "config/sextant.properties does not list " + key);
            assertTrue(text.contains("Default: ") && text.contains("Accepted: "));
        }
        // Uncommenting every line must still load: the values shown are accepted (and the defaults).
        Path all = dir.resolve("all.properties");
        Files.writeString(all, text.replaceAll("(?m)^#([a-z][a-z.\\-]*=)", "$1"), StandardCharsets.UTF_8);
        SextantConfig c = SextantConfigLoader.load(all, Map.of());
        SextantConfig defaults = SextantConfigLoader.load(EXAMPLE, Map.of());
        assertEquals(defaults.topicsExclude().pattern(), c.topicsExclude().pattern());
        assertEquals(defaults.groupsExclude().pattern(), c.groupsExclude().pattern());
        assertEquals(defaults.syncIntervalMs(), c.syncIntervalMs());
        assertEquals(defaults.offsetSyncsTopic(), c.offsetSyncsTopic());
        assertEquals("SASL_SSL", c.sourceClientConfig().get("security.protocol"));
        assertFalse(c.streamsOverrides().isEmpty());
    }
}
