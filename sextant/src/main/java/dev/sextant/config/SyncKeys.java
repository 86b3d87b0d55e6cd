package dev.sextant.config;

import static dev.sextant.config.ConfigKeys.DLQ_TOPIC_CONFIG;
import static dev.sextant.config.ConfigKeys.DLQ_TOPIC_DEFAULT;
import static dev.sextant.config.ConfigKeys.DLQ_TOPIC_PARTITIONS_CONFIG;
import static dev.sextant.config.ConfigKeys.DLQ_TOPIC_REPLICATION_FACTOR_CONFIG;
import static dev.sextant.config.ConfigKeys.EMIT_CHECKPOINTS_ENABLED_CONFIG;
import static dev.sextant.config.ConfigKeys.OFFSET_SYNCS_PRUNE_INTERVAL_MS_CONFIG;
import static dev.sextant.config.ConfigKeys.OFFSET_SYNCS_PRUNE_INTERVAL_MS_DEFAULT;
import static dev.sextant.config.ConfigKeys.SOURCE_OFFSETS_POLL_INTERVAL_MS_CONFIG;
import static dev.sextant.config.ConfigKeys.SOURCE_OFFSETS_POLL_INTERVAL_MS_DEFAULT;
import static dev.sextant.config.ConfigKeys.SOURCE_OFFSETS_READ_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_CONSUMER_GROUPS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_FOREIGN_OFFSETS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_INTERVAL_MS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_INTERVAL_MS_DEFAULT;
import static dev.sextant.config.ConfigKeys.SYNC_OFFSETS_REFRESH_MS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_PENDING_TIMEOUT_MS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_PENDING_TIMEOUT_MS_DEFAULT;
import static dev.sextant.config.ConfigKeys.SYNC_REWIND_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_SHARE_GROUPS_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_STREAMS_DESTINATION_KAFKA_VERSION_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_UNTRANSLATABLE_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_WRITE_PARALLELISM_CONFIG;
import static dev.sextant.config.ConfigKeys.SYNC_WRITE_PARALLELISM_DEFAULT;
import static dev.sextant.config.KeyDefiner.define;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * The keys of the sync (what is synced, how often, what is refused) and of the dead-letter topic where refusals are
 * recorded: the groups Sync and Dead-letter topic of {@link ConfigDefinitions}, in that order.
 */
final class SyncKeys {

    private static final String GROUP_SYNC = "Sync";
    private static final String GROUP_DLQ = "Dead-letter topic";

    private SyncKeys() {
    }

    /** Adds the sync's and the dead-letter topic's keys, in documentation order. */
    static void addTo(ConfigDef def) {
        defineSync(def);
        defineDeadLetterTopic(def);
    }

    /** What is synced, how often, and what is refused. */
    private static void defineSync(ConfigDef def) {
        define(def, SYNC_CONSUMER_GROUPS_CONFIG, Type.BOOLEAN, true, null, Importance.MEDIUM, GROUP_SYNC,
                "Whether to sync consumer groups (classic and consumer protocol), and the committed offsets of "
                        + "Kafka Streams groups (streams protocol, KIP-1071).");
        define(def, SYNC_SHARE_GROUPS_CONFIG, Type.BOOLEAN, true, null, Importance.MEDIUM, GROUP_SYNC,
                "Whether to sync share groups (their share-partition start offsets).");
        define(def, SOURCE_OFFSETS_READ_CONFIG, Type.STRING, SourceOffsetsRead.LOG.configValue(),
                ConfigValidators.oneOf(SourceOffsetsRead.configValues()), Importance.MEDIUM, GROUP_SYNC,
                "Where Sextant finds the source's committed offsets. 'log' (the default) reads every commit from "
                        + "__consumer_offsets as the group coordinator writes it: a commit reaches the destination "
                        + "within about sync.interval.ms. 'admin' is for a source that lets no client read "
                        + "__consumer_offsets (managed services, docs/compatibility.md): every "
                        + "source.offsets.poll.interval.ms Sextant lists the groups and reads their committed offsets "
                        + "through the Admin API (ListGroups and OffsetFetch, as MirrorMaker 2's checkpoint connector "
                        + "does), and hands each change to the same sync as a commit read from the log. A commit then "
                        + "reaches the destination within about the poll interval plus sync.interval.ms; commits made "
                        + "between two polls are seen as the last of them, and the commit time Sextant records is when "
                        + "the poll saw it. Share groups are not synced in this mode (their state is in "
                        + "__share_group_state), and the source needs Describe on the groups instead of Read on "
                        + "__consumer_offsets.");
        define(def, SOURCE_OFFSETS_POLL_INTERVAL_MS_CONFIG, Type.LONG, SOURCE_OFFSETS_POLL_INTERVAL_MS_DEFAULT,
                ConfigValidators.atLeast(100), Importance.LOW, GROUP_SYNC,
                "With source.offsets.read=admin, how often, in milliseconds, the source's groups and their committed "
                        + "offsets are read through the Admin API: one ListGroups and one OffsetFetch per group "
                        + "coordinator each time. Ignored with source.offsets.read=log.");
        define(def, SYNC_STREAMS_DESTINATION_KAFKA_VERSION_CONFIG, Type.STRING, "",
                ConfigValidators.kafkaVersionOrEmpty(), Importance.LOW, GROUP_SYNC,
                "The destination brokers' Kafka version, needed only when they run 4.2 and a source group is a Kafka "
                        + "Streams group (streams protocol). Sextant writes such a group's offsets as an admin "
                        + "commit, which the application's first streams heartbeat on the destination converts to a "
                        + "streams group; Kafka 4.2.0 loses the converted group's offsets (KAFKA-20254, fixed in "
                        + "4.2.1), and a broker's protocol cannot tell 4.2.0 from 4.2.1. Empty (the default): streams "
                        + "groups are written on destinations of 4.3 or later, and refused (DESTINATION_UNSUPPORTED) "
                        + "on 4.2; set it to the version the brokers run, e.g. 4.2.1, to write them on 4.2.1 or "
                        + "later.");
        define(def, SYNC_INTERVAL_MS_CONFIG, Type.LONG, SYNC_INTERVAL_MS_DEFAULT, ConfigValidators.atLeast(10),
                Importance.MEDIUM, GROUP_SYNC,
                "How often, in milliseconds, the positions gathered per group are written to the destination: one "
                        + "Admin write per group per interval, however many commits arrived.");
        define(def, SYNC_REWIND_CONFIG, Type.STRING, RewindPolicy.FOLLOW_SOURCE.configValue(),
                ConfigValidators.oneOf(RewindPolicy.configValues()), Importance.MEDIUM, GROUP_SYNC,
                "What to do when a source group moves backwards (an offset reset). 'follow-source' moves the "
                        + "destination back too, as long as the destination offset is still the one Sextant wrote; "
                        + "'never' never moves a destination offset backwards.");
        define(def, SYNC_UNTRANSLATABLE_CONFIG, Type.STRING, UntranslatablePolicy.REFUSE.configValue(),
                ConfigValidators.oneOf(UntranslatablePolicy.configValues()), Importance.MEDIUM, GROUP_SYNC,
                "What to do with a committed offset no offset sync covers while the source still holds records "
                        + "below it (below the partition's oldest sync: MirrorMaker 2 coalesced its first syncs "
                        + "under load, or its offset-syncs topic was compacted before Sextant read it). 'refuse' "
                        + "writes nothing: the partition is UNTRANSLATABLE on every surface, a dead-letter record "
                        + "after sync.pending.timeout.ms, and 'failover' is not clean, since its consumer would start "
                        + "from auto.offset.reset. 'earliest' writes the destination partition's log start: the "
                        + "consumer replays what the mirror holds and skips nothing. An offset at or below the source "
                        + "partition's log start, or on an empty partition, is written as the destination's log "
                        + "start either way: nothing is left below it to skip.");
        define(def, SYNC_FOREIGN_OFFSETS_CONFIG, Type.STRING, ForeignOffsetPolicy.REFUSE.configValue(),
                ConfigValidators.oneOf(ForeignOffsetPolicy.configValues()), Importance.MEDIUM, GROUP_SYNC,
                "What to do with a group whose destination offsets Sextant did not write (MirrorMaker 2's group "
                        + "sync, a consumer that ran on the destination). 'refuse' leaves the group alone and "
                        + "dead-letters it as DESTINATION_DIVERGED. 'adopt-forward' takes it over when it has no "
                        + "members on the destination and every new translation is at or above the offset there "
                        + "(below it, the group stays refused): use it to switch from MirrorMaker 2's group sync. "
                        + "The default is 'refuse' because after a failover the destination offsets are a live "
                        + "consumer's, which no sync should move.");
        define(def, EMIT_CHECKPOINTS_ENABLED_CONFIG, Type.BOOLEAN, false, null, Importance.LOW, GROUP_SYNC,
                "Whether to write MirrorMaker 2 checkpoints (MirrorMaker 2's own record format and topic, "
                        + "<source.alias>.checkpoints.internal through the replication policy, on the destination) "
                        + "for every consumer-group position Sextant applies, so that tools calling "
                        + "RemoteClusterUtils.translateOffsets keep working with MirrorMaker 2's checkpoints off. "
                        + "The topic is created compacted with one partition if it does not exist.");
        define(def, SYNC_PENDING_TIMEOUT_MS_CONFIG, Type.LONG, SYNC_PENDING_TIMEOUT_MS_DEFAULT,
                ConfigValidators.atLeast(0), Importance.LOW, GROUP_SYNC,
                "How long, in milliseconds, a position that cannot be applied yet (topic not mirrored yet, no offset "
                        + "sync covering the offset yet) is retried before it becomes a dead-letter record.");
        define(def, SYNC_OFFSETS_REFRESH_MS_CONFIG, Type.LONG, 0L, ConfigValidators.atLeast(0), Importance.LOW,
                GROUP_SYNC,
                "How long, in milliseconds, an applied consumer-group offset may stand before Sextant writes it "
                        + "again though it did not change. The destination deletes the offsets of a group without "
                        + "members offsets.retention.minutes after their commit (7 days by default, often less in "
                        + "managed services), so a partition whose source offset stays put would lose its "
                        + "destination offset. 0 (the default): half the destination's offsets.retention.minutes as "
                        + "its broker config says (read at start and hourly; 7 days assumed when the config cannot "
                        + "be read, e.g. without DescribeConfigs on the cluster). Positions are rewritten between "
                        + "three quarters of this and all of it, spread by partition, so groups applied together are "
                        + "not all rewritten at once.");
        define(def, SYNC_WRITE_PARALLELISM_CONFIG, Type.INT, SYNC_WRITE_PARALLELISM_DEFAULT,
                ConfigValidators.between(1, 64), Importance.LOW, GROUP_SYNC,
                "The most offset writes Sextant keeps in flight to the destination at once, each through an Admin "
                        + "client of its own (a Kafka Admin client sends one request at a time to a broker, and each "
                        + "group's offsets are one request). Within this ceiling the number adapts to what the "
                        + "destination absorbs: it starts at 4 (or this, if lower) and rises while few writes wait "
                        + "at the destination (judged by how much slower than the fastest recent ones they are "
                        + "answered), and falls when many do or writes time out; writes beyond it wait in a queue. "
                        + "With 1, a single client writes one group at a time.");
        define(def, OFFSET_SYNCS_PRUNE_INTERVAL_MS_CONFIG, Type.LONG, OFFSET_SYNCS_PRUNE_INTERVAL_MS_DEFAULT,
                ConfigValidators.atLeast(1_000), Importance.LOW, GROUP_SYNC,
                "How often, in milliseconds, the offset-sync history is pruned: per source partition, syncs below "
                        + "both the partition's log start offset and the lowest offset any synced group committed "
                        + "there are dropped, except the newest of them (it still translates that offset).");
    }

    /** The dead-letter topic. */
    private static void defineDeadLetterTopic(ConfigDef def) {
        define(def, DLQ_TOPIC_CONFIG, Type.STRING, DLQ_TOPIC_DEFAULT, ConfigValidators.topicName(false),
                Importance.MEDIUM, GROUP_DLQ,
                "Dead-letter topic on the source cluster, where Sextant records the positions it refused or could "
                        + "not apply, and why. Created at start when missing.");
        define(def, DLQ_TOPIC_PARTITIONS_CONFIG, Type.INT, 1, ConfigValidators.atLeast(1), Importance.LOW, GROUP_DLQ,
                "Number of partitions of the dead-letter topic when Sextant creates it.");
        define(def, DLQ_TOPIC_REPLICATION_FACTOR_CONFIG, Type.SHORT, (short) -1, ConfigValidators.replicationFactor(),
                Importance.LOW, GROUP_DLQ,
                "Replication factor of the dead-letter topic when Sextant creates it; -1 uses the broker's "
                        + "default.replication.factor.");
    }
}
