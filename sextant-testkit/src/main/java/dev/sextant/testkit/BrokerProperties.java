package dev.sextant.testkit;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code server.properties} of a {@link LocalKafkaBroker}: a one-node combined broker+controller on 127.0.0.1,
 * with its client listener secured as its {@link BrokerSecurity} says.
 */
final class BrokerProperties {

    private BrokerProperties() {
    }

    /**
     * The {@code server.properties} of a one-node combined broker+controller on 127.0.0.1 (settings verified on a
     * 2-core machine; see the notes on local Kafka).
     */
    static Map<String, String> serverProperties(int port, int controllerPort, Path logDir, int offsetsPartitions) {
        return serverProperties(port, controllerPort, logDir, offsetsPartitions, BrokerSecurity.plaintext());
    }

    /**
     * As {@link #serverProperties(int, int, Path, int)}, with the client listener (named after its protocol) and the
     * controller listener secured as {@code security} says.
     */
    static Map<String, String> serverProperties(int port, int controllerPort, Path logDir, int offsetsPartitions,
                                                BrokerSecurity security) {
        String clientListener = security.clientListener();
        String client = clientListener + "://127.0.0.1:" + port;
        String controller = BrokerSecurity.CONTROLLER_LISTENER + "://127.0.0.1:" + controllerPort;
        Map<String, String> p = new LinkedHashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", "1");
        // with --standalone formatting: a dynamic quorum bootstrapped from this endpoint, no controller.quorum.voters
        p.put("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        p.put("listeners", client + "," + controller);
        p.put("advertised.listeners", client + "," + controller);
        p.put("controller.listener.names", BrokerSecurity.CONTROLLER_LISTENER);
        // inter-broker traffic (e.g. transaction markers a broker sends to itself) authenticates like a client
        p.put("inter.broker.listener.name", clientListener);
        p.put("listener.security.protocol.map", BrokerSecurity.CONTROLLER_LISTENER + ":"
                + security.controllerProtocol().name + "," + clientListener + ":" + security.protocol().name);
        p.put("log.dirs", logDir.toAbsolutePath().toString());
        p.put("num.partitions", "1");
        // tests create their topics explicitly; a typo must fail instead of creating a topic
        p.put("auto.create.topics.enable", "false");
        // one node: every internal topic must have replication factor 1 or it can never be created
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", Integer.toString(offsetsPartitions));
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "3");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("share.coordinator.state.topic.num.partitions", "3");
        // no 3 s wait for more members before the first classic-group rebalance
        p.put("group.initial.rebalance.delay.ms", "0");
        // few threads: two brokers and MirrorMaker share 2 cores
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.put("num.recovery.threads.per.data.dir", "1");
        p.put("log.cleaner.threads", "1");
        // the cleaner's dedupe buffer is allocated on the heap (128 MB by default, half of our 256 MB heap)
        p.put("log.cleaner.dedupe.buffer.size", Integer.toString(16 * 1024 * 1024));
        p.putAll(security.serverProperties(List.of(clientListener)));
        return p;
    }

    /**
     * The {@code server.properties} of a broker-only node {@code nodeId} on 127.0.0.1 that joins the quorum of the
     * combined node whose controller listens on {@code controllerPort} (plaintext, as that node must be): the same
     * settings as {@link #serverProperties(int, int, Path, int)} otherwise.
     */
    static Map<String, String> brokerOnlyProperties(int nodeId, int port, int controllerPort, Path logDir,
                                                    int offsetsPartitions) {
        Map<String, String> p = serverProperties(port, controllerPort, logDir, offsetsPartitions);
        String client = "PLAINTEXT://127.0.0.1:" + port;
        p.put("process.roles", "broker");
        p.put("node.id", Integer.toString(nodeId));
        p.put("listeners", client);
        p.put("advertised.listeners", client);
        return p;
    }

    /**
     * Adds a client listener {@code listener} bound to {@code port} that advertises {@code advertisedPort}, speaking
     * what the main client listener speaks (see {@link LocalKafkaBroker.Builder#extraListener}).
     */
    static void addListener(Map<String, String> config, String listener, int port, int advertisedPort,
                            BrokerSecurity security) {
        config.put("listeners", config.get("listeners") + "," + listener + "://127.0.0.1:" + port);
        config.put("advertised.listeners", config.get("advertised.listeners") + "," + listener
                + "://127.0.0.1:" + advertisedPort);
        config.put("listener.security.protocol.map", config.get("listener.security.protocol.map") + ","
                + listener + ":" + security.protocol().name);
        config.putAll(security.listenerProperties(listener));
    }
}
