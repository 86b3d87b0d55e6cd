package dev.sextant.testkit;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Node;

/**
 * The child JVMs of one {@link LocalKafkaBroker}: the storage format tool that runs before the first start, and the
 * broker itself, which {@link #restart} starts again with the same options, classpath and config file.
 *
 * <p>{@link #pid()}, {@link #isAlive()} and {@link #outputFile()} are safe from any thread and see the JVM started
 * last; starting, restarting and stopping are for one thread at a time (the broker's synchronized methods).
 */
final class BrokerProcess {

    /** The lines of a broker's log that say why it stopped. */
    static final Pattern PROBLEM = Pattern.compile(" (ERROR|FATAL) |Exception|Caused by|Address already in use");

    /** Small heap and C1 only: a test broker needs little memory, and C2 compilation costs seconds on 2 cores. */
    static final List<String> BROKER_JVM_OPTIONS = List.of(
            "-Xms128m", "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseG1GC", "-XX:-UsePerfData",
            "-XX:+ExitOnOutOfMemoryError", "-Djava.awt.headless=true");
    /** The format tool runs ~1 s; the serial GC and C1 start fastest. */
    static final List<String> FORMAT_JVM_OPTIONS = List.of(
            "-Xmx128m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData");

    private static final String MAIN_CLASS = "kafka.Kafka";

    private final String name;
    private final Path directory;
    private final int port;
    private final List<String> jvmOptions;
    private final List<Path> classpath;
    private final Path configFile;
    private volatile ChildJvm jvm;
    private int restarts;

    private BrokerProcess(String name, Path directory, int port, List<String> jvmOptions, List<Path> classpath,
                          Path configFile, ChildJvm jvm) {
        this.name = name;
        this.directory = directory;
        this.port = port;
        this.jvmOptions = jvmOptions;
        this.classpath = classpath;
        this.configFile = configFile;
        this.jvm = jvm;
    }

    /**
     * True when the storage tool of Kafka {@code version} can format in the broker's own JVM (4.0 and later have
     * {@code StorageTool.execute}); older brokers are formatted by a JVM of its own first ({@link #format}).
     */
    static boolean formatsInBrokerJvm(String version) {
        int major;
        try {
            major = Integer.parseInt(version.substring(0, version.indexOf('.')));
        } catch (RuntimeException e) {
            return false;
        }
        return major >= 4;
    }

    /** The storage tool's arguments: a standalone KRaft quorum, the cluster id, the format-time SCRAM users. */
    private static List<String> formatArguments(Path configFile, String clusterId, BrokerSecurity security) {
        List<String> formatArgs = new ArrayList<>(
                List.of("format", "-t", clusterId, "-c", configFile.toString(), "--standalone"));
        formatArgs.addAll(security.formatArguments());
        return formatArgs;
    }

    /**
     * Formats the storage of a broker-only node of cluster {@code clusterId} (no quorum of its own: it joins the
     * controller's) and starts it in the same JVM, as {@link #formatAndStart} does for a combined node.
     */
    static BrokerProcess formatAndStartBrokerOnly(String name, Path directory, int port, List<String> jvmOptions,
                                                  List<Path> classpath, Path configFile, String clusterId) {
        List<String> formatArgs = List.of("format", "-t", clusterId, "-c", configFile.toString());
        return startFormatting(name, directory, port, jvmOptions, classpath, configFile, formatArgs);
    }

    /**
     * Formats the storage of {@code configFile} in a JVM of its own; throws with the tool's output unless it
     * succeeds in time.
     */
    static void format(String name, Path directory, List<Path> classpath, Path configFile, String clusterId,
                       BrokerSecurity security, List<String> logOptions, long deadlineNanos) {
        List<String> formatArgs = formatArguments(configFile, clusterId, security);
        ChildJvm format = ChildJvm.start(name + "-format", concat(FORMAT_JVM_OPTIONS, logOptions), classpath,
                "kafka.tools.StorageTool", formatArgs, directory.resolve("format.out"));
        int exit = format.awaitExit(remaining(deadlineNanos));
        if (exit != 0) {
            throw new IllegalStateException(name + ": formatting the storage failed (exit " + exit + "):\n"
                    + LocalFiles.tail(format.outputFile(), 30));
        }
    }

    /** The broker JVM's options: {@link #BROKER_JVM_OPTIONS} with a maximum heap of {@code heap}, then more. */
    static List<String> jvmOptions(String heap, List<String> moreOptions) {
        return concat(BROKER_JVM_OPTIONS.stream()
                .map(option -> option.startsWith("-Xmx") ? "-Xmx" + heap : option).toList(), moreOptions);
    }

    /**
     * Formats the storage of {@code configFile} and starts the broker in the same JVM; a failed format ends that JVM
     * with the tool's message in its output, as a broker that cannot start does.
     */
    static BrokerProcess formatAndStart(String name, Path directory, int port, List<String> jvmOptions,
                                        List<Path> classpath, Path configFile, String clusterId,
                                        BrokerSecurity security) {
        return startFormatting(name, directory, port, jvmOptions, classpath, configFile,
                formatArguments(configFile, clusterId, security));
    }

    private static BrokerProcess startFormatting(String name, Path directory, int port, List<String> jvmOptions,
                                                 List<Path> classpath, Path configFile, List<String> formatArgs) {
        List<String> args = new ArrayList<>();
        args.add(Integer.toString(formatArgs.size()));
        args.addAll(formatArgs);
        args.add(MAIN_CLASS);
        args.add(configFile.toString());
        // the watchdog's format option stands where the main class would: ParentWatchdogMain reads it first
        ChildJvm jvm = ChildJvm.start(name, jvmOptions, classpath, ParentWatchdogMain.FORMAT_STORAGE, args,
                directory.resolve(name + ".out"));
        return new BrokerProcess(name, directory, port, jvmOptions, classpath, configFile, jvm);
    }

    /** Starts the broker of {@code configFile} (formatted before) whose client listener is {@code port}. */
    static BrokerProcess start(String name, Path directory, int port, List<String> jvmOptions, List<Path> classpath,
                               Path configFile) {
        ChildJvm jvm = ChildJvm.start(name, jvmOptions, classpath, MAIN_CLASS, List.of(configFile.toString()),
                directory.resolve(name + ".out"));
        return new BrokerProcess(name, directory, port, jvmOptions, classpath, configFile, jvm);
    }

    /**
     * Stops the broker as a rolling restart does (SIGTERM: a controlled shutdown, SIGKILL after {@code grace}) and
     * starts it again on the same config; does not wait for it to answer.
     */
    void restart(Duration grace) {
        jvm.stop(grace);
        startAgain();
    }

    /** Starts the broker again on the same config after {@link #stop}; does not wait for it to answer. */
    void startAgain() {
        if (jvm.isAlive()) {
            throw new IllegalStateException(name + " is running");
        }
        restarts++;
        jvm = ChildJvm.start(name, jvmOptions, classpath, MAIN_CLASS, List.of(configFile.toString()),
                directory.resolve(name + "-restart-" + restarts + ".out"));
    }

    /**
     * Polls until {@code describeCluster()}, with {@code clientProperties}, lists a node, or fails if the process
     * died or the deadline passed.
     */
    void awaitReady(Map<String, Object> clientProperties, long deadlineNanos) {
        // wait for the port first: an Admin client against a closed port logs a warning per reconnect attempt
        while (!portOpen()) {
            checkAliveAndInTime(deadlineNanos);
            pause();
        }
        Map<String, Object> config = new LinkedHashMap<>(clientProperties);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000);
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, "sextant-local-readiness-" + name);
        try (Admin admin = Admin.create(config)) {
            while (true) {
                checkAliveAndInTime(deadlineNanos);
                try {
                    Collection<Node> nodes = admin.describeCluster().nodes().get(2, TimeUnit.SECONDS);
                    if (!nodes.isEmpty()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    // not ready yet (still starting, or fenced): try again until the deadline
                }
                pause();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(name + ": interrupted while waiting for the broker", e);
        }
    }

    private boolean portOpen() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(FreePorts.LOOPBACK, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void checkAliveAndInTime(long deadlineNanos) {
        if (!jvm.isAlive()) {
            throw new IllegalStateException(name + ": the broker process exited during startup (exit code "
                    + jvm.awaitExit(Duration.ZERO) + ")");
        }
        if (System.nanoTime() > deadlineNanos) {
            throw new IllegalStateException(name + ": the broker did not become ready in time");
        }
    }

    /** SIGTERM, then SIGKILL after {@code grace}. */
    void stop(Duration grace) {
        jvm.stop(grace);
    }

    /** Where the JVM started last writes its stdout and stderr. */
    Path outputFile() {
        return jvm.outputFile();
    }

    long pid() {
        return jvm.pid();
    }

    boolean isAlive() {
        return jvm.isAlive();
    }

    private static void pause() {
        try {
            Thread.sleep(100); // poll interval, not a wait for a condition
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static Duration remaining(long deadlineNanos) {
        return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
