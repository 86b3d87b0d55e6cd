package dev.sextant.config;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.connect.mirror.ReplicationPolicy;

/** A custom replication policy for tests: remembers what it was configured with. */
public class RecordingReplicationPolicy implements ReplicationPolicy, Configurable {

    public final Map<String, Object> configured = new HashMap<>();

    @Override
    public void configure(Map<String, ?> configs) {
        configured.putAll(configs);
    }

    @Override
    public String formatRemoteTopic(String sourceClusterAlias, String topic) {
        return "mirror-" + topic;
    }

    @Override
    public String topicSource(String topic) {
        return topic.startsWith("mirror-") ? (String) configured.get("source.cluster.alias") : null;
    }

    @Override
    public String upstreamTopic(String topic) {
        return topic.startsWith("mirror-") ? topic.substring("mirror-".length()) : null;
    }

    @Override
    public String offsetSyncsTopic(String clusterAlias) {
        return "custom-syncs-" + clusterAlias;
    }

    /** Not a ReplicationPolicy at all. */
    public static class NotAPolicy {
    }

    /** A policy without a no-argument constructor. */
    public static class NoDefaultConstructor extends RecordingReplicationPolicy {
        public NoDefaultConstructor(String unused) {
        }
    }

    /** A policy whose configure() throws. */
    public static class FailingPolicy extends RecordingReplicationPolicy {
        @Override
        public void configure(Map<String, ?> configs) {
            throw new IllegalStateException("boom");
        }
    }
}
