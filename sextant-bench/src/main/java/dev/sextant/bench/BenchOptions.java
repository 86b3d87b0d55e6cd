package dev.sextant.bench;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options of {@code bench/run} (mixed into {@link BenchMain}, in the order its help lists them) and their
 * defaults, resolved into the run's {@link BenchSettings}; {@code --quick} only changes defaults.
 */
final class BenchOptions {

    @Option(names = "--quick", description = "Small and short (under 3 minutes): 100 and 1,000 groups, 15 s window, "
            + "lags up to 10^5, 100,000 commits for throughput, MM2 at 1 s only, side by side, 4 partitions.")
    boolean quick;

    @Option(names = "--mode", paramLabel = "sequential|side-by-side",
            description = "sequential: at each scale each system runs alone against the same workload, one after "
                    + "the other (Sextant, mm2-1s, mm2-default), each on its own caught-up topic; side-by-side: all "
                    + "at once, competing for the machine (default sequential; quick side-by-side).")
    String mode;

    @Option(names = "--groups", split = ",", paramLabel = "N[xP][,N[xP]...]",
            description = "Groups per system, one scale each; NxP gives that scale's caught-up topic P partitions "
                    + "instead of --partitions (default 1000,10000,100000x2; quick 100,1000).")
    List<String> groups;

    @Option(names = "--partitions", paramLabel = "P", description = "Partitions of the caught-up groups' topic "
            + "(default 10; quick 4).")
    Integer partitions;

    @Option(names = "--lag-partitions", paramLabel = "P", description = "Partitions of the lagging groups' topic "
            + "(default 1).")
    Integer lagPartitions;

    @Option(names = "--commit-rate", paramLabel = "PER_SEC",
            description = "Group commits per second per system in the window; each covers every partition "
                    + "(default 100).")
    Integer commitRate;

    @Option(names = "--produce-rate", paramLabel = "PER_SEC",
            description = "Records per second on the caught-up topic during the window (default 2000).")
    Integer produceRate;

    @Option(names = "--lagging-share", paramLabel = "0..1",
            description = "Share of each system's groups that lag (default 0.2).")
    Double laggingShare;

    @Option(names = "--lag-min", paramLabel = "RECORDS", description = "Smallest lag (default 1000).")
    Long lagMin;

    @Option(names = "--lag-max", paramLabel = "RECORDS",
            description = "Largest lag (default 1000000; quick 100000). The lagging topic gets 5%% more records.")
    Long lagMax;

    @Option(names = "--lag-produce-rate", paramLabel = "PER_SEC",
            description = "Most records per second while filling the lagging topic (default 50000); the "
                    + "producer also keeps within 8 syncs of MirrorMaker's newest offset sync, so none is coalesced.")
    Integer lagProduceRate;

    @Option(names = "--offset-lag-max", paramLabel = "RECORDS",
            description = "MirrorMaker 2's offset.lag.max: records between offset syncs (default 100, MM2's own).")
    Integer offsetLagMax;

    @Option(names = "--window", paramLabel = "SECONDS",
            description = "How long the caught-up groups commit (default 60; quick 15).")
    Integer window;

    @Option(names = "--tail-max", paramLabel = "SECONDS",
            description = "Longest wait after the window for commits to become visible (default 150; quick 15).")
    Integer tailMax;

    @Option(names = "--systems", split = ",", paramLabel = "S[,S...]",
            description = "Any of mm2-default, mm2-1s, sextant, sextant-interpolation-off, sextant-admin-poll "
                    + "(Sextant polling committed offsets through the Admin API; default all but sextant-admin-poll; "
                    + "quick mm2-1s,sextant).")
    List<String> systems;

    @Option(names = "--no-sync", description = "Skip the sync scenario (e.g. to profile throughput alone).")
    boolean noSync;

    @Option(names = "--no-throughput", description = "Skip the throughput scenario.")
    boolean noThroughput;

    @Option(names = "--tp-groups", paramLabel = "N", description = "Groups in the throughput prefill (default 1000).")
    Integer tpGroups;

    @Option(names = "--tp-partitions", paramLabel = "P",
            description = "Partitions each prefill commit covers (default 100).")
    Integer tpPartitions;

    @Option(names = "--tp-commits", paramLabel = "N",
            description = "Offset commits in the prefill (default 1000000; quick 100000); Sextant gets 90 s (quick "
                    + "20 s) to read them.")
    Long tpCommits;

    @Option(names = "--heap", paramLabel = "SIZE",
            description = "-Xmx of the checkpoint-MirrorMaker JVMs (default 512m).")
    String heap;

    @Option(names = "--sextant-heap", paramLabel = "SIZE",
            description = "-Xmx of the sync scenario's Sextant JVMs up to 10,000 groups (default 256m, the heap "
                    + "Sextant is built to fit at 10,000 groups x 10 partitions).")
    String sextantHeap;

    @Option(names = "--large-sextant-heap", paramLabel = "SIZE",
            description = "-Xmx of the sync scenario's Sextant JVMs above 10,000 groups (default 512m, the heap "
                    + "Sextant is built to fit at 100,000 groups x 2 partitions).")
    String largeSextantHeap;

    @Option(names = "--broker-heap", paramLabel = "SIZE",
            description = "-Xmx of each of the two brokers (default 1g: at 256m, the testkit's default, the "
                    + "destination broker ran out of heap holding the full run's 133,000 groups).")
    String brokerHeap;

    @Option(names = "--large-systems", split = ",", paramLabel = "S[,S...]",
            description = "The systems that run above 10,000 groups, of those --systems names (default sextant,"
                    + "mm2-1s: MM2 at its 60 s default would only add a very long run there).")
    List<String> largeSystems;

    @Option(names = "--tp-heap", paramLabel = "SIZE",
            description = "-Xmx of the throughput scenario's Sextant JVMs (default 512m, as in every throughput "
                    + "figure before the heap target; the backlog of a million commits is buffered too).")
    String tpHeap;

    @Option(names = "--sextant-threads", split = ",", paramLabel = "N[,N...]",
            description = "Sextant's streams.num.stream.threads: the throughput scenario runs one Sextant per count, "
                    + "one after the other; the sync scenario uses the first (default 1,2).")
    List<Integer> sextantThreads;

    @Option(names = "--sextant-config", paramLabel = "KEY=VALUE",
            description = "Extra Sextant setting for every Sextant instance (repeatable), e.g. "
                    + "streams.max.task.idle.ms=-1, to measure its effect.")
    Map<String, String> sextantConfig;

    @Option(names = "--jfr", description = "Profile the throughput Sextant with JFR and summarise where its CPU went.")
    boolean jfr;

    @Option(names = "--bare-writer", description = "After each scale's systems, measure the destination's ceiling on "
            + "group writes: one alterConsumerGroupOffsets per group, nothing read, 4 to 64 in flight (the commit-rate "
            + "sweep sets it).")
    boolean bareWriter;

    @Option(names = "--idle-commits", description = "After the tail, every caught-up group commits its last offsets "
            + "again (an idle consumer's auto-commit); Sextant's destination writes for them are counted (the "
            + "commit-rate sweep sets it).")
    boolean idleCommits;

    @Option(names = "--results", paramLabel = "DIR", description = "Where results go (default bench/results).")
    Path results = Paths.get("bench", "results");

    @Option(names = "--name", paramLabel = "NAME", description = "A measurement of its own beside the full run "
            + "(e.g. 64p for --groups=1000x64): results go to <date>-NAME.* and latest-NAME.*, latest.* is left "
            + "alone.")
    String name;

    @Option(names = "--work", paramLabel = "DIR",
            description = "Logs and state of this run (default bench/work/<date>; not committed).")
    Path work;

    /** The command these options are mixed into: a bad setting is reported against it, with its usage. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    /** The settings the options give, or a {@link CommandLine.ParameterException} when they are inconsistent. */
    BenchSettings settings() {
        if (name != null && !name.matches("[A-Za-z0-9][A-Za-z0-9-]*")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--name: letters, digits and '-' only "
                    + "(it becomes part of the results' file names), e.g. --name=64p; got '" + name + "'");
        }
        List<String> sys = chosenSystems();
        String m = chosenMode();
        List<Integer> threads = chosenThreadCounts();
        int defaultPartitions = or(partitions, ifQuick(4, 10));
        Map<Integer, Integer> scales = chosenScales(defaultPartitions);
        BenchSettings s = new BenchSettings(
                quick,
                List.copyOf(scales.keySet()),
                defaultPartitions,
                or(lagPartitions, 1),
                or(commitRate, BenchSettings.STANDARD_COMMIT_RATE),
                or(produceRate, 2_000),
                or(laggingShare, 0.2),
                or(lagMin, 1_000L),
                or(lagMax, ifQuick(100_000L, 1_000_000L)),
                or(lagProduceRate, 50_000),
                or(offsetLagMax, 100),
                or(window, ifQuick(15, 60)),
                or(tailMax, ifQuick(15, 150)),
                sys,
                !noSync,
                !noThroughput,
                or(tpGroups, 1_000),
                or(tpPartitions, 100),
                or(tpCommits, ifQuick(100_000L, 1_000_000L)),
                ifQuick(20, 90),
                or(heap, "512m"),
                threads.get(0),
                jfr,
                sextantConfig != null ? Map.copyOf(sextantConfig) : Map.of(),
                m,
                or(sextantHeap, "256m"),
                threads,
                or(tpHeap, "512m"),
                Collections.unmodifiableMap(scales),
                or(largeSextantHeap, "512m"),
                chosen("--large-systems", or(largeSystems, List.of(BenchSettings.SEXTANT,
                        BenchSettings.SEXTANT_INTERPOLATION_OFF, BenchSettings.MM2_FAST))),
                or(brokerHeap, "1g"),
                bareWriter,
                idleCommits);
        boolean badLags = s.lagMin() < 1 || s.lagMax() < s.lagMin();
        boolean badShare = s.laggingShare() < 0 || s.laggingShare() > 1;
        boolean badRates = s.commitRate() < 1 || s.produceRate() < 1;
        if (badLags || badShare || badRates || s.scales().isEmpty() || s.partitions() < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "inconsistent settings: " + s);
        }
        return s;
    }

    /** {@code --groups} as groups -> partitions of the caught-up topic, in the order given. */
    private Map<Integer, Integer> chosenScales(int defaultPartitions) {
        List<String> given = or(groups, ifQuick(List.of("100", "1000"), List.of("1000", "10000", "100000x2")));
        try {
            return BenchSettings.Scale.resolve(given.stream().map(BenchSettings.Scale::parse).toList(),
                    defaultPartitions);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--groups: " + e.getMessage());
        }
    }

    private List<String> chosenSystems() {
        return chosen("--systems", systems != null ? systems
                : ifQuick(List.of(BenchSettings.MM2_FAST, BenchSettings.SEXTANT), BenchSettings.DEFAULT_SYSTEMS));
    }

    /** {@code sys}, every one a known system. */
    private List<String> chosen(String option, List<String> sys) {
        for (String s : sys) {
            if (!BenchSettings.ALL_SYSTEMS.contains(s)) {
                throw new CommandLine.ParameterException(spec.commandLine(), option + ": unknown system '" + s
                        + "'; use " + BenchSettings.ALL_SYSTEMS);
            }
        }
        return List.copyOf(sys);
    }

    private String chosenMode() {
        String m = or(mode, ifQuick(BenchSettings.SIDE_BY_SIDE, BenchSettings.SEQUENTIAL));
        if (!BenchSettings.MODES.contains(m)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "unknown mode '" + m + "'; use "
                    + BenchSettings.MODES);
        }
        return m;
    }

    private List<Integer> chosenThreadCounts() {
        List<Integer> threads = sextantThreads != null ? List.copyOf(sextantThreads) : List.of(1, 2);
        if (threads.isEmpty() || threads.stream().anyMatch(t -> t < 1) || threads.stream().distinct().count()
                < threads.size()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--sextant-threads: distinct counts of 1 "
                    + "or more, e.g. 1,2");
        }
        return threads;
    }

    /** {@code value}, or {@code otherwise} when the option was not given. */
    private static <T> T or(T value, T otherwise) {
        return value != null ? value : otherwise;
    }

    /** The default under {@code --quick}, or the full run's. */
    private <T> T ifQuick(T quickValue, T otherwise) {
        return quick ? quickValue : otherwise;
    }
}
