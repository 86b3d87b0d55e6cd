package dev.sextant.cli;

import dev.sextant.client.SextantClient;
import dev.sextant.config.HostAndPort;
import dev.sextant.config.SextantConfigLoader;
import java.net.URI;
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
            description = "Sextant configuration file; only its query.advertised is used, as the default --url.")
    Path config;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "How long to keep retrying while Sextant rebalances or restores (default ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    SextantClient client(CommandLine commandLine) {
        if (timeoutSeconds < 1) {
            throw new CommandLine.ParameterException(commandLine, "--timeout must be at least 1 second");
        }
        String target = url != null ? url : config != null ? fromConfig(commandLine) : DEFAULT_URL;
        try {
            return SextantClient.builder(target).deadline(Duration.ofSeconds(timeoutSeconds)).build();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(commandLine, "--url: " + e.getMessage()
                    + " (expected http://host:port)");
        }
    }

    private String fromConfig(CommandLine commandLine) {
        HostAndPort advertised = SextantConfigLoader.load(config, System.getenv()).queryAdvertised();
        if (advertised.port() == 0) {
            throw new CommandLine.ParameterException(commandLine, "query.advertised in " + config + " has port 0 "
                    + "(a free port, known only to the running instance); pass --url");
        }
        return URI.create("http://" + advertised).toString();
    }
}
