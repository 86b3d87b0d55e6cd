package dev.sextant.apply;

/**
 * A consumer-group write was not sent: it had waited for the destination to absorb earlier writes, and when its turn
 * came a fresh read showed the group's offsets changed since the read it was planned on (someone committed there).
 * Planned again from a new read, which decides what the change means (most often {@code DESTINATION_DIVERGED}).
 */
public final class DestinationChangedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public DestinationChangedException(String group) {
        super("the destination offsets of group " + group + " changed between the read before the write and its "
                + "turn to be sent");
    }
}
