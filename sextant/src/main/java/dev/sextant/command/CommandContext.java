package dev.sextant.command;

import dev.sextant.apply.DestinationSession;
import dev.sextant.apply.OffsetOwnership;
import dev.sextant.clients.ClusterIds;
import dev.sextant.clients.TopicLog;
import dev.sextant.config.Interpolation;
import dev.sextant.config.OwnTopicNames;
import dev.sextant.config.RewindPolicy;
import dev.sextant.config.SextantConfig;
import dev.sextant.deadletter.DeadLetterReader;
import dev.sextant.history.IntervalProofs;
import dev.sextant.source.SourceSession;
import dev.sextant.state.InMemorySyncHistory;
import dev.sextant.state.OffsetSyncHistoryLoader;
import dev.sextant.translate.IntervalEvidence;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;

/**
 * What every command stands on, opened from the configuration in one place: a session with the destination (reads,
 * plans and the appliers' writes), a session with the source (groups, cluster id, a {@code __consumer_offsets}
 * watch), Sextant's own topics as logs, and the interval evidence translation asks. A command takes what it needs
 * from here and never builds a Kafka client of its own, so every command reads and writes the clusters the same way,
 * with the same bounds, and a new command inherits them.
 *
 * <p>Invariants: each client is opened on first use and closed with the context, whatever else fails to close; every
 * call through it ends within {@link #timeout()}. Not thread-safe: one command, one thread.
 */
public final class CommandContext implements AutoCloseable {

    private final SextantConfig config;
    private final Duration timeout;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private final CommandStep step;
    private SourceSession source;
    private IntervalEvidence evidence;

    private CommandContext(SextantConfig config, Duration timeout) {
        this.config = config;
        this.timeout = timeout;
        this.step = new CommandStep(config);
    }

    /** A context whose calls each end within {@code timeout}; nothing is opened yet. */
    public static CommandContext of(SextantConfig config, Duration timeout) {
        return new CommandContext(config, timeout);
    }

    public SextantConfig config() {
        return config;
    }

    public Duration timeout() {
        return timeout;
    }

    /** The step the command is at: which cluster it works with and what for, named in a failure. */
    public CommandStep step() {
        return step;
    }

    /** The names of Sextant's own topics for this {@code application.id}. */
    public OwnTopicNames topics() {
        return new OwnTopicNames(config.applicationId());
    }

    /** The source cluster's session, opened on first use. */
    public SourceSession source() {
        if (source == null) {
            source = keep(new SourceSession(config.sourceClientConfig(), timeout.toMillis()));
        }
        return source;
    }

    /**
     * The source cluster's id as it says it now.
     *
     * @throws IllegalStateException when it does not answer within the timeout
     */
    public String sourceClusterId() {
        return clusterId(config.sourceClientConfig(), "the source");
    }

    /**
     * The destination cluster's id as it says it now.
     *
     * @throws IllegalStateException when it does not answer within the timeout
     */
    public String destinationClusterId() {
        return clusterId(config.destinationClientConfig(), "the destination");
    }

    private String clusterId(Map<String, Object> clientConfig, String which) {
        try (Admin admin = Admin.create(clientConfig)) {
            return ClusterIds.read(admin, timeout, which);
        }
    }

    /**
     * A new session with the destination whose writes carry this Sextant's mark naming {@code sourceCluster} (null:
     * none, as an older release's marks), through the sync's appliers with the configured rewind policy. The caller
     * owns it and closes it (a command may open one per group: kept here, they would stay open to the end).
     *
     * @param adoptForward take over offsets Sextant did not write where the translation is at or above them
     */
    public DestinationSession destination(String sourceCluster, boolean adoptForward) {
        OffsetOwnership ownership = sourceCluster == null ? new OffsetOwnership(config.applicationId())
                : new OffsetOwnership(config.applicationId(), sourceCluster);
        return DestinationSession.open(config.destinationClientConfig(), timeout, ownership,
                config.rewindPolicy() == RewindPolicy.FOLLOW_SOURCE, adoptForward);
    }

    /** Sextant's offset-sync history topic on the source. */
    public TopicLog historyTopic() {
        return keep(new TopicLog(config.sourceClientConfig(), topics().history(), source(config), timeout));
    }

    /** The groups cut over to the destination: Sextant's cutovers topic on the source. */
    public CutoverLedger cutovers() {
        return new CutoverLedger(keep(new TopicLog(config.sourceClientConfig(), topics().cutovers(), source(config),
                timeout)));
    }

    /** The dead-letter topic on the source, from its beginning. */
    public DeadLetterReader deadLetters() {
        return keep(new DeadLetterReader(config.sourceClientConfig(), config.dlqTopic()));
    }

    /**
     * The offset-sync history as Sextant keeps it on the source, replayed in memory.
     *
     * @param readTimeout how long the read to the end may take
     * @throws IllegalStateException when it cannot be read to its end in that time
     */
    public InMemorySyncHistory loadHistory(Duration readTimeout) {
        try (TopicLog history = new TopicLog(config.sourceClientConfig(), topics().history(), source(config),
                readTimeout)) {
            return OffsetSyncHistoryLoader.load(history);
        }
    }

    /** What proves an interval between two offset syncs, as the running sync has it. */
    public IntervalEvidence intervalEvidence() {
        if (evidence == null) {
            IntervalProofs proofs = IntervalReading.onCallerThread(config);
            if (proofs != null) {
                evidence = keep(proofs);
            } else {
                evidence = config.interpolation() == Interpolation.UNVERIFIED ? IntervalEvidence.TRUSTED
                        : IntervalEvidence.NONE;
            }
        }
        return evidence;
    }

    private static String source(SextantConfig config) {
        return "the source cluster (" + config.sourceClientConfig().get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)
                + ")";
    }

    private <T extends AutoCloseable> T keep(T resource) {
        opened.add(resource);
        return resource;
    }

    /** Closes everything opened, newest first; the first failure is thrown once all were closed. */
    @Override
    public void close() {
        RuntimeException failed = null;
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (Exception e) {
                if (failed == null) {
                    failed = e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        opened.clear();
        if (failed != null) {
            throw failed;
        }
    }
}
