package dev.sextant.sync;

import dev.sextant.acl.AccessDenials;
import dev.sextant.apply.CheckpointEmitter;
import dev.sextant.apply.ConsumerGroupApplier;
import dev.sextant.apply.DestinationView;
import dev.sextant.apply.OffsetOwnership;
import dev.sextant.apply.OverwritePolicy;
import dev.sextant.apply.ShareGroupApplier;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.SourceTopicNames;
import dev.sextant.sync.SyncSettings.OffsetRules;
import dev.sextant.sync.SyncSettings.Scope;
import dev.sextant.sync.SyncSettings.Timing;
import dev.sextant.sync.SyncSettings.Topics;
import dev.sextant.testing.InMemoryDestination;
import dev.sextant.testing.QuietSourceOffsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;

/**
 * The settings and the instance-wide collaborators of {@link InMemoryTask}: a source that is never asked for offsets,
 * topic names and checkpoints recorded by hand, appliers over the in-memory destination.
 */
final class TaskFakes {

    static final String APP = "app";
    static final long PENDING_TIMEOUT_MS = 60_000;

    private TaskFakes() {
    }

    /** Consumer and share groups synced, every group and topic included; source topics mirror to source.*. */
    static SyncSettings settings(Clock clock) {
        return new SyncSettings(
                new Topics(APP, "source", new DefaultReplicationPolicy(), "mm2-offset-syncs.destination.internal",
                        "sextant.conflicts"),
                new Scope(g -> true, t -> true, true, true),
                new Timing(250, PENDING_TIMEOUT_MS, 300_000, 30_000),
                new OffsetRules(false, true),
                "test:8080",
                clock);
    }

    /** The planner's runtime: appliers over {@code destination}, source topic names from {@code topicIds}. */
    static SyncRuntime runtime(DestinationView view, InMemoryDestination destination, Map<Uuid, String> topicIds,
                               SextantMetrics metrics) {
        return new SyncRuntime(view, new ConsumerGroupApplier(destination, new OffsetOwnership(APP),
                OverwritePolicy.DEFAULTS, new AccessDenials(Clock.systemUTC())),
                new ShareGroupApplier(destination), new QuietSourceOffsets(), new KnownTopicNames(topicIds), metrics);
    }

    /** Checkpoints emitted, as {@code group destination-partition upstream->downstream}, into {@code into}. */
    static CheckpointEmitter recording(List<String> into) {
        return new CheckpointEmitter() {
            @Override
            public void applied(String group, TopicPartition destination, long upstreamOffset,
                                long downstreamOffset) {
                into.add(group + " " + destination + " " + upstreamOffset + "->" + downstreamOffset);
            }

            @Override
            public void close() {
            }
        };
    }

    private record KnownTopicNames(Map<Uuid, String> ids) implements SourceTopicNames {

        @Override
        public Optional<String> name(Uuid topicId) {
            return Optional.ofNullable(ids.get(topicId));
        }

        @Override
        public void close() {
        }
    }
}
