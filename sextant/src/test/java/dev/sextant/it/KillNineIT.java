package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sextant.testing.BackwardsSampler;
import dev.sextant.testing.GroupCommitter;
import dev.sextant.testing.QueryProbe;
import dev.sextant.testing.SextantProcess;
import dev.sextant.testing.StopLog;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.ChildJvm;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sextant processes killed with SIGKILL while 1,000 groups commit on the source: every group's last commit reaches
 * the destination, and no destination offset, sampled every 100 ms, ever moves backwards (a commit replayed after a
 * restore, or written by an instance that lost the group, is older than the one the destination carries, and is not
 * written over it).
 *
 * <p>Sextant runs as {@code sextant run -c FILE} in child JVMs, so a kill is a real SIGKILL. Identity translation on
 * a topic of the same name on both clusters: the replay bound is 0, and MirrorMaker 2 is not part of what is
 * measured.
 */
@ExtendWith(LocalClustersExtension.class)
class KillNineIT {

    private static final int PARTITIONS = 4;
    private static final int GROUPS = 1_000;
    private static final int RECORDS = 20_000;

    @Test
    void killedFiveTimesMidFlushNothingGoesBackwardsAndEveryLastCommitArrives(LocalClusters clusters,
                                                                                @TempDir Path dir) throws Exception {
        String topic = topic(clusters, "crash-ledger");
        Path stateDir = dir.resolve("state");
        Path config = SextantProcess.writeConfig(dir.resolve("sextant.properties"),
                config(clusters, "sextant-it-crash", "crash-", stateDir));
        List<Long> restartMs = new ArrayList<>();
        try (Admin source = clusters.admin(clusters.source());
             Admin destination = clusters.admin(clusters.destination());
             GroupCommitter committer = new GroupCommitter(source, "crash-", topic, PARTITIONS, GROUPS, RECORDS);
             BackwardsSampler sampler = new BackwardsSampler(committer, destination)) {
            for (int kill = 1; kill <= 5; kill++) {
                if (kill == 3) {
                    SextantProcess.deleteRecursively(stateDir); // this restart restores every store from its changelog
                }
                long startedAt = System.nanoTime();
                long movesAtStart = sampler.forwardMoves();
                Path log = dir.resolve("sextant-" + kill + ".log");
                ChildJvm sextant = SextantProcess.start(config, log);
                try {
                    // killed only once it writes: mid-flush, with 1,000 groups' writes coming and going
                    Await.until(Duration.ofSeconds(120), "instance " + kill + " writing (log " + log + ")",
                            () -> sampler.forwardMoves() - movesAtStart >= 200);
                    restartMs.add((System.nanoTime() - startedAt) / 1_000_000);
                } finally {
                    sextant.kill();
                }
            }

            long finalStart = System.nanoTime();
            ChildJvm sextant = SextantProcess.start(config, dir.resolve("sextant-final.log"));
            try {
                awaitLastCommits(committer, destination);
                System.out.printf("kill -9: 5 kills (the 3rd with the state directory deleted); from start to "
                                + "writing again: %s ms; the last instance had every group's last commit on the "
                                + "destination %d ms after it started; backwards moves seen: %d%n", restartMs,
                        (System.nanoTime() - finalStart) / 1_000_000, sampler.backwards().size());
            } finally {
                sextant.stop(Duration.ofSeconds(30));
            }
            StopLog.assertQuiet(dir.resolve("sextant-final.log"));
            assertNothingWentBackwards(sampler);
        }
    }

    @Test
    void threeInstancesUnderLoadOneKilledOneAddedOneRestartedNothingGoesBackwardsAndEveryInstanceAnswers(
            LocalClusters clusters, @TempDir Path dir) throws Exception {
        String topic = topic(clusters, "scale-ledger");
        Map<Integer, ChildJvm> instances = new LinkedHashMap<>();
        Map<Integer, Integer> ports = new LinkedHashMap<>();
        Map<String, Long> answering = new LinkedHashMap<>();
        try (Admin source = clusters.admin(clusters.source());
             Admin destination = clusters.admin(clusters.destination());
             GroupCommitter committer = new GroupCommitter(source, "scale-", topic, PARTITIONS, GROUPS, RECORDS);
             BackwardsSampler sampler = new BackwardsSampler(committer, destination);
             QueryProbe probe = new QueryProbe(IntStream.range(0, 20).mapToObj(g -> committer.group(g * 50))
                     .toList())) {
            for (int i = 1; i <= 3; i++) {
                startInstance(clusters, dir, i, instances, ports, probe, sampler);
            }
            long change = System.nanoTime();
            answering.put("3 instances", awaitAnswering(probe, change, "3 instances"));

            long moves = sampler.forwardMoves();
            probe.gone(ports.get(1));
            change = System.nanoTime();
            instances.get(1).kill(); // one of three dies; its groups move to the other two
            Await.until(Duration.ofSeconds(120), "the survivors writing the killed one's groups too",
                    () -> sampler.forwardMoves() - moves >= 2_000);
            answering.put("one killed", awaitAnswering(probe, change, "after the kill"));

            change = System.nanoTime();
            startInstance(clusters, dir, 4, instances, ports, probe, sampler); // one added
            answering.put("one added (from its start)", awaitAnswering(probe, change, "with one added"));

            // a rolling restart: stopped (it leaves the group) and started again on the same state directory
            probe.gone(ports.get(2));
            change = System.nanoTime();
            instances.get(2).stop(Duration.ofSeconds(30));
            StopLog.assertQuiet(dir.resolve("sextant-2.log"));
            answering.put("one stopped", awaitAnswering(probe, change, "with one stopped"));
            change = System.nanoTime();
            startInstance(clusters, dir, 2, instances, ports, probe, sampler);
            answering.put("it started again (from its start)", awaitAnswering(probe, change, "after the restart"));

            awaitLastCommits(committer, destination);
            System.out.printf("scale: 3 instances under load, one killed, one added, one restarted: backwards moves "
                    + "seen: %d; every live instance answered /v1/groups/{g} for 20 groups again, seconds after "
                    + "each change: %s; 503 with Retry-After answered %d times meanwhile, other answers %d%n",
                    sampler.backwards().size(), answering, probe.unavailableAnswers(), probe.violations().size());
            assertNothingWentBackwards(sampler);
            assertEquals(List.of(), probe.violations().subList(0, Math.min(20, probe.violations().size())),
                    "answers other than the group or 503 with Retry-After");
        } finally {
            for (ChildJvm instance : instances.values()) {
                instance.stop(Duration.ofSeconds(30));
            }
        }
        assertEveryLineIsJson(dir.resolve("sextant-4.log"));
    }

    /** Starts instance {@code i} (the 4th logs JSON) on its own port, and waits until it runs and writes. */
    private static void startInstance(LocalClusters clusters, Path dir, int i, Map<Integer, ChildJvm> instances,
                                      Map<Integer, Integer> ports, QueryProbe probe, BackwardsSampler sampler)
            throws IOException {
        int port = ports.computeIfAbsent(i, n -> freePort());
        Map<String, String> settings = config(clusters, "sextant-it-scale", "scale-", dir.resolve("state-" + i));
        settings.put("query.listen", "127.0.0.1:" + port);
        Path config = SextantProcess.writeConfig(dir.resolve("sextant-" + i + ".properties"), settings);
        Path log = dir.resolve("sextant-" + i + (instances.containsKey(i) ? "-again" : "") + ".log");
        instances.put(i, SextantProcess.start(config, log, i == 4 ? Map.of("SEXTANT_LOG_FORMAT", "json") : Map.of()));
        // the others' writes alone can reach the count below before a new JVM is up (seen once the write path got
        // faster: the 4th was stopped before it had logged a line)
        Await.until(Duration.ofSeconds(120), "instance " + i + " running", () -> logged(log, "RUNNING"));
        probe.live(port);
        long moves = sampler.forwardMoves();
        Await.until(Duration.ofSeconds(120), "instance " + i + " up, writing", () -> sampler.forwardMoves() - moves
                >= 500);
    }

    /** Seconds from {@code change} until every live instance answered every sampled group. */
    private static long awaitAnswering(QueryProbe probe, long change, String when) {
        Await.until(Duration.ofSeconds(120), "every live instance answering " + when,
                () -> probe.completeSince(change));
        return (System.nanoTime() - change) / 1_000_000_000L;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Back within seconds after a crash, with Kafka's default session timeout (45 s): the instance restarted on the
     * same host and state directory has the same static member id, so it takes its tasks back at once instead of
     * waiting for the killed member's session to expire. Measured from the kill to the first destination offset the
     * restarted instance moves, with the state directory kept, then wiped (every store restored from its changelog:
     * 1,000 groups x 4 partitions).
     */
    @Test
    void aKilledInstanceWithDefaultSessionSettingsWritesAgainWithinSeconds(LocalClusters clusters,
                                                                            @TempDir Path dir) throws Exception {
        String topic = topic(clusters, "comeback-ledger");
        Path stateDir = dir.resolve("state");
        Map<String, String> settings = config(clusters, "sextant-it-comeback", "comeback-", stateDir);
        settings.remove("streams.session.timeout.ms");
        settings.remove("streams.heartbeat.interval.ms");
        settings.remove("streams.commit.interval.ms");
        settings.remove("streams.max.poll.records");
        Path config = SextantProcess.writeConfig(dir.resolve("sextant.properties"), settings);
        Map<String, Long> killToWriting = new LinkedHashMap<>();
        try (Admin source = clusters.admin(clusters.source());
             Admin destination = clusters.admin(clusters.destination());
             GroupCommitter committer = new GroupCommitter(source, "comeback-", topic, PARTITIONS, GROUPS, RECORDS);
             BackwardsSampler sampler = new BackwardsSampler(committer, destination)) {
            ChildJvm sextant = SextantProcess.start(config, dir.resolve("sextant-0.log"));
            try {
                awaitWriting(sampler, "the first instance", 200);
                for (String restart : List.of("state kept", "state wiped")) {
                    sextant.kill();
                    long killedAt = System.nanoTime();
                    if (restart.equals("state wiped")) {
                        SextantProcess.deleteRecursively(stateDir);
                    }
                    long moves = sampler.forwardMoves();
                    int restarts = killToWriting.size() + 1;
                    sextant = SextantProcess.start(config, dir.resolve("sextant-" + restarts + ".log"));
                    Await.until(Duration.ofSeconds(90), "writing again, " + restart,
                            () -> sampler.forwardMoves() - moves >= 50);
                    killToWriting.put(restart, (System.nanoTime() - killedAt) / 1_000_000);
                }
                awaitLastCommits(committer, destination);
            } finally {
                sextant.stop(Duration.ofSeconds(30));
            }
            System.out.printf("restart with default session settings: from the kill to writing again %s ms%n",
                    killToWriting);
            // a dynamic member would wait out the killed member's 45 s session before anything moved again
            killToWriting.forEach((restart, ms) -> assertTrue(ms < 30_000, restart + ": " + ms + " ms"));
            assertNothingWentBackwards(sampler);
        }
    }

    private static void awaitWriting(BackwardsSampler sampler, String who, long moves) {
        long from = sampler.forwardMoves();
        Await.until(Duration.ofSeconds(120), who + " writing", () -> sampler.forwardMoves() - from >= moves);
    }

    /** True once the instance's log holds {@code text} (its Kafka Streams state changes are logged). */
    private static boolean logged(Path log, String text) {
        try {
            return Files.exists(log) && Files.readString(log).contains(text);
        } catch (IOException | UncheckedIOException e) {
            return false; // not written yet, or mid-write: the next poll reads it again
        }
    }

    /** SEXTANT_LOG_FORMAT=json: one JSON object per line, with level, logger and message. */
    private static void assertEveryLineIsJson(Path log) throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<String> lines = Files.readAllLines(log);
        int parsed = 0;
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode node;
            try {
                node = json.readTree(line);
            } catch (IOException e) {
                throw new AssertionError("not JSON in " + log + ": " + line, e);
            }
            assertTrue(node.hasNonNull("level") && node.hasNonNull("loggerName") && node.has("formattedMessage"),
                    line);
            parsed++;
        }
        assertTrue(parsed > 0, "the JSON-logging instance logged nothing: " + log);
        System.out.printf("SEXTANT_LOG_FORMAT=json: %d lines, every one a JSON object%n", parsed);
    }

    private static String topic(LocalClusters clusters, String topic) {
        clusters.createTopic(clusters.source(), topic, PARTITIONS);
        clusters.createTopic(clusters.destination(), topic, PARTITIONS);
        Clients.produceNumbered(clusters.source(), topic, PARTITIONS, RECORDS);
        Clients.produceNumbered(clusters.destination(), topic, PARTITIONS, RECORDS);
        return topic;
    }

    private static void awaitLastCommits(GroupCommitter committer, Admin destination) throws InterruptedException {
        Map<String, Long> expected = committer.stop();
        Await.until(Duration.ofSeconds(120), "every group's last commit on the destination", () -> {
            Map<String, Long> there = committer.offsetsOn(destination);
            return expected.entrySet().stream().allMatch(e -> e.getValue().equals(there.get(e.getKey())));
        });
    }

    private static void assertNothingWentBackwards(BackwardsSampler sampler) {
        List<String> backwards = sampler.backwards();
        assertEquals(0, backwards.size(), "destination offsets that moved backwards, e.g. "
                + backwards.subList(0, Math.min(20, backwards.size())));
    }

    private static Map<String, String> config(LocalClusters clusters, String app, String groupPrefix, Path stateDir) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("source.bootstrap.servers", clusters.source().bootstrapServers());
        config.put("destination.bootstrap.servers", clusters.destination().bootstrapServers());
        config.put("application.id", app);
        config.put("state.dir", stateDir.toString());
        config.put("translation", "identity");
        config.put("replication.policy", "identity");
        config.put("groups.include", groupPrefix + ".*");
        config.put("query.listen", "127.0.0.1:0");
        config.put("sync.interval.ms", "100");
        // a killed member is noticed after 6 s, not Kafka's default 45 s
        config.put("streams.session.timeout.ms", "6000");
        config.put("streams.heartbeat.interval.ms", "1000");
        // Streams commits its input offsets every 30 s, so each restart replays up to 30 s of commits the destination
        // already holds newer ones of, in small polls with flushes between: the case where a replayed older commit
        // would be written over a newer one
        config.put("streams.commit.interval.ms", "30000");
        config.put("streams.max.poll.records", "100");
        return config;
    }
}
