package dev.sextant.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import java.util.Map;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * Kafka's clients log at ERROR while a one-off command runs: the answer of {@code failover} against a destination
 * that is down is one line, not two dozen connection warnings of the clients' NetworkClient before it. {@code run}
 * keeps logback's configuration (WARN, or {@value #LEVEL_VARIABLE}), as do the other commands when {@code --verbose}
 * or {@value #LEVEL_VARIABLE} asks for the clients' own words.
 */
final class KafkaClientLogging {

    static final String LOGGER = "org.apache.kafka";
    static final String LEVEL_VARIABLE = "SEXTANT_KAFKA_LOG_LEVEL";
    static final String VERBOSE = "--verbose";

    /** Undoes what {@link #forCommand} changed; nothing to close otherwise. */
    interface Restore extends AutoCloseable {
        @Override
        void close();
    }

    private KafkaClientLogging() {
    }

    /** Quiets the Kafka clients for the command {@code parsed} names, until closed. */
    static Restore forCommand(CommandLine.ParseResult parsed, Map<String, String> environment) {
        String command = parsed.commandSpec().name();
        boolean verbose = false;
        for (CommandLine.ParseResult level = parsed; level != null; level = level.subcommand()) {
            command = level.commandSpec().name();
            verbose |= level.hasMatchedOption(VERBOSE);
        }
        if (command.equals("run") || verbose || environment.containsKey(LEVEL_VARIABLE)
                || !(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return () -> { };
        }
        Logger kafka = context.getLogger(LOGGER);
        Level configured = kafka.getLevel();
        kafka.setLevel(Level.ERROR);
        return () -> kafka.setLevel(configured);
    }
}
