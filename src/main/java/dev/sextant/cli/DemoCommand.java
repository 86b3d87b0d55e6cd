package dev.sextant.cli;

import dev.sextant.SextantApplication;
import dev.sextant.config.SextantConfigLoader;
import dev.sextant.demo.DemoWorkload;
import dev.sextant.local.LocalClusters;
import dev.sextant.local.LocalMirrorMaker;
import dev.sextant.local.ShutdownRegistry;
import dev.sextant.state.PartitionPosition;
import dev.sextant.state.PositionStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sextant demo}: two real local clusters, MirrorMaker 2, a workload and Sextant, with a live table of the
 * groups it syncs. Everything it starts is stopped when it ends, on Ctrl-C too.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Runs Sextant against two local Kafka clusters mirrored by MirrorMaker 2, with a workload.")
final class DemoCommand implements Callable<Integer> {

    private static final String TOPIC = "orders";

    @Option(names = "--duration", paramLabel = "SECONDS",
            description = "How long the demo runs before it stops (default 60, or until Ctrl-C with --clusters-only; "
                    + "0 = until Ctrl-C).")
    Long durationSeconds;

    @Option(names = "--clusters-only",
            description = "Only start the two clusters and MirrorMaker 2, on fixed ports, until Ctrl-C: then run "
                    + "'bin/sextant run -c config/sextant.properties' in another terminal.")
    boolean clustersOnly;

    @Option(names = "--source-port", defaultValue = "9092",
            description = "Source broker port with --clusters-only (default ${DEFAULT-VALUE}).")
    int sourcePort;

    @Option(names = "--destination-port", defaultValue = "9093",
            description = "Destination broker port with --clusters-only (default ${DEFAULT-VALUE}).")
    int destinationPort;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (durationSeconds != null && durationSeconds < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--duration must be >= 0");
        }
        long duration = durationSeconds != null ? durationSeconds : clustersOnly ? 0 : 60;
        PrintWriter out = spec.commandLine().getOut();
        // Ctrl-C ends the wait below; the local-cluster shutdown hook then stops everything in reverse order of
        // start (workload and Sextant, MirrorMaker 2, the brokers)
        CountDownLatch interrupted = new CountDownLatch(1);
        Thread hook = new Thread(interrupted::countDown, "sextant-demo-stop");
        Runtime.getRuntime().addShutdownHook(hook);

        out.println("Starting two Kafka clusters and MirrorMaker 2 on 127.0.0.1 (first run downloads Kafka from "
                + "Maven Central)...");
        out.flush();
        LocalClusters.Builder builder = LocalClusters.builder()
                .mirrorMaker(LocalMirrorMaker.Options.builder().topics(clustersOnly ? ".*" : TOPIC).build());
        if (clustersOnly) {
            builder.ports(sourcePort, destinationPort);
        }
        try (LocalClusters clusters = builder.start()) {
            out.println(clusters.describe());
            if (clustersOnly) {
                out.println("Source " + clusters.source().bootstrapServers() + ", destination "
                        + clusters.destination().bootstrapServers() + ". Now run, in another terminal:");
                out.println("  bin/sextant run -c config/sextant.properties");
                out.println("Press Ctrl-C to stop the clusters" + (duration > 0 ? " (they stop by themselves in "
                        + duration + " s)." : "."));
                out.flush();
                interrupted.await(duration > 0 ? duration : Long.MAX_VALUE / 2_000, TimeUnit.SECONDS);
                out.println("Stopping MirrorMaker 2 and both clusters...");
                out.flush();
                return SextantCommand.EXIT_OK;
            }
            clusters.createTopic(clusters.source(), TOPIC, 3);
            Path stateDir = Files.createTempDirectory("sextant-demo");
            Map<String, Object> config = Map.of(
                    "source.bootstrap.servers", clusters.source().bootstrapServers(),
                    "destination.bootstrap.servers", clusters.destination().bootstrapServers(),
                    "application.id", "sextant-demo",
                    "state.dir", stateDir.toString(),
                    "query.listen", "127.0.0.1:0");
            try (DemoWorkload workload = new DemoWorkload(clusters.source().clientProperties(), TOPIC)
                    .producer(500).consumerGroup("billing", 10_000).consumerGroup("audit", 100);
                 SextantApplication sextant = new SextantApplication(SextantConfigLoader.load(config, Map.of()),
                         new SimpleMeterRegistry())) {
                AutoCloseable onExit = () -> {
                    workload.close();
                    sextant.close();
                };
                ShutdownRegistry.register(onExit);
                sextant.start();
                out.println("Workload: a producer (500 records/s) on '" + TOPIC + "', group 'billing' keeps up, "
                        + "group 'audit' reads 100/s and falls behind. Sextant syncs both to the destination.");
                out.println(duration == 0 ? "Press Ctrl-C to stop." : "Running for " + duration
                        + " s; Ctrl-C stops earlier.");
                long end = duration == 0 ? Long.MAX_VALUE : System.nanoTime() + duration * 1_000_000_000L;
                while (System.nanoTime() < end && !interrupted.await(2, TimeUnit.SECONDS)) {
                    printTable(out, sextant);
                }
                out.println("Stopping the workload, Sextant, MirrorMaker 2 and both clusters...");
                out.flush();
                ShutdownRegistry.unregister(onExit);
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down (Ctrl-C): the hook has run
            }
        }
        out.println("Done: nothing left running.");
        return SextantCommand.EXIT_OK;
    }

    private static void printTable(PrintWriter out, SextantApplication sextant) {
        if (sextant.streams().state() != KafkaStreams.State.RUNNING) {
            out.println("(Kafka Streams is " + sextant.streams().state() + ")");
            out.flush();
            return;
        }
        Map<String, PartitionPosition> rows = new TreeMap<>();
        PositionStore positions = sextant.positions();
        positions.forEach((key, pos) -> rows.put(key.group() + "  " + key.topic() + "-" + key.partition(), pos));
        out.printf("%n%-26s %12s %14s %-9s %7s %-14s%n", "GROUP  PARTITION", "SOURCE", "DESTINATION", "PRECISION",
                "BOUND", "STATUS");
        rows.forEach((name, pos) -> out.printf("%-26s %12d %14s %-9s %7s %-14s%n", name, pos.sourceOffset(),
                pos.appliedOffset() < 0 ? "-" : Long.toString(pos.appliedOffset()),
                pos.hasTranslation() ? pos.precision().label() : "-", pos.hasTranslation() ? pos.bound() : "-",
                pos.status()));
        out.flush();
    }
}
