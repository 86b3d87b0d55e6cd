package dev.sextant.apply;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.errors.AuthorizationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which cluster answers at the destination's address: its id as last read, whether that read confirms the cluster
 * answering now, and the id Sextant's history pins. A cluster rebuilt at the same address, or another one behind the
 * same name, is only told apart by its id, so nothing is written until the id is read after the last outage, nor
 * while it differs from the pinned one.
 *
 * <p>Guarded as {@link DestinationView} says: each field holds an immutable value, replaced whole under this object's
 * monitor and read without it.
 */
final class DestinationIdentity {

    /** The view's logger: what the destination's picture says is found under one name. */
    private static final Logger log = LoggerFactory.getLogger(DestinationView.class);

    /** A cluster id read that was refused (no permission; a real id is never empty): nothing to pin or hold for. */
    private static final String NOT_ALLOWED = "";

    /**
     * @param clusterId the id as last read, null before
     * @param confirmed true once the id was read after the last outage (and at start): until then nothing is written
     * @param outages   how many times refreshes started failing: an id read asked before an outage does not confirm
     *                  the cluster answering after it (another one may have come up at the same address meanwhile)
     */
    private record Seen(String clusterId, boolean confirmed, long outages) {
    }

    private final DestinationClient client;
    private volatile Seen seen = new Seen(null, false, 0);
    /** The cluster id Sextant's history pins, null while not pinned. */
    private volatile String pinned;

    DestinationIdentity(DestinationClient client) {
        this.client = client;
    }

    /** The outages counted so far: a refresh notes it when it starts, and hands it back with its read. */
    long outages() {
        return seen.outages();
    }

    /**
     * Reads the cluster id, as every refresh does: a cluster rebuilt at the same address may answer a refresh that
     * started before it (the Admin client retries), and must be told apart before anything is planned from that
     * answer. A failed read is null: the cluster is then not confirmed, and read again at the next refresh.
     */
    CompletableFuture<String> read() {
        return KafkaFutures.asked(client::clusterId).handle((id, err) -> {
            if (err != null && KafkaFutures.unwrap(err) instanceof AuthorizationException) {
                // not allowed to know it: nothing can be pinned, and nothing held for it (as before the pin)
                return NOT_ALLOWED;
            }
            return id;
        });
    }

    /** What a refresh's {@link #read()} answered; {@code asOf} the {@link #outages()} when the refresh started. */
    synchronized void read(String id, long asOf) {
        Seen was = seen;
        if (id == null || asOf != was.outages()) {
            // not read, or asked before an outage: says nothing of the cluster after it
            seen = new Seen(was.clusterId(), false, was.outages());
            return;
        }
        String clusterId = was.clusterId();
        if (!id.equals(NOT_ALLOWED) && !id.equals(clusterId)) {
            if (clusterId != null) {
                log.warn("The destination's cluster id changed from {} to {}", clusterId, id);
            }
            clusterId = id;
        }
        seen = new Seen(clusterId, true, was.outages());
    }

    /**
     * A refresh failed: the next answer may come from another cluster, so nothing is confirmed until the id is read
     * again; {@code outageBegins} when the refresh before it succeeded.
     */
    synchronized void unanswered(boolean outageBegins) {
        Seen was = seen;
        seen = new Seen(was.clusterId(), false, outageBegins ? was.outages() + 1 : was.outages());
    }

    /** True once the id was read after the last outage (and after start). */
    boolean confirmed() {
        return seen.confirmed();
    }

    /** The cluster's id as last read; empty before the first read. */
    Optional<String> clusterId() {
        return Optional.ofNullable(seen.clusterId());
    }

    /**
     * The ids this destination is known by: as last read and as the history pins it (they differ while a changed
     * cluster is not accepted yet); empty before either is known. A refused read names none.
     */
    Set<String> knownIds() {
        Set<String> ids = new HashSet<>(2);
        String id = seen.clusterId();
        String pin = pinned;
        if (id != null && !id.equals(NOT_ALLOWED)) {
            ids.add(id);
        }
        if (pin != null && !pin.equals(NOT_ALLOWED)) {
            ids.add(pin);
        }
        return ids;
    }

    /** The cluster id Sextant's history pins (the cluster it wrote to so far); null: not pinned. */
    synchronized void pin(String cluster) {
        pinned = cluster;
    }

    /**
     * Why nothing may be written: the cluster answering is not the one the history pins; empty while it is, or while
     * either is not known.
     */
    Optional<String> change() {
        String id = seen.clusterId();
        String pin = pinned;
        if (id == null || pin == null || id.equals(pin)) {
            return Optional.empty();
        }
        return Optional.of("the destination is cluster " + id + ", not the cluster " + pin + " Sextant wrote to "
                + "(rebuilt, or another cluster behind destination.bootstrap.servers): nothing is written until an "
                + "operator accepts it with 'sextant rebaseline --apply'");
    }
}
