package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.config.SextantConfig;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The settings a configuration gives the sync, group by group. */
class SyncSettingsTest {

    private static SextantConfig config(String... extra) {
        Map<String, Object> props = new HashMap<>();
        props.put("source.bootstrap.servers", "127.0.0.1:9092");
        props.put("destination.bootstrap.servers", "127.0.0.1:9093");
        for (int i = 0; i < extra.length; i += 2) {
            props.put(extra[i], extra[i + 1]);
        }
        return new SextantConfig(props);
    }

    @Test
    void takesEveryGroupFromTheConfiguration() {
        Clock clock = Clock.systemUTC();
        SyncSettings settings = SyncSettings.of(config("application.id", "dr", "source.alias", "east",
                "offset.syncs.topic", "syncs", "dlq.topic", "dr.conflicts", "topics.exclude", "secret.*",
                "sync.share.groups", "false", "sync.interval.ms", "750", "sync.pending.timeout.ms", "9000",
                "offset.syncs.prune.interval.ms", "120000", "translation", "identity", "sync.rewind", "never"),
                clock, "host:8080", 12_345);

        assertEquals("dr", settings.applicationId());
        assertEquals("dr-offset-sync-history", settings.historyTopic());
        assertEquals("dr-share-positions", settings.sharePositionsTopic());
        assertEquals("east.orders", settings.destinationTopic("orders"));
        assertEquals("syncs", settings.offsetSyncsTopic());
        assertEquals("dr.conflicts", settings.dlqTopic());

        assertTrue(settings.includeGroup().test("billing"));
        assertFalse(settings.includeGroup().test("dr"), "the application's own group");
        assertFalse(settings.includeTopic().test("secret.keys"));
        assertTrue(settings.syncConsumerGroups());
        assertFalse(settings.syncShareGroups());

        assertEquals(new SyncSettings.Timing(750, 9_000, 120_000, 12_345), settings.timing());
        assertEquals(new SyncSettings.OffsetRules(true, false), settings.offsets());
        assertEquals("host:8080", settings.instance());
        assertSame(clock, settings.clock());
    }

    @Test
    void byDefaultTranslatesThroughOffsetSyncsAndFollowsRewinds() {
        SyncSettings settings = SyncSettings.of(config(), Clock.systemUTC(), "host:8080", 1_000);

        assertFalse(settings.identityTranslation());
        assertTrue(settings.followRewinds());
        assertEquals("source.orders", settings.destinationTopic("orders"));
    }
}
