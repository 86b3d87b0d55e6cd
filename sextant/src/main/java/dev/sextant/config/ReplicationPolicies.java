package dev.sextant.config;

import static dev.sextant.config.ConfigKeys.DESTINATION_ALIAS_CONFIG;
import static dev.sextant.config.ConfigKeys.OFFSET_SYNCS_TOPIC_CONFIG;
import static dev.sextant.config.ConfigKeys.REPLICATION_POLICY_CONFIG;
import static dev.sextant.config.ConfigKeys.REPLICATION_POLICY_INTERNAL_TOPIC_SEPARATOR_ENABLED_CONFIG;
import static dev.sextant.config.ConfigKeys.REPLICATION_POLICY_SEPARATOR_CONFIG;
import static dev.sextant.config.ConfigKeys.SOURCE_ALIAS_CONFIG;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;
import org.apache.kafka.connect.mirror.IdentityReplicationPolicy;
import org.apache.kafka.connect.mirror.ReplicationPolicy;

/**
 * The replication policy {@code replication.policy} names, set up as MirrorMaker 2 sets up its
 * {@code replication.policy.class}, and the offset-syncs topic name it derives: Sextant must name topics exactly as
 * the MirrorMaker 2 it follows does.
 *
 * <p>Invariant: a policy that cannot be created or configured, and a derived topic name Kafka would refuse, are
 * {@link InvalidConfigurationException}s at load, naming the key to fix, never a failure once running.
 */
final class ReplicationPolicies {

    /** MirrorMaker 2's key for the destination alias, which connect-mirror-client has no constant for. */
    private static final String TARGET_CLUSTER_ALIAS_CONFIG = "target.cluster.alias";

    private ReplicationPolicies() {
    }

    /**
     * Creates and configures the policy {@code replication.policy} names.
     *
     * @param values  every key's parsed value, as {@link org.apache.kafka.common.config.ConfigDef#parse} gives them
     * @param origins where each key came from, for the message
     */
    static ReplicationPolicy create(Map<String, Object> values, Map<String, String> origins) {
        String value = (String) values.get(REPLICATION_POLICY_CONFIG);
        Class<? extends ReplicationPolicy> type = ConfigValidators.replicationPolicyClass(REPLICATION_POLICY_CONFIG,
                value);
        try {
            ReplicationPolicy policy = Utils.newInstance(type);
            if (policy instanceof Configurable configurable) {
                configurable.configure(policyConfig(values));
            }
            return policy;
        } catch (RuntimeException | LinkageError e) {
            throw new InvalidConfigurationException(REPLICATION_POLICY_CONFIG, value, "Invalid value '" + value
                    + "' for '" + REPLICATION_POLICY_CONFIG + "'" + ConfigChecks.origin(REPLICATION_POLICY_CONFIG,
                    origins) + ": class " + type.getName() + " could not be created and configured: " + e
                    + ". Accepted: " + ConfigDefinitions.accepts(ConfigDefinitions.key(REPLICATION_POLICY_CONFIG))
                    + ". Fix: check the class and its configuration, or use 'default' or 'identity'.", e);
        }
    }

    /** What the policy is configured with, as MirrorMaker 2 passes these keys to it. */
    private static Map<String, Object> policyConfig(Map<String, Object> values) {
        Map<String, Object> policyConfig = new HashMap<>();
        // MM2's policies log these at INFO/WARN whenever present, so like MM2 with its defaults, pass them only
        // when they differ from the defaults.
        String separator = (String) values.get(REPLICATION_POLICY_SEPARATOR_CONFIG);
        if (!separator.equals(DefaultReplicationPolicy.SEPARATOR_DEFAULT)) {
            policyConfig.put(DefaultReplicationPolicy.SEPARATOR_CONFIG, separator);
        }
        boolean internalSeparator = (Boolean) values.get(REPLICATION_POLICY_INTERNAL_TOPIC_SEPARATOR_ENABLED_CONFIG);
        if (internalSeparator != DefaultReplicationPolicy.INTERNAL_TOPIC_SEPARATOR_ENABLED_DEFAULT) {
            policyConfig.put(DefaultReplicationPolicy.INTERNAL_TOPIC_SEPARATOR_ENABLED_CONFIG,
                    String.valueOf(internalSeparator));
        }
        policyConfig.put(IdentityReplicationPolicy.SOURCE_CLUSTER_ALIAS_CONFIG, values.get(SOURCE_ALIAS_CONFIG));
        policyConfig.put(TARGET_CLUSTER_ALIAS_CONFIG, values.get(DESTINATION_ALIAS_CONFIG));
        return policyConfig;
    }

    /**
     * The offset-syncs topic MirrorMaker 2 writes on the source for {@code destinationAlias}, as {@code policy}
     * names it ({@code offset-syncs.topic.location=source}).
     */
    static String offsetSyncsTopic(ReplicationPolicy policy, String destinationAlias, Map<String, String> origins) {
        String topic = policy.offsetSyncsTopic(destinationAlias);
        try {
            Topic.validate(topic);
        } catch (InvalidTopicException e) {
            throw new InvalidConfigurationException(OFFSET_SYNCS_TOPIC_CONFIG, topic, "The offset-syncs topic name '"
                    + topic + "' derived from '" + DESTINATION_ALIAS_CONFIG + "=" + destinationAlias + "'"
                    + ConfigChecks.origin(DESTINATION_ALIAS_CONFIG, origins) + " is not a valid topic name: "
                    + e.getMessage() + ". Accepted: " + ConfigDefinitions.key(OFFSET_SYNCS_TOPIC_CONFIG).validator
                    + ". Fix: set '" + OFFSET_SYNCS_TOPIC_CONFIG + "' to the topic MirrorMaker 2 writes, or use a '"
                    + DESTINATION_ALIAS_CONFIG + "' made of [a-zA-Z0-9._-].", e);
        }
        return topic;
    }
}
