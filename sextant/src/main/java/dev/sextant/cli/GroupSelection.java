package dev.sextant.cli;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Which groups a command acts on, the same words in every command that selects groups ({@code failover},
 * {@code cutover}, {@code adopt}), and those of Kafka's {@code kafka-consumer-groups}: {@code --group G}, repeated
 * for more, {@code --groups REGEX}, or {@code --all} (Kafka's {@code --all-groups}). Exactly one of the three kinds;
 * picocli's exclusive group enforces it.
 */
final class GroupSelection {

    @Option(names = "--group", paramLabel = "GROUP", description = "A group; repeat it for more (--group a "
            + "--group b), as kafka-consumer-groups takes them.")
    List<String> group;

    @Option(names = "--groups", paramLabel = "REGEX", description = "Every group whose whole name matches.")
    String groups;

    @Option(names = {"--all", "--all-groups"},
            description = "Every group (of those the configuration's group filters sync); --all-groups as in "
                    + "kafka-consumer-groups.")
    boolean all;

    /** The groups named by {@code --group}, sorted, each once; empty with {@code --groups} or {@code --all}. */
    Set<String> named(CommandLine commandLine) {
        if (group == null) {
            return Set.of();
        }
        Set<String> named = new TreeSet<>();
        for (String g : group) {
            if (g.isEmpty()) {
                throw new CommandLine.ParameterException(commandLine, "--group must not be empty");
            }
            named.add(g);
        }
        return named;
    }

    /** The one group named, when exactly one {@code --group} names it; else null. */
    String single() {
        return group != null && group.stream().distinct().count() == 1 ? group.get(0) : null;
    }

    /** The groups {@code --group} or {@code --groups} selects; every group with {@code --all}. */
    Predicate<String> predicate(CommandLine commandLine) {
        Set<String> named = named(commandLine);
        if (!named.isEmpty()) {
            return named::contains;
        }
        if (groups != null) {
            try {
                Pattern pattern = Pattern.compile(groups);
                return g -> pattern.matcher(g).matches();
            } catch (PatternSyntaxException e) {
                throw new CommandLine.ParameterException(commandLine, "--groups: not a regular expression: "
                        + e.getDescription());
            }
        }
        return g -> true;
    }
}
