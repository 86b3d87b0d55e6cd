package dev.sextant.apply;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The destination's groups (type, state) as last listed, and when to list them again.
 *
 * <p>Listing the groups costs the destination and this process in proportion to every group the destination has,
 * Sextant's or not: at every refresh, a large destination would keep an Admin thread busy listing. So the groups are
 * listed at most once per {@link #LIST_COST_FACTOR} times what the last listing took (but at least every
 * {@link #MAX_LIST_INTERVAL_MS}); after a failed refresh, and when a caller forces it, at the next refresh.
 *
 * <p>Guarded as {@link DestinationView} says: each field holds an immutable value, replaced whole under this object's
 * monitor and read without it.
 */
final class ListedGroups {

    /** The groups are listed at most once per this many times the last listing's duration (about 5% of the time). */
    static final int LIST_COST_FACTOR = 20;
    /** However slow the listing, the groups are listed again within this long. */
    static final long MAX_LIST_INTERVAL_MS = 30_000;

    /**
     * A listing of the destination's groups.
     *
     * @param startedAt when it was started, epoch ms; -1 for none yet
     */
    record Listing(Map<String, DestinationGroup> groups, long startedAt) {
    }

    private final DestinationClient client;
    private final Clock clock;
    /** The listing the view answers from: published once the rest of its refresh answered too. */
    private volatile Listing published = new Listing(Map.of(), -1);
    /** When the groups may be listed again, epoch ms (0: at the next refresh). */
    private volatile long dueAt;

    ListedGroups(DestinationClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    /**
     * The listing a refresh started at {@code startedAt} uses: a new one when one is due or {@code forced}, else the
     * one published. A new listing's duration sets when the next one is due.
     */
    CompletableFuture<Listing> listing(long startedAt, boolean forced) {
        if (!forced && startedAt < dueAt) {
            return CompletableFuture.completedFuture(published);
        }
        return client.listGroups().thenApply(groups -> {
            listedIn(startedAt, Math.max(0, clock.millis() - startedAt));
            return new Listing(groups, startedAt);
        });
    }

    private synchronized void listedIn(long startedAt, long took) {
        dueAt = startedAt + Math.min(MAX_LIST_INTERVAL_MS, took * LIST_COST_FACTOR);
    }

    /** What {@link #group} and {@link #listedAt} answer from now on. */
    synchronized void publish(Listing listing) {
        published = listing;
    }

    /** The next refresh lists the groups, whenever the last listing was (the destination may have changed). */
    synchronized void listAtNextRefresh() {
        dueAt = 0;
    }

    Optional<DestinationGroup> group(String groupId) {
        return Optional.ofNullable(published.groups().get(groupId));
    }

    /** When the published listing was started, epoch ms; -1 before the first. */
    long listedAt() {
        return published.startedAt();
    }
}
