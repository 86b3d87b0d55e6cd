package dev.sextant.client;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;

/**
 * Points a consumer on the destination cluster at the positions Sextant translated, the step MirrorMaker 2's
 * {@code RemoteClusterUtils.translateOffsets} followed by {@code seek} serves. It must run before the consumer's first
 * {@code poll}: a consumer that polls first starts where its committed offsets or {@code auto.offset.reset} say.
 *
 * <pre>{@code
 * Map<TopicPartition, Long> offsets = SextantClient.create("http://sextant:8080").offsets("billing");
 * FailoverSeek.assignAndSeek(consumer, offsets);   // manual assignment
 * // or, with subscribe():
 * consumer.subscribe(List.of("source.orders"), FailoverSeek.seekOnFirstAssignment(consumer, offsets));
 * }</pre>
 */
public final class FailoverSeek {

    private FailoverSeek() {
    }

    /**
     * Assigns exactly the partitions of {@code offsets} and seeks each to its offset.
     *
     * @throws IllegalStateException when the consumer is subscribed (it cannot also be assigned)
     */
    public static void assignAndSeek(Consumer<?, ?> consumer, Map<TopicPartition, Long> offsets) {
        Objects.requireNonNull(consumer, "consumer");
        Objects.requireNonNull(offsets, "offsets");
        if (!consumer.subscription().isEmpty()) {
            throw new IllegalStateException("the consumer is subscribed to " + consumer.subscription()
                    + "; use seekOnFirstAssignment with subscribe(), or assignAndSeek on an unsubscribed consumer");
        }
        offsets.forEach((tp, offset) -> {
            if (offset == null || offset < 0) {
                throw new IllegalArgumentException("no offset to seek " + tp + " to: " + offset);
            }
        });
        consumer.assign(offsets.keySet());
        offsets.forEach(consumer::seek);
    }

    /**
     * For {@code subscribe()}: a rebalance listener that seeks each partition of {@code offsets} to its failover
     * offset the first time it is assigned to this consumer; later assignments resume from committed offsets as
     * usual (the group commits on the destination from then on).
     */
    public static ConsumerRebalanceListener seekOnFirstAssignment(Consumer<?, ?> consumer,
                                                                  Map<TopicPartition, Long> offsets) {
        Objects.requireNonNull(consumer, "consumer");
        Map<TopicPartition, Long> targets = Map.copyOf(offsets);
        Set<TopicPartition> seeked = new HashSet<>();
        return new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                for (TopicPartition tp : partitions) {
                    Long offset = targets.get(tp);
                    if (offset != null && seeked.add(tp)) {
                        consumer.seek(tp, offset);
                    }
                }
            }
        };
    }
}
