package dev.sextant.acl;

import dev.sextant.clients.TopicLog;
import dev.sextant.config.SextantConfig;
import dev.sextant.decode.OffsetSync;
import dev.sextant.decode.OffsetSyncDecoder;
import dev.sextant.decode.UndecodableRecordException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.connect.mirror.ReplicationPolicy;

/**
 * The source topics MirrorMaker 2 mirrors, as the clusters name them, for {@code config acls}: the topics of the
 * offset syncs' keys (MirrorMaker 2 writes one for each mirrored partition it copies records of), and the
 * destination's topics that the replication policy names as mirrors of a source topic ({@code source.orders} is
 * {@code orders}), less the topics Sextant does not sync ({@code topics.include}, {@code topics.exclude}) and
 * internal ones. It only reads, and whatever it cannot read it says why, so that a partial answer is never taken for
 * a whole one.
 */
public final class MirroredSourceTopics {

    /**
     * What was found.
     *
     * @param topics the mirrored source topics
     * @param unread what could not be read, and why (empty when both clusters answered in full)
     */
    public record Found(SortedSet<String> topics, List<String> unread) {
    }

    private MirroredSourceTopics() {
    }

    /**
     * Reads both clusters, each within {@code timeout}; a cluster without settings is not read (the caller says why).
     *
     * @param source      client settings to read the source with (the offset syncs, its topic names)
     * @param destination client settings to read the destination with (its topic names)
     */
    public static Found read(SextantConfig config, Optional<Map<String, Object>> source,
                      Optional<Map<String, Object>> destination, Duration timeout) {
        // the clusters are read at once, so that two that cannot be reached cost one timeout
        List<String> destinationUnread = new ArrayList<>();
        CompletableFuture<Set<String>> destinationTopics = CompletableFuture.supplyAsync(() -> destination
                .flatMap(d -> topicNames(d, "destination", timeout, destinationUnread)).orElse(Set.of()));
        List<String> unread = new ArrayList<>();
        Optional<Set<String>> sourceTopics = source.flatMap(s -> topicNames(s, "source", timeout, unread));
        // a source that did not answer a listing is not waited on a second time
        Set<String> synced = sourceTopics.isEmpty() ? Set.of()
                : syncedTopics(source.get(), config.offsetSyncsTopic(), timeout, unread);
        Set<String> mirrors = destinationTopics.join();
        unread.addAll(destinationUnread);
        return new Found(combine(config, synced, mirrors, sourceTopics.filter(t -> !t.isEmpty())), unread);
    }

    /**
     * The mirrored source topics that {@code synced} (the offset syncs' topics) and {@code destinationTopics} name,
     * among {@code sourceTopics} when they are known: a sync can outlive its topic, and with a policy that keeps
     * names ({@code identity}) a destination topic cannot be told from one of the destination's own without them.
     */
    public static SortedSet<String> combine(SextantConfig config, Set<String> synced, Set<String> destinationTopics,
                                     Optional<Set<String>> sourceTopics) {
        SortedSet<String> out = new TreeSet<>(synced);
        for (String topic : destinationTopics) {
            mirrorOf(config, topic).filter(upstream -> sourceTopics.isPresent() || !upstream.equals(topic))
                    .ifPresent(out::add);
        }
        ReplicationPolicy policy = config.replicationPolicy();
        out.removeIf(topic -> !config.includesTopic(topic) || Topic.isInternal(topic)
                || policy.isInternalTopic(topic) || sourceTopics.map(known -> !known.contains(topic)).orElse(false));
        return out;
    }

    /**
     * The source topic {@code destinationTopic} mirrors, when the replication policy names it a mirror of one from
     * {@code source.alias}: the topic whose remote name, from this source, is exactly {@code destinationTopic}.
     */
    public static Optional<String> mirrorOf(SextantConfig config, String destinationTopic) {
        ReplicationPolicy policy = config.replicationPolicy();
        String upstream = policy.upstreamTopic(destinationTopic);
        return upstream != null && !upstream.isEmpty()
                && destinationTopic.equals(policy.formatRemoteTopic(config.sourceAlias(), upstream))
                ? Optional.of(upstream) : Optional.empty();
    }

    /** The cluster's topic names, or empty (with the reason in {@code unread}) when it cannot list them. */
    private static Optional<Set<String>> topicNames(Map<String, Object> client, String cluster, Duration timeout,
                                                    List<String> unread) {
        try (Admin admin = Admin.create(withTimeout(client, timeout))) {
            // the call's own timeout ends it: its future fails with a TimeoutException then
            return Optional.of(admin.listTopics(new ListTopicsOptions().timeoutMs((int) timeout.toMillis()))
                    .names().get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            unread.add("the " + cluster + " cluster's topics: interrupted");
        } catch (ExecutionException | KafkaException e) {
            unread.add("the " + cluster + " cluster's topics: " + reason(e));
        }
        return Optional.empty();
    }

    /** The source topics the offset syncs name, read from the start of the topic to its end. */
    private static Set<String> syncedTopics(Map<String, Object> client, String topic, Duration timeout,
                                            List<String> unread) {
        Set<String> topics = new HashSet<>();
        try (TopicLog syncs = new TopicLog(withTimeout(client, timeout), topic, "the source cluster", timeout)) {
            if (!syncs.readToEnd((key, value) -> syncedTopic(key, value).ifPresent(topics::add))) {
                unread.add("the offset syncs: no topic '" + topic + "' on the source (MirrorMaker 2 has not run, "
                        + "or offset.syncs.topic names another)");
            }
        } catch (IllegalStateException e) {
            unread.add("the offset syncs: '" + topic + "' was not read to its end within " + timeout.toSeconds()
                    + " s");
        } catch (KafkaException e) {
            unread.add("the offset syncs ('" + topic + "'): " + reason(e));
        }
        return topics;
    }

    /** The source topic a record of the offset-syncs topic names; none for a record MirrorMaker 2 did not write. */
    private static Optional<String> syncedTopic(byte[] key, byte[] value) {
        try {
            OffsetSync sync = OffsetSyncDecoder.decode(key, value);
            return Optional.of(sync.topic());
        } catch (UndecodableRecordException e) {
            return Optional.empty();
        }
    }

    private static Map<String, Object> withTimeout(Map<String, Object> client, Duration timeout) {
        Map<String, Object> props = new HashMap<>(client);
        props.put(CommonClientConfigs.CLIENT_ID_CONFIG, "sextant-config-acls");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        return props;
    }

    /** Why a read failed, in a few words: not authorized, not reached, or what the innermost cause says. */
    private static String reason(Exception e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            if (cause instanceof AuthorizationException || cause instanceof TimeoutException) {
                break;
            }
            cause = cause.getCause();
        }
        if (cause instanceof AuthorizationException) {
            return "not authorized (" + cause.getMessage() + ")";
        }
        if (cause instanceof TimeoutException) {
            return "no answer within the time allowed (is the cluster reachable from here?)";
        }
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }
}
