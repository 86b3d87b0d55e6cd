package dev.sextant.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.SextantApplication;
import dev.sextant.acl.NotAuthorizedException;
import dev.sextant.acl.RequiredAcl;
import dev.sextant.acl.RequiredAcls;
import dev.sextant.acl.SourceTopicReads;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.SextantConfigLoader;
import dev.sextant.testing.AclGrants;
import dev.sextant.testing.SextantInstance;
import dev.sextant.testkit.Await;
import dev.sextant.testkit.Clients;
import dev.sextant.testkit.LocalClusters;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A source that lets Sextant read no {@code __consumer_offsets}, as some managed services (docs/compatibility.md):
 * secured clusters whose authorizer denies what no ACL allows, and Sextant's principal granted what
 * {@code source.offsets.read=admin} needs ({@link RequiredAcls} for it: Describe on the groups, nothing on
 * {@code __consumer_offsets}). Reading the log, the start stops with the missing ACL and the key that runs without it;
 * through the Admin API, a group's commits reach the destination, translated, and a consumer resumed there skips
 * nothing.
 */
class AdminOffsetsReadIT {

    private static final String PRINCIPAL = "User:sextant";
    private static final String SCRAM_PASSWORD = "scram-Managed-5050";
    private static final String TOPIC = "managed-orders";
    private static final String GROUP = "managed-billing";
    private static final int RECORDS = 500;

    @TempDir
    static Path dir;
    static LocalClusters clusters;
    static AclGrants acls;

    @BeforeAll
    static void start() {
        clusters = LocalClusters.builder().secured().scramUser("sextant", SCRAM_PASSWORD).start();
        acls = new AclGrants(clusters, PRINCIPAL);
        clusters.createTopic(clusters.source(), TOPIC, 2);
        Clients.produceNumbered(clusters.source(), TOPIC, 2, RECORDS);
        clusters.awaitMirrored(TOPIC, Duration.ofSeconds(90));
    }

    @AfterAll
    static void stop() {
        if (clusters != null) {
            clusters.close();
        }
    }

    /** Sextant's configuration on the secured pair, as {@code User:sextant} on both clusters. */
    private static Map<String, Object> config(String applicationId, Map<String, Object> extra) {
        Map<String, Object> c = new HashMap<>();
        clusters.source().clientProperties("sextant", SCRAM_PASSWORD).forEach((k, v) -> c.put("source." + k, v));
        clusters.destination().clientProperties("sextant").forEach((k, v) -> c.put("destination." + k, v));
        c.put("application.id", applicationId);
        c.put("state.dir", dir.resolve("state-" + applicationId).toString());
        c.put("query.listen", "127.0.0.1:0");
        c.put("groups.include", "managed-.*");
        c.put("sync.interval.ms", "100");
        c.put("streams.num.stream.threads", "1");
        c.putAll(extra);
        return c;
    }

    @Test
    void readingTheLogIsRefusedWithTheKeyAndTheAdminApiSyncsTheGroup() throws Exception {
        Map<String, Object> admin = config("sextant-managed", Map.of("source.offsets.read", "admin",
                "source.offsets.poll.interval.ms", "500"));
        List<RequiredAcl> granted = RequiredAcls.of(SextantConfigLoader.load(admin, Map.of()),
                SourceTopicReads.only(List.of(SourceTopicReads.literal(TOPIC)), "the test's topic"));
        assertTrue(granted.stream().noneMatch(acl -> acl.name().equals("__consumer_offsets")), granted.toString());
        acls.grant(granted);

        // the group commits first: __consumer_offsets exists, so the check at start can see what it lacks there
        Map<Integer, Long> first = new HashMap<>();
        for (int partition : List.of(0, 1)) {
            long oldest = Await.value(Duration.ofSeconds(60), "a MirrorMaker 2 sync of " + TOPIC + "-" + partition,
                    () -> Clients.mirrorMakerSyncs(clusters.source(), TOPIC, partition).stream()
                            .min(Long::compare).orElse(null));
            first.put(partition, Math.max(200L + partition, oldest + 1));
        }
        Clients.commit(clusters.source(), GROUP, TOPIC, first);

        // reading __consumer_offsets: refused at the start, naming the ACL and the key that needs none
        SextantConfig log = SextantConfigLoader.load(config("sextant-managed", Map.of()), Map.of());
        try (SextantApplication app = new SextantApplication(log, new SimpleMeterRegistry())) {
            NotAuthorizedException refused = assertThrows(NotAuthorizedException.class, app::start);
            assertTrue(refused.getMessage().contains("__consumer_offsets"), refused.getMessage());
            assertTrue(refused.getMessage().contains("source.offsets.read=admin"), refused.getMessage());
        }

        // through the Admin API: the group's commits reach the destination, the first at the start, then a new one
        String mirrored = "source." + TOPIC;
        try (SextantInstance instance = SextantInstance.start(admin, dir.resolve("state-sextant-managed"))) {
            awaitOnDestination(mirrored, first);
            Map<Integer, Long> commit = Map.of(0, first.get(0) + 100, 1, first.get(1) + 100);
            long committedAt = System.nanoTime();
            Clients.commit(clusters.source(), GROUP, TOPIC, commit);
            Map<Integer, OffsetAndMetadata> there = awaitOnDestination(mirrored, commit);
            System.out.printf("source.offsets.read=admin (poll every 500 ms, sync.interval.ms=100): %s committed %s, "
                    + "on the destination %d ms later: %s%n", GROUP, commit,
                    (System.nanoTime() - committedAt) / 1_000_000, there);
            // the consumer resumed on the mirror reads every record from its commit on: none skipped
            Map<Integer, List<Integer>> read = Clients.resumeAndReadToEnd(clusters.destination(), GROUP, mirrored,
                    Map.of(0, (long) RECORDS, 1, (long) RECORDS));
            for (int partition : List.of(0, 1)) {
                List<Integer> values = read.get(partition);
                assertTrue(!values.isEmpty() && values.get(0) <= commit.get(partition), partition + ": " + values);
                assertEquals(RECORDS - 1, values.get(values.size() - 1), "read to the end");
            }
        }
        acls.revoke(granted);
    }

    /** The group's offsets on the destination, once Sextant wrote those of the source commit {@code commit}. */
    private static Map<Integer, OffsetAndMetadata> awaitOnDestination(String mirrored, Map<Integer, Long> commit) {
        return Await.value(Duration.ofSeconds(60), GROUP + " at " + commit + " on the destination", () -> {
            Map<Integer, OffsetAndMetadata> offsets = Clients.committed(clusters, clusters.destination(), GROUP,
                    mirrored);
            boolean written = offsets.size() == commit.size() && commit.entrySet().stream().allMatch(e ->
                    offsets.get(e.getKey()).metadata().startsWith("sextant/")
                            && offsets.get(e.getKey()).metadata().endsWith(" src=" + e.getValue()));
            return written ? offsets : null;
        });
    }
}
