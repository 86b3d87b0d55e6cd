package dev.sextant.cli;

import java.io.PrintWriter;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine;

/**
 * What a command that fails prints on stdout when a document was asked for ({@code -o json}, {@code -o yaml},
 * {@code --json}, {@code --format json|yaml}): {@code {"error": "...", "command": "sextant failover", "exitCode": 1,
 * "kind": "failure", "key": null}}, so that a script reading stdout sees the failure and its reason, not an empty
 * document. The one line on stderr and the exit code stay as they are without it. {@code kind}: {@code usage} (exit
 * 2), {@code configuration} (exit 2, {@code key} the configuration key at fault), {@code not_authorized} (exit 3) or
 * {@code failure} (exit 1).
 *
 * @param error    the message, as stderr gives it
 * @param command  the command that failed, e.g. {@code sextant failover}
 * @param exitCode the exit code
 * @param kind     usage, configuration, not_authorized or failure
 * @param key      the configuration key at fault, for {@code configuration}; else null
 */
record ErrorDocument(String error, String command, int exitCode, String kind, String key) {

    static final String USAGE = "usage";
    static final String CONFIGURATION = "configuration";
    static final String NOT_AUTHORIZED = "not_authorized";
    static final String FAILURE = "failure";

    /**
     * Prints this document on {@code command}'s stdout when {@code args} ask it for a JSON or YAML document and the
     * command takes {@code -o} (a command that prints no report never prints one).
     */
    void printIfAsked(CommandLine command, String[] args) {
        if (command.getCommandSpec().findOption("-o") == null) {
            return;
        }
        asked(args).ifPresent(format -> {
            PrintWriter out = command.getOut();
            out.println(format.write(this));
            out.flush();
        });
    }

    /**
     * The document format {@code args} ask for, read from the arguments as written, since a failure may come before
     * picocli has parsed them all: {@code --json}, {@code -o}/{@code --output}/{@code --format} with json or yaml
     * (as {@code -o json}, {@code -o=json}, {@code -ojson}, {@code --output=json}). None when they name no document
     * format, or disagree (then which document is meant is not known: the usage error says so on stderr).
     */
    static Optional<OutputFormat> asked(String[] args) {
        Set<String> named = new HashSet<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--")) {
                break;
            }
            if (arg.equals("--json")) {
                named.add("json");
            } else if (arg.equals("-o") || arg.equals("--output") || arg.equals("--format")) {
                named.add(i + 1 < args.length ? args[i + 1].toLowerCase(Locale.ROOT) : "");
            } else if (arg.startsWith("--output=") || arg.startsWith("--format=") || arg.startsWith("-o=")) {
                named.add(arg.substring(arg.indexOf('=') + 1).toLowerCase(Locale.ROOT));
            } else if (arg.startsWith("-o") && !arg.startsWith("--")) {
                named.add(arg.substring(2).toLowerCase(Locale.ROOT));
            }
        }
        if (named.size() != 1) {
            return Optional.empty();
        }
        return switch (named.iterator().next()) {
            case "json" -> Optional.of(OutputFormat.JSON);
            case "yaml" -> Optional.of(OutputFormat.YAML);
            default -> Optional.empty(); // text, csv, strimzi: no document to print the error in
        };
    }
}
