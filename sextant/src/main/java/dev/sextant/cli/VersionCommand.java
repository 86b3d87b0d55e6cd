package dev.sextant.cli;

import dev.sextant.Version;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(name = "version", mixinStandardHelpOptions = true, description = {"Prints Sextant's version.",
        "Exit codes: 0."})
final class VersionCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut()
                .println("sextant " + Version.current() + " (Kafka clients " + Version.kafka() + ")");
        return SextantCommand.EXIT_OK;
    }
}
