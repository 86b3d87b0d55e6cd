package dev.sextant.cli;

import dev.sextant.adopt.GroupAdoption;
import dev.sextant.client.SextantClient;
import dev.sextant.command.CommandContext;
import dev.sextant.config.SextantConfig;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sextant adopt -c FILE (--groups REGEX | --group G... | --all) [--apply]}: take over MirrorMaker 2's
 * group-synced offsets, once.
 */
@Command(name = "adopt", mixinStandardHelpOptions = true,
        description = {"Take over consumer groups whose destination offsets Sextant did not write (MirrorMaker 2's "
                + "group sync), group by group: a dry run by default.",
                "A group is taken over when it has no members on the destination and every translation the running "
                + "Sextant instance holds (--url, default query.advertised of the -c file) is at or above the "
                + "destination's offset: the rule of sync.foreign.offsets=adopt-forward, applied once. Turn "
                + "MirrorMaker 2's group sync off first.",
                "Exits 0 when every group is (or was) taken over or already Sextant's, 1 when some group is "
                        + "refused, waits for a translation or failed."})
final class AdoptCommand implements Callable<Integer> {

    @CommandLine.Mixin
    ConfigOption config;

    /** {@code --groups REGEX} as before; {@code --group} (repeated) and {@code --all} as the other commands take. */
    @CommandLine.ArgGroup(exclusive = true, multiplicity = "1")
    GroupSelection selection;

    @Option(names = {"--apply", "--execute"}, description = "Write the take-over (default: only show it).")
    boolean apply;

    @CommandLine.Mixin
    DryRunOption dryRun;

    @CommandLine.Mixin
    OutputOption output;

    @Option(names = "--url", paramLabel = "URL", description = "The Sextant instance that holds the translations.")
    String url;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "30s", converter = DurationConverter.class,
            description = "How long the destination may take to answer (default ${DEFAULT-VALUE}; "
                    + DurationConverter.ACCEPTS + ").")
    Duration timeout;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    record AdoptJson(boolean applied, List<GroupAdoption.Group> groups) {
    }

    @Override
    public Integer call() {
        Predicate<String> selected = selection.predicate(spec.commandLine());
        DurationConverter.requireAtLeastOneSecond(spec.commandLine(), "--timeout", timeout);
        apply = dryRun.apply(spec.commandLine(), apply);
        OutputFormat format = output.format(spec.commandLine());
        SextantConfig loaded = config.load();
        String target = url != null ? url : InstanceConnection.advertisedUrl(loaded).orElseThrow(() ->
                new CommandLine.ParameterException(spec.commandLine(), "query.advertised has port 0: pass --url"));
        SextantClient instance = InstanceConnection.connect(spec.commandLine(), target, loaded,
                timeout.compareTo(Duration.ofSeconds(10)) < 0 ? timeout : Duration.ofSeconds(10));
        List<GroupAdoption.Group> result;
        try (CommandContext context = CommandContext.of(loaded, timeout)) {
            result = new GroupAdoption(context).run(selected, instance, apply);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (format.structured()) {
            out.println(format.write(new AdoptJson(apply, result)));
        } else {
            for (GroupAdoption.Group g : result) {
                out.printf("%s: %s%s%n", g.group(), g.verdict(), g.detail() == null ? "" : " (" + g.detail() + ")");
                g.partitions().forEach(p -> out.printf("  %-40s %12d -> %s%n", p.topic() + "-" + p.partition(),
                        p.offset(), p.translated() == null ? "-" : p.translated()));
            }
            if (!apply && result.stream().anyMatch(g -> g.verdict() == GroupAdoption.Verdict.ADOPTABLE)) {
                out.println("Nothing written (dry run). Run again with --apply to take the ADOPTABLE groups over.");
            }
        }
        out.flush();
        boolean clean = result.stream().allMatch(g -> g.verdict() == GroupAdoption.Verdict.ADOPTABLE
                || g.verdict() == GroupAdoption.Verdict.ADOPTED
                || g.verdict() == GroupAdoption.Verdict.ALREADY_SEXTANT);
        return clean ? ExitCodes.OK : ExitCodes.FAILURE;
    }
}
