package dev.sextant.config;

/**
 * The names of the topics Sextant keeps for itself on its source cluster, derived from {@code application.id}: the
 * one place they are spelt, as MirrorMaker 2's client config derives its internal topics' names. The dead-letter topic
 * is a key of its own ({@code dlq.topic}), not derived.
 *
 * @param applicationId the Kafka Streams application id of the Sextant that owns them
 */
public record OwnTopicNames(String applicationId) {

    /** The full offset-sync history (compacted; read back into a global store, and by the commands). */
    public String history() {
        return applicationId + "-offset-sync-history";
    }

    /** The groups cut over to the destination (compacted; read back into a global store). */
    public String cutovers() {
        return applicationId + "-cutovers";
    }

    /** Share start offsets on their way to the task that owns each share group. */
    public String sharePositions() {
        return applicationId + "-share-positions";
    }

    /**
     * With {@code source.offsets.read=admin}: the source's committed offsets as the Admin API answered them, written
     * as {@code __consumer_offsets} records, partitioned and compacted as that topic is, and read by the sync in its
     * place.
     */
    public String sourceCommits() {
        return applicationId + "-source-commits";
    }
}
