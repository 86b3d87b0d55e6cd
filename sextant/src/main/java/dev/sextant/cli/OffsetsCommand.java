package dev.sextant.cli;

import dev.sextant.client.SextantClient;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "offsets", mixinStandardHelpOptions = true,
        description = {"Where a consumer group resumes on the destination (asks a running instance).",
                "Per mirror topic-partition, the offset to seek to before the first poll.",
                "Exits 1 for an unknown group or no answer."})
final class OffsetsCommand implements Callable<Integer> {

    @Option(names = "--group", required = true, description = "The consumer group.")
    String group;

    @CommandLine.Mixin
    OutputOption output;

    @CommandLine.Mixin
    QueryTarget target;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (group.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--group must not be empty");
        }
        OutputFormat format = output.format(spec.commandLine());
        SextantClient.GroupOffsets offsets = target.client(spec.commandLine()).groupOffsets(group);
        PrintWriter out = spec.commandLine().getOut();
        if (format.structured()) {
            out.println(format.write(offsets));
        } else {
            out.printf("%-40s %9s %14s%n", "TOPIC", "PARTITION", "OFFSET");
            offsets.offsets().forEach(o -> out.printf("%-40s %9d %14d%n", o.topic(), o.partition(), o.offset()));
        }
        out.flush();
        return ExitCodes.OK;
    }
}
