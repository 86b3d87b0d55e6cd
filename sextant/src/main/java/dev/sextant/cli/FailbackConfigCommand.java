package dev.sextant.cli;

import dev.sextant.config.FailbackConfig;
import dev.sextant.config.FailbackEnvironment;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.SextantConfigLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code sextant failback-config -c FORWARD_FILE}: prints the properties of the Sextant that runs the other way, for
 * failback ({@link FailbackConfig}), with the keys its {@code SEXTANT_*} environment sets carried over or named on
 * stderr ({@link FailbackEnvironment}).
 */
@Command(name = "failback-config", mixinStandardHelpOptions = true,
        description = {"Print the configuration of the Sextant that runs the other way, for failback.",
                "From the forward configuration (-c) and its SEXTANT_* environment: the destination as its source and "
                + "the source as its destination, every client setting and alias swapped, application.id "
                + "<forward>-failback, failback.history.topic naming the forward Sextant's offset-sync history (the "
                + "destination's mirrors of the source's topics are translated back to their originals through it, "
                + "never skipping a record; the destination's own topics through the reverse MirrorMaker 2 flow's "
                + "syncs), and sync.foreign.offsets=adopt-forward (the groups' old offsets on the source were their "
                + "consumers' own). Secrets and $${provider:path:key} references in the file are copied as written.",
                // $${ is picocli's escape of a literal ${
                "SEXTANT_* variables that set a key are applied as 'run' applies them (over the file) and written "
                + "swapped (SEXTANT_SOURCE_SECURITY_PROTOCOL as destination.security.protocol), each named in a "
                + "comment; a secret's value is never written, and one instance's own (query.listen, "
                + "query.advertised, group.instance.id) is not carried: stderr names each of those and what to do. "
                + "Run the failback Sextant without the forward one's SEXTANT_* variables: they would win over its "
                + "file, on the wrong side.",
                "replication.policy=identity with translation=offset-syncs exits 2: under MirrorMaker 2's "
                + "IdentityReplicationPolicy a mirror cannot be told from a topic of the destination's own, which "
                + "the way home depends on (the message says what to do instead); with translation=identity (a "
                + "mirror that keeps offsets) the failback is derived.",
                "'sextant failback-config -c forward.properties > failback.properties', append what differs (e.g. "
                + "query.listen), then 'sextant run -c failback.properties' with a reverse MirrorMaker 2 flow "
                + "running, and 'sextant cutover -c failback.properties' moves the groups home (docs/failover.md)."})
final class FailbackConfigCommand implements Callable<Integer> {

    @CommandLine.Mixin
    ConfigOption config;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        return derive(System.getenv());
    }

    /** The command with {@code environment} as the process environment (the tests give their own). */
    int derive(Map<String, String> environment) throws IOException {
        // validated: a broken forward file is not turned round
        SextantConfig forward = SextantConfigLoader.loadWithoutSecrets(config.file, environment);
        FailbackConfig.requireDerivable(forward);
        Properties raw = new Properties();
        try (Reader reader = Files.newBufferedReader(config.file, StandardCharsets.UTF_8)) {
            raw.load(reader);
        }
        Map<String, String> written = new TreeMap<>();
        raw.stringPropertyNames().forEach(k -> written.put(k, raw.getProperty(k)));
        FailbackEnvironment.Carried carried = FailbackEnvironment.of(environment);
        written.putAll(carried.keys()); // as the loader: the environment wins over the file
        FailbackConfig.Derived derived = FailbackConfig.derive(written, forward.sourceAlias(),
                forward.destinationAlias(), forward.applicationId());
        PrintWriter out = spec.commandLine().getOut();
        out.println("# Sextant for failback: " + forward.destinationAlias() + " -> " + forward.sourceAlias()
                + ", derived from " + config.file + " by 'sextant failback-config'");
        for (String note : derived.notes()) {
            out.println("# " + note);
        }
        for (String variable : carried.carried()) {
            out.println("# from the environment: " + variable);
        }
        derived.reverse().forEach((key, value) -> out.println(key + "=" + escape(value)));
        out.flush();
        PrintWriter err = spec.commandLine().getErr();
        for (String variable : carried.notCarried()) {
            err.println("failback-config: not carried: " + variable);
        }
        if (carried.any()) {
            err.println("failback-config: run the failback Sextant without the forward Sextant's SEXTANT_* "
                    + "variables: they win over its file, and SEXTANT_SOURCE_* would set its source, which is the "
                    + "forward destination");
        }
        err.flush();
        return ExitCodes.OK;
    }

    /** As {@link Properties#store} writes a value: backslashes and line breaks escaped, leading spaces kept. */
    private static String escape(String value) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case ' ' -> out.append(i == 0 ? "\\ " : " ");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
