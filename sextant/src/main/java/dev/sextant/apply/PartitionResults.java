package dev.sextant.apply;

import static dev.sextant.apply.KafkaFutures.unwrap;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/** The per-partition results of an offset write, collected into the one outcome of the write. */
final class PartitionResults {

    private PartitionResults() {
    }

    /**
     * Collects per-partition results. A group-level error (active group, another group type) fails every partition
     * the same way: that becomes the failure of the whole call.
     */
    static CompletableFuture<Map<TopicPartition, Throwable>> collect(
            Set<TopicPartition> partitions,
            Function<TopicPartition, CompletableFuture<Void>> resultOf) {
        Map<TopicPartition, Throwable> errors = new ConcurrentHashMap<>();
        CompletableFuture<?>[] perPartition = partitions.stream()
                .map(tp -> resultOf.apply(tp).handle((ok, err) -> {
                    if (err != null) {
                        errors.put(tp, unwrap(err));
                    }
                    return null;
                }))
                .toArray(CompletableFuture[]::new);
        return CompletableFuture.allOf(perPartition).thenCompose(v -> {
            if (!errors.isEmpty() && errors.size() == partitions.size()) {
                Throwable first = errors.values().iterator().next();
                boolean same = errors.values().stream().allMatch(e -> e.getClass() == first.getClass());
                if (same && !(first instanceof UnknownTopicOrPartitionException)) {
                    return CompletableFuture.failedFuture(first);
                }
            }
            Map<TopicPartition, Throwable> outcome = new HashMap<>();
            partitions.forEach(tp -> outcome.put(tp, errors.get(tp)));
            return CompletableFuture.completedFuture(outcome);
        });
    }
}
