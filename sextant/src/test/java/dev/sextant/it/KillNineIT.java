package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.testing.GroupCommitter;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.ChildJvm;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} of a Sextant process five times while 1,000 groups commit on the source, once with its state
 * directory deleted (a restore from the changelogs): every group's last commit reaches the destination, and no
 * destination offset, sampled every 100 ms, ever moves backwards (a commit replayed after a restore is older than
 * the one the destination carries, and is not written over it).
 *
 * <p>Sextant runs as {@code sextant run -c FILE} in a child JVM, so the kill is a real SIGKILL. Identity translation
 * on a topic of the same name on both clusters: the replay bound is 0, and MirrorMaker 2 is not part of what is
 * measured.
 */
@ExtendWith(LocalClustersExtension.class)
class KillNineIT {

    private static final String APP = "sextant-it-crash";
    private static final String TOPIC = "crash-ledger";
    private static final int PARTITIONS = 4;
    private static final int GROUPS = 1_000;
    private static final int KILLS = 5;
    private static final int RECORDS = 20_000;

    @Test
    void killedFiveTimesMidFlushNothingGoesBackwardsAndEveryLastCommitArrives(LocalClusters clusters,
                                                                                @TempDir Path dir) throws Exception {
        clusters.createTopic(clusters.source(), TOPIC, PARTITIONS);
        clusters.createTopic(clusters.destination(), TOPIC, PARTITIONS);
        Clients.produceNumbered(clusters.source(), TOPIC, PARTITIONS, RECORDS);
        Clients.produceNumbered(clusters.destination(), TOPIC, PARTITIONS, RECORDS);
        Path stateDir = dir.resolve("state");
        Path config = writeConfig(clusters, dir, stateDir);

        Map<String, Long> lastSeen = new ConcurrentHashMap<>();
        List<String> backwards = new ArrayList<>();
        AtomicLong forwardMoves = new AtomicLong();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        List<Long> restartMs = new ArrayList<>();
        try (Admin source = clusters.admin(clusters.source());
             Admin destination = clusters.admin(clusters.destination());
             GroupCommitter committer = new GroupCommitter(source, "crash-", TOPIC, PARTITIONS, GROUPS, RECORDS)) {
            sampler.scheduleWithFixedDelay(() -> committer.offsetsOn(destination).forEach((group, offset) -> {
                Long before = lastSeen.put(group, offset);
                if (before != null && offset < before) {
                    synchronized (backwards) {
                        backwards.add(group + ": " + before + " -> " + offset);
                    }
                } else if (before == null || offset > before) {
                    forwardMoves.incrementAndGet();
                }
            }), 0, 100, TimeUnit.MILLISECONDS);

            for (int kill = 1; kill <= KILLS; kill++) {
                if (kill == 3) {
                    deleteRecursively(stateDir); // this restart restores every store from its changelog
                }
                long startedAt = System.nanoTime();
                long movesAtStart = forwardMoves.get();
                ChildJvm sextant = start(config, dir.resolve("sextant-" + kill + ".log"));
                try {
                    // killed only once it writes: mid-flush, with 1,000 groups' writes coming and going
                    Await.until(Duration.ofSeconds(120), "instance " + kill + " writing (log "
                            + dir.resolve("sextant-" + kill + ".log") + ")",
                            () -> forwardMoves.get() - movesAtStart >= 200);
                    restartMs.add((System.nanoTime() - startedAt) / 1_000_000);
                } finally {
                    sextant.kill();
                }
            }

            long finalStart = System.nanoTime();
            ChildJvm sextant = start(config, dir.resolve("sextant-final.log"));
            try {
                Map<String, Long> expected = committer.stop();
                Await.until(Duration.ofSeconds(120), "every group's last commit on the destination", () -> {
                    Map<String, Long> there = committer.offsetsOn(destination);
                    return expected.entrySet().stream().allMatch(e -> e.getValue().equals(there.get(e.getKey())));
                });
                long caughtUpMs = (System.nanoTime() - finalStart) / 1_000_000;
                System.out.printf("kill -9: %d kills (the 3rd with the state directory deleted); from start to "
                                + "writing again: %s ms; the last instance had every group's last commit on the "
                                + "destination %d ms after it started; backwards moves seen: %d%n", KILLS, restartMs,
                        caughtUpMs, backwards.size());
            } finally {
                sextant.stop(Duration.ofSeconds(30));
            }
        } finally {
            sampler.shutdownNow();
            sampler.awaitTermination(10, TimeUnit.SECONDS);
        }
        synchronized (backwards) {
            assertEquals(0, backwards.size(), "destination offsets that moved backwards, e.g. "
                    + backwards.subList(0, Math.min(20, backwards.size())));
        }
    }

    private static ChildJvm start(Path config, Path log) {
        return ChildJvm.start("sextant", List.of("-Xmx384m", "-XX:TieredStopAtLevel=1"), classpath(),
                "dev.sextant.cli.SextantCommand", List.of("run", "-c", config.toString()), log,
                Map.of("SEXTANT_KAFKA_LOG_LEVEL", "WARN"));
    }

    private static Path writeConfig(LocalClusters clusters, Path dir, Path stateDir) throws IOException {
        Path file = dir.resolve("sextant.properties");
        Files.writeString(file, String.join("\n",
                "source.bootstrap.servers=" + clusters.source().bootstrapServers(),
                "destination.bootstrap.servers=" + clusters.destination().bootstrapServers(),
                "application.id=" + APP,
                "state.dir=" + stateDir,
                "translation=identity",
                "replication.policy=identity",
                "groups.include=crash-.*",
                "query.listen=127.0.0.1:0",
                "sync.interval.ms=100",
                // a killed member is noticed after 6 s, not Kafka's default 45 s
                "streams.session.timeout.ms=6000",
                // Streams commits its input offsets every 30 s, so each restart replays up to 30 s of commits the
                // destination already holds newer ones of, in small polls with flushes between: the case where a
                // replayed older commit would be written over a newer one
                "streams.commit.interval.ms=30000",
                "streams.max.poll.records=100",
                "streams.heartbeat.interval.ms=1000",
                ""));
        return file;
    }

    /** This JVM's classpath with absolute entries (the child runs in another directory). */
    private static List<Path> classpath() {
        List<Path> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.isBlank()) {
                entries.add(Paths.get(entry).toAbsolutePath());
            }
        }
        return entries;
    }

    private static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
