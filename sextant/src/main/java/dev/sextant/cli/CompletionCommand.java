package dev.sextant.cli;

import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code sextant completion bash|zsh|fish}: a completion script, generated from the command definitions. zsh's is
 * bash's: picocli's script turns on zsh's bash completion ({@code bashcompinit}) when zsh sources it; fish's is
 * {@link FishCompletion}.
 */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Prints a shell completion script: bash and zsh: source <(bin/sextant completion bash) "
                + "(zsh: ... completion zsh, in ~/.zshrc); fish: bin/sextant completion fish > "
                + "~/.config/fish/completions/sextant.fish.",
                "Another shell exits 2."})
final class CompletionCommand implements Callable<Integer> {

    /** The shells there is a script for. */
    static final class Shells implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return SHELLS.iterator();
        }
    }

    private static final List<String> SHELLS = List.of("bash", "zsh", "fish");

    @Parameters(paramLabel = "SHELL", completionCandidates = Shells.class, description = "bash, zsh or fish")
    String shell;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        CommandLine root = spec.root().commandLine();
        String script = switch (shell) {
            case "bash", "zsh" -> AutoComplete.bash("sextant", root);
            case "fish" -> FishCompletion.script(root);
            default -> throw new CommandLine.ParameterException(spec.commandLine(), "no completion for " + shell
                    + ": bash, zsh and fish have one");
        };
        spec.commandLine().getOut().print(script);
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}
