package dev.sextant.cli;

import java.util.List;
import picocli.CommandLine;

/**
 * A usage error (an unknown option, a missing or bad value) as one line on stderr and where to read more, as git and
 * kubectl print it, instead of picocli's full usage, which buries the one line that matters:
 * {@code sextant failover: unknown option '--grup' (did you mean --group?). See 'sextant failover --help'.}
 * The exit code stays the usage error's, {@link ExitCodes#USAGE}; with {@code -o json} an {@link ErrorDocument} is
 * printed on stdout as well.
 */
final class UsageErrorLine implements CommandLine.IParameterExceptionHandler {

    @Override
    public int handleParseException(CommandLine.ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        String name = command.getCommandSpec().qualifiedName();
        command.getErr().println(line(name, e));
        command.getErr().flush();
        new ErrorDocument(message(e), name, ExitCodes.USAGE, ErrorDocument.USAGE, null).printIfAsked(command, args);
        return ExitCodes.USAGE;
    }

    static String line(String name, CommandLine.ParameterException e) {
        return name + ": " + message(e) + ". See '" + name + " --help'.";
    }

    private static String message(CommandLine.ParameterException e) {
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
            String first = unmatched.getUnmatched().get(0);
            boolean hasCommands = !e.getCommandLine().getSubcommands().isEmpty();
            String what = unmatched.isUnknownOption() ? "unknown option"
                    : hasCommands ? "unknown command" : "unexpected argument";
            List<String> suggestions = unmatched.getSuggestions();
            // picocli lists the most similar first; the rest are mostly noise (faillover: cutover, version)
            return what + " '" + first + "'" + (suggestions.isEmpty() ? "" : " (did you mean " + suggestions.get(0)
                    + "?)");
        }
        String message = String.valueOf(e.getMessage()).replaceAll("\\s*\\R\\s*", " ").strip();
        if (message.startsWith("Error: ")) {
            message = message.substring("Error: ".length());
        }
        while (message.endsWith(".")) {
            message = message.substring(0, message.length() - 1);
        }
        // picocli's sentences start with a capital (Missing required option...), ours with an option or a key
        if (message.length() > 1 && Character.isUpperCase(message.charAt(0))
                && Character.isLowerCase(message.charAt(1))) {
            message = Character.toLowerCase(message.charAt(0)) + message.substring(1);
        }
        return message;
    }
}
