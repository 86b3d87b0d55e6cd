package dev.sextant.domain;

import java.util.Locale;

/**
 * The two kinds of group Sextant syncs, each in its own phase with its own Admin calls. Classic, consumer-protocol
 * (KIP-848), simple (admin-committed) and streams groups all keep ordinary committed offsets and are
 * {@link #CONSUMER}; KIP-932 share groups keep a share-partition start offset and are {@link #SHARE}.
 *
 * <p>Not Kafka's {@code GroupType}, which names the group protocol (classic, consumer, share, streams): several
 * protocols map to one kind here, and a kind decides which Admin calls write the group on the destination.
 */
public enum GroupKind {
    CONSUMER,
    SHARE;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
