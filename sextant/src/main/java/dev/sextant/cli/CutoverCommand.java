package dev.sextant.cli;

import dev.sextant.acl.NotAuthorizedException;
import dev.sextant.client.SextantClient;
import dev.sextant.client.SextantClientException;
import dev.sextant.command.CommandContext;
import dev.sextant.command.CommandStep;
import dev.sextant.config.SextantConfig;
import dev.sextant.cutover.CutoverReport;
import dev.sextant.cutover.PlannedCutover;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import org.apache.kafka.common.errors.AuthorizationException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sextant cutover (--group G | --groups REGEX | --all) [--fence-check DURATION] [--apply] [--undo]}: the planned
 * move of groups to the destination with the source alive ({@link PlannedCutover}), against a running Sextant.
 */
@Command(name = "cutover", mixinStandardHelpOptions = true,
        description = {"Move groups to the destination for good, with the source alive: a planned migration.",
                "Per group: refuses it while it has members on the source (ACTIVE_ON_SOURCE) or while anything commits "
                + "for it there within --fence-check (STILL_COMMITTING: a consumer that assign()s its partitions "
                + "commits without joining); waits until the running Sextant wrote its last commit to the destination "
                + "(exact where the history proves it, else with its replay bound); refuses a destination group with "
                + "members or offsets someone else committed, as the sync does; then records it as cut over. From "
                + "then on the sync never moves it from the source again: a later commit there is a CUT_OVER dead "
                + "letter, never a write. A dry run by default; --apply records; --undo --apply gives groups back to "
                + "the sync. Safe to run again: a group cut over is reported so, a refused one is tried afresh.",
                "failover is for a source that is gone; cutover is for a source that is alive and a move that is "
                + "planned.",
                "Exits 0 when every selected group is, or in a dry run would be, cut over (with --undo: given back), "
                + "1 otherwise."})
final class CutoverCommand implements Callable<Integer> {

    @CommandLine.Mixin
    ConfigOption config;

    @CommandLine.ArgGroup(exclusive = true, multiplicity = "1")
    GroupSelection selection;

    @Option(names = {"--apply", "--execute"},
            description = "Record the cutover (default: only show what would happen).")
    boolean apply;

    @Option(names = "--undo", description = "Give the selected groups back to the sync (with --apply).")
    boolean undo;

    @Option(names = "--fence-check", paramLabel = "DURATION", defaultValue = "30s",
            converter = DurationConverter.class,
            description = "How long the source is watched for commits of the groups before they are cut over: "
                    + DurationConverter.ACCEPTS + " (default ${DEFAULT-VALUE}).")
    Duration fenceCheck;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "60s", converter = DurationConverter.class,
            description = "How long the sync may take to write the groups' last commits, and each cluster to answer "
                    + "(default ${DEFAULT-VALUE}; " + DurationConverter.ACCEPTS + ").")
    Duration timeout;

    @CommandLine.Mixin
    DryRunOption dryRun;

    @CommandLine.Mixin
    OutputOption output;

    @Option(names = "--url", paramLabel = "URL", description = "The running Sextant instance, http://host:port "
            + "(default: query.advertised of the -c file).")
    String url;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Where the command is, named in a failure (set once the clusters are opened). */
    private CommandStep step;

    @Override
    public Integer call() {
        OutputFormat format = output.format(spec.commandLine());
        apply = dryRun.apply(spec.commandLine(), apply);
        DurationConverter.requireAtLeastOneSecond(spec.commandLine(), "--timeout", timeout);
        Predicate<String> selected = selection.predicate(spec.commandLine());
        SextantConfig loaded = config.load();
        SextantClient instance = instance(loaded);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean terminal = System.console() != null && !format.structured();
        CutoverReport report;
        try (CommandContext context = CommandContext.of(loaded, timeout)) {
            step = context.step();
            PlannedCutover cutover = new PlannedCutover(context, instance, Clock.systemUTC(), line -> {
                if (terminal) {
                    err.println("... " + line);
                    err.flush();
                }
            });
            Set<String> named = selection.named(spec.commandLine());
            report = undo ? cutover.undo(selected, named, apply, timeout)
                    : cutover.cutOver(selected, named, new PlannedCutover.Options(apply, fenceCheck,
                            timeout));
        } catch (AuthorizationException e) {
            throw new NotAuthorizedException(e.getMessage() + ": the cutover reads the source's groups and "
                    + "__consumer_offsets, and writes Sextant's cutovers topic there ('sextant config acls' lists "
                    + "them)", e);
        } catch (SextantClientException e) {
            // a failure as any other: one line on stderr, and the error document under -o json
            throw new IllegalStateException("the Sextant instance did not answer (" + e.getMessage() + "): the "
                    + "cutover needs a running Sextant (--url)", e);
        } catch (RuntimeException e) {
            throw step == null ? e : step.named(e); // Kafka's sentence alone names no cluster and no step
        }
        if (format.structured()) {
            out.println(format.write(report));
        } else {
            print(out, report);
        }
        out.flush();
        return report.clean() ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    private SextantClient instance(SextantConfig loaded) {
        String target = url != null ? url : InstanceConnection.advertisedUrl(loaded).orElseThrow(() ->
                new CommandLine.ParameterException(spec.commandLine(), "the cutover works against a running "
                        + "Sextant: give its address with --url http://host:port (query.advertised of the -c file "
                        + "has port 0)"));
        return InstanceConnection.connect(spec.commandLine(), target, loaded, Duration.ofSeconds(10));
    }

    private static void print(PrintWriter out, CutoverReport report) {
        String format = "  %-40s %12s  %-40s %12s %9s %7s%n";
        for (CutoverReport.GroupResult g : report.groups()) {
            out.printf("%s (%s group): %s: %s%n", g.group(), g.groupType() == null ? "?" : g.groupType(),
                    g.status(), g.message());
            if (g.partitions().isEmpty()) {
                continue;
            }
            out.printf(format, "SOURCE PARTITION", "OFFSET", "DESTINATION PARTITION", "OFFSET", "PRECISION",
                    "BOUND");
            for (var p : g.partitions()) {
                out.printf(format, p.topic() + "-" + p.partition(), p.sourceOffset(),
                        p.destinationTopic() + "-" + p.partition(), p.destinationOffset(),
                        p.precision() == null ? "-" : p.precision(), p.bound() == null ? "-" : p.bound());
            }
        }
        long ok = report.groups().stream().filter(CutoverReport.GroupResult::ok).count();
        String verb = report.undo() ? (report.applied() ? "given back to the sync" : "would be given back")
                : report.applied() ? "cut over" : "would be cut over";
        out.printf("%d group(s) in %d ms: %d %s, %d not%s.%n", report.groups().size(), report.tookMs(), ok, verb,
                report.groups().size() - ok, report.applied() ? "" : " (a dry run: --apply to act)");
    }
}
