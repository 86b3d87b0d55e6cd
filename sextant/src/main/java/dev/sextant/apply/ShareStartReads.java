package dev.sextant.apply;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * The read before a share write, for every group of a flush at once: each group's start offsets on every partition it
 * has on the destination, with the lag beside each, and the log ends read before them ({@link ShareStart}: what the
 * records delivered above a start offset are counted from).
 *
 * <pre>
 *   start offsets (every partition of each group) ──▶ log ends of those and the planned ones
 *       ──▶ start offsets again, with their lags: what the write is decided on
 * </pre>
 *
 * <p>Why three requests (whatever the number of groups): a lag is only counted against a log end read before it, and
 * which partitions a group has on the destination (also some the write does not touch, whose records delivered make
 * the group someone else's as a whole) is known only once it was listed. A group the destination does not know reads
 * as holding nothing; any other failure fails its read (the write is retried).
 */
final class ShareStartReads {

    /**
     * @param starts     the group's start offsets on every partition it has, with their lags
     * @param endsBefore log end offsets read before {@code starts} (a partition listed only then has none)
     */
    record Read(Map<TopicPartition, ShareStart> starts, Map<TopicPartition, Long> endsBefore) {
    }

    private ShareStartReads() {
    }

    /** @param planned per group, the partitions the write would touch */
    static Map<String, CompletableFuture<Read>> read(DestinationClient client,
                                                     Map<String, Set<TopicPartition>> planned) {
        Map<String, CompletableFuture<Map<TopicPartition, ShareStart>>> first = list(client, planned.keySet());
        Set<TopicPartition> partitions = new HashSet<>();
        planned.values().forEach(partitions::addAll);
        CompletableFuture<?>[] listed = first.values().stream().map(f -> f.thenAccept(starts -> {
            synchronized (partitions) {
                partitions.addAll(starts.keySet());
            }
        }).exceptionally(err -> null)).toArray(CompletableFuture[]::new); // the second read decides
        CompletableFuture<Map<TopicPartition, Long>> ends = CompletableFuture.allOf(listed)
                .thenCompose(v -> KafkaFutures.asked(() -> client.endOffsets(Set.copyOf(partitions))));
        CompletableFuture<Map<String, CompletableFuture<Map<TopicPartition, ShareStart>>>> second =
                ends.thenApply(read -> list(client, planned.keySet()));
        Map<String, CompletableFuture<Read>> out = new HashMap<>();
        planned.keySet().forEach(group -> out.put(group, second.thenCompose(byGroup -> byGroup.get(group))
                .thenApply(starts -> new Read(starts, ends.join()))));
        return out;
    }

    /** Every partition's start offset of each group; a group the destination does not know holds none. */
    private static Map<String, CompletableFuture<Map<TopicPartition, ShareStart>>> list(DestinationClient client,
                                                                                       Set<String> groups) {
        Map<String, Set<TopicPartition>> whole = new HashMap<>();
        groups.forEach(g -> whole.put(g, null)); // null: every partition of the group
        Map<String, CompletableFuture<Map<TopicPartition, ShareStart>>> read;
        try {
            read = client.shareGroupStarts(whole);
        } catch (RuntimeException e) {
            read = new HashMap<>();
            for (String group : groups) {
                read.put(group, CompletableFuture.failedFuture(e));
            }
        }
        Map<String, CompletableFuture<Map<TopicPartition, ShareStart>>> out = new HashMap<>();
        read.forEach((group, starts) -> out.put(group, starts.exceptionally(err -> {
            // an id the destination does not know: nothing there to overwrite; one of another type is refused by the
            // write itself (TYPE_CONFLICT)
            if (KafkaFutures.unwrap(err) instanceof GroupIdNotFoundException) {
                return Map.of();
            }
            throw err instanceof CompletionException c ? c : new CompletionException(err);
        })));
        return out;
    }
}
