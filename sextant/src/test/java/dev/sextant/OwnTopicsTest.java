package dev.sextant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.config.SextantConfig;
import dev.sextant.source.SourceTopicCreator.Existing;
import dev.sextant.sync.SyncSettings;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

class OwnTopicsTest {

    private final SextantConfig config = new SextantConfig(Map.of("source.bootstrap.servers", "127.0.0.1:9092",
            "destination.bootstrap.servers", "127.0.0.1:9093", "application.id", "dr"));
    private final SyncSettings settings = SyncSettings.of(config, Clock.systemUTC(), "host:8080", 1_000);
    private final List<NewTopic> wanted = OwnTopics.wanted(config, settings, 50);

    @Test
    void topicsAsSextantCreatesThemPass() {
        assertEquals(Optional.empty(), OwnTopics.check(settings, wanted, Map.of(
                settings.sharePositionsTopic(), new Existing(50, "delete"),
                settings.historyTopic(), new Existing(1, "compact"),
                config.dlqTopic(), new Existing(3, "delete"))));
    }

    @Test
    void sharePositionsPartitionedUnlikeConsumerOffsetsAndAHistoryNotCompactedAreNamedWithTheFix() {
        String problem = OwnTopics.check(settings, wanted, Map.of(
                settings.sharePositionsTopic(), new Existing(3, "delete"),
                settings.historyTopic(), new Existing(1, "delete"))).orElseThrow();
        assertTrue(problem.contains("dr-share-positions has 3 partitions where Sextant needs 50"), problem);
        assertTrue(problem.contains("kafka-topics.sh --delete --topic dr-share-positions"), problem);
        assertTrue(problem.contains("cleanup.policy=delete where Sextant needs compact"), problem);
        assertTrue(problem.contains("--add-config cleanup.policy=compact"), problem);
    }

    @Test
    void aPolicyTheBrokerDidNotLetSextantReadIsNotJudged() {
        assertEquals(Optional.empty(), OwnTopics.check(settings, wanted, Map.of(
                settings.historyTopic(), new Existing(1, null))));
    }

    @Test
    void theCutoversTopicIsCreatedKeepingTombstonesAndOneThatRemovesThemIsNamedWithTheFix() {
        NewTopic cutovers = wanted.stream().filter(t -> t.name().equals(settings.cutoversTopic())).findFirst()
                .orElseThrow();
        assertEquals(String.valueOf(Long.MAX_VALUE), cutovers.configs().get("delete.retention.ms"));
        assertEquals(Optional.empty(), OwnTopics.tombstonesExpire(settings, Map.of(
                settings.cutoversTopic(), new Existing(1, "compact", Long.MAX_VALUE))));
        assertEquals(Optional.empty(), OwnTopics.tombstonesExpire(settings, Map.of(
                settings.cutoversTopic(), new Existing(1, "compact", null))), "not readable: not judged");
        String warning = OwnTopics.tombstonesExpire(settings, Map.of(
                settings.cutoversTopic(), new Existing(1, "compact", 86_400_000L))).orElseThrow();
        assertTrue(warning.contains("delete.retention.ms=86400000"), warning);
        assertTrue(warning.contains("--entity-name dr-cutovers --add-config delete.retention.ms="
                + Long.MAX_VALUE), warning);
    }
}
