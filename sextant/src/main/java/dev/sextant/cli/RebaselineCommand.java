package dev.sextant.cli;

import dev.sextant.command.CommandContext;
import dev.sextant.rebaseline.DestinationRebaseline;
import dev.sextant.rebaseline.SourceRebaseline;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sextant rebaseline -c FILE [--source] [--apply] [-o text|json|yaml]}: accept the destination cluster as it
 * is now, or, with {@code --source}, a replaced source cluster.
 */
@Command(name = "rebaseline", mixinStandardHelpOptions = true,
        description = {"Accept the cluster answering at destination.bootstrap.servers as the one Sextant writes to: a "
                + "dry run by default.",
                "Sextant pins the destination cluster's id and writes nothing to another (a cluster rebuilt at the "
                + "same address, or another one behind the same name): it says so with a DESTINATION_CHANGED dead "
                + "letter, the gauge sextant_destination_cluster_changed and the readiness detail. With --apply "
                + "the cluster answering now is pinned; every running instance writes to it from then on, every "
                + "group again, through the new mirrors' offset syncs.",
                "With --source: accept the source cluster answering at source.bootstrap.servers. Every offset "
                + "Sextant writes names the source cluster it came from; a replaced source (its __consumer_offsets "
                + "starting again at 0) cannot order its commits against those, so the sync refuses those groups "
                + "(SOURCE_CHANGED dead letter, the gauge sextant_source_cluster_changed, the readiness detail). "
                + "This lists them; with --apply it releases their marks in place (the same offsets, under a mark "
                + "that names no commit), and the next commit of each group is written. Groups with members on the "
                + "destination are left alone.",
                "Exits 0 when the destination is the pinned cluster (or now is), 1 when it is not (a dry run); with "
                + "--source, 0 when no group names another source cluster (or all were released), else 1."})
final class RebaselineCommand implements Callable<Integer> {

    @CommandLine.Mixin
    ConfigOption config;

    @Option(names = {"--apply", "--execute"}, description = "Pin the cluster answering now, or with --source release "
            + "the marks (default: only show what would change).")
    boolean apply;

    @Option(names = "--source", description = "Accept a replaced source cluster instead of the destination.")
    boolean source;

    @CommandLine.Mixin
    DryRunOption dryRun;

    @CommandLine.Mixin
    OutputOption output;

    private OutputFormat format;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "30s", converter = DurationConverter.class,
            description = "How long each cluster may take to answer (default ${DEFAULT-VALUE}; "
                    + DurationConverter.ACCEPTS + ").")
    Duration timeout;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    record RebaselineJson(String pinned, String destination, boolean changed, boolean applied) {
    }

    record SourceRebaselineJson(String source, boolean clean, boolean applied,
                                List<SourceRebaseline.GroupResult> groups) {
    }

    @Override
    public Integer call() {
        apply = dryRun.apply(spec.commandLine(), apply);
        format = output.format(spec.commandLine());
        DurationConverter.requireAtLeastOneSecond(spec.commandLine(), "--timeout", timeout);
        if (source) {
            return source();
        }
        DestinationRebaseline.Result result;
        try (CommandContext context = CommandContext.of(config.load(), timeout)) {
            result = new DestinationRebaseline(context).run(apply);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (format.structured()) {
            out.println(format.write(new RebaselineJson(result.pinned(), result.destination(), result.changed(),
                    result.applied())));
        } else if (result.pinned() == null) {
            out.printf("No destination cluster pinned yet (a running instance pins the first it sees); the "
                    + "destination is cluster %s.%s%n", result.destination(), result.applied() ? " Pinned it." : "");
        } else if (!result.changed()) {
            out.printf("The destination is cluster %s, the one Sextant writes to. Nothing to do.%n",
                    result.destination());
        } else if (result.applied()) {
            out.printf("Pinned cluster %s (was %s): running instances write to it from now on.%n",
                    result.destination(), result.pinned());
        } else {
            out.printf("The destination is cluster %s, not the cluster %s Sextant wrote to: nothing is written until "
                    + "you accept it. Run again with --apply to do so.%n", result.destination(), result.pinned());
        }
        out.flush();
        return result.changed() && !result.applied() ? ExitCodes.FAILURE : ExitCodes.OK;
    }

    private int source() {
        SourceRebaseline.Result result;
        try (CommandContext context = CommandContext.of(config.load(), timeout)) {
            result = new SourceRebaseline(context).run(apply);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (format.structured()) {
            out.println(format.write(new SourceRebaselineJson(result.source(), result.clean(), apply,
                    result.groups())));
        } else if (result.groups().isEmpty()) {
            out.printf("The source is cluster %s, and no destination offset Sextant wrote names another. Nothing to "
                    + "do.%n", result.source());
        } else {
            out.printf("The source is cluster %s; destination offsets of %d group(s) were written from another:%n",
                    result.source(), result.groups().size());
            for (SourceRebaseline.GroupResult g : result.groups()) {
                out.printf("  %s (from %s; %s): %s%s%n", g.group(), String.join(", ", g.clusters()),
                        String.join(", ", g.partitions()), switch (g.status()) {
                            case FOUND -> "not written by the sync until released";
                            case RELEASED -> "released: written again from its next commit";
                            case ACTIVE -> "left alone";
                            case FAILED -> "not released";
                        }, g.detail() == null ? "" : " (" + g.detail() + ")");
            }
            if (!apply) {
                out.println("Run again with --apply to release them.");
            }
        }
        out.flush();
        return result.clean() ? ExitCodes.OK : ExitCodes.FAILURE;
    }
}
