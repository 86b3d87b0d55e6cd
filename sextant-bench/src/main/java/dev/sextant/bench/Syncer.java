package dev.sextant.bench;

import java.nio.file.Path;

/** One offset syncer under test, in its own process: Sextant or a checkpoint-only MirrorMaker 2. */
interface Syncer extends AutoCloseable {

    /** "sextant", "mm2-default" or "mm2-1s". */
    String system();

    /** Prefix of the source groups this syncer (and only it) syncs, e.g. {@code bench-sx-1000-}. */
    String groupPrefix();

    long pid();

    boolean isAlive();

    /** Admin requests this process sent to the destination so far (Kafka client metric request-total), or -1. */
    double destinationAdminRequests();

    /** Where its log is (copied out before the local clusters delete their directory). */
    Path logFile();

    @Override
    void close();
}
