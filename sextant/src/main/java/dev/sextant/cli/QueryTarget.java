package dev.sextant.cli;

import dev.sextant.client.SextantClient;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.SextantConfigLoader;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** Options of the commands that ask a running instance's HTTP API: where it is, and how long to retry. */
final class QueryTarget {

    static final String DEFAULT_URL = "http://127.0.0.1:8080";

    @Option(names = "--url", paramLabel = "URL",
            description = "A running Sextant instance's HTTP API, http://host:port (default: query.advertised of the "
                    + "-c file, else " + DEFAULT_URL + "). Any instance answers for every group.")
    String url;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE",
            description = "Sextant configuration file; its query.advertised is the default --url, and its "
                    + "query.auth.token and query.tls.* are used to connect (without it, the token comes from "
                    + "SEXTANT_QUERY_AUTH_TOKEN).")
    Path config;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "30s", converter = DurationConverter.class,
            description = "How long to keep retrying while Sextant rebalances or restores (default ${DEFAULT-VALUE}; "
                    + DurationConverter.ACCEPTS + ").")
    Duration timeout;

    SextantClient client(CommandLine commandLine) {
        DurationConverter.requireAtLeastOneSecond(commandLine, "--timeout", timeout);
        SextantConfig loaded = config == null ? null : SextantConfigLoader.load(config, System.getenv());
        String target = url != null ? url : loaded != null ? fromConfig(commandLine, loaded) : DEFAULT_URL;
        SextantClient client = InstanceConnection.connect(commandLine, target, loaded, timeout);
        InstanceConnection.requireListening(commandLine, target, timeout);
        return client;
    }

    private String fromConfig(CommandLine commandLine, SextantConfig loaded) {
        return InstanceConnection.advertisedUrl(loaded).orElseThrow(() -> new CommandLine.ParameterException(
                commandLine, "query.advertised in " + config + " has port 0 (a free port, known only to the "
                        + "running instance); pass --url"));
    }
}
