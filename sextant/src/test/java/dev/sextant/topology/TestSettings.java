package dev.sextant.topology;

import dev.sextant.sync.SyncSettings;
import java.time.Clock;
import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;

/** The topology's settings for unit tests of single processors and handlers (application id "app"). */
final class TestSettings {

    private TestSettings() {
    }

    static SyncSettings settings() {
        return new SyncSettings("app", "source", new DefaultReplicationPolicy(), false,
                "mm2-offset-syncs.destination.internal", g -> true, t -> true, true, true, 250, 60_000, 300_000, 30_000, true,
                "sextant.conflicts", "test:8080", Clock.systemUTC());
    }
}
