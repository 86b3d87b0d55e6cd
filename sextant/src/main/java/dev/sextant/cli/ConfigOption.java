package dev.sextant.cli;

import dev.sextant.config.SextantConfig;
import dev.sextant.config.SextantConfigLoader;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The {@code -c FILE} option shared by every command that talks to the clusters. */
final class ConfigOption {

    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE",
            description = "Sextant configuration file (see config/sextant.properties). "
                    + "Every key can also come from an environment variable SEXTANT_<KEY>.")
    Path file;

    SextantConfig load() {
        return SextantConfigLoader.load(file, System.getenv());
    }

    /** The configuration with the config-provider references in secrets left unresolved: for what reads none. */
    SextantConfig loadWithoutSecrets() {
        return SextantConfigLoader.loadWithoutSecrets(file, System.getenv());
    }

    /** The configuration checked offline: no config provider opened, no file it names looked for. */
    SextantConfig loadOffline() {
        return SextantConfigLoader.loadOffline(file, System.getenv());
    }
}
