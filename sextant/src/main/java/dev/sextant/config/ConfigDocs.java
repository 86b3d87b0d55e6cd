package dev.sextant.config;

import java.util.Locale;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;

/**
 * The configuration reference, rendered from {@link ConfigDefinitions}: the same definitions a configuration is
 * validated with, so the reference cannot drift from what {@code run} accepts. {@code docs/configuration.md} is
 * {@link #markdown()} under a heading, and a test fails when the file is stale.
 */
public final class ConfigDocs {

    private ConfigDocs() {
    }

    /**
     * Every key as a Markdown table (key, environment variable, default, accepted values, importance, description),
     * in definition order, followed by the three pass-through prefixes.
     */
    public static String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("| key | environment variable | default | accepted values | importance | description |\n");
        md.append("|---|---|---|---|---|---|\n");
        for (ConfigKey key : ConfigDefinitions.keys()) {
            md.append("| `").append(key.name).append("` | `").append(SextantConfigLoader.environmentVariable(key.name))
                    .append("` | ").append(defaultCell(key))
                    .append(" | ").append(markdownText(ConfigDefinitions.accepts(key)))
                    .append(" | ").append(key.importance.name().toLowerCase(Locale.ROOT))
                    .append(" | ").append(markdownText(key.documentation)).append(" |\n");
        }
        md.append("| `source.<client config>` | `SEXTANT_SOURCE_<CONFIG>` | | any Kafka client config | high | "
                + "Passed to every client of the source cluster (Kafka Streams' consumers, producers and admin), "
                + "e.g. `source.security.protocol`, `source.sasl.mechanism`, `source.sasl.jaas.config`, "
                + "`source.ssl.truststore.location`. |\n");
        md.append("| `destination.<client config>` | `SEXTANT_DESTINATION_<CONFIG>` | | any Kafka client config "
                + "| high | Passed to the Admin client that writes group offsets on the destination cluster. |\n");
        md.append("| `streams.<Kafka Streams config>` | `SEXTANT_STREAMS_<CONFIG>` | | any Kafka Streams config except "
                + "`application.id`, `bootstrap.servers`, `state.dir`, `application.server` | medium | "
                + "Passed to Kafka Streams, e.g. `streams.num.stream.threads`, `streams.num.standby.replicas`, "
                + "`streams.processing.guarantee`. The four exceptions come from `application.id`, "
                + "`source.bootstrap.servers`, `state.dir` and `query.advertised`. |\n");
        return md.toString();
    }

    /** Every key in reStructuredText, as Kafka's own documentation renders a {@link ConfigDef}. */
    public static String rst() {
        return ConfigDefinitions.DEFINITION.toRst();
    }

    private static String defaultCell(ConfigKey key) {
        return key.hasDefault() ? "`" + markdownCode(ConfigDefinitions.displayDefault(key)) + "`" : "required";
    }

    /** A table cell inside a code span: only the column separator needs escaping. */
    private static String markdownCode(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    /** A table cell of plain text: also keep {@code <destination.alias>} from being read as an HTML tag. */
    private static String markdownText(String text) {
        return markdownCode(text).replace("<", "&lt;").replace(">", "&gt;");
    }
}
