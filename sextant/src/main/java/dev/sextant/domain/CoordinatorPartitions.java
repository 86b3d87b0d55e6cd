package dev.sextant.domain;

/**
 * Where Kafka's group coordinator keeps a group: partition {@code abs(hashCode(group)) % n} of
 * {@code __consumer_offsets} (and of {@code __share_group_state}'s groups' metadata). Sextant routes share positions
 * to the task that owns a group, and interactive queries find that task, with the same rule.
 */
public final class CoordinatorPartitions {

    private CoordinatorPartitions() {
    }

    /** As Kafka's {@code Utils.abs(group.hashCode()) % numPartitions}: {@code Integer.MIN_VALUE} maps to 0. */
    public static int partitionFor(String group, int numPartitions) {
        int hash = group.hashCode();
        return (hash == Integer.MIN_VALUE ? 0 : Math.abs(hash)) % numPartitions;
    }
}
