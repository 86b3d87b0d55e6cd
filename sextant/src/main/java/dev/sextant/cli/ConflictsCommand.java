package dev.sextant.cli;

import dev.sextant.command.CommandContext;
import dev.sextant.config.SextantConfig;
import dev.sextant.deadletter.DeadLetterReader;
import dev.sextant.deadletter.DeadLetterRecord;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "conflicts", mixinStandardHelpOptions = true,
        description = {"Prints the dead-letter topic: positions Sextant refused to apply, and why.",
                "Exits 1 when the topic cannot be read."})
final class ConflictsCommand implements Callable<Integer> {

    @CommandLine.Mixin
    ConfigOption config;

    @Option(names = "--group", paramLabel = "GROUP", description = "Only records of this group; repeat it for more.")
    List<String> group;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "30s", converter = DurationConverter.class,
            description = "How long the cluster may take to answer, and the reading of the topic to its end "
                    + "(default ${DEFAULT-VALUE}; " + DurationConverter.ACCEPTS + ").")
    Duration timeout;

    @Option(names = "--limit", defaultValue = "50",
            description = "At most this many records, newest last (default ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = {"-f", "--follow"}, description = "Keep printing new records until interrupted.")
    boolean follow;

    /** -o json: one JSON object per line; -o yaml: one YAML document per record, each after ---. */
    @CommandLine.Mixin
    OutputOption output;

    private OutputFormat format;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (limit < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--limit must be at least 1");
        }
        format = output.format(spec.commandLine());
        DurationConverter.requireAtLeastOneSecond(spec.commandLine(), "--timeout", timeout);
        SextantConfig loaded = config.load();
        PrintWriter out = spec.commandLine().getOut();
        try (CommandContext context = CommandContext.of(loaded, timeout)) {
            DeadLetterReader reader = context.deadLetters();
            Deque<DeadLetterRecord> recent = new ArrayDeque<>();
            for (DeadLetterRecord r : reader.readToEnd(timeout)) {
                if (matches(r)) {
                    recent.addLast(r);
                    if (recent.size() > limit) {
                        recent.removeFirst();
                    }
                }
            }
            if (!format.structured()) {
                out.println(ConflictTable.header());
            }
            recent.forEach(r -> print(out, r));
            out.flush();
            if (follow) {
                AtomicBoolean running = new AtomicBoolean(true);
                Runtime.getRuntime().addShutdownHook(new Thread(() -> running.set(false)));
                while (running.get()) {
                    for (DeadLetterRecord r : reader.poll(Duration.ofMillis(500))) {
                        if (matches(r)) {
                            print(out, r);
                        }
                    }
                    out.flush();
                }
            }
        }
        return ExitCodes.OK;
    }

    private boolean matches(DeadLetterRecord r) {
        return group == null || group.contains(r.group());
    }

    private void print(PrintWriter out, DeadLetterRecord r) {
        if (format == OutputFormat.YAML) {
            out.println("---"); // a YAML stream: one document per record, as they arrive with --follow
            out.println(format.write(r));
        } else if (format == OutputFormat.JSON) {
            out.println(format.write(r));
        } else {
            out.println(ConflictTable.row(r));
        }
    }

    /** Fixed-width rendering of dead-letter records. */
    static final class ConflictTable {
        private static final String FORMAT = "%-24s %-24s %-9s %-21s %-30s %s";

        static String header() {
            return String.format(FORMAT, "DETECTED", "GROUP", "TYPE", "REASON", "PARTITIONS", "DETAIL");
        }

        static String row(DeadLetterRecord r) {
            List<String> parts = r.partitions() == null ? List.of()
                    : r.partitions().stream().map(p -> p.topic() + "-" + p.partition()).toList();
            String partitions = parts.size() <= 3 ? String.join(",", parts)
                    : String.join(",", parts.subList(0, 3)) + " +" + (parts.size() - 3);
            return String.format(FORMAT, Instant.ofEpochMilli(r.detectedAt()), r.group() == null ? "-" : r.group(),
                    r.groupType() == null ? "-" : r.groupType(), r.reason(), partitions.isEmpty() ? "-" : partitions,
                    r.detail() == null ? "" : r.detail());
        }
    }
}
