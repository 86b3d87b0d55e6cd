package dev.sextant.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code sextant completion bash}: a completion script, generated from the command definitions. */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Prints a shell completion script: source <(bin/sextant completion bash).",
                "A shell other than bash exits 2."})
final class CompletionCommand implements Callable<Integer> {

    @Parameters(paramLabel = "SHELL", description = "bash (zsh reads it too, with bashcompinit)")
    String shell;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (!shell.equals("bash")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "only bash is supported, not " + shell);
        }
        spec.commandLine().getOut().print(AutoComplete.bash("sextant", spec.root().commandLine()));
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}
