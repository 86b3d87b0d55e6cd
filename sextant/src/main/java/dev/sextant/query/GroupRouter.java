package dev.sextant.query;

import dev.sextant.config.HostAndPort;
import java.util.List;

/**
 * Where a group's data lives: the routing half of the interactive queries. A group's commits (and so its positions)
 * live in the task that reads the group's partition of {@code __consumer_offsets}; that task runs on exactly one
 * instance at a time.
 *
 * <p>Every method throws {@link QueryException#unavailable} while the answer cannot be known (Kafka Streams not
 * running, rebalancing, metadata not available yet): callers answer 503 then, never a guess.
 */
public interface GroupRouter {

    /** Who holds a group right now. */
    sealed interface Owner permits Local, Remote {
    }

    /** This instance, in the task of {@code __consumer_offsets} partition {@code partition}. */
    record Local(int partition) implements Owner {
    }

    /** Another instance, at its advertised address. */
    record Remote(HostAndPort address) implements Owner {
    }

    Owner ownerOf(String group);

    /** This instance's advertised address. */
    HostAndPort self();

    /** Fails with 503 unless Kafka Streams is RUNNING. */
    void requireRunning();

    /** The Kafka Streams state, for health answers ({@code NOT_STARTED} before the client exists). */
    String state();

    /** Partitions of {@code __consumer_offsets}. */
    int partitionCount();

    /** The {@code __consumer_offsets} partitions whose tasks run here as active tasks. */
    List<Integer> localPartitions();

    /** Every instance of the application, this one included. */
    List<Views.InstanceView> instances();
}
