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
        md.append("| `source.<client config>` | `SEXTANT_SOURCE_<CONFIG>` | | any config Kafka defines for its Admin, "
                + "consumer or producer client, or for Kafka Streams (also under Kafka Streams' client prefixes) | "
                + "high | Passed to every client of the source cluster (Kafka Streams' consumers, producers and admin, "
                + "where it is the lowest layer of Kafka Streams' configuration), e.g. `source.security.protocol`, "
                + "`source.sasl.mechanism`, `source.sasl.jaas.config`, `source.ssl.truststore.location`. |\n");
        md.append("| `destination.<client config>` | `SEXTANT_DESTINATION_<CONFIG>` | | any config Kafka defines for "
                + "its Admin, consumer or producer client | high | Passed to the clients of the destination cluster: "
                + "the Admin clients that write group offsets, the consumers that read it, the producer of "
                + "checkpoints. |\n");
        md.append("| `streams.<Kafka Streams config>` | `SEXTANT_STREAMS_<CONFIG>` | | any config Kafka defines for "
                + "Kafka Streams or its clients, also under its prefixes `consumer.`, `main.consumer.`, "
                + "`restore.consumer.`, `global.consumer.`, `producer.`, `admin.`, `topic.` and `client.tag.`; except "
                + "`application.id`, `bootstrap.servers`, `state.dir`, `application.server` | medium | "
                + "Passed to Kafka Streams, e.g. `streams.num.stream.threads`, `streams.num.standby.replicas`, "
                + "`streams.processing.guarantee`. The four exceptions come from `application.id`, "
                + "`source.bootstrap.servers`, `state.dir` and `query.advertised`. |\n");
        md.append("\nA key under these three prefixes that Kafka does not define is refused, with the nearest one "
                + "Kafka defines; when a client under the prefix loads plugins (a class config, `interceptor.classes`, "
                + "`metric.reporters`), which may read keys of their own, it is passed on with a warning instead. "
                + "Under each, `config.providers.<name>.*` configures that client's own config providers. "
                + "MirrorMaker 2's keys (`clusters`, `groups`, `topics`, `<alias>.bootstrap.servers`, "
                + "`<source>-><target>.*`, `sync.group.offsets.*`, ...) are refused with the Sextant key to use, or "
                + "why none is needed. Every problem of a configuration is reported at once.\n");
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
