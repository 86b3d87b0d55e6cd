package dev.sextant.cli;

import dev.sextant.client.SextantClient;
import dev.sextant.command.CommandContext;
import dev.sextant.config.SextantConfig;
import dev.sextant.failover.DestinationFailover;
import dev.sextant.failover.FailoverReport;
import dev.sextant.failover.ManualFailover;
import dev.sextant.state.PositionStatus;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sextant failover (--group G | --groups REGEX | --all) [--apply] [-o text|json|yaml|csv]}: the failover,
 * with the source cluster gone. Reads what the destination holds for each group (offsets and the marks Sextant
 * writes with them: precision, replay bound, age of the last sync) and, when a Sextant instance still answers, the
 * positions it translated but did not apply yet, which {@code --apply} writes through the sync's guards.
 * {@code --from-source} (with {@code --group}) is the failover with the sync stopped and the source up: the source's
 * committed offsets, translated from the history Sextant keeps there. {@code -o csv} prints the positions as the
 * reset plan Kafka's {@code kafka-consumer-groups --reset-offsets --from-file} takes ({@link ResetPlanOutput}): one
 * group's with {@code --group}, every selected group's (four columns) with {@code --groups} or {@code --all}.
 */
@Command(name = "failover", mixinStandardHelpOptions = true,
        description = {"Fail groups over to the destination; works with the source cluster gone.",
                "Reads what the destination holds for each selected group: its offsets, and from the mark Sextant "
                + "writes with each one the precision, the replay bound and the age of the last sync. When a Sextant "
                + "instance still answers (--url, default query.advertised of the -c file), positions it translated "
                + "but did not write yet are shown, and written with --apply, through the same guards as the sync: "
                + "never onto a group that is active on the destination, of another type, or whose offsets someone "
                + "else committed. A dry run by default.",
                "--from-source --group G: with the source up and the sync stopped, translate the group's committed "
                + "source offsets from the offset-sync history Sextant keeps on the source instead.",
                "Not clean: a group refused or not written, a group or partition the instance knows that has no "
                + "offset on the destination (untranslated, not applied yet, or expired there), a group of the "
                + "other type there. Its consumers would start from auto.offset.reset.",
                "-o csv (--format csv): the reset plan 'kafka-consumer-groups --reset-offsets --from-file FILE "
                + "--execute' takes, on stdout; the offset of each partition is where a consumer resumes (a pending "
                + "translation, else the destination's). With --group G, lines topic,partition,offset, for "
                + "'--from-file G.csv --group G' (or any other group name); with --groups or --all, lines "
                + "group,topic,partition,offset, every group in one file: 'sextant failover -c F --all -o csv > "
                + "plan.csv', then '--from-file plan.csv --all-groups' (the groups the destination lists) or a "
                + "--group per group. Consumer groups only (share groups are named on stderr). A partition with no "
                + "offset to resume at is left out and named on stderr, and a group that is not clean exits 1, as "
                + "in the other formats.",
                "Exits 0 when every group can be (or was) failed over cleanly, 1 when some group cannot (not "
                        + "clean, destination unreachable)."})
final class FailoverCommand implements Callable<Integer> {

    @CommandLine.Mixin
    ConfigOption config;

    @CommandLine.ArgGroup(exclusive = true, multiplicity = "1")
    GroupSelection selection;

    @Option(names = {"--apply", "--execute"},
            description = "Write what is not on the destination yet (default: only show it).")
    boolean apply;

    @CommandLine.Mixin
    DryRunOption dryRun;

    /** {@code --format}: text, json, yaml, csv. */
    static final class FormatConverter extends OutputFormat.Converter {
        FormatConverter() {
            super(OutputFormat.CSV);
        }
    }

    @Option(names = "--format", paramLabel = "FORMAT", converter = FormatConverter.class,
            description = "text (a table, the default), json, yaml (the json tree), or csv (the reset plan "
                    + "kafka-consumer-groups --reset-offsets --from-file takes).")
    OutputFormat format;

    @CommandLine.Mixin
    OutputOption output;

    /** What {@code --format}, {@code -o} or {@code --json} chose. */
    private OutputFormat chosen;

    @Option(names = "--from-source", description = "Translate the source's committed offsets (needs the source "
            + "cluster; with --group only).")
    boolean fromSource;

    @Option(names = "--url", paramLabel = "URL", description = "A Sextant instance to ask for positions not "
            + "applied yet, http://host:port (default: query.advertised of the -c file, when its port is not 0).")
    String url;

    @Option(names = "--no-instance", description = "Do not ask a Sextant instance: only what the destination holds.")
    boolean noInstance;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "30s", converter = DurationConverter.class,
            description = "How long the destination may take to answer (default ${DEFAULT-VALUE}; "
                    + DurationConverter.ACCEPTS + ").")
    Duration timeout;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** One partition of the {@code --from-source --json} output. */
    record PartitionJson(String topic, int partition, long sourceOffset, String destinationTopic,
                         Long destinationOffset, String precision, Long bound, String status) {
    }

    /** The {@code --from-source --json} output. */
    record FailoverJson(String group, String groupType, String translation, boolean applied, String result,
                        String reason, String message, List<PartitionJson> partitions, List<String> warnings) {
    }

    /** The {@code --json} output. */
    record ReportJson(boolean applied, boolean clean, int groups, String instance, String instanceProblem,
                      long tookMs, List<FailoverReport.GroupState> results) {
    }

    @Override
    public Integer call() {
        DurationConverter.requireAtLeastOneSecond(spec.commandLine(), "--timeout", timeout);
        apply = dryRun.apply(spec.commandLine(), apply);
        chosen = chosenFormat();
        if (fromSource) {
            if (selection.single() == null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--from-source works with one --group "
                        + "only");
            }
            group = selection.single();
            return fromSource();
        }
        Predicate<String> selected = selected();
        SextantConfig loaded = config.load();
        Optional<SextantClient> instance = instance(loaded);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean terminal = System.console() != null && chosen == OutputFormat.TEXT;
        FailoverReport.Report report;
        try (CommandContext context = CommandContext.of(loaded, timeout)) {
            report = new DestinationFailover(context, Clock.systemUTC()).run(selected, instance, apply, line -> {
                if (terminal) {
                    err.println("... " + line);
                    err.flush();
                }
            });
        }
        if (report.instanceProblem() != null) {
            err.println("warning: " + report.instanceProblem());
        }
        int exit = report.clean() ? ExitCodes.OK : ExitCodes.FAILURE;
        if (chosen == OutputFormat.CSV) {
            // one group: Kafka's three columns, for --from-file with --group; more: the four with the group
            exit = selection.single() != null ? ResetPlanOutput.printOne(selection.single(), report, out, err)
                    : ResetPlanOutput.printBulk(report, out, err);
        } else if (chosen.structured()) {
            out.println(chosen.write(new ReportJson(apply, report.clean(), report.groups().size(),
                    instance.isPresent() ? instanceUrl : null, report.instanceProblem(), report.tookMs(),
                    report.groups())));
        } else {
            printReport(out, report);
        }
        out.flush();
        err.flush();
        return exit;
    }

    /** {@code --format}, {@code -o}, {@code --json} as {@code -o json}; csv without --from-source only. */
    private OutputFormat chosenFormat() {
        OutputFormat output = this.output.format(spec.commandLine(), format, OutputFormat.CSV);
        if (output == OutputFormat.CSV && fromSource) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--format csv works without --from-source "
                    + "only");
        }
        return output;
    }

    private Predicate<String> selected() {
        return selection.predicate(spec.commandLine());
    }

    private String instanceUrl;

    private Optional<SextantClient> instance(SextantConfig loaded) {
        if (noInstance) {
            return Optional.empty();
        }
        String target = url;
        if (target == null) {
            Optional<String> advertised = InstanceConnection.advertisedUrl(loaded);
            if (advertised.isEmpty()) {
                return Optional.empty();
            }
            target = advertised.get();
        }
        instanceUrl = target;
        // short: on the day of a failover a dead instance must not hold the command up
        return Optional.of(InstanceConnection.connect(spec.commandLine(), target, loaded,
                timeout.compareTo(Duration.ofSeconds(5)) < 0 ? timeout : Duration.ofSeconds(5)));
    }

    private static void printReport(PrintWriter out, FailoverReport.Report report) {
        String format = "  %-40s %12s  %-9s %7s %10s  %s%n";
        for (FailoverReport.GroupState g : report.groups()) {
            out.printf("%s (%s group, %s on the destination): %s%s%n", g.group(), g.groupType(),
                    g.destinationState(), g.result(), g.detail() == null ? "" : ": " + g.detail());
            if (g.partitions().isEmpty()) {
                continue;
            }
            out.printf(format, "DESTINATION PARTITION", "OFFSET", "PRECISION", "BOUND", "LAST SYNC", "STATUS");
            for (FailoverReport.PartitionState p : g.partitions()) {
                out.printf(format, p.topic() + "-" + p.partition(), p.offset() == null ? "-" : p.offset(),
                        p.precision() == null ? "-" : p.precision(), p.bound() == null ? "-" : p.bound(),
                        p.lastSyncAgeMs() == null ? "-" : age(p.lastSyncAgeMs()),
                        p.status() + (p.pendingOffset() == null ? "" : " -> " + p.pendingOffset()));
            }
        }
        long refused = report.groups().stream().filter(g -> !g.clean()).count();
        long pending = report.groups().stream().filter(g -> g.result() == FailoverReport.GroupResult.PENDING)
                .count();
        out.printf("%d group(s) in %d ms: %d cannot be failed over cleanly%s.%n", report.groups().size(),
                report.tookMs(), refused, pending > 0 ? "; " + pending + " have positions --apply would write" : "");
    }

    private static String age(long ms) {
        if (ms < 60_000) {
            return (ms / 1000) + " s ago";
        }
        if (ms < 3_600_000) {
            return (ms / 60_000) + " min ago";
        }
        return (ms / 3_600_000) + " h ago";
    }

    private String group;

    private Integer fromSource() {
        SextantConfig loaded = config.load();
        ManualFailover.Plan plan;
        ManualFailover.Result result;
        try (CommandContext context = CommandContext.of(loaded, timeout)) {
            ManualFailover failover = new ManualFailover(context);
            plan = failover.plan(group);
            result = apply ? failover.apply(plan) : null;
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        plan.warnings().forEach(w -> err.println("warning: " + w));
        if (chosen.structured()) {
            out.println(chosen.write(toJson(plan, result)));
        } else {
            printTable(out, plan, result);
        }
        out.flush();
        int exit;
        if (result == null) {
            exit = ExitCodes.OK;
            if (!chosen.structured()) {
                out.println(plan.complete()
                        ? "Nothing written (dry run). Run again with --apply to write these offsets to the destination."
                        : "Nothing written (dry run); --apply would refuse: not every partition translates.");
            }
        } else if (result.status() == ManualFailover.Status.APPLIED) {
            exit = ExitCodes.OK;
            if (!chosen.structured()) {
                out.println("Applied: " + result.message() + ". Consumers of group '" + group + "' can start on the "
                        + "destination now.");
            }
        } else {
            exit = ExitCodes.FAILURE;
            err.println("sextant failover: "
                    + (result.status() == ManualFailover.Status.REFUSED ? "refused: " : "failed: ") + result.message());
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
        return new FailoverJson(plan.group(), plan.groupType(), plan.translation(),
                result != null && result.status() == ManualFailover.Status.APPLIED,
                result == null ? "DRY_RUN" : result.status().name(),
                result == null || result.reason() == null ? null : result.reason().name(),
                result == null ? null : result.message(), partitions, plan.warnings());
    }

    private static String status(ManualFailover.Row row, ManualFailover.Result result) {
        if (row.problem() != null) {
            return row.refusal() == null ? "UNTRANSLATABLE" : row.refusal().name();
        }
        if (result == null) {
            return null;
        }
        PositionStatus status = result.statuses().get(new TopicPartition(row.destinationTopic(), row.partition()));
        return status == null ? "NOT_WRITTEN" : status.name();
    }

    private static void printTable(PrintWriter out, ManualFailover.Plan plan, ManualFailover.Result result) {
        out.printf("Group %s (%s group): %d partition(s), translation %s%s%n", plan.group(), plan.groupType(),
                plan.rows().size(), plan.translation(), plan.translation().equals("identity") ? ""
                        : " (" + plan.historySize() + " offset syncs in Sextant's history)");
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
