package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sextant.testing.BackwardsSampler;
import dev.sextant.testing.GroupCommitter;
import dev.sextant.testing.SextantProcess;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.ChildJvm;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalClustersExtension;
import dev.sextant.testkit.LocalMirrorMaker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exact positions never move back (issue 36, item 3): groups committing between MirrorMaker 2's offset syncs are
 * written exact (their interval proven by reading the records), and then Sextant is killed with SIGKILL, restarted,
 * killed again and restarted on a wiped state directory, and joined by a second instance that takes half the tasks.
 * Each of those loses the proofs, which live in one process's memory; the destination's offsets, sampled every
 * 100 ms, must never move backwards, for the commit they were written for or a newer one.
 *
 * <p>Real MirrorMaker 2 (the shared clusters' flow, {@code offset.lag.max=100}): the mirror topic is fresh, so a
 * record's offset is the same on both clusters and a position is exact when the destination offset equals the
 * source's. Each group commits in its own stretch of the log, so a restarted instance has many intervals to prove
 * again before its writes are exact.
 */
@ExtendWith(LocalClustersExtension.class)
class ExactAcrossRestartsIT {

    private static final int PARTITIONS = 2;
    private static final int GROUPS = 40;
    private static final int RECORDS = 24_000;
    /** Offsets between two groups' starts on a partition: a few of MirrorMaker 2's syncs apart. */
    private static final long STRIDE = 800;
    private static final Duration RUN_EACH = Duration.ofSeconds(20);

    @Test
    void exactPositionsSurviveKillsAStateWipeAndATaskMoveWithoutMovingBack(LocalClusters clusters,
                                                                           @TempDir Path dir) throws Exception {
        String topic = "exact-restart-ledger";
        String mirrored = LocalMirrorMaker.mirroredTopic(topic);
        clusters.createTopic(clusters.source(), topic, PARTITIONS);
        Clients.produceNumbered(clusters.source(), topic, PARTITIONS, RECORDS);
        clusters.awaitMirrored(topic, Duration.ofSeconds(120));
        for (int p = 0; p < PARTITIONS; p++) {
            int partition = p;
            Await.until(Duration.ofSeconds(90), "MirrorMaker 2's sync of the last record of partition " + p,
                    () -> Clients.mirrorMakerSyncs(clusters.source(), topic, partition).contains(RECORDS - 1L));
        }
        Path stateDir = dir.resolve("state");
        Path config = SextantProcess.writeConfig(dir.resolve("sextant.properties"), config(clusters, stateDir));
        List<String> phases = new ArrayList<>();
        List<ChildJvm> running = new ArrayList<>();
        try (Admin source = clusters.admin(clusters.source());
             Admin destination = clusters.admin(clusters.destination());
             // each group in a stretch of its own: a restarted instance has one interval per group to prove again
             GroupCommitter committer = new GroupCommitter(source, "exact-restart-", topic, PARTITIONS, GROUPS,
                     RECORDS, STRIDE);
             BackwardsSampler sampler = new BackwardsSampler(() -> committer.offsetsOn(destination, mirrored))) {
            running.add(SextantProcess.start(config, dir.resolve("sextant-1.log")));
            awaitExact(committer, source, destination, mirrored, "the first instance");
            phases.add("exact before the first kill: " + sampler.backwards().size() + " backwards");

            running.remove(0).kill();
            running.add(SextantProcess.start(config, dir.resolve("sextant-2.log")));
            awaitWriting(sampler, "restarted after kill -9");
            awaitExact(committer, source, destination, mirrored, "the restarted instance");
            phases.add("after kill -9 and a restart: " + sampler.backwards().size());

            running.remove(0).kill();
            SextantProcess.deleteRecursively(stateDir); // every store restored from its changelog
            running.add(SextantProcess.start(config, dir.resolve("sextant-3.log")));
            awaitWriting(sampler, "restarted on a wiped state directory");
            awaitExact(committer, source, destination, mirrored, "the instance restored from changelogs");
            phases.add("after kill -9 and a state wipe: " + sampler.backwards().size());

            Map<String, String> second = config(clusters, dir.resolve("state-2"));
            running.add(SextantProcess.start(SextantProcess.writeConfig(dir.resolve("sextant-b.properties"), second),
                    dir.resolve("sextant-b.log")));
            Await.until(Duration.ofSeconds(120), "the second instance running",
                    () -> logged(dir.resolve("sextant-b.log"), "RUNNING"));
            long moves = sampler.forwardMoves();
            Await.until(RUN_EACH.multipliedBy(3), "both instances writing",
                    () -> sampler.forwardMoves() - moves >= 200);
            awaitExact(committer, source, destination, mirrored, "two instances after the task move");
            phases.add("after a second instance took tasks over: " + sampler.backwards().size());

            Map<String, Long> last = committer.stop();
            Await.until(Duration.ofSeconds(120), "every group's last commit on the destination, exact", () -> {
                Map<String, Long> there = committer.offsetsOn(destination, mirrored);
                return last.entrySet().stream().allMatch(e -> e.getValue().equals(there.get(e.getKey())));
            });
            System.out.printf("exact across restarts: %d groups committing between MirrorMaker 2's syncs; "
                    + "backwards moves seen, cumulative: %s%n", GROUPS, phases);
            List<String> backwards = sampler.backwards();
            assertEquals(0, backwards.size(), "destination offsets that moved backwards, e.g. "
                    + backwards.subList(0, Math.min(20, backwards.size())));
        } finally {
            for (ChildJvm instance : running) {
                instance.stop(Duration.ofSeconds(30));
            }
        }
    }

    /** Waits until most groups stand exactly where they stand on the source (a moving target: they commit on). */
    private static void awaitExact(GroupCommitter committer, Admin source, Admin destination, String mirrored,
                                   String who) {
        Await.until(Duration.ofSeconds(120), who + " writing most groups exact", () -> {
            Map<String, Long> there = committer.offsetsOn(destination, mirrored);
            Map<String, Long> here = committer.offsetsOn(source);
            long exact = here.entrySet().stream().filter(e -> e.getValue().equals(there.get(e.getKey()))).count();
            return exact >= GROUPS / 2;
        });
    }

    private static void awaitWriting(BackwardsSampler sampler, String who) {
        long moves = sampler.forwardMoves();
        Await.until(Duration.ofSeconds(120), who + " writing", () -> sampler.forwardMoves() - moves >= 100);
        long more = sampler.forwardMoves();
        // run a while: the commits it replays and the newer ones it translates before its proofs come back
        Await.until(RUN_EACH.multipliedBy(2), who + " writing on", () -> sampler.forwardMoves() - more >= 400);
    }

    private static boolean logged(Path log, String text) {
        try {
            return Files.exists(log) && Files.readString(log).contains(text);
        } catch (IOException e) {
            return false;
        }
    }

    private static Map<String, String> config(LocalClusters clusters, Path stateDir) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("source.bootstrap.servers", clusters.source().bootstrapServers());
        config.put("destination.bootstrap.servers", clusters.destination().bootstrapServers());
        config.put("application.id", "sextant-it-exact-restart");
        config.put("state.dir", stateDir.toString());
        config.put("groups.include", "exact-restart-.*");
        config.put("query.listen", "127.0.0.1:0");
        config.put("sync.interval.ms", "100");
        config.put("streams.session.timeout.ms", "6000");
        config.put("streams.heartbeat.interval.ms", "1000");
        // Streams commits its input offsets every 30 s: each restart replays commits the destination holds exact
        config.put("streams.commit.interval.ms", "30000");
        return config;
    }
}
