package dev.sextant.demo;

import dev.sextant.Version;
import dev.sextant.testkit.LocalClusters;
import dev.sextant.testkit.LocalMirrorMaker;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sextant demo}: the failover demo ({@link FailoverDemo}), or with {@code --clusters-only} just the two local
 * clusters and MirrorMaker 2 on fixed ports for trying {@code sextant run} by hand. Everything it starts is stopped
 * when it ends, on Ctrl-C too. {@code bin/sextant demo} runs it; it lives outside the application jar because it
 * needs the testkit (brokers and MirrorMaker 2 fetched from Maven Central), which no production host should carry.
 *
 * <p>Exit codes: 0 success, 1 records were lost or something failed, 2 bad usage.
 */
@Command(name = "sextant demo", mixinStandardHelpOptions = true, versionProvider = DemoCommand.VersionProvider.class,
        description = "Two local Kafka clusters mirrored by MirrorMaker 2, a workload and Sextant syncing it, then a "
                + "failover: the source stops and every group resumes on the mirror.")
public final class DemoCommand implements Callable<Integer> {

    static final int EXIT_OK = 0;
    static final int EXIT_FAILURE = 1;

    public static void main(String[] args) {
        // before any logger exists: the clients' and Sextant's logs go to a file, the terminal keeps the narration
        boolean toFile = !"stderr".equals(System.getenv("SEXTANT_DEMO_LOG"));
        if (System.getProperty("logback.configurationFile") == null && toFile) {
            String log = System.getenv("SEXTANT_DEMO_LOG") != null ? System.getenv("SEXTANT_DEMO_LOG")
                    : Path.of(System.getProperty("java.io.tmpdir"),
                            "sextant-demo-" + System.currentTimeMillis() + ".log").toString();
            System.setProperty("sextant.demo.log", log);
            System.setProperty("logback.configurationFile", "logback-demo.xml");
        }
        System.exit(new CommandLine(new DemoCommand()).execute(args));
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"sextant demo " + Version.current() + " (Kafka clients " + Version.kafka() + ")"};
        }
    }


    @Option(names = "--duration", paramLabel = "SECONDS",
            description = "How long the workload runs before the failover (default 45), or how long the clusters run "
                    + "with --clusters-only (default: until Ctrl-C; 0 = until Ctrl-C).")
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
        PrintWriter out = spec.commandLine().getOut();
        if (System.getProperty("sextant.demo.log") != null) {
            out.println("Logs (brokers, MirrorMaker 2 and Sextant): " + System.getProperty("sextant.demo.log")
                    + " (SEXTANT_DEMO_LOG=stderr shows them here)");
            out.flush();
        }
        // Ctrl-C ends the waits below; the local-cluster shutdown hook then stops everything in reverse order of
        // start (workload and Sextant, MirrorMaker 2, the brokers)
        CountDownLatch interrupted = new CountDownLatch(1);
        Thread hook = new Thread(interrupted::countDown, "sextant-demo-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            if (clustersOnly) {
                runClustersOnly(out, durationSeconds == null ? 0 : durationSeconds, interrupted);
            } else {
                long seconds = durationSeconds == null || durationSeconds == 0 ? 45 : durationSeconds;
                List<FailoverDemo.Resumption> report = new FailoverDemo(out).run(Duration.ofSeconds(seconds),
                        interrupted);
                if (report.stream().anyMatch(r -> r.lost() > 0)) {
                    out.println("Records were lost: see the table above.");
                    return EXIT_FAILURE;
                }
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down (Ctrl-C): the hook has run
            }
        }
        out.println("Done: nothing left running.");
        return EXIT_OK;
    }

    private void runClustersOnly(PrintWriter out, long duration, CountDownLatch interrupted) throws Exception {
        out.println("Starting two Kafka clusters and MirrorMaker 2 on 127.0.0.1...");
        out.flush();
        try (LocalClusters clusters = LocalClusters.builder()
                .mirrorMaker(LocalMirrorMaker.Options.builder().topics(".*").build())
                .ports(sourcePort, destinationPort).start()) {
            out.println(clusters.describe());
            out.println("Source " + clusters.source().bootstrapServers() + ", destination "
                    + clusters.destination().bootstrapServers() + ". Now run, in another terminal:");
            out.println("  bin/sextant run -c config/sextant.properties");
            out.println("Press Ctrl-C to stop the clusters" + (duration > 0 ? " (they stop by themselves in "
                    + duration + " s)." : "."));
            out.flush();
            interrupted.await(duration > 0 ? duration : Long.MAX_VALUE / 2_000, TimeUnit.SECONDS);
            out.println("Stopping MirrorMaker 2 and both clusters...");
            out.flush();
        }
    }
}
