package dev.sextant.bench;

import org.apache.kafka.connect.mirror.DefaultReplicationPolicy;

/**
 * MirrorMaker 2's default replication policy, except that every topic counts as internal. Loaded inside the
 * benchmark's checkpoint-only MirrorMaker processes (never in Sextant's JVM), it keeps their MirrorSourceConnector
 * from mirroring anything (it is the only MirrorMaker class that asks {@code isInternalTopic}), while the
 * MirrorCheckpointConnector names, filters and translates exactly as with the default policy. So the checkpoint
 * connector runs in a process of its own and its CPU and memory can be measured apart from data mirroring.
 *
 * <p>Invariant: compiles to this one class file and only needs connect-mirror-client, so copying it next to
 * MirrorMaker's 4.3.1 jars is enough ({@link Mm2CheckpointProcess}).
 */
public class CheckpointsOnlyPolicy extends DefaultReplicationPolicy {

    @Override
    public boolean isInternalTopic(String topic) {
        return true;
    }
}
