package dev.sextant.apply;

import org.apache.kafka.common.Uuid;

/**
 * What one description of a destination topic says: its partitions, and its id (a recreated topic has a new one).
 *
 * @param partitions the partition count
 * @param id         the topic id
 */
public record DestinationTopic(int partitions, Uuid id) {
}
