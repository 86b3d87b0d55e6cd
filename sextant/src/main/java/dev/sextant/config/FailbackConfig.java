package dev.sextant.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.connect.mirror.IdentityReplicationPolicy;

/**
 * The configuration of the Sextant that runs the other way, for failback, derived from the forward one's
 * ({@code sextant failback-config}): the destination as its source and the source as its destination, every client
 * setting and alias swapped (a Kafka Streams setting under {@code source.} stays: the application runs on the
 * source either way), its own {@code application.id} ({@code <forward>-failback}), and the forward Sextant's
 * history topic as {@code failback.history.topic}, so the source's mirrors of the destination's topics are translated
 * back to their originals. Pure: the forward file's keys as written (secrets and config-provider references are
 * copied, never resolved) and its resolved aliases in, the reverse keys and the notes an operator reads out.
 */
public final class FailbackConfig {

    /** Keys left out, with why: what the reverse direction must not inherit. */
    private static final Map<String, String> DROPPED = Map.of(
            ConfigKeys.OFFSET_SYNCS_TOPIC_CONFIG, "the reverse flow's offset-syncs topic follows from the swapped "
                    + "aliases (mm2-offset-syncs.<destination.alias>.internal on this source); set it if that flow "
                    + "writes elsewhere",
            ConfigKeys.TOPICS_INCLUDE_CONFIG, "the forward filter names the forward source's topics; set one for "
                    + "this source's names if needed (mirrors carry the forward source alias as a prefix)",
            ConfigKeys.TOPICS_EXCLUDE_CONFIG, "as topics.include",
            "target.cluster.alias", "destination.alias is written instead");

    /**
     * @param reverse what to write, in order
     * @param notes   comments for the operator
     */
    public record Derived(Map<String, String> reverse, List<String> notes) {
    }

    private FailbackConfig() {
    }

    /**
     * @param forward           the forward configuration file's keys and values, as written
     * @param sourceAlias       the forward {@code source.alias}, resolved (default {@code source})
     * @param destinationAlias  the forward {@code destination.alias}, resolved
     * @param applicationId     the forward {@code application.id}, resolved
     */
    public static Derived derive(Map<String, String> forward, String sourceAlias, String destinationAlias,
                                 String applicationId) {
        Map<String, String> reverse = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        reverse.put(ConfigKeys.APPLICATION_ID_CONFIG, applicationId + "-failback");
        reverse.put(ConfigKeys.SOURCE_ALIAS_CONFIG, destinationAlias);
        reverse.put(ConfigKeys.DESTINATION_ALIAS_CONFIG, sourceAlias);
        reverse.put(ConfigKeys.FAILBACK_HISTORY_TOPIC_CONFIG, new OwnTopicNames(applicationId).history());
        // the group's offsets on the source were committed by its own consumers before the failover: the translation
        // of their later progress on the destination is at or above them, and takes them over
        reverse.put(ConfigKeys.SYNC_FOREIGN_OFFSETS_CONFIG, ForeignOffsetPolicy.ADOPT_FORWARD.configValue());
        Map<String, String> rest = new TreeMap<>();
        for (Map.Entry<String, String> e : forward.entrySet()) {
            String key = e.getKey();
            if (reverse.containsKey(key) || key.equals(ConfigKeys.SOURCE_ALIAS_CONFIG)
                    || key.equals(ConfigKeys.DESTINATION_ALIAS_CONFIG)) {
                continue;
            }
            if (DROPPED.containsKey(key)) {
                notes.add(key + "=" + e.getValue() + " is left out: " + DROPPED.get(key));
            } else if (key.equals(ConfigKeys.STATE_DIR_CONFIG)) {
                rest.put(key, e.getValue() + "-failback");
                notes.add("state.dir is the forward one's with -failback: two instances never share a state "
                        + "directory");
            } else {
                rest.put(reverseKey(key), e.getValue());
            }
        }
        reverse.putAll(rest);
        notes.add("append what differs for this instance, e.g. query.listen and query.advertised when it runs on the "
                + "same host as the forward Sextant; a later key wins");
        return new Derived(reverse, notes);
    }

    /**
     * The key of the reverse configuration that takes the value of the forward {@code key}: a {@code source.} client
     * setting under {@code destination.} and the other way round; a Kafka Streams setting under {@code source.}
     * stays (the application runs on the source either way, and the destination's clients would refuse it); any other
     * key is itself.
     */
    public static String reverseKey(String key) {
        if (key.startsWith(ConfigKeys.SOURCE_PREFIX)) {
            String name = key.substring(ConfigKeys.SOURCE_PREFIX.length());
            boolean streamsOnly = PassThroughKeys.lookup(ConfigKeys.DESTINATION_PREFIX + name).isEmpty()
                    && PassThroughKeys.lookup(key).isPresent();
            return streamsOnly ? key : ConfigKeys.DESTINATION_PREFIX + name;
        }
        if (key.startsWith(ConfigKeys.DESTINATION_PREFIX)) {
            return ConfigKeys.SOURCE_PREFIX + key.substring(ConfigKeys.DESTINATION_PREFIX.length());
        }
        return key;
    }

    /**
     * Refuses a forward configuration whose failback cannot be derived: {@code replication.policy=identity}
     * (MirrorMaker 2's {@code IdentityReplicationPolicy}) with offsets translated through offset syncs. The failback
     * Sextant translates a topic home through the forward history only when the policy names it a mirror of the
     * forward source's topic ({@code source.orders}); under identity names a mirror and a topic of the destination's
     * own are called alike, so every mirror would be sent through the reverse flow's offset syncs instead, which know
     * nothing of it. With {@code translation=identity} (a mirror that keeps offsets) no history is needed, and that
     * is derived.
     *
     * @throws InvalidConfigurationException naming {@code replication.policy}, why, and what to do instead
     */
    public static void requireDerivable(SextantConfig forward) {
        if (!(forward.replicationPolicy() instanceof IdentityReplicationPolicy)
                || forward.translation() == Translation.IDENTITY) {
            return;
        }
        String a = forward.sourceAlias();
        String b = forward.destinationAlias();
        throw new InvalidConfigurationException(ConfigKeys.REPLICATION_POLICY_CONFIG,
                forward.getString(ConfigKeys.REPLICATION_POLICY_CONFIG), "failback-config cannot derive a failback "
                + "from replication.policy=" + forward.getString(ConfigKeys.REPLICATION_POLICY_CONFIG) + " with "
                + "translation=" + forward.translation().configValue() + ": the failback Sextant (" + b + " -> " + a
                + ") translates a topic home through the forward history only when the replication policy names it a "
                + "mirror of " + a + "'s topic (" + a + ".orders under the default policy); under MirrorMaker 2's "
                + "IdentityReplicationPolicy a mirror on " + b + " and a topic of " + b + "'s own have the same kind "
                + "of name, so no topic would be translated home and the groups' positions on the mirrors would be "
                + "lost. Fix: when the mirror keeps offsets (Cluster Linking, Kafka's Cluster Mirroring), set "
                + "translation=identity and derive again; with MirrorMaker 2, go home as a new migration: a "
                + "MirrorMaker 2 flow " + b + " -> " + a + " with the default replication policy, a Sextant " + b
                + " -> " + a + " configured as any forward one (no failback.history.topic), and 'sextant cutover' "
                + "(docs/failover.md, \"Failback\")");
    }
}
