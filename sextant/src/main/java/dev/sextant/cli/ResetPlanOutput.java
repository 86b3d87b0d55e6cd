package dev.sextant.cli;

import dev.sextant.domain.GroupKind;
import dev.sextant.failover.FailoverReport;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code failover -o csv}: a failover report as the reset plan Kafka's {@code kafka-consumer-groups --from-file} takes
 * ({@link ResetPlanCsv}) on stdout, what the plan leaves out and why on stderr, and the command's exit code.
 */
final class ResetPlanOutput {

    private ResetPlanOutput() {
    }

    /**
     * The reset plan of the one group selected, on stdout; on stderr the partitions left out and why the group is
     * not clean. The exit code is the report's (1 when not clean), or 2 for a share group: no Kafka tool takes a
     * plan file for one.
     */
    static int printOne(String name, FailoverReport.Report report, PrintWriter out, PrintWriter err) {
        Optional<FailoverReport.GroupState> found = report.groups().stream()
                .filter(g -> g.group().equals(name)).findFirst();
        if (found.isEmpty()) {
            err.println("sextant failover: no offsets for group '" + name + "' on the destination, and no "
                    + "instance knows it: the CSV is empty");
            return report.clean() ? ExitCodes.OK : ExitCodes.FAILURE;
        }
        FailoverReport.GroupState group = found.get();
        if (GroupKind.SHARE.label().equals(group.groupType())) {
            err.println("sextant failover: '" + group.group() + "' is a share group: kafka-consumer-groups "
                    + "--from-file resets consumer groups only (kafka-share-groups takes no plan file); use --format "
                    + "text or json");
            return ExitCodes.USAGE;
        }
        ResetPlanCsv plan = ResetPlanCsv.of(group);
        out.print(plan.text());
        if (!plan.leftOut().isEmpty()) {
            err.println("sextant failover: left out of the CSV, no offset to resume at (a consumer starts there "
                    + "from auto.offset.reset): " + String.join(", ", plan.leftOut()));
        }
        if (plan.lines().isEmpty()) {
            err.println("sextant failover: no offsets for group '" + group.group() + "': the CSV is empty");
        }
        if (!group.clean()) {
            err.println("sextant failover: group '" + group.group() + "' cannot be failed over cleanly: "
                    + group.result() + (group.detail() == null ? "" : ": " + group.detail()));
            return ExitCodes.FAILURE;
        }
        return ExitCodes.OK;
    }

    /**
     * The reset plan of every consumer group selected ({@code --groups}, {@code --all}), four columns, on stdout: one
     * file for {@code kafka-consumer-groups --reset-offsets --from-file FILE --all-groups --execute}. On stderr: the
     * share groups left out (no Kafka tool takes a plan for them), the partitions left out, and the groups that
     * cannot be failed over cleanly, which make the exit code 1 as in the other formats.
     */
    static int printBulk(FailoverReport.Report report, PrintWriter out, PrintWriter err) {
        List<FailoverReport.GroupState> consumers = new ArrayList<>();
        List<String> shares = new ArrayList<>();
        for (FailoverReport.GroupState g : report.groups()) {
            if (GroupKind.SHARE.label().equals(g.groupType())) {
                shares.add(g.group());
            } else {
                consumers.add(g);
            }
        }
        ResetPlanCsv plan = ResetPlanCsv.bulk(consumers);
        out.print(plan.text());
        if (!shares.isEmpty()) {
            err.println("sextant failover: share groups left out of the CSV (kafka-consumer-groups --from-file "
                    + "resets consumer groups only; -o text or json shows them): " + String.join(", ", shares));
        }
        if (!plan.leftOut().isEmpty()) {
            err.println("sextant failover: left out of the CSV, no offset to resume at (a consumer starts there "
                    + "from auto.offset.reset): " + String.join(", ", plan.leftOut()));
        }
        if (plan.lines().isEmpty()) {
            err.println("sextant failover: no consumer group selected has offsets: the CSV is empty");
        }
        List<String> notClean = report.groups().stream().filter(g -> !g.clean())
                .map(g -> g.group() + " (" + g.result() + (g.detail() == null ? "" : ": " + g.detail()) + ")")
                .toList();
        if (!notClean.isEmpty()) {
            err.println("sextant failover: " + notClean.size() + " group(s) cannot be failed over cleanly: "
                    + String.join(", ", notClean));
        }
        return report.clean() ? ExitCodes.OK : ExitCodes.FAILURE;
    }
}
