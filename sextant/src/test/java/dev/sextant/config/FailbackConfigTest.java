package dev.sextant.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FailbackConfigTest {

    @Test
    void theReverseConfigurationSwapsTheClustersAndNamesTheForwardHistory() {
        Map<String, String> forward = Map.of(
                "source.bootstrap.servers", "a:9092",
                "source.sasl.jaas.config", "${file:/etc/sextant/a.properties:jaas}",
                "destination.bootstrap.servers", "b:9092",
                "destination.security.protocol", "SSL",
                "application.id", "sextant-eu",
                "groups.include", "billing-.*",
                "topics.include", "orders.*",
                "offset.syncs.topic", "mm2-offset-syncs.b.internal",
                "state.dir", "/var/lib/sextant");
        FailbackConfig.Derived derived = FailbackConfig.derive(forward, "a", "b", "sextant-eu");
        Map<String, String> reverse = derived.reverse();
        assertEquals("b:9092", reverse.get("source.bootstrap.servers"));
        assertEquals("SSL", reverse.get("source.security.protocol"));
        assertEquals("a:9092", reverse.get("destination.bootstrap.servers"));
        assertEquals("${file:/etc/sextant/a.properties:jaas}", reverse.get("destination.sasl.jaas.config"),
                "secrets are copied as written, never resolved");
        assertEquals("b", reverse.get("source.alias"));
        assertEquals("a", reverse.get("destination.alias"));
        assertEquals("sextant-eu-failback", reverse.get("application.id"));
        assertEquals("sextant-eu-offset-sync-history", reverse.get("failback.history.topic"));
        assertEquals("adopt-forward", reverse.get("sync.foreign.offsets"));
        assertEquals("billing-.*", reverse.get("groups.include"));
        assertEquals("/var/lib/sextant-failback", reverse.get("state.dir"));
        assertFalse(reverse.containsKey("topics.include"), "it named the forward source's topics");
        assertFalse(reverse.containsKey("offset.syncs.topic"), "it follows from the swapped aliases");
        List<String> notes = derived.notes();
        assertTrue(notes.stream().anyMatch(n -> n.startsWith("topics.include=orders.* is left out")), notes.toString());
        assertTrue(notes.stream().anyMatch(n -> n.startsWith("offset.syncs.topic=")), notes.toString());
    }

    /** A Kafka Streams setting under source. is valid there only: it stays with the application. */
    @Test
    void aStreamsSettingUnderSourceStaysUnderSource() {
        Map<String, String> reverse = FailbackConfig.derive(Map.of("source.bootstrap.servers", "a:9092",
                "destination.bootstrap.servers", "b:9092", "source.num.stream.threads", "2",
                "source.main.consumer.max.poll.records", "100", "source.max.poll.records", "50"), "source",
                "destination", "sextant").reverse();
        assertEquals("2", reverse.get("source.num.stream.threads"));
        assertEquals("100", reverse.get("source.main.consumer.max.poll.records"));
        assertEquals("50", reverse.get("destination.max.poll.records"), "a client setting of the forward source");
        assertEquals(2, SextantConfigLoader.load(reverse, Map.of()).sourceClientConfig().entrySet().stream()
                .filter(e -> e.getKey().equals("num.stream.threads") || e.getKey().startsWith("main.consumer."))
                .count());
    }

    @Test
    void theDerivedConfigurationLoads() {
        Map<String, String> reverse = FailbackConfig.derive(Map.of("source.bootstrap.servers", "a:9092",
                "destination.bootstrap.servers", "b:9092"), "source", "destination", "sextant").reverse();
        SextantConfig loaded = SextantConfigLoader.load(reverse, Map.of());
        assertEquals("destination", loaded.sourceAlias());
        assertEquals("source", loaded.destinationAlias());
        assertEquals("sextant-offset-sync-history", loaded.failbackHistoryTopic().orElseThrow());
        assertEquals("mm2-offset-syncs.source.internal", loaded.offsetSyncsTopic(),
                "the reverse flow's offset syncs, on this source");
    }
}
