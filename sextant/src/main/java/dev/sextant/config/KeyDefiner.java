package dev.sextant.config;

import static dev.sextant.config.ConfigKeys.OFFSET_SYNCS_TOPIC_CONFIG;
import static dev.sextant.config.ConfigKeys.QUERY_ADVERTISED_CONFIG;
import static dev.sextant.config.ConfigKeys.STATE_DIR_CONFIG;

import java.util.Collections;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Validator;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * How every key is added to the {@link ConfigDef} of {@link ConfigDefinitions}, by the classes that hold the keys of
 * each role ({@link ClusterKeys}, {@link SyncKeys}, {@link QueryKeys}, {@link StreamsKeys}): numbered in the order
 * they are added, which is the documentation's, and with the documented form of a default that is computed.
 */
final class KeyDefiner {

    /** How a default that is computed, or derived from other keys, shows in the documentation. */
    private static final Map<String, String> DEFAULT_DISPLAY = Map.of(
            OFFSET_SYNCS_TOPIC_CONFIG, "mm2-offset-syncs.<destination.alias>.internal",
            QUERY_ADVERTISED_CONFIG, "query.listen, 0.0.0.0 replaced by the local host name",
            STATE_DIR_CONFIG, "${java.io.tmpdir}/sextant");

    private KeyDefiner() {
    }

    /** One key; its order (documentation and {@link ConfigDef#toRst()}) is its place among the keys defined so far. */
    static void define(ConfigDef def, String name, Type type, Object defaultValue, Validator validator,
                       Importance importance, String group, String doc) {
        int order = def.configKeys().size() + 1;
        def.define(name, type, defaultValue, validator, importance, doc, group, order, Width.MEDIUM, name,
                Collections.emptyList(), null, DEFAULT_DISPLAY.get(name));
    }
}
