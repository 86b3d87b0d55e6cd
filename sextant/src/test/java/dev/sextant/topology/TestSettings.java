package dev.sextant.topology;

import dev.sextant.sync.SyncSettings;
import dev.sextant.sync.SyncSettings.OffsetRules;
import dev.sextant.sync.SyncSettings.Scope;
import dev.sextant.sync.SyncSettings.Timing;
import dev.sextant.sync.SyncSettings.Topics;
import java.time.Clock;
import java.util.regex.Pattern;
import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;

/**
 * The topology's settings for unit tests: of single processors and handlers (application id "app"), and of the whole
 * group sync ({@link GroupSyncFixture}).
 */
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

    /**
     * The group sync's settings in {@link GroupSyncFixture}: application {@code app}, MirrorMaker 2's offset syncs read
     * from {@code offsetSyncs}; left out as by default: internal, Connect, console-consumer and Sextant's own groups,
     * internal and replica topics.
     */
    static SyncSettings groupSync(String app, String offsetSyncs, Timing timing, OffsetRules rules, Clock clock) {
        return groupSync(app, offsetSyncs, timing, rules, clock, null);
    }

    /** As above, with the destination's alias ({@code null}: not told apart). */
    static SyncSettings groupSync(String app, String offsetSyncs, Timing timing, OffsetRules rules, Clock clock,
                                  String destinationAlias) {
        return new SyncSettings(
                new Topics(app, "source", new DefaultReplicationPolicy(), offsetSyncs, "sextant.conflicts",
                        destinationAlias, false),
                new Scope(g -> !Pattern.matches("__.*|connect-.*|console-consumer-.*|" + app, g),
                        t -> !Pattern.matches(".*[-.]internal|.*\\.replica|__.*", t), true, true),
                timing,
                rules,
                "test:8080",
                clock);
    }

    /** {@code settings} with {@code source.offsets.read=admin}: the commits read from Sextant's own topic. */
    static SyncSettings withAdminCommits(SyncSettings settings) {
        Topics t = settings.topics();
        return new SyncSettings(new Topics(t.applicationId(), t.sourceAlias(), t.replicationPolicy(),
                t.offsetSyncsTopic(), t.dlqTopic(), t.destinationAlias(), t.translateHome(), true), settings.scope(),
                settings.timing(), settings.offsets(), settings.instance(), settings.clock());
    }
}
