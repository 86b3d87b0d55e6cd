package dev.sextant.config;

import static dev.sextant.config.TestConfigs.assertContains;
import static dev.sextant.config.TestConfigs.config;
import static dev.sextant.config.TestConfigs.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@code source.offsets.read} and {@code source.offsets.poll.interval.ms}: the log by default; the Admin API on
 * request, without share groups (asked for explicitly, refused with the key and the fix named).
 */
class SourceOffsetsReadTest {

    @Test
    void theLogByDefaultWithShareGroups() {
        SextantConfig c = config();
        SourceOffsetsReading reading = SourceOffsetsReading.of(c);
        assertTrue(reading.fromLog());
        assertEquals(ConfigKeys.SOURCE_OFFSETS_POLL_INTERVAL_MS_DEFAULT, reading.pollIntervalMs());
        assertTrue(c.syncShareGroups());
    }

    @Test
    void theAdminApiOnRequestWithoutShareGroups() {
        SextantConfig c = config("source.offsets.read", "ADMIN", "source.offsets.poll.interval.ms", "1000");
        SourceOffsetsReading reading = SourceOffsetsReading.of(c);
        assertEquals(SourceOffsetsRead.ADMIN, reading.read());
        assertEquals(1000, reading.pollIntervalMs());
        assertFalse(c.syncShareGroups(), "share-group state is not read through the Admin API");
        assertTrue(c.syncConsumerGroups());
        assertFalse(c.sourceClientConfig().containsKey("offsets.read"), "Sextant's key, not a client's");
    }

    @Test
    void shareGroupsAskedForWithTheAdminApiAreRefusedWithTheFix() {
        InvalidConfigurationException e = refused(ConfigKeys.SYNC_SHARE_GROUPS_CONFIG,
                "source.offsets.read", "admin", "sync.share.groups", "true");
        assertContains(e.getMessage(), "'source.offsets.read=admin'");
        assertContains(e.getMessage(), "Fix: remove 'sync.share.groups'");
        assertFalse(config("source.offsets.read", "admin", "sync.share.groups", "false").syncShareGroups());
    }

    @Test
    void anUnknownWayOrATooShortIntervalIsRefused() {
        refused(ConfigKeys.SOURCE_OFFSETS_READ_CONFIG, "source.offsets.read", "consumer-offsets");
        refused(ConfigKeys.SOURCE_OFFSETS_POLL_INTERVAL_MS_CONFIG, "source.offsets.poll.interval.ms", "10");
    }
}
