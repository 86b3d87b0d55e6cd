package dev.sextant.apply;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether the destination can take a Kafka Streams group (KIP-1071) that Sextant seeds. Sextant writes a streams
 * group's offsets as any admin commit is written: onto an empty streams group, or onto no group at all, which creates
 * an empty classic group that the application's first streams-protocol heartbeat converts, keeping the offsets. That
 * conversion needs brokers that run streams groups ({@code streams.version} finalized at 1 or more) and is broken in
 * Kafka 4.2.0 (KAFKA-20254, fixed in 4.2.1): a converted group fails to load again after its classic records are
 * compacted away.
 *
 * <p>A broker's protocol does not tell 4.2.0 from 4.2.1 (both support metadata versions up to 4.2-IV1, level 29): a
 * destination on 4.2 is refused unless the operator states its version
 * ({@code sync.streams.destination.kafka.version}). A pure verdict.
 */
public record StreamsGroupSupport(Verdict verdict, String detail) {

    public enum Verdict {
        /** The destination's features are not read yet: wait. */
        UNKNOWN,
        /** Streams groups may be written. */
        SUPPORTED,
        /** Streams groups are not written: {@link #detail()} says why and what to do. */
        REFUSED
    }

    /** The first metadata.version level of Kafka 4.3 (4.3-IV0): brokers at or above it carry the KAFKA-20254 fix. */
    static final int METADATA_VERSION_4_3 = 30;
    /** The first metadata.version level of Kafka 4.2 (4.2-IV0). */
    static final int METADATA_VERSION_4_2 = 28;

    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)");

    public static final StreamsGroupSupport UNKNOWN = new StreamsGroupSupport(Verdict.UNKNOWN, null);

    /**
     * @param features        what the destination reports
     * @param declaredVersion the destination brokers' Kafka version as the operator states it ("4.2.1"), or empty
     */
    public static StreamsGroupSupport of(DestinationFeatures features, Optional<String> declaredVersion) {
        if (!features.known()) {
            return UNKNOWN;
        }
        if (features.streamsVersion() < 1) {
            return refused("the destination runs no Kafka Streams groups (streams.version is not finalized there: "
                    + "brokers older than 4.2, or the feature disabled), so the application could not resume there "
                    + "with group.protocol=streams; upgrade the destination to 4.2.1 or later (kafka-features.sh "
                    + "upgrade --feature streams.version=1), or exclude the group");
        }
        if (features.maxMetadataVersion() >= METADATA_VERSION_4_3) {
            return new StreamsGroupSupport(Verdict.SUPPORTED, null);
        }
        if (features.maxMetadataVersion() < METADATA_VERSION_4_2) {
            return refused("the destination brokers run Kafka older than 4.2 (metadata.version level "
                    + features.maxMetadataVersion() + " at most), which cannot convert a seeded group to a streams "
                    + "group; upgrade the destination to 4.2.1 or later");
        }
        Optional<int[]> declared = declaredVersion.flatMap(StreamsGroupSupport::parse);
        if (declared.isPresent() && atLeast(declared.get(), 4, 2, 1)) {
            return new StreamsGroupSupport(Verdict.SUPPORTED, null);
        }
        return refused("the destination brokers run Kafka 4.2 (metadata.version level "
                + features.maxMetadataVersion() + " at most); Kafka 4.2.0 loses a seeded group's offsets once it is "
                + "converted to a streams group (KAFKA-20254) and its protocol cannot be told from 4.2.1's: upgrade "
                + "the destination, or set sync.streams.destination.kafka.version to the version it runs if that is "
                + "4.2.1 or later" + declaredVersion.map(v -> " (it says " + v + ")").orElse(""));
    }

    public boolean refused() {
        return verdict == Verdict.REFUSED;
    }

    private static StreamsGroupSupport refused(String detail) {
        return new StreamsGroupSupport(Verdict.REFUSED, detail);
    }

    /** True for a version like {@code 4.2.1}: what {@code sync.streams.destination.kafka.version} accepts. */
    public static boolean validVersion(String version) {
        return parse(version).isPresent();
    }

    private static Optional<int[]> parse(String version) {
        Matcher m = VERSION.matcher(version.trim());
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
            Integer.parseInt(m.group(3))});
    }

    private static boolean atLeast(int[] v, int major, int minor, int patch) {
        if (v[0] != major) {
            return v[0] > major;
        }
        if (v[1] != minor) {
            return v[1] > minor;
        }
        return v[2] >= patch;
    }
}
