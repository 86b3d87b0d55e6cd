package dev.sextant.cli;

import dev.sextant.failover.DestinationRebaseline;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sextant rebaseline -c FILE [--apply] [--json]}: accept the destination cluster as it is now. */
@Command(name = "rebaseline", mixinStandardHelpOptions = true,
        description = {"Accept the cluster answering at destination.bootstrap.servers as the one Sextant writes to: a "
                + "dry run by default.",
                "Sextant pins the destination cluster's id and writes nothing to another (a cluster rebuilt at the "
                + "same address, or another one behind the same name): it says so with a DESTINATION_CHANGED dead "
                + "letter, the gauge sextant_destination_cluster_changed and the readiness detail. With --apply "
                + "the cluster answering now is pinned; every running instance writes to it from then on, every "
                + "group again, through the new mirrors' offset syncs.",
                "Exits 0 when the destination is the pinned cluster (or now is), 1 when it is not (a dry run)."})
final class RebaselineCommand implements Callable<Integer> {

    @CommandLine.Mixin
    ConfigOption config;

    @Option(names = "--apply", description = "Pin the cluster answering now (default: only show both).")
    boolean apply;

    @Option(names = "--json", description = "JSON instead of text.")
    boolean json;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "How long each cluster may take to answer (default ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    record RebaselineJson(String pinned, String destination, boolean changed, boolean applied) {
    }

    @Override
    public Integer call() {
        DestinationRebaseline.Result result = new DestinationRebaseline(config.load())
                .run(apply, Duration.ofSeconds(timeoutSeconds));
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.write(new RebaselineJson(result.pinned(), result.destination(), result.changed(),
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
}
