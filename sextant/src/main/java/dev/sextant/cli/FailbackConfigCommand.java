package dev.sextant.cli;

import dev.sextant.config.FailbackConfig;
import dev.sextant.config.SextantConfig;
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
 * failback ({@link FailbackConfig}).
 */
@Command(name = "failback-config", mixinStandardHelpOptions = true,
        description = {"Print the configuration of the Sextant that runs the other way, for failback.",
                "From the forward configuration (-c): the destination as its source and the source as its "
                + "destination, every client setting and alias swapped, application.id <forward>-failback, "
                + "failback.history.topic naming the forward Sextant's offset-sync history (the destination's "
                + "mirrors of the source's topics are translated back to their originals through it, never skipping "
                + "a record; the destination's own topics through the reverse MirrorMaker 2 flow's syncs), and "
                + "sync.foreign.offsets=adopt-forward (the groups' old offsets on the source were their consumers' "
                + "own). Secrets and ${provider:...} references are copied as written.",
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
        SextantConfig forward = config.loadWithoutSecrets(); // validated: a broken forward file is not turned round
        Properties raw = new Properties();
        try (Reader reader = Files.newBufferedReader(config.file, StandardCharsets.UTF_8)) {
            raw.load(reader);
        }
        Map<String, String> written = new TreeMap<>();
        raw.stringPropertyNames().forEach(k -> written.put(k, raw.getProperty(k)));
        FailbackConfig.Derived derived = FailbackConfig.derive(written, forward.sourceAlias(),
                forward.destinationAlias(), forward.applicationId());
        PrintWriter out = spec.commandLine().getOut();
        out.println("# Sextant for failback: " + forward.destinationAlias() + " -> " + forward.sourceAlias()
                + ", derived from " + config.file + " by 'sextant failback-config'");
        for (String note : derived.notes()) {
            out.println("# " + note);
        }
        derived.reverse().forEach((key, value) -> out.println(key + "=" + escape(value)));
        out.flush();
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
