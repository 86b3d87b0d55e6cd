package dev.sextant.apply;

/**
 * A write was not sent: its {@link WriteLease} ran out before it was its turn (it waited for the destination to
 * absorb earlier writes, or the task was revoked meanwhile). Nothing reached the destination.
 */
public final class WriteLeaseExpiredException extends RuntimeException {

    public WriteLeaseExpiredException() {
        super("write lease expired before the offsets were sent", null, false, false);
    }
}
