package dev.sextant.config;

import static dev.sextant.config.ConfigKeys.APPLICATION_ID_CONFIG;
import static dev.sextant.config.ConfigKeys.APPLICATION_ID_DEFAULT;
import static dev.sextant.config.ConfigKeys.STATE_DIR_CONFIG;
import static dev.sextant.config.ConfigKeys.STATE_DIR_DEFAULT;
import static dev.sextant.config.ConfigKeys.STATE_MEMORY_BYTES_CONFIG;
import static dev.sextant.config.KeyDefiner.define;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * The keys of the Kafka Streams settings Sextant owns (its application id, where its state lives and the memory it
 * takes): the group Kafka Streams of {@link ConfigDefinitions}, the last one.
 */
final class StreamsKeys {

    private static final String GROUP_STREAMS = "Kafka Streams";

    private StreamsKeys() {
    }

    /** Adds the Kafka Streams keys, in documentation order. */
    static void addTo(ConfigDef def) {
        defineStreams(def);
    }

    /** The Kafka Streams settings Sextant owns: its consumer group, and where its state lives. */
    private static void defineStreams(ConfigDef def) {
        define(def, APPLICATION_ID_CONFIG, Type.STRING, APPLICATION_ID_DEFAULT, ConfigValidators.applicationId(),
                Importance.HIGH, GROUP_STREAMS,
                "Kafka Streams application id: the consumer group of Sextant's instances (always excluded from "
                        + "syncing) and the prefix of its internal topics. Instances with the same id share the work.");
        define(def, STATE_DIR_CONFIG, Type.STRING, STATE_DIR_DEFAULT, ConfigValidators.nonEmpty(), Importance.MEDIUM,
                GROUP_STREAMS,
                "Folder of Kafka Streams' local state (RocksDB stores). Default ${java.io.tmpdir}/sextant; use a "
                        + "folder that survives restarts, or each restart rebuilds the stores from their changelogs.");
        define(def, STATE_MEMORY_BYTES_CONFIG, Type.LONG, 0L, ConfigValidators.atLeast(0), Importance.MEDIUM,
                GROUP_STREAMS,
                "The memory, in bytes, that all RocksDB stores of the instance share: one block cache, holding "
                        + "index and filter blocks too, to which every memtable is charged (at most a quarter of "
                        + "it). Off the Java heap: size a container as heap + this + about 200 MiB for the JVM. 0 "
                        + "(the default): an eighth of the memory the process may use (the container's limit), "
                        + "within 64 MiB and 1 GiB. streams.rocksdb.config.setter replaces this.");
    }
}
