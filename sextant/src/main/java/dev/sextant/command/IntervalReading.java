package dev.sextant.command;

import dev.sextant.config.Interpolation;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.Translation;
import dev.sextant.history.IntervalProofs;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.source.KafkaRecordRanges;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * What proves an interval between two offset syncs, built from the configuration in one place for the running sync
 * and for the commands that translate ({@code translation.interpolation}): {@code verified} reads the records of the
 * interval on both clusters ({@link IntervalProofs}), {@code unverified} takes equal deltas alone, {@code off} is
 * MirrorMaker 2's rule.
 */
public final class IntervalReading {

    /** The most one read of an interval on one cluster may take. */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(10);

    private IntervalReading() {
    }

    /**
     * The running sync's proofs, read on a thread of their own.
     *
     * @param mirrorTopic the destination topic a source topic is mirrored to
     */
    public static IntervalProofs background(SextantConfig config, UnaryOperator<String> mirrorTopic,
                                            SextantMetrics metrics) {
        Ranges ranges = ranges(config, "sextant-interval-reader");
        return new IntervalProofs(ranges.source(), ranges.destination(), mirrorTopic, config.verifyMaxRecords(),
                metrics);
    }

    /**
     * A command's proofs, read on its own thread while it translates; null unless
     * {@code translation.interpolation=verified} with {@code translation=offset-syncs}.
     */
    static IntervalProofs onCallerThread(SextantConfig config) {
        if (config.translation() != Translation.OFFSET_SYNCS || config.interpolation() != Interpolation.VERIFIED) {
            return null;
        }
        Ranges ranges = ranges(config, "sextant-failover-reader");
        return IntervalProofs.onCallerThread(ranges.source(), ranges.destination(),
                topic -> config.replicationPolicy().formatRemoteTopic(config.sourceAlias(), topic),
                config.verifyMaxRecords(), new SextantMetrics(new SimpleMeterRegistry()));
    }

    private record Ranges(KafkaRecordRanges source, KafkaRecordRanges destination) {
    }

    /** A reader of each cluster, named {@code <prefix>-source} and {@code <prefix>-destination} by the brokers. */
    private static Ranges ranges(SextantConfig config, String clientIdPrefix) {
        return new Ranges(
                new KafkaRecordRanges(config.sourceClientConfig(), clientIdPrefix + "-source", "none", READ_TIMEOUT),
                new KafkaRecordRanges(config.destinationClientConfig(), clientIdPrefix + "-destination", "none",
                        READ_TIMEOUT));
    }
}
