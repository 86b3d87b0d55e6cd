package dev.sextant.cli;

import dev.sextant.failover.ManualFailover;
import dev.sextant.state.PositionStatus;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sextant failover --group G [--apply]}: a manual cutover that needs no running Sextant instance, only the two
 * clusters: the group's committed source offsets, translated with the offset-sync history Sextant keeps on the
 * source, and with {@code --apply} written to the destination through the sync's guards.
 */
@Command(name = "failover", mixinStandardHelpOptions = true,
        description = {"Manual cutover of a consumer group, with the sync stopped: translate (and --apply) its offsets.",
                "Translates the group's committed offsets on the source for the destination, from the offset-sync "
                + "history Sextant keeps on the source: works with no Sextant instance running. With --apply, writes "
                + "them to the destination through the same guards as the sync: never onto a group that is active "
                + "there, of another type, or whose offsets someone else committed.",
                "Exit codes: 0 translated (and written with --apply), 1 refused or failed (nothing written), "
                        + "2 bad usage or configuration."})
final class FailoverCommand implements Callable<Integer> {

    @CommandLine.Mixin
    ConfigOption config;

    @Option(names = "--group", required = true, description = "The consumer group to fail over.")
    String group;

    @Option(names = "--apply", description = "Write the translated offsets to the destination (default: only print them).")
    boolean apply;

    @Option(names = "--json", description = "JSON instead of a table.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** One partition of the {@code --json} output. */
    record PartitionJson(String topic, int partition, long sourceOffset, String destinationTopic,
                         Long destinationOffset, String precision, Long bound, String status) {
    }

    /** The {@code --json} output. */
    record FailoverJson(String group, String groupType, String translation, boolean applied, String result,
                        String reason, String message, List<PartitionJson> partitions, List<String> warnings) {
    }

    @Override
    public Integer call() {
        if (group.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--group must not be empty");
        }
        ManualFailover failover = new ManualFailover(config.load());
        ManualFailover.Plan plan = failover.plan(group);
        ManualFailover.Result result = apply ? failover.apply(plan) : null;
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        plan.warnings().forEach(w -> err.println("warning: " + w));
        if (json) {
            out.println(Json.write(toJson(plan, result)));
        } else {
            printTable(out, plan, result);
        }
        out.flush();
        int exit;
        if (result == null) {
            exit = SextantCommand.EXIT_OK;
            if (!json) {
                out.println(plan.complete()
                        ? "Nothing written (dry run). Run again with --apply to write these offsets to the destination."
                        : "Nothing written (dry run); --apply would refuse: not every partition translates.");
            }
        } else if (result.status() == ManualFailover.Status.APPLIED) {
            exit = SextantCommand.EXIT_OK;
            if (!json) {
                out.println("Applied: " + result.message() + ". Consumers of group '" + group + "' can start on the "
                        + "destination now.");
            }
        } else {
            exit = SextantCommand.EXIT_FAILURE;
            err.println("sextant failover: " + (result.status() == ManualFailover.Status.REFUSED ? "refused: " : "failed: ")
                    + result.message());
        }
        out.flush();
        err.flush();
        return exit;
    }

    private static FailoverJson toJson(ManualFailover.Plan plan, ManualFailover.Result result) {
        List<PartitionJson> partitions = new ArrayList<>();
        for (ManualFailover.Row r : plan.rows()) {
            partitions.add(new PartitionJson(r.topic(), r.partition(), r.sourceOffset(), r.destinationTopic(),
                    r.destinationOffset(), r.precision(), r.bound(), status(r, result)));
        }
        return new FailoverJson(plan.group(), "consumer", plan.translation(),
                result != null && result.status() == ManualFailover.Status.APPLIED,
                result == null ? "DRY_RUN" : result.status().name(),
                result == null || result.reason() == null ? null : result.reason().name(),
                result == null ? null : result.message(), partitions, plan.warnings());
    }

    private static String status(ManualFailover.Row row, ManualFailover.Result result) {
        if (row.problem() != null) {
            return "UNTRANSLATABLE";
        }
        if (result == null) {
            return null;
        }
        PositionStatus status = result.statuses().get(new TopicPartition(row.destinationTopic(), row.partition()));
        return status == null ? "NOT_WRITTEN" : status.name();
    }

    private static void printTable(PrintWriter out, ManualFailover.Plan plan, ManualFailover.Result result) {
        out.printf("Group %s: %d partition(s), translation %s%s%n", plan.group(), plan.rows().size(), plan.translation(),
                plan.translation().equals("identity") ? "" : " (" + plan.historySize() + " offset syncs in Sextant's history)");
        String format = "%-34s %14s  %-34s %18s  %-9s %6s%s%n";
        out.printf(format, "SOURCE", "SOURCE OFFSET", "DESTINATION", "DESTINATION OFFSET", "PRECISION", "BOUND",
                result == null ? "" : "  STATUS");
        for (ManualFailover.Row r : plan.rows()) {
            String status = status(r, result);
            out.printf(format, r.topic() + "-" + r.partition(), r.sourceOffset(),
                    r.destinationTopic() + "-" + r.partition(),
                    r.destinationOffset() == null ? "-" : r.destinationOffset().toString(),
                    r.precision() == null ? "-" : r.precision(), r.bound() == null ? "-" : r.bound().toString(),
                    result == null ? (r.problem() == null ? "" : "  " + r.problem()) : "  " + status);
        }
    }
}
