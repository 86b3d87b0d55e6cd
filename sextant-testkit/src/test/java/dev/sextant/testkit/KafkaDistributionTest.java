package dev.sextant.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class KafkaDistributionTest {

    @Test
    void brokerAndMirrorMakerBringAnSlf4jBinding() {
        assertEquals(List.of("org.apache.kafka:kafka_2.13:4.4.0",
                        "org.apache.logging.log4j:log4j-slf4j-impl:" + KafkaDistribution.LOG4J_VERSION),
                KafkaDistribution.broker("4.4.0").coordinates());
        assertEquals(List.of("org.apache.kafka:connect-mirror:4.3.1",
                        "org.apache.logging.log4j:log4j-slf4j-impl:" + KafkaDistribution.LOG4J_VERSION),
                KafkaDistribution.mirrorMaker("4.3.1").coordinates());
    }

    @Test
    void versionsComeFromSystemPropertiesWithDefaults() {
        withProperty(KafkaDistribution.BROKER_VERSION_PROPERTY, null,
                () -> assertEquals("4.4.0", KafkaDistribution.broker().version()));
        withProperty(KafkaDistribution.BROKER_VERSION_PROPERTY, "4.3.1",
                () -> assertEquals("4.3.1", KafkaDistribution.broker().version()));
        withProperty(KafkaDistribution.MIRROR_VERSION_PROPERTY, null,
                () -> assertEquals("4.3.1", KafkaDistribution.mirrorMaker().version()));
    }

    @Test
    void localRepositoryIsMavensUnlessOverridden() {
        withProperty("maven.repo.local", null, () -> assertEquals(
                Path.of(System.getProperty("user.home"), ".m2", "repository"), KafkaDistribution.localRepository()));
        withProperty("maven.repo.local", "/tmp/some-repo",
                () -> assertEquals(Path.of("/tmp/some-repo"), KafkaDistribution.localRepository()));
    }

    @Test
    void aDistributionNeedsCoordinates() {
        assertThrows(IllegalArgumentException.class, () -> KafkaDistribution.of("x", "1", List.of()));
    }

    private static void withProperty(String key, String value, Runnable check) {
        String old = System.getProperty(key);
        try {
            if (value == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, value);
            }
            check.run();
        } finally {
            if (old == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, old);
            }
        }
    }
}
