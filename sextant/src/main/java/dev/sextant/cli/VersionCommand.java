package dev.sextant.cli;

import dev.sextant.Version;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(name = "version", mixinStandardHelpOptions = true, description = "Prints Sextant's version, and the "
        + "version of the Kafka clients it runs with.")
final class VersionCommand implements Callable<Integer> {

    @CommandLine.Mixin
    OutputOption output;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The {@code -o json} output: {@code {"version","kafkaClients"}}. */
    record VersionJson(String version, String kafkaClients) {
    }

    @Override
    public Integer call() {
        OutputFormat format = output.format(spec.commandLine());
        if (format.structured()) {
            spec.commandLine().getOut().println(format.write(new VersionJson(Version.current(), Version.kafka())));
        } else {
            spec.commandLine().getOut()
                    .println("sextant " + Version.current() + " (Kafka clients " + Version.kafka() + ")");
        }
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}
