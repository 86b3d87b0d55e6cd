package dev.sextant.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every knob of one benchmark run, resolved ({@code --quick} only changes defaults).
 *
 * @param scales          groups per system, one sync scenario each (distinct counts)
 * @param partitions      partitions of the topic the caught-up groups commit on, unless {@code scalePartitions}
 *                        says otherwise for a scale
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
 * @param sextantHeap     -Xmx of the sync scenario's Sextant JVMs up to {@value #LARGE_SCALE} groups
 * @param sextantThreadCounts the throughput scenario runs one Sextant per count, one after the other
 * @param tpHeap          -Xmx of the throughput scenario's Sextant JVMs
 * @param scalePartitions partitions of the caught-up topic at each scale, by groups ({@code NxP}; plain {@code N}:
 *                        {@code partitions}), in the order of {@code scales}
 * @param largeSextantHeap -Xmx of the sync scenario's Sextant JVMs above {@value #LARGE_SCALE} groups
 * @param largeSystems    the systems that run above {@value #LARGE_SCALE} groups (those of {@code systems} that
 *                        are also here)
 * @param brokerHeap      -Xmx of each of the two brokers
 * @param bareWriter      after each scale's systems, measure the destination's ceiling on group writes
 *                        ({@link BareWriter})
 * @param idleCommits     after the tail, the caught-up groups commit their last offsets again; Sextant's
 *                        destination writes for them are counted
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
        String tpHeap,
        Map<Integer, Integer> scalePartitions,
        String largeSextantHeap,
        List<String> largeSystems,
        String brokerHeap,
        boolean bareWriter,
        boolean idleCommits) {

    static final String SEXTANT = "sextant";
    static final String MM2_FAST = "mm2-1s";
    static final String MM2_DEFAULT = "mm2-default";
    /**
     * Sextant with {@code translation.interpolation=off}: MirrorMaker 2's rule between syncs, no interval read, so
     * beside {@link #SEXTANT} the run shows what replay 0 costs (CPU, records read, latency).
     */
    static final String SEXTANT_INTERPOLATION_OFF = "sextant-interpolation-off";
    /**
     * Sextant with {@code source.offsets.read=admin}: committed offsets polled through the Admin API (the fallback for
     * sources that hide {@code __consumer_offsets}) instead of read from the log; beside {@link #SEXTANT} the run shows
     * what the fallback costs. Only when {@code --systems} names it.
     */
    static final String SEXTANT_ADMIN_POLL = "sextant-admin-poll";
    /** Every system, in the order tables and charts show them. */
    static final List<String> ALL_SYSTEMS = List.of(MM2_DEFAULT, MM2_FAST, SEXTANT, SEXTANT_INTERPOLATION_OFF,
            SEXTANT_ADMIN_POLL);
    /** The systems a run measures unless {@code --systems} says otherwise. */
    static final List<String> DEFAULT_SYSTEMS = List.of(MM2_DEFAULT, MM2_FAST, SEXTANT, SEXTANT_INTERPOLATION_OFF);
    /** The order in which the systems take their turn at each scale in sequential mode. */
    static final List<String> SEQUENTIAL_ORDER = List.of(SEXTANT, SEXTANT_INTERPOLATION_OFF, SEXTANT_ADMIN_POLL,
            MM2_FAST, MM2_DEFAULT);

    /** Group commits per second per system in the window of the standard workload, the one the targets are set for. */
    static final int STANDARD_COMMIT_RATE = 100;

    static final String SEQUENTIAL = "sequential";
    static final String SIDE_BY_SIDE = "side-by-side";
    static final List<String> MODES = List.of(SEQUENTIAL, SIDE_BY_SIDE);

    /**
     * Above this many groups a scale is large: Sextant gets {@code largeSextantHeap} and only {@code largeSystems}
     * run (by default not MirrorMaker at its 60 s default, which would only add a very long run).
     */
    static final int LARGE_SCALE = 10_000;

    private static final Pattern SCALE = Pattern.compile("(\\d+)(?:[xX](\\d+))?");

    /** One scale of the sync scenario as {@code --groups} gives it: N groups, P partitions (null: --partitions). */
    record Scale(int groups, Integer partitions) {

        /**
         * Parses {@code N} or {@code NxP} ({@code 100000x2}: 100,000 groups whose caught-up topic has 2 partitions).
         *
         * @throws IllegalArgumentException when it is neither, or a count is below 1
         */
        static Scale parse(String text) {
            Matcher m = SCALE.matcher(text.strip().replace("_", ""));
            if (!m.matches()) {
                throw new IllegalArgumentException("'" + text + "' is not N or NxP (e.g. 10000 or 100000x2)");
            }
            try {
                int groups = Integer.parseInt(m.group(1));
                Integer partitions = m.group(2) == null ? null : Integer.valueOf(m.group(2));
                if (groups < 1 || partitions != null && partitions < 1) {
                    throw new IllegalArgumentException("'" + text + "': groups and partitions must be 1 or more");
                }
                return new Scale(groups, partitions);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "': too large", e);
            }
        }

        /** Groups by scale, partitions resolved against {@code defaultPartitions}; duplicate group counts refused. */
        static Map<Integer, Integer> resolve(List<Scale> scales, int defaultPartitions) {
            Map<Integer, Integer> out = new LinkedHashMap<>();
            for (Scale s : scales) {
                if (out.put(s.groups(), s.partitions() != null ? s.partitions() : defaultPartitions) != null) {
                    throw new IllegalArgumentException(String.format(Locale.ROOT, "%,d groups given twice: a scale "
                            + "is named by its group count (topics, groups, work directory)", s.groups()));
                }
            }
            return out;
        }
    }

    /** Options of the checkpoint-MirrorMaker JVMs. */
    List<String> childJvmOptions() {
        return jvmOptions(childHeap);
    }

    /** Options of the sync scenario's Sextant JVMs up to {@value #LARGE_SCALE} groups. */
    List<String> sextantJvmOptions() {
        return jvmOptions(sextantHeap);
    }

    /**
     * Options of the sync scenario's Sextant JVM at {@code groups} groups: the same flags as MirrorMaker's, their
     * own -Xmx ({@code sextantHeap}, or {@code largeSextantHeap} above {@value #LARGE_SCALE} groups).
     */
    List<String> sextantJvmOptions(int groups) {
        return jvmOptions(sextantHeap(groups));
    }

    /** Sextant's -Xmx in the sync scenario at {@code groups} groups. */
    String sextantHeap(int groups) {
        return large(groups) ? largeSextantHeap : sextantHeap;
    }

    static boolean large(int groups) {
        return groups > LARGE_SCALE;
    }

    /** Partitions of the caught-up topic at a scale of this run. */
    int partitionsAt(int groups) {
        return scalePartitions.getOrDefault(groups, partitions);
    }

    /** The systems that run at {@code groups} groups, in the order they take their turn (or are started). */
    List<String> systemsInOrderAt(int groups) {
        return systemsInOrder().stream().filter(s -> !large(groups) || largeSystems.contains(s)).toList();
    }

    /** The systems of the run that do not run at {@code groups} groups (above {@value #LARGE_SCALE}). */
    List<String> systemsLeftOutAt(int groups) {
        List<String> out = new ArrayList<>(systemsInOrder());
        out.removeAll(systemsInOrderAt(groups));
        return out;
    }

    /** Options of the throughput scenario's Sextant JVMs. */
    List<String> throughputJvmOptions() {
        return jvmOptions(tpHeap);
    }

    private static List<String> jvmOptions(String heap) {
        // a JVM out of memory exits at once, so a dead child is noticed instead of limping on; the initial heap is
        // never above the maximum (a JVM refuses to start then), so a small -Xmx fails as a small heap does
        long max = bytes(heap);
        String initial = max > 0 && max < 64L * 1024 * 1024 ? heap : "64m";
        return List.of("-Xms" + initial, "-Xmx" + heap, "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError",
                "-Djava.awt.headless=true");
    }

    /** A JVM memory size ({@code 512m}, {@code 1g}, {@code 262144k}, bytes) in bytes; -1 when unreadable. */
    static long bytes(String size) {
        Matcher m = Pattern.compile("(\\d+)([kKmMgGtT]?)").matcher(size.strip());
        if (!m.matches()) {
            return -1;
        }
        int shift = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> 10;
            case "m" -> 20;
            case "g" -> 30;
            case "t" -> 40;
            default -> 0;
        };
        try {
            return Long.parseLong(m.group(1)) << shift;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Whether {@code system} is a Sextant (with interpolation or without, reading the log or polling). */
    static boolean isSextant(String system) {
        return SEXTANT.equals(system) || SEXTANT_INTERPOLATION_OFF.equals(system)
                || SEXTANT_ADMIN_POLL.equals(system);
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
