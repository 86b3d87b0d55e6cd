package dev.sextant.apply;

/**
 * Whether a write planned a moment ago may still be sent. A task plans its writes on the stream thread and an Admin
 * thread sends them once the destination's current offsets are read; by then the task may have been revoked, or the
 * instance may have been frozen (a pause, a partition) long enough for another instance to own the group. The lease
 * is checked right before the offsets are sent, by the {@link DestinationClient} (a write may wait there for the
 * destination to absorb earlier ones): the task that planned the write still runs, and less time has passed since
 * than the source's group coordinator waits before it gives the task to another instance.
 *
 * <p>What the lease cannot stop is a write already sent that reaches the broker late; the instance that takes the
 * task over audits its groups for a while and writes the newer commit again (see {@code TakeoverAudit}).
 */
@FunctionalInterface
public interface WriteLease {

    /** A lease that never runs out (the failover command, which owns what it writes). */
    WriteLease ALWAYS = () -> true;

    boolean valid();

    /**
     * Whether the write carries a new source commit; false for a re-plan (a closer translation, an exact rewrite, a
     * refresh before the offsets retention), which the destination's writers send after the writes of new commits
     * waiting beside it, unless it waited too long ({@link WriteDispatcher}).
     */
    default boolean newCommit() {
        return true;
    }

    /** This lease, for writes that are re-plans only. */
    static WriteLease replan(WriteLease lease) {
        return new WriteLease() {
            @Override
            public boolean valid() {
                return lease.valid();
            }

            @Override
            public boolean newCommit() {
                return false;
            }
        };
    }
}
