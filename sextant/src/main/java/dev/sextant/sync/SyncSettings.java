package dev.sextant.sync;

import dev.sextant.config.OwnTopicNames;
import dev.sextant.config.RewindPolicy;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.SourceOffsetsReading;
import dev.sextant.config.TopicRoutes;
import dev.sextant.config.Translation;
import dev.sextant.config.UntranslatablePolicy;
import java.time.Clock;
import java.util.function.Predicate;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.connect.mirror.ReplicationPolicy;

/**
 * What the topology needs to know, taken from the configuration once at start ({@link #of}). The accessors below
 * answer for the groups, so a caller asks the settings, not the group a value belongs to.
 *
 * @param topics   the topics Sextant reads and writes
 * @param scope    which groups and topics are synced
 * @param timing   how often things run and how long they may wait
 * @param offsets  how a source offset becomes a destination offset
 * @param instance how dead-letter records name this instance
 */
public record SyncSettings(Topics topics, Scope scope, Timing timing, OffsetRules offsets, String instance,
                           Clock clock) {

    /**
     * The topics Sextant reads and writes, by name.
     *
     * @param applicationId     names Sextant's own topics
     * @param sourceAlias       with {@code replicationPolicy}, names a source topic's mirror on the destination
     * @param offsetSyncsTopic  MirrorMaker 2's offset-syncs topic on the source cluster
     * @param dlqTopic          where dead-letter records go
     * @param destinationAlias  with {@code replicationPolicy}, tells the source's mirrors of the destination's own
     *                          topics (a two-way setup); null when not known
     * @param translateHome     true when those mirrors are translated back to their originals (failback,
     *                          {@code failback.history.topic}); false: they are not synced
     * @param commitsFromAdmin  true with {@code source.offsets.read=admin}: the commits are read from Sextant's own
     *                          topic, where the Admin API poll writes them ({@link #commitsTopic})
     */
    public record Topics(String applicationId, String sourceAlias, ReplicationPolicy replicationPolicy,
                         String offsetSyncsTopic, String dlqTopic, String destinationAlias, boolean translateHome,
                         boolean commitsFromAdmin) {

        /** The commits read from {@code __consumer_offsets}. */
        public Topics(String applicationId, String sourceAlias, ReplicationPolicy replicationPolicy,
                      String offsetSyncsTopic, String dlqTopic, String destinationAlias, boolean translateHome) {
            this(applicationId, sourceAlias, replicationPolicy, offsetSyncsTopic, dlqTopic, destinationAlias,
                    translateHome, false);
        }

        /** One-way: no mirror of the destination's own topics is told apart. */
        public Topics(String applicationId, String sourceAlias, ReplicationPolicy replicationPolicy,
                      String offsetSyncsTopic, String dlqTopic) {
            this(applicationId, sourceAlias, replicationPolicy, offsetSyncsTopic, dlqTopic, null, false);
        }

        /**
         * True for a source topic whose records came from the destination: a mirror of one of the destination's own
         * topics ({@code source.orders} on a cluster the destination, alias {@code source}, mirrors to).
         */
        public boolean fromDestination(String sourceTopic) {
            return TopicRoutes.fromDestination(replicationPolicy, destinationAlias, sourceTopic);
        }

        /** Sextant's own topic holding the full offset-sync history (compacted; read back into a global store). */
        public String historyTopic() {
            return new OwnTopicNames(applicationId).history();
        }

        /**
         * Where the group sync reads the source's commits: {@code __consumer_offsets}, or with
         * {@code source.offsets.read=admin} Sextant's own topic of the commits the Admin API answered, in the same
         * record format and partitioned the same way.
         */
        public String commitsTopic() {
            return commitsFromAdmin ? new OwnTopicNames(applicationId).sourceCommits()
                    : Topic.GROUP_METADATA_TOPIC_NAME;
        }

        /** Sextant's own topic carrying share start offsets to the task that owns each share group. */
        public String sharePositionsTopic() {
            return new OwnTopicNames(applicationId).sharePositions();
        }

        /** Sextant's own topic of the groups cut over to the destination (compacted; read back into a global store). */
        public String cutoversTopic() {
            return new OwnTopicNames(applicationId).cutovers();
        }

        /**
         * The topic a source topic is mirrored to on the destination; for a mirror of the destination's own topic
         * translated home ({@link #translateHome}), that original topic.
         */
        public String destinationTopic(String sourceTopic) {
            if (translateHome && fromDestination(sourceTopic)) {
                return replicationPolicy.upstreamTopic(sourceTopic);
            }
            return replicationPolicy.formatRemoteTopic(sourceAlias, sourceTopic);
        }
    }

    /**
     * Which groups and topics are synced.
     *
     * @param includeGroup the group filter, the application's own id already excluded
     * @param includeTopic the topic filter (source topic names)
     */
    public record Scope(Predicate<String> includeGroup, Predicate<String> includeTopic, boolean syncConsumerGroups,
                        boolean syncShareGroups) {
    }

    /**
     * How often things run and how long they may wait.
     *
     * @param syncIntervalMs   how often a task flushes what changed to the destination
     * @param pendingTimeoutMs how long a partition may wait for its mirror topic or an offset sync before that is a
     *                         dead-letter reason
     * @param pruneIntervalMs  how often the offset-sync history is pruned
     * @param writeLeaseMs     how long after it was planned a write may still be sent
     *                         ({@link dev.sextant.apply.WriteLease}): less than the time the source's coordinator
     *                         gives a silent instance before its tasks move
     * @param offsetsRefreshMs how long an applied offset stands before it is written again
     *                         ({@code sync.offsets.refresh.ms}); 0 to derive it from the destination's retention
     */
    public record Timing(long syncIntervalMs, long pendingTimeoutMs, long pruneIntervalMs, long writeLeaseMs,
                         long offsetsRefreshMs) {

        public Timing(long syncIntervalMs, long pendingTimeoutMs, long pruneIntervalMs, long writeLeaseMs) {
            this(syncIntervalMs, pendingTimeoutMs, pruneIntervalMs, writeLeaseMs, 0);
        }
    }

    /**
     * How a source offset becomes a destination offset.
     *
     * @param identityTranslation true for offset-preserving mirrors: no offset-sync history is read or kept
     * @param followRewinds       true when a source rewind is written to the destination ({@code sync.rewind})
     * @param untranslatableEarliest true when an offset below its partition's oldest sync is written as the mirror's
     *                            log start ({@code sync.untranslatable=earliest})
     */
    public record OffsetRules(boolean identityTranslation, boolean followRewinds, boolean untranslatableEarliest) {

        public OffsetRules(boolean identityTranslation, boolean followRewinds) {
            this(identityTranslation, followRewinds, false);
        }
    }

    /**
     * The settings of {@code config}.
     *
     * @param instance     how this instance names itself in dead-letter records
     * @param writeLeaseMs see {@link Timing#writeLeaseMs}
     */
    public static SyncSettings of(SextantConfig config, Clock clock, String instance, long writeLeaseMs) {
        return new SyncSettings(
                new Topics(config.applicationId(), config.sourceAlias(), config.replicationPolicy(),
                        config.offsetSyncsTopic(), config.dlqTopic(), config.destinationAlias(),
                        config.failbackHistoryTopic().isPresent() && config.translation() != Translation.IDENTITY,
                        !SourceOffsetsReading.of(config).fromLog()),
                new Scope(config::includesGroup, config::includesTopic, config.syncConsumerGroups(),
                        config.syncShareGroups()),
                new Timing(config.syncIntervalMs(), config.pendingTimeoutMs(), config.offsetSyncsPruneIntervalMs(),
                        writeLeaseMs, config.offsetsRefreshMs()),
                new OffsetRules(config.translation() == Translation.IDENTITY,
                        config.rewindPolicy() == RewindPolicy.FOLLOW_SOURCE,
                        config.untranslatablePolicy() == UntranslatablePolicy.EARLIEST),
                instance,
                clock);
    }

    public String applicationId() {
        return topics.applicationId();
    }

    public String offsetSyncsTopic() {
        return topics.offsetSyncsTopic();
    }

    public String dlqTopic() {
        return topics.dlqTopic();
    }

    /** See {@link Topics#historyTopic}. */
    public String historyTopic() {
        return topics.historyTopic();
    }

    /** See {@link Topics#fromDestination}. */
    public boolean fromDestination(String sourceTopic) {
        return topics.fromDestination(sourceTopic);
    }

    /** See {@link Topics#translateHome}. */
    public boolean translateHome() {
        return topics.translateHome();
    }

    /** See {@link Topics#cutoversTopic}. */
    public String cutoversTopic() {
        return topics.cutoversTopic();
    }

    /** See {@link Topics#commitsFromAdmin}. */
    public boolean commitsFromAdmin() {
        return topics.commitsFromAdmin();
    }

    /** See {@link Topics#commitsTopic}. */
    public String commitsTopic() {
        return topics.commitsTopic();
    }

    /** See {@link Topics#sharePositionsTopic}. */
    public String sharePositionsTopic() {
        return topics.sharePositionsTopic();
    }

    /** See {@link Topics#destinationTopic}. */
    public String destinationTopic(String sourceTopic) {
        return topics.destinationTopic(sourceTopic);
    }

    public Predicate<String> includeGroup() {
        return scope.includeGroup();
    }

    public Predicate<String> includeTopic() {
        return scope.includeTopic();
    }

    public boolean syncConsumerGroups() {
        return scope.syncConsumerGroups();
    }

    public boolean syncShareGroups() {
        return scope.syncShareGroups();
    }

    public long syncIntervalMs() {
        return timing.syncIntervalMs();
    }

    public long pendingTimeoutMs() {
        return timing.pendingTimeoutMs();
    }

    public long pruneIntervalMs() {
        return timing.pruneIntervalMs();
    }

    public long writeLeaseMs() {
        return timing.writeLeaseMs();
    }

    /** {@code sync.offsets.refresh.ms}; 0 when it follows the destination's offsets retention. */
    public long offsetsRefreshMs() {
        return timing.offsetsRefreshMs();
    }

    public boolean identityTranslation() {
        return offsets.identityTranslation();
    }

    public boolean followRewinds() {
        return offsets.followRewinds();
    }

    /** {@code sync.untranslatable=earliest}: an offset below the oldest sync is written as the mirror's log start. */
    public boolean untranslatableEarliest() {
        return offsets.untranslatableEarliest();
    }
}
