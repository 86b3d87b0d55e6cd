package dev.sextant.failover;

import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;

/**
 * What a live Sextant instance holds for a failover with the source gone: the type of every selected group it knows
 * ({@code consumer}, {@code streams}, {@code share}), the positions of each, the groups it shows cut over
 * ({@code sextant cutover}), and why it could not tell (null when it could), or else what it reports wrong with itself
 * (its readiness detail: a destination that is not the cluster it wrote to, groups refused for a replaced source, an
 * unreachable destination).
 */
record InstancePositions(Map<String, String> types, Map<String, List<SextantClient.Partition>> positions,
                         Map<String, SextantClient.Cutover> cutovers, String problem) {

    /** No instance asked. */
    static final InstancePositions NONE = new InstancePositions(Map.of(), Map.of(), Map.of(), null);

    /** Asks the instance for the groups it knows and the positions of those and of {@code onDestination}. */
    static InstancePositions ask(SextantClient instance, Predicate<String> wanted, Set<String> onDestination,
                                 Consumer<String> progress) {
        progress.accept("asking the Sextant instance which groups it knows");
        Map<String, String> types = new HashMap<>();
        String problem = listKnown(instance, wanted, types);
        Map<String, List<SextantClient.Partition>> positions = new HashMap<>();
        Map<String, SextantClient.Cutover> cutovers = new HashMap<>();
        if (problem == null) {
            progress.accept("asking the Sextant instance for positions not applied yet");
            Set<String> groups = new TreeSet<>(onDestination);
            groups.addAll(types.keySet());
            problem = positions(instance, groups, positions, cutovers);
        }
        return new InstancePositions(types, positions, cutovers, problem != null ? problem : degraded(instance));
    }

    /** What the instance says is wrong with it ({@code /health/ready}'s detail), or null. */
    private static String degraded(SextantClient instance) {
        try {
            SextantClient.Readiness readiness = instance.readiness();
            return readiness == null || readiness.problem() == null ? null
                    : "the Sextant instance reports " + readiness.status() + ": " + readiness.problem();
        } catch (SextantClientException e) {
            return null; // not ready (restoring): what it serves was already asked above
        }
    }

    /** The instance's positions of a group; none when it does not know it. */
    List<SextantClient.Partition> of(String group) {
        return positions.getOrDefault(group, List.of());
    }

    /** Fills {@code types} with every group the instance knows (and its type); returns why it could not, or null. */
    private static String listKnown(SextantClient instance, Predicate<String> wanted, Map<String, String> types) {
        try {
            instance.groups().stream().filter(g -> wanted.test(g.group()))
                    .forEach(g -> types.put(g.group(), g.groupType()));
            return null;
        } catch (SextantClientException e) {
            return "the Sextant instance did not answer (" + e.getMessage() + "): only what the destination "
                    + "holds is shown, and groups it lacks cannot be checked";
        }
    }

    /**
     * Fills {@code known} with the instance's positions per group, and {@code cutovers} with the groups cut over;
     * returns why it could not, or null.
     */
    private static String positions(SextantClient instance, Iterable<String> groups,
                                    Map<String, List<SextantClient.Partition>> known,
                                    Map<String, SextantClient.Cutover> cutovers) {
        for (String group : groups) {
            try {
                SextantClient.GroupPositions positions = instance.group(group);
                known.put(group, positions.partitions());
                if (positions.cutOver() != null) {
                    cutovers.put(group, positions.cutOver());
                }
            } catch (SextantClientException e) {
                if (e.status() == 404) {
                    continue; // Sextant does not know the group: the destination is all there is
                }
                return "the Sextant instance did not answer (" + e.getMessage() + "): only what the destination "
                        + "holds is shown";
            }
        }
        return null;
    }

    /** Where a position of the instance lands on the destination. */
    static TopicPartition destinationPartition(SextantClient.Partition p) {
        return new TopicPartition(p.destinationTopic() == null ? p.topic() : p.destinationTopic(), p.partition());
    }

    /** A position the instance has translated and not applied yet. */
    static boolean notApplied(SextantClient.Partition p) {
        return p.translatedOffset() != null && !"APPLIED".equals(p.status());
    }
}
