package dev.sextant.apply;

import static dev.sextant.apply.KafkaFutures.toCompletable;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads of the offsets groups hold on the destination: a consumer group's committed offsets, a share group's start
 * offsets; a partition without one is left out. The client is the caller's: the one the read must not wait behind
 * others on.
 */
final class GroupOffsetReads {

    private GroupOffsetReads() {
    }

    /**
     * The committed offsets of each group, one future per group.
     *
     * @param partitionsByGroup the partitions to read of each group; null for all of the group's
     */
    static Map<String, CompletableFuture<Map<TopicPartition, OffsetAndMetadata>>> committed(
            Admin client, Map<String, Set<TopicPartition>> partitionsByGroup) {
        if (partitionsByGroup.isEmpty()) {
            return Map.of();
        }
        Map<String, ListConsumerGroupOffsetsSpec> specs = partitionsByGroup.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey,
                        e -> e.getValue() == null ? new ListConsumerGroupOffsetsSpec()
                                : new ListConsumerGroupOffsetsSpec().topicPartitions(e.getValue())));
        ListConsumerGroupOffsetsResult result = client.listConsumerGroupOffsets(specs);
        Map<String, CompletableFuture<Map<TopicPartition, OffsetAndMetadata>>> out = new HashMap<>();
        for (String group : partitionsByGroup.keySet()) {
            out.put(group, toCompletable(result.partitionsToOffsetAndMetadata(group)).thenApply(offsets -> {
                Map<TopicPartition, OffsetAndMetadata> present = new HashMap<>();
                // partitions without a commit come back with a null value
                offsets.forEach((tp, om) -> {
                    if (om != null) {
                        present.put(tp, om);
                    }
                });
                return present;
            }));
        }
        return out;
    }

    /**
     * The start offsets of each share group, one future per group.
     *
     * @param partitionsByGroup the partitions to read of each group; null for all of the group's
     */
    static Map<String, CompletableFuture<Map<TopicPartition, Long>>> shareStarts(
            Admin client, Map<String, Set<TopicPartition>> partitionsByGroup) {
        Map<String, CompletableFuture<Map<TopicPartition, Long>>> out = new HashMap<>();
        shareStartsAndLags(client, partitionsByGroup).forEach((group, read) -> out.put(group, read.thenApply(starts -> {
            Map<TopicPartition, Long> offsets = new HashMap<>();
            starts.forEach((tp, start) -> offsets.put(tp, start.startOffset()));
            return offsets;
        })));
        return out;
    }

    /**
     * The start offsets of each share group with the lag the destination reports beside them, one future per group.
     *
     * @param partitionsByGroup the partitions to read of each group; null for all of the group's
     */
    static Map<String, CompletableFuture<Map<TopicPartition, ShareStart>>> shareStartsAndLags(
            Admin client, Map<String, Set<TopicPartition>> partitionsByGroup) {
        if (partitionsByGroup.isEmpty()) {
            return Map.of();
        }
        Map<String, ListShareGroupOffsetsSpec> specs = partitionsByGroup.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue() == null
                        ? new ListShareGroupOffsetsSpec()
                        : new ListShareGroupOffsetsSpec().topicPartitions(e.getValue())));
        var result = client.listShareGroupOffsets(specs);
        Map<String, CompletableFuture<Map<TopicPartition, ShareStart>>> out = new HashMap<>();
        for (String group : partitionsByGroup.keySet()) {
            out.put(group, toCompletable(result.partitionsToOffsetInfo(group)).thenApply(infos -> {
                Map<TopicPartition, ShareStart> present = new HashMap<>();
                // partitions without a start offset come back with a null value
                infos.forEach((tp, info) -> {
                    if (info != null && info.startOffset() >= 0) {
                        present.put(tp, new ShareStart(info.startOffset(), info.lag().orElse(-1L)));
                    }
                });
                return present;
            }));
        }
        return out;
    }
}
