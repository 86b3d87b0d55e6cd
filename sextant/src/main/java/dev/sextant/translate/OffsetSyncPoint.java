package dev.sextant.translate;

/**
 * One point of MirrorMaker 2's offset mapping: the record at {@code upstreamOffset} of the source partition was
 * written at {@code downstreamOffset} of its mirror.
 */
public record OffsetSyncPoint(String topic, int partition, long upstreamOffset, long downstreamOffset) {
}
