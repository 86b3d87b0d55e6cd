package dev.sextant.cli;

import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Instances, groups, worst lag and replay bound, recent conflicts (asks a running instance).",
                "Exits 1 when no instance answers."})
final class StatusCommand implements Callable<Integer> {

    private static final Duration RECENT = Duration.ofHours(1);
    private static final String IN_SYNC = "IN_SYNC";
    private static final String NO_OFFSETS = "NO_OFFSETS";
    /** Moved to the destination by {@code sextant cutover}: the sync leaves it alone, so it never lags. */
    private static final String CUT_OVER = "CUT_OVER";

    @CommandLine.Mixin
    OutputOption output;

    @CommandLine.Mixin
    QueryTarget target;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * The status document of {@code --json}.
     *
     * @param worstLagMs        the age of the newest source commit of the group furthest from in-sync, or null
     * @param recentConflicts   dead-letter records of the last hour
     */
    record Status(List<SextantClient.Instance> instances, int groups, long groupsInSync, Long worstReplayBound,
                  String worstReplayBoundGroup, Long worstLagMs, String worstLagGroup, long recentConflicts,
                  List<SextantClient.GroupSummary> groupList, SextantClient.Readiness readiness,
                  long groupsCutOver) {
    }

    @Override
    public Integer call() {
        OutputFormat format = output.format(spec.commandLine());
        SextantClient client = target.client(spec.commandLine());
        List<SextantClient.Instance> instances = client.instances();
        List<SextantClient.GroupSummary> groups = client.groups();
        long now = System.currentTimeMillis();
        long recentConflicts = client.conflicts(null, 1_000).stream()
                .filter(c -> c.detectedAt() >= now - RECENT.toMillis()).count();
        Optional<SextantClient.GroupSummary> worstBound = groups.stream().filter(g -> g.worstReplayBound() != null)
                .max(Comparator.comparingLong(SextantClient.GroupSummary::worstReplayBound));
        Optional<SextantClient.GroupSummary> worstLag = groups.stream()
                .filter(g -> !IN_SYNC.equals(g.state()) && !NO_OFFSETS.equals(g.state())
                        && !CUT_OVER.equals(g.state()) && g.lastSourceCommit() != null)
                .min(Comparator.comparingLong(SextantClient.GroupSummary::lastSourceCommit));
        Status status = new Status(instances, groups.size(),
                groups.stream().filter(g -> IN_SYNC.equals(g.state())).count(),
                worstBound.map(SextantClient.GroupSummary::worstReplayBound).orElse(null),
                worstBound.map(SextantClient.GroupSummary::group).orElse(null),
                worstLag.map(g -> Math.max(0, now - g.lastSourceCommit())).orElse(null),
                worstLag.map(SextantClient.GroupSummary::group).orElse(null),
                recentConflicts, groups, readiness(client),
                groups.stream().filter(g -> CUT_OVER.equals(g.state())).count());
        PrintWriter out = spec.commandLine().getOut();
        if (format.structured()) {
            out.println(format.write(status));
        } else {
            print(out, status);
        }
        out.flush();
        return ExitCodes.OK;
    }

    /** The readiness of the instance asked; null when it does not say (a status never fails for want of it). */
    private static SextantClient.Readiness readiness(SextantClient client) {
        try {
            return client.readiness();
        } catch (SextantClientException e) {
            return null;
        }
    }

    private static void print(PrintWriter out, Status s) {
        if (s.readiness() != null && s.readiness().problem() != null) {
            // what keeps the instance asked from syncing: the destination unreachable or replaced, a refused read
            out.printf("%s: %s%n", s.readiness().status(), s.readiness().problem());
        }
        out.printf("Instances: %d%n", s.instances().size());
        for (SextantClient.Instance i : s.instances()) {
            out.printf("  %-30s __consumer_offsets partitions %s%s%s%n", i.address(), join(i.partitions()),
                    i.standbyPartitions().isEmpty() ? "" : ", standby " + join(i.standbyPartitions()),
                    i.self() ? "  (answered)" : "");
        }
        out.printf("Groups: %d, %d in sync%s%n", s.groups(), s.groupsInSync(), s.groupsCutOver() == 0 ? ""
                : ", " + s.groupsCutOver() + " cut over to the destination (the sync leaves them alone)");
        out.printf("Worst replay bound: %s%n", s.worstReplayBound() == null ? "-"
                : s.worstReplayBound() + " records (" + s.worstReplayBoundGroup() + ")");
        out.printf("Worst lag: %s%n", s.worstLagMs() == null ? "none (every group in sync)"
                : String.format("%.1f s since the newest commit of %s, not yet in sync", s.worstLagMs() / 1000.0,
                s.worstLagGroup()));
        out.printf("Conflicts in the last hour: %d (sextant conflicts shows them)%n", s.recentConflicts());
        if (!s.groupList().isEmpty()) {
            out.println();
            out.printf("%-32s %-9s %-21s %10s %24s %24s %6s%n", "GROUP", "TYPE", "STATE", "PARTITIONS",
                    "LAST SOURCE COMMIT", "LAST APPLY", "BOUND");
            for (SextantClient.GroupSummary g : s.groupList()) {
                out.printf("%-32s %-9s %-21s %10d %24s %24s %6s%n", g.group(), g.groupType(), g.state(), g.partitions(),
                        time(g.lastSourceCommit()), time(g.lastApply()),
                        g.worstReplayBound() == null ? "-" : g.worstReplayBound().toString());
            }
        }
    }

    private static String time(Long millis) {
        return millis == null ? "-" : Instant.ofEpochMilli(millis).toString();
    }

    private static String join(List<Integer> partitions) {
        return partitions.isEmpty() ? "-" : partitions.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
