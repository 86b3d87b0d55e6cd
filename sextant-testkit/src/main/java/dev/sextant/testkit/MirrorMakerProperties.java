package dev.sextant.testkit;

import static dev.sextant.testkit.LocalMirrorMaker.DESTINATION_ALIAS;
import static dev.sextant.testkit.LocalMirrorMaker.SOURCE_ALIAS;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * The {@code mm2.properties} of a {@link LocalMirrorMaker}: one flow {@value LocalMirrorMaker#SOURCE_ALIAS} to
 * {@value LocalMirrorMaker#DESTINATION_ALIAS}, as its {@link LocalMirrorMaker.Options} say.
 */
final class MirrorMakerProperties {

    private MirrorMakerProperties() {
    }

    /**
     * The {@code mm2.properties}: one flow source->destination, replication factor 1 everywhere, and the worker
     * settings that make it start without Connect's default rebalance delays and flush offset syncs every second.
     */
    static Map<String, String> mm2Properties(String sourceBootstrap, String destinationBootstrap,
                                             LocalMirrorMaker.Options o) {
        return mm2Properties(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, sourceBootstrap),
                Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, destinationBootstrap), o);
    }

    /**
     * As {@link #mm2Properties(String, String, LocalMirrorMaker.Options)}, with each cluster's whole client config
     * under its alias ({@code source.security.protocol}, {@code destination.ssl.keystore.location}, ...):
     * MirrorMakerConfig hands {@code <alias>.<client setting>} to every producer, consumer and admin of that cluster,
     * and the target's to the Connect worker's own clients.
     */
    static Map<String, String> mm2Properties(Map<String, ?> sourceClient, Map<String, ?> destinationClient,
                                             LocalMirrorMaker.Options o) {
        String flow = o.reverse() ? DESTINATION_ALIAS + "->" + SOURCE_ALIAS : SOURCE_ALIAS + "->" + DESTINATION_ALIAS;
        String other = o.reverse() ? SOURCE_ALIAS + "->" + DESTINATION_ALIAS : DESTINATION_ALIAS + "->" + SOURCE_ALIAS;
        Map<String, String> p = new LinkedHashMap<>();
        p.put("clusters", SOURCE_ALIAS + ", " + DESTINATION_ALIAS);
        putPrefixed(p, SOURCE_ALIAS, sourceClient);
        putPrefixed(p, DESTINATION_ALIAS, destinationClient);
        p.put(flow + ".enabled", "true");
        p.put(other + ".enabled", "false");
        p.put(flow + ".topics", o.topics());
        p.put(flow + ".groups", o.groups());

        // off by default: Sextant, not MirrorMaker, owns the destination's group offsets. With checkpoints off,
        // MirrorMaker logs one harmless ERROR ("MirrorCheckpointConnector can't run with emit.checkpoints.enabled
        // set to false") and simply does not run that connector.
        p.put("sync.group.offsets.enabled", Boolean.toString(o.syncGroupOffsetsEnabled()));
        p.put("sync.group.offsets.interval.seconds", Integer.toString(o.syncGroupOffsetsIntervalSeconds()));
        p.put("emit.checkpoints.enabled", Boolean.toString(o.emitCheckpointsEnabled()));
        p.put("emit.checkpoints.interval.seconds", Integer.toString(o.emitCheckpointsIntervalSeconds()));
        p.put("offset.lag.max", Integer.toString(o.offsetLagMax()));
        p.put("refresh.topics.interval.seconds", Integer.toString(o.refreshIntervalSeconds()));
        p.put("refresh.groups.interval.seconds", Integer.toString(o.refreshIntervalSeconds()));
        // never copy ACLs: plain brokers have no authorizer (the sync would only log errors), and on secured clusters
        // the principals differ (SCRAM users on the source, certificate CNs on the destination)
        p.put("sync.topic.acls.enabled", "false");
        p.put("tasks.max", "1");

        // single-node clusters: every topic MirrorMaker creates must have replication factor 1
        for (String key : List.of("replication.factor", "checkpoints.topic.replication.factor",
                "heartbeats.topic.replication.factor", "offset-syncs.topic.replication.factor",
                "offset.storage.replication.factor", "status.storage.replication.factor",
                "config.storage.replication.factor")) {
            p.put(key, "1");
        }
        p.put("offset.storage.partitions", "1");
        p.put("status.storage.partitions", "1");
        // one node needs no REST server (and then binds no port)
        p.put("dedicated.mode.enable.internal.rest", "false");

        // Worker settings only reach the Connect herder when prefixed with the TARGET alias (MirrorMakerConfig
        // copies <target>.* into the worker config); unprefixed they are silently ignored.
        for (String prefix : List.of("", SOURCE_ALIAS + ".", DESTINATION_ALIAS + ".")) {
            // skip the reflective plugin scan: ~4 s per herder and ~450 MB RSS on 2 cores
            p.put(prefix + "plugin.discovery", "service_load");
        }
        for (String prefix : List.of(SOURCE_ALIAS + ".", DESTINATION_ALIAS + ".")) {
            // offset syncs of the last records are only published on task commit (default every 60 s)
            p.put(prefix + "offset.flush.interval.ms", "1000");
        }
        p.putAll(o.extraProperties());
        return p;
    }

    /** The {@code bootstrap.servers} of a cluster's client config, which every cluster's config must have. */
    static String bootstrapOf(Map<String, ?> client) {
        Object bootstrap = client.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        if (bootstrap == null) {
            throw new IllegalArgumentException("a cluster's client config needs bootstrap.servers: " + client.keySet());
        }
        return bootstrap.toString();
    }

    private static void putPrefixed(Map<String, String> p, String alias, Map<String, ?> client) {
        // bootstrap.servers first: the file reads cluster by cluster
        p.put(alias + "." + CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapOf(client));
        client.forEach((key, value) -> p.putIfAbsent(alias + "." + key, String.valueOf(value)));
    }
}
