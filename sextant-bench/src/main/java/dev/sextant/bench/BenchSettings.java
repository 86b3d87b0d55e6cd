package dev.sextant.bench;

import java.util.List;
import java.util.Map;

/**
 * Every knob of one benchmark run, resolved ({@code --quick} only changes defaults).
 *
 * @param scales          groups per system, one sync scenario each
 * @param partitions      partitions of the topic the caught-up groups commit on
 * @param lagPartitions   partitions of the topic the lagging groups commit on
 * @param commitRate      group commits per second per system during the window (each covers every partition)
 * @param produceRate     records per second produced to the caught-up topic during the window
 * @param laggingShare    share of each system's groups that lag
 * @param lagMin          smallest lag of a lagging group (records behind the log end)
 * @param lagMax          largest lag
 * @param lagProduceRate  records per second while filling the lagging topic
 * @param offsetLagMax    MirrorMaker's offset.lag.max (sync spacing)
 * @param windowSeconds   how long the caught-up groups commit
 * @param tailMaxSeconds  how long to wait afterwards for every commit to become visible
 * @param systems         which syncers run: sextant, mm2-1s, mm2-default
 * @param sync            whether the sync scenario runs (at every scale)
 * @param throughput      whether the throughput scenario runs
 * @param tpGroups        groups of the throughput prefill
 * @param tpPartitions    partitions of the throughput topic (each prefill call covers all of them)
 * @param tpCommits       offset commits in the prefill (rounded up to whole rounds)
 * @param tpTimeoutSeconds longest wait for Sextant to read the prefill
 * @param childHeap       -Xmx of the checkpoint-MirrorMaker JVMs
 * @param sextantThreads  streams.num.stream.threads of the sync scenario's Sextant (the first of
 *                        {@code sextantThreadCounts})
 * @param jfr             record a JFR profile of the throughput Sextant (its 1-thread run) and summarise it
 * @param sextantConfig   extra Sextant configuration for every Sextant instance (to measure a setting)
 * @param mode            {@link #SEQUENTIAL}: at each scale each system runs alone, one after the other;
 *                        {@link #SIDE_BY_SIDE}: all at once on the same clusters
 * @param sextantHeap     -Xmx of the sync scenario's Sextant JVMs
 * @param sextantThreadCounts the throughput scenario runs one Sextant per count, one after the other
 * @param tpHeap          -Xmx of the throughput scenario's Sextant JVMs
 */
record BenchSettings(
        boolean quick,
        List<Integer> scales,
        int partitions,
        int lagPartitions,
        int commitRate,
        int produceRate,
        double laggingShare,
        long lagMin,
        long lagMax,
        int lagProduceRate,
        int offsetLagMax,
        int windowSeconds,
        int tailMaxSeconds,
        List<String> systems,
        boolean sync,
        boolean throughput,
        int tpGroups,
        int tpPartitions,
        long tpCommits,
        int tpTimeoutSeconds,
        String childHeap,
        int sextantThreads,
        boolean jfr,
        Map<String, String> sextantConfig,
        String mode,
        String sextantHeap,
        List<Integer> sextantThreadCounts,
        String tpHeap) {

    static final String SEXTANT = "sextant";
    static final String MM2_FAST = "mm2-1s";
    static final String MM2_DEFAULT = "mm2-default";
    static final List<String> ALL_SYSTEMS = List.of(MM2_DEFAULT, MM2_FAST, SEXTANT);
    /** The order in which the systems take their turn at each scale in sequential mode. */
    static final List<String> SEQUENTIAL_ORDER = List.of(SEXTANT, MM2_FAST, MM2_DEFAULT);

    static final String SEQUENTIAL = "sequential";
    static final String SIDE_BY_SIDE = "side-by-side";
    static final List<String> MODES = List.of(SEQUENTIAL, SIDE_BY_SIDE);

    /** Options of the checkpoint-MirrorMaker JVMs. */
    List<String> childJvmOptions() {
        return jvmOptions(childHeap);
    }

    /** Options of the sync scenario's Sextant JVMs: the same flags as MirrorMaker's, their own -Xmx. */
    List<String> sextantJvmOptions() {
        return jvmOptions(sextantHeap);
    }

    /** Options of the throughput scenario's Sextant JVMs. */
    List<String> throughputJvmOptions() {
        return jvmOptions(tpHeap);
    }

    private static List<String> jvmOptions(String heap) {
        // a JVM out of memory exits at once, so a dead child is noticed instead of limping on
        return List.of("-Xms64m", "-Xmx" + heap, "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError",
                "-Djava.awt.headless=true");
    }

    boolean runs(String system) {
        return systems.contains(system);
    }

    boolean sequential() {
        return SEQUENTIAL.equals(mode);
    }

    /** The systems of this run, in the order they take their turn (sequential) or are started (side by side). */
    List<String> systemsInOrder() {
        return (sequential() ? SEQUENTIAL_ORDER : ALL_SYSTEMS).stream().filter(this::runs).toList();
    }
}
