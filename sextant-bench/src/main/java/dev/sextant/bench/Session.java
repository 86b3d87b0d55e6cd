package dev.sextant.bench;

import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalMirrorMaker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * The local clusters of one benchmark run: source and destination brokers, the data-mirroring MirrorMaker 2
 * (every {@code bench-.*} topic, {@code offset.lag.max} as configured, no checkpoints), the Admin clients the
 * workload and the pollers use, and the recorder of every offset sync.
 */
final class Session implements AutoCloseable {

    final BenchSettings settings;
    final LocalClusters clusters;
    final Admin sourceAdmin;
    /** Admin clients for the workload's commits (one request in flight each). */
    final List<Admin> committers = new ArrayList<>();
    final Admin destinationAdmin;
    final OffsetSyncRecorder syncs;
    final Path workDir;

    private Session(BenchSettings settings, LocalClusters clusters, Path workDir) {
        this.settings = settings;
        this.clusters = clusters;
        this.workDir = workDir;
        this.sourceAdmin = clusters.admin(clusters.source());
        for (int i = 0; i < 16; i++) {
            Map<String, Object> config = new HashMap<>(clusters.source().clientProperties());
            config.put("client.id", "bench-committer-" + i);
            committers.add(Admin.create(config));
        }
        this.destinationAdmin = clusters.admin(clusters.destination());
        this.syncs = new OffsetSyncRecorder(clusters.source().clientProperties());
    }

    /** The topic every scale's lagging groups commit on, filled once per run. */
    static final String LAG_TOPIC = "bench-lag";

    /** Records per partition of {@link #LAG_TOPIC} once filled. */
    long lagTopicEnd = -1;
    double lagFillSeconds = Double.NaN;

    /**
     * Fills the lagging topic ({@code lagMax} + 5% + 1000 records per partition, at most at {@code lagProduceRate} and
     * never far ahead of MirrorMaker's offset syncs, see {@link NumberedProducer#produce(long, int,
     * java.util.function.IntToLongFunction, long)}), before any syncer runs, and waits until it is mirrored and
     * MirrorMaker's sync of its last record arrived. MirrorMaker's checkpoint task replays the offset-sync topic
     * through its 64-slot index when it starts (its checkpoints topic exists, so it does not restrict itself to the
     * newest sync), so every scale's syncers see the same history.
     */
    void fillLagTopic() {
        long t0 = System.nanoTime();
        clusters.createTopic(clusters.source(), LAG_TOPIC, settings.lagPartitions());
        long end = settings.lagMax() + settings.lagMax() / 20 + 1_000;
        try (NumberedProducer producer = new NumberedProducer(sourceConfig(), LAG_TOPIC, settings.lagPartitions())) {
            producer.produce(end, settings.lagProduceRate(), p -> syncs.newestUpstream(LAG_TOPIC, p),
                    8L * (settings.offsetLagMax() + 1));
        }
        clusters.awaitMirrored(LAG_TOPIC, Duration.ofSeconds(300));
        awaitSyncs(LAG_TOPIC, settings.lagPartitions(), end - 1);
        lagTopicEnd = end;
        lagFillSeconds = Bench.seconds(System.nanoTime() - t0);
    }

    /** Waits (up to a minute) until MirrorMaker's offset syncs of {@code topic} reach {@code upstream}. */
    void awaitSyncs(String topic, int partitions, long upstream) {
        long deadline = System.nanoTime() + 60_000_000_000L;
        for (int p = 0; p < partitions; p++) {
            while (syncs.newestUpstream(topic, p) < upstream && System.nanoTime() < deadline) {
                Bench.sleep(100);
            }
        }
    }

    /**
     * How MirrorMaker spaced its offset syncs on a topic: how many, the largest gap between consecutive ones, and how
     * many gaps exceed {@code offset.lag.max + 1} (MirrorMaker coalesced syncs there).
     */
    Map<String, Long> syncSpacing(String topic, int partitions) {
        long maxGap = 0;
        long count = 0;
        long wide = 0;
        for (int p = 0; p < partitions; p++) {
            long[] s = syncs.spacing(topic, p, settings.offsetLagMax() + 1);
            maxGap = Math.max(maxGap, s[0]);
            count += s[1];
            wide += s[2];
        }
        Map<String, Long> out = new LinkedHashMap<>();
        out.put("syncs", count);
        out.put("max_gap_records", maxGap);
        out.put("gaps_over_offset_lag_max", wide);
        return out;
    }

    static Session start(BenchSettings settings, Path workDir) {
        LocalClusters clusters = LocalClusters.builder()
                .mirrorMaker(LocalMirrorMaker.Options.builder()
                        .topics("bench-.*")
                        .offsetLagMax(settings.offsetLagMax())
                        .build())
                .readyTimeout(Duration.ofSeconds(180))
                .brokerHeap(settings.brokerHeap())
                .start();
        try {
            // MirrorMaker's checkpoint topic exists before any checkpoint task starts: a task that can read it
            // loads the whole offset-sync history into its index (otherwise only the newest sync per partition)
            try (Admin admin = clusters.admin(clusters.destination())) {
                admin.createTopics(List.of(new NewTopic(
                        "source.checkpoints.internal", 1, (short) 1).configs(Map.of("cleanup.policy", "compact"))))
                        .all().get(30, TimeUnit.SECONDS);
            }
            return new Session(settings, clusters, workDir);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            clusters.close();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            clusters.close();
            throw new IllegalStateException("cannot create MirrorMaker's checkpoints topic", e);
        } catch (RuntimeException e) {
            clusters.close();
            throw e;
        }
    }

    Map<String, Object> sourceConfig() {
        return clusters.source().clientProperties();
    }

    String sourceBootstrap() {
        return clusters.source().bootstrapServers();
    }

    String destinationBootstrap() {
        return clusters.destination().bootstrapServers();
    }

    /** The data-mirroring MirrorMaker's pid (not measured; it is the same for every syncer). */
    long dataMirrorMakerPid() {
        return clusters.mirrorMaker().map(LocalMirrorMaker::pid).orElse(-1L);
    }

    /**
     * Copies the clusters' logs (both brokers and the data-mirroring MirrorMaker 2) into {@code dir}: they live in the
     * clusters' directory, which is deleted when the session ends, and a failed scale needs them to be understood.
     * Best effort: a log that cannot be copied is named in the bench's log.
     */
    void keepClusterLogs(Path dir) {
        List<Path> logs = new ArrayList<>(List.of(clusters.source().logFile(), clusters.destination().logFile()));
        clusters.mirrorMaker().ifPresent(mm -> logs.add(mm.logFile()));
        for (Path log : logs) {
            try {
                Files.createDirectories(dir);
                Files.copy(log, dir.resolve(log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException | RuntimeException e) {
                Bench.log("could not keep %s: %s", log, e);
            }
        }
    }

    @Override
    public void close() {
        syncs.close();
        sourceAdmin.close(Duration.ofSeconds(5));
        committers.forEach(a -> a.close(Duration.ofSeconds(5)));
        destinationAdmin.close(Duration.ofSeconds(5));
        clusters.close();
    }
}
