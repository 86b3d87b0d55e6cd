package dev.sextant.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.acl.AccessDenials;
import dev.sextant.apply.ConsumerGroupApplier;
import dev.sextant.apply.DestinationView;
import dev.sextant.apply.OffsetOwnership;
import dev.sextant.apply.OverwritePolicy;
import dev.sextant.apply.ShareGroupApplier;
import dev.sextant.config.OwnTopicNames;
import dev.sextant.metrics.SextantMetrics;
import dev.sextant.sync.SyncRuntime;
import dev.sextant.sync.SyncSettings;
import dev.sextant.sync.SyncSettings.OffsetRules;
import dev.sextant.sync.SyncSettings.Timing;
import dev.sextant.testing.InMemoryDestination;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;

/**
 * docs/operations.md names every topic Sextant makes on the source, as the topology and Kafka Streams name them, so the
 * decommission deletes them all: Sextant's own topics (the sinks' and the global stores' topics) and one changelog per
 * store of a task, {@code <application.id>-<store>-changelog}; the dead-letter topic apart, being unprefixed.
 */
class OperationsDocTest {

    private static final Path ROOT = Path.of(System.getProperty("basedir", "."), "..").normalize();
    private static final String APP = "app";

    @Test
    void theDecommissionDeletesEveryTopicTheTopologyMakesOnTheSource() throws IOException {
        SyncSettings settings = TestSettings.groupSync(APP, "mm2-offset-syncs.destination.internal",
                new Timing(250, 5_000, 10_000, 30_000), new OffsetRules(false, true), Clock.systemUTC());
        assertTrue(settings.syncShareGroups(), "every optional branch of the topology is in");
        InMemoryDestination destination = new InMemoryDestination();
        FakeSource source = new FakeSource();
        SyncRuntime runtime = new SyncRuntime(new DestinationView(destination),
                new ConsumerGroupApplier(destination, new OffsetOwnership(APP), OverwritePolicy.DEFAULTS,
                        new AccessDenials(Clock.systemUTC())),
                new ShareGroupApplier(destination), source, source, new SextantMetrics(new SimpleMeterRegistry()));
        TopologyDescription topology = SextantTopology.build(settings, runtime).describe();

        Set<String> made = new TreeSet<>();
        for (TopologyDescription.Subtopology sub : topology.subtopologies()) {
            for (TopologyDescription.Node node : sub.nodes()) {
                if (node instanceof TopologyDescription.Processor processor) {
                    processor.stores().forEach(store -> made.add(APP + "-" + store + "-changelog"));
                } else if (node instanceof TopologyDescription.Sink sink) {
                    made.add(sink.topic());
                }
            }
        }
        topology.globalStores().forEach(store -> made.addAll(store.source().topicSet()));
        assertTrue(made.remove(settings.dlqTopic()), "the dead-letter topic, deleted in a step of its own");
        // source.offsets.read=admin: made at start (OwnTopics), read by the topology, written by the Admin API poll
        made.add(new OwnTopicNames(APP).sourceCommits());

        String doc = Files.readString(ROOT.resolve("docs/operations.md"));
        Matcher list = Pattern.compile("for t in ([^;]+); do").matcher(doc);
        assertTrue(list.find(), "docs/operations.md lists the topics to delete in 'for t in ...; do'");
        Set<String> documented = Arrays.stream(list.group(1).split("[\\s\\\\]+")).filter(w -> !w.isEmpty())
                .map(w -> APP + "-" + w).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(made, documented);
        for (String topic : made) {
            assertTrue(doc.contains("`<application.id>" + topic.substring(APP.length()) + "`"),
                    topic + " in the table of what Sextant keeps");
        }
    }
}
