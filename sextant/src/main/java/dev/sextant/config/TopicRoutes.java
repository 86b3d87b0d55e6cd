package dev.sextant.config;

import java.util.function.Predicate;
import org.apache.kafka.connect.mirror.ReplicationPolicy;

/**
 * Which source topics the sync moves, and to which destination topic, as the configuration says. A topic goes to its
 * mirror ({@code orders} to {@code source.orders}); a mirror of one of the destination's own topics
 * ({@code source.orders} on a cluster that the destination, alias {@code source}, mirrors to: two-way, failback)
 * goes back to that original when {@code failback.history.topic} translates it home, and nowhere otherwise, since
 * its records came from the destination. Commands ask it as the running sync decides
 * ({@code SyncSettings.Topics}), so a command waits only for what the sync moves.
 */
public final class TopicRoutes {

    private final ReplicationPolicy policy;
    private final String sourceAlias;
    private final String destinationAlias;
    private final boolean translatesHome;
    private final Predicate<String> included;

    /**
     * @param destinationAlias null when not known: no mirror of the destination's own topics is told apart
     * @param included         {@code topics.include} and {@code topics.exclude}
     */
    public TopicRoutes(ReplicationPolicy policy, String sourceAlias, String destinationAlias, boolean translatesHome,
                       Predicate<String> included) {
        this.policy = policy;
        this.sourceAlias = sourceAlias;
        this.destinationAlias = destinationAlias;
        this.translatesHome = translatesHome;
        this.included = included;
    }

    /** The routes of a configuration: home translation needs the history, so never under identity translation. */
    public static TopicRoutes of(SextantConfig config) {
        return new TopicRoutes(config.replicationPolicy(), config.sourceAlias(), config.destinationAlias(),
                config.failbackHistoryTopic().isPresent() && config.translation() != Translation.IDENTITY,
                config::includesTopic);
    }

    /**
     * True for a source topic whose records came from the destination: a mirror of one of the destination's own
     * topics under {@code policy}, the destination named {@code destinationAlias} (null: never).
     */
    public static boolean fromDestination(ReplicationPolicy policy, String destinationAlias, String sourceTopic) {
        return destinationAlias != null && destinationAlias.equals(policy.topicSource(sourceTopic));
    }

    /** See {@link #fromDestination(ReplicationPolicy, String, String)}. */
    public boolean fromDestination(String sourceTopic) {
        return fromDestination(policy, destinationAlias, sourceTopic);
    }

    /** True when the topics filters take the source topic in ({@code topics.include}, {@code topics.exclude}). */
    public boolean included(String sourceTopic) {
        return included.test(sourceTopic);
    }

    /**
     * True when the sync moves the source topic's offsets: included, and not a mirror of the destination's own topic
     * unless that is translated home.
     */
    public boolean moved(String sourceTopic) {
        return included(sourceTopic) && (translatesHome || !fromDestination(sourceTopic));
    }

    /** The destination topic a source topic's offsets go to: its mirror, or the original it is translated home to. */
    public String destinationTopic(String sourceTopic) {
        if (translatesHome && fromDestination(sourceTopic)) {
            return policy.upstreamTopic(sourceTopic);
        }
        return policy.formatRemoteTopic(sourceAlias, sourceTopic);
    }
}
