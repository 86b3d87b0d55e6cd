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
}
