package dev.sextant.acl;

import static org.apache.kafka.common.acl.AclOperation.CREATE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;

import dev.sextant.acl.RequiredAcl.Cluster;
import dev.sextant.config.Interpolation;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.SourceOffsetsReading;
import dev.sextant.config.Translation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Every permission Sextant needs, per cluster, for a given configuration: the least privilege it runs with. This list
 * is what {@code bin/sextant config acls} prints, what {@code docs/security.md} shows, and exactly what the secured
 * integration test grants.
 *
 * <pre>
 *   source                                              destination
 *   ──────                                              ───────────
 *   __consumer_offsets, __share_group_state,            groups: Read, Describe (offsets of the synced groups)
 *   offset syncs: Read, Describe (the inputs)           mirrored topics: Read, Describe (commits need Read)
 *   &lt;application.id&gt;-* topics, group, transactional id    checkpoints topic (emit.checkpoints.enabled)
 *   (Kafka Streams' own), the dead-letter topic
 *   every group and topic: Describe (which groups commit, log start offsets)
 *   mirrored topics: Read (translation.interpolation=verified)    mirrored topics: Read (the same, and commits)
 *     (each by name or prefix; or every topic, the wider grant)
 * </pre>
 */
public final class RequiredAcls {

    private RequiredAcls() {
    }

    /**
     * The permissions for {@code config}, source cluster first, with Read on the source topics {@code reads} names
     * when {@code config} proves intervals between offset syncs ({@link #provesIntervals}).
     */
    public static List<RequiredAcl> of(SextantConfig config, SourceTopicReads reads) {
        List<RequiredAcl> acls = new ArrayList<>();
        String app = config.applicationId();
        if (SourceOffsetsReading.of(config).fromLog()) { // with admin, Describe on the groups (below) is enough
            acls.add(source(ResourceType.TOPIC, Topic.GROUP_METADATA_TOPIC_NAME, PatternType.LITERAL,
                    List.of(READ, DESCRIBE), "the consumer-group commits Sextant reads"));
        }
        if (config.syncShareGroups()) {
            acls.add(source(ResourceType.TOPIC, Topic.SHARE_GROUP_STATE_TOPIC_NAME, PatternType.LITERAL,
                    List.of(READ, DESCRIBE), "the share-group start offsets Sextant reads"));
        }
        if (config.translation() == Translation.OFFSET_SYNCS) {
            acls.add(source(ResourceType.TOPIC, config.offsetSyncsTopic(), PatternType.LITERAL, List.of(READ, DESCRIBE),
                    "MirrorMaker 2's offset syncs"));
        }
        acls.add(source(ResourceType.TOPIC, config.dlqTopic(), PatternType.LITERAL,
                List.of(READ, WRITE, DESCRIBE, CREATE), "the dead-letter topic: written, read for /v1/conflicts, "
                        + "created at start when missing"));
        acls.add(source(ResourceType.TOPIC, app + "-", PatternType.PREFIXED,
                List.of(READ, WRITE, DESCRIBE, CREATE, DESCRIBE_CONFIGS),
                "Kafka Streams' changelogs and Sextant's own topics (offset-sync history, share positions)"));
        acls.add(source(ResourceType.GROUP, app, PatternType.LITERAL, List.of(READ, DESCRIBE),
                "Kafka Streams' consumer group (application.id)"));
        if (config.exactlyOnce()) {
            acls.add(source(ResourceType.TRANSACTIONAL_ID, app + "-", PatternType.PREFIXED, List.of(WRITE, DESCRIBE),
                    "Kafka Streams' transactional ids (processing.guarantee=exactly_once_v2)"));
        }
        acls.add(source(ResourceType.GROUP, ResourcePattern.WILDCARD_RESOURCE, PatternType.LITERAL,
                List.of(DESCRIBE), "which groups still exist and their committed offsets (pruning, health)"));
        acls.addAll(sourceTopics(config, reads));

        acls.add(destination(ResourceType.GROUP, ResourcePattern.WILDCARD_RESOURCE, PatternType.LITERAL,
                List.of(READ, DESCRIBE), "the synced groups: read their state and offsets, write offsets (narrow "
                        + "it to prefixed ACLs when groups.include names a prefix)"));
        acls.add(destination(ResourceType.TOPIC, ResourcePattern.WILDCARD_RESOURCE, PatternType.LITERAL,
                List.of(READ, DESCRIBE), "the mirrored topics: an offset commit needs Read on its topic (narrow it "
                        + "to the mirror's prefix, e.g. '" + config.replicationPolicy().formatRemoteTopic(
                        config.sourceAlias(), "") + "' with the default replication policy)"));
        if (config.emitCheckpoints()) {
            acls.add(destination(ResourceType.TOPIC, config.checkpointsTopic(), PatternType.LITERAL,
                    List.of(WRITE, DESCRIBE, CREATE), "MirrorMaker 2-format checkpoints (emit.checkpoints.enabled)"));
        }
        return List.copyOf(acls);
    }

    /** Those of one cluster. */
    public static List<RequiredAcl> of(SextantConfig config, SourceTopicReads reads, Cluster cluster) {
        return of(config, reads).stream().filter(a -> a.cluster() == cluster).toList();
    }

    /**
     * What Sextant cannot run without, for the check at start and the messages of a refusal: every permission but
     * Read on the mirrored topics, whose absence keeps a commit between two offset syncs bounded and stops nothing.
     */
    public static List<RequiredAcl> withoutProofReads(SextantConfig config) {
        return of(config, SourceTopicReads.only(List.of(), "none needed to run"));
    }

    /**
     * Whether {@code config} reads the source's mirrored topics: {@code translation.interpolation=verified} with
     * {@code translation=offset-syncs} proves an interval between two syncs by its records before translating a
     * commit inside it exactly.
     */
    public static boolean provesIntervals(SextantConfig config) {
        return config.translation() == Translation.OFFSET_SYNCS && config.interpolation() == Interpolation.VERIFIED;
    }

    /** Describe on every topic, and Read on those {@code reads} names when {@code config} proves intervals. */
    private static List<RequiredAcl> sourceTopics(SextantConfig config, SourceTopicReads reads) {
        String describe = "topic names by id (commits name topics by id) and log start offsets (pruning)";
        if (!provesIntervals(config)) {
            return List.of(source(ResourceType.TOPIC, ResourcePattern.WILDCARD_RESOURCE, PatternType.LITERAL,
                    List.of(DESCRIBE), describe));
        }
        String proofs = "read to prove intervals between offset syncs (translation.interpolation=verified; "
                + reads.foundIn() + ")";
        if (reads.everyTopic()) {
            return List.of(source(ResourceType.TOPIC, ResourcePattern.WILDCARD_RESOURCE, PatternType.LITERAL,
                    List.of(READ, DESCRIBE), describe + ", and every topic's records, " + proofs));
        }
        List<RequiredAcl> acls = new ArrayList<>();
        acls.add(source(ResourceType.TOPIC, ResourcePattern.WILDCARD_RESOURCE, PatternType.LITERAL,
                List.of(DESCRIBE), describe));
        for (ResourcePattern topic : reads.topics()) {
            acls.add(source(ResourceType.TOPIC, topic.name(), topic.patternType(), List.of(READ),
                    (topic.patternType() == PatternType.PREFIXED ? "the records of the mirrored topics of this "
                            + "prefix, " : "the records of a mirrored topic, ") + proofs));
        }
        return acls;
    }

    /**
     * The most specific entry of {@code required} (a literal name before a prefix before the wildcard) that covers
     * what {@code denied} was refused: a topic it names, its group, a transactional id. Empty when none does (a
     * cluster operation, or a refusal Sextant does not expect).
     */
    public static Optional<RequiredAcl> covering(List<RequiredAcl> required, RequiredAcl.Cluster cluster,
                                                 AuthorizationException denied) {
        return required.stream()
                .filter(acl -> acl.cluster() == cluster && covers(acl, denied))
                .min(Comparator.comparingInt(acl -> acl.name().equals(ResourcePattern.WILDCARD_RESOURCE) ? 2
                        : acl.patternType() == PatternType.PREFIXED ? 1 : 0));
    }

    private static boolean covers(RequiredAcl acl, AuthorizationException denied) {
        if (denied instanceof TopicAuthorizationException t) {
            return acl.resourceType() == ResourceType.TOPIC
                    && t.unauthorizedTopics().stream().anyMatch(topic -> matches(acl, topic));
        }
        if (denied instanceof GroupAuthorizationException g) {
            return acl.resourceType() == ResourceType.GROUP && (g.groupId() == null || matches(acl, g.groupId()));
        }
        return denied instanceof TransactionalIdAuthorizationException
                && acl.resourceType() == ResourceType.TRANSACTIONAL_ID;
    }

    private static boolean matches(RequiredAcl acl, String name) {
        if (acl.name().equals(ResourcePattern.WILDCARD_RESOURCE)) {
            return true;
        }
        return acl.patternType() == PatternType.PREFIXED ? name.startsWith(acl.name()) : acl.name().equals(name);
    }

    private static RequiredAcl source(ResourceType type, String name, PatternType pattern, List<AclOperation> ops,
                                      String why) {
        return new RequiredAcl(Cluster.SOURCE, type, name, pattern, ops, why);
    }

    private static RequiredAcl destination(ResourceType type, String name, PatternType pattern,
                                           List<AclOperation> ops, String why) {
        return new RequiredAcl(Cluster.DESTINATION, type, name, pattern, ops, why);
    }
}
