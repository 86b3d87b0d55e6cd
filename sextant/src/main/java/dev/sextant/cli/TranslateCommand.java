package dev.sextant.cli;

import dev.sextant.client.SextantClient;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "translate", mixinStandardHelpOptions = true,
        description = {"Translates one source offset to its destination offset (asks a running instance).",
                "Exits 1 when nothing translates it (yet) or no instance answers."})
final class TranslateCommand implements Callable<Integer> {

    @Option(names = "--topic", required = true, description = "Source topic.")
    String topic;

    @Option(names = "--partition", required = true, description = "Source partition.")
    int partition;

    @Option(names = "--offset", required = true,
            description = "Source offset (a committed offset: the next record to read).")
    long offset;

    @CommandLine.Mixin
    OutputOption output;

    @CommandLine.Mixin
    QueryTarget target;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (topic.isEmpty() || partition < 0 || offset < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--topic must not be empty; --partition and --offset must be >= 0");
        }
        OutputFormat format = output.format(spec.commandLine());
        SextantClient.Translation t = target.client(spec.commandLine()).translate(topic, partition, offset);
        PrintWriter out = spec.commandLine().getOut();
        if (format.structured()) {
            out.println(format.write(t));
        } else {
            out.printf("%s-%d@%d -> %s-%d@%d (%s, replay bound %d)%n", t.topic(), t.partition(), t.offset(),
                    t.destinationTopic(), t.partition(), t.destinationOffset(), t.precision(), t.bound());
        }
        out.flush();
        return ExitCodes.OK;
    }
}
