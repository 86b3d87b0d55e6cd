package dev.sextant.state;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The partitions of {@code __consumer_offsets} whose task on this instance has not yet read its input up to where the
 * input stood when the task started here. Until then a group missing from the task's stores may simply not have been
 * read yet: the previous owner processed its commits after its last Kafka Streams commit (or died before any), so they
 * are read again here. The query API answers such a lookup with 503 and {@code Retry-After}, not "unknown group".
 * Written by the tasks (their stream threads), read by the query threads.
 */
public final class CatchingUpPartitions {

    private final Set<Integer> partitions = ConcurrentHashMap.newKeySet();

    /** The task of {@code partition} started on this instance and reads its input from where it was committed. */
    public void started(int partition) {
        partitions.add(partition);
    }

    /** The task has read its input up to where it stood at the start, or was closed here. */
    public void caughtUp(int partition) {
        partitions.remove(partition);
    }

    public boolean catchingUp(int partition) {
        return partitions.contains(partition);
    }
}
