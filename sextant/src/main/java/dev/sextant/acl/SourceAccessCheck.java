package dev.sextant.acl;

import dev.sextant.config.ConfigKeys;
import dev.sextant.config.SourceOffsetsRead;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Checks before start that the source cluster grants what {@link RequiredAcls} lists, where the broker can tell
 * ({@code includeAuthorizedOperations}: the operations this principal may perform on an existing topic or a group),
 * so that a missing ACL stops Sextant at start with the ACL named, instead of a Kafka Streams thread dying later.
 *
 * <p>What it cannot see ahead (Create on a topic that does not exist yet, prefixed topics not created yet,
 * transactional ids, the wildcards) is reported when Kafka Streams or an Admin call is refused.
 */
public final class SourceAccessCheck {

    private SourceAccessCheck() {
    }

    /**
     * @param principal shown in the commands (Kafka does not tell a client its own principal), e.g.
     *                  {@code User:sextant}
     * @throws NotAuthorizedException naming every missing permission it found
     */
    public static void verify(Admin admin, List<RequiredAcl> required, String principal, Duration timeout) {
        Map<RequiredAcl, List<String>> missing = new LinkedHashMap<>();
        for (RequiredAcl acl : required) {
            if (acl.cluster() != RequiredAcl.Cluster.SOURCE || acl.name().equals(ResourcePattern.WILDCARD_RESOURCE)) {
                continue;
            }
            List<String> found = new ArrayList<>();
            try {
                if (acl.resourceType() == ResourceType.TOPIC && acl.patternType() == PatternType.LITERAL) {
                    topic(admin, acl, acl.name(), timeout).ifPresent(found::add);
                } else if (acl.resourceType() == ResourceType.TOPIC) {
                    for (String topic : admin.listTopics(new ListTopicsOptions().timeoutMs((int) timeout.toMillis()))
                            .names().get(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                        if (topic.startsWith(acl.name())) {
                            topic(admin, acl, topic, timeout).ifPresent(found::add);
                        }
                    }
                } else if (acl.resourceType() == ResourceType.GROUP && acl.patternType() == PatternType.LITERAL) {
                    group(admin, acl, timeout).ifPresent(found::add);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException | TimeoutException e) {
                // not an answer about permissions: the start goes on and reports what fails then
            }
            if (!found.isEmpty()) {
                missing.put(acl, found);
            }
        }
        if (!missing.isEmpty()) {
            StringBuilder message = new StringBuilder("Sextant's principal on the source cluster lacks ")
                    .append(missing.size() == 1 ? "a permission" : missing.size() + " permissions").append(":");
            missing.values().forEach(texts -> texts.forEach(m -> message.append("\n  - ").append(m)));
            message.append("\nGrant them (").append(principal).append(" is Sextant's principal), or see ")
                    .append("docs/security.md; bin/sextant config acls -c <file> prints every ACL Sextant needs.");
            missing.keySet().forEach(acl -> message.append("\n  ").append(acl.command(principal)));
            alternative(missing.keySet()).ifPresent(message::append);
            throw new NotAuthorizedException(message.toString(), null);
        }
    }

    /**
     * When one of {@code refused} is Read on {@code __consumer_offsets}: the other way to run, for a source that lets
     * no client read that topic (some managed services), in a sentence to append to the refusal; else empty.
     */
    static Optional<String> alternative(Collection<RequiredAcl> refused) {
        boolean offsetsLog = refused.stream().anyMatch(acl -> acl.resourceType() == ResourceType.TOPIC
                && acl.name().equals(Topic.GROUP_METADATA_TOPIC_NAME));
        return offsetsLog ? Optional.of("\nWhere the source cluster lets no client read "
                + Topic.GROUP_METADATA_TOPIC_NAME + " (some managed services: docs/compatibility.md), set "
                + ConfigKeys.SOURCE_OFFSETS_READ_CONFIG + "=" + SourceOffsetsRead.ADMIN.configValue()
                + " instead: Sextant then reads the groups' committed offsets through the Admin API every "
                + ConfigKeys.SOURCE_OFFSETS_POLL_INTERVAL_MS_CONFIG
                + " and needs Describe on the groups, not this ACL.") : Optional.empty();
    }

    private static Optional<String> topic(Admin admin, RequiredAcl acl, String topic, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        TopicDescription description;
        try {
            description = admin.describeTopics(List.of(topic), new DescribeTopicsOptions()
                    .includeAuthorizedOperations(true).timeoutMs((int) timeout.toMillis()))
                    .topicNameValues().get(topic).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty(); // not there yet: what it needs is checked when it appears
            }
            if (e.getCause() instanceof AuthorizationException) {
                return Optional.of(acl.describe() + " (cannot even describe topic '" + topic + "'): "
                        + acl.why());
            }
            throw e;
        }
        return lacking(acl, description.authorizedOperations(), "topic '" + topic + "'");
    }

    private static Optional<String> group(Admin admin, RequiredAcl acl, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        ConsumerGroupDescription description;
        try {
            Map<String, ConsumerGroupDescription> all = admin.describeConsumerGroups(List.of(acl.name()),
                    new DescribeConsumerGroupsOptions().includeAuthorizedOperations(true)
                            .timeoutMs((int) timeout.toMillis())).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            description = all.get(acl.name());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AuthorizationException) {
                return Optional.of(acl.describe() + " (cannot even describe it): " + acl.why());
            }
            throw e;
        }
        return lacking(acl, description.authorizedOperations(), "group '" + acl.name() + "'");
    }

    private static Optional<String> lacking(RequiredAcl acl, Set<AclOperation> granted,
                                                      String what) {
        if (granted == null) {
            return Optional.empty(); // the broker did not say
        }
        EnumSet<AclOperation> needed = EnumSet.noneOf(AclOperation.class);
        for (AclOperation op : acl.operations()) {
            // Create is only needed while the topic does not exist
            if (op != AclOperation.CREATE && !granted.contains(op)
                    && !(op == AclOperation.DESCRIBE && (granted.contains(AclOperation.READ)
                    || granted.contains(AclOperation.WRITE)))) {
                needed.add(op);
            }
        }
        if (needed.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(acl.describe() + ": " + what + " lacks " + RequiredAcl.operationNames(needed) + " ("
                + acl.why() + ")");
    }
}
