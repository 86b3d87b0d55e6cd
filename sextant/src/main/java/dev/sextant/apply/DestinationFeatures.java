package dev.sextant.apply;

/**
 * The Kafka features a destination broker reports (DescribeFeatures): what decides whether it can take a Kafka
 * Streams group that Sextant seeds.
 *
 * @param streamsVersion     the cluster's finalized {@code streams.version} level (0 when not finalized: no streams
 *                           groups), -1 when not read
 * @param maxMetadataVersion the highest {@code metadata.version} level the answering broker supports: its software
 *                           release (28-29 are 4.2, 30 is 4.3), -1 when not read
 */
public record DestinationFeatures(int streamsVersion, int maxMetadataVersion) {

    /** Not read yet, or the destination did not answer. */
    public static final DestinationFeatures UNKNOWN = new DestinationFeatures(-1, -1);

    public boolean known() {
        return streamsVersion >= 0 && maxMetadataVersion >= 0;
    }
}
