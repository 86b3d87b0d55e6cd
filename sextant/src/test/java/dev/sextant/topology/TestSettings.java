package dev.sextant.topology;

import dev.sextant.sync.SyncSettings;
import dev.sextant.sync.SyncSettings.OffsetRules;
import dev.sextant.sync.SyncSettings.Scope;
import dev.sextant.sync.SyncSettings.Timing;
import dev.sextant.sync.SyncSettings.Topics;
import java.time.Clock;
import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;

/** The topology's settings for unit tests of single processors and handlers (application id "app"). */
final class TestSettings {

    private TestSettings() {
    }

    static SyncSettings settings() {
        return new SyncSettings(
                new Topics("app", "source", new DefaultReplicationPolicy(), "mm2-offset-syncs.destination.internal",
                        "sextant.conflicts"),
                new Scope(g -> true, t -> true, true, true),
                new Timing(250, 60_000, 300_000, 30_000),
                new OffsetRules(false, true),
                "test:8080",
                Clock.systemUTC());
    }
}
