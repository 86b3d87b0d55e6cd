package dev.sextant.cli;

import dev.sextant.Version;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(name = "version", mixinStandardHelpOptions = true, description = "Prints Sextant's version, and the "
        + "version of the Kafka clients it runs with.")
final class VersionCommand implements Callable<Integer> {

    @CommandLine.Option(names = "--json", description = "JSON instead of a line: {\"version\",\"kafkaClients\"}.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The {@code --json} output. */
    record VersionJson(String version, String kafkaClients) {
    }

    @Override
    public Integer call() {
        if (json) {
            spec.commandLine().getOut().println(Json.write(new VersionJson(Version.current(), Version.kafka())));
        } else {
            spec.commandLine().getOut()
                    .println("sextant " + Version.current() + " (Kafka clients " + Version.kafka() + ")");
        }
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}
