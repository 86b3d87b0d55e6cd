package dev.sextant.command;

import dev.sextant.clients.TopicLog;
import dev.sextant.state.CutoverRecord;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sextant's cutovers topic on the source cluster ({@code <application.id>-cutovers}, compacted, created by the running
 * Sextant): the durable record of which groups are cut over, that every instance reads into its global store. Read
 * whole, written one group at a time and acknowledged by every in-sync replica before a write returns
 * ({@link TopicLog}).
 */
public final class CutoverLedger {

    private final TopicLog log;

    CutoverLedger(TopicLog log) {
        this.log = log;
    }

    /**
     * Every group cut over now, by group.
     *
     * @throws IllegalStateException when the topic does not exist (no Sextant of this release ran yet)
     */
    public Map<String, CutoverRecord> read() {
        Map<String, CutoverRecord> cut = new TreeMap<>();
        boolean exists = log.readToEnd((key, value) -> {
            if (key == null) {
                return;
            }
            String group = new String(key, StandardCharsets.UTF_8);
            if (value == null) {
                cut.remove(group);
                return;
            }
            try {
                cut.put(group, CutoverRecord.fromBytes(value));
            } catch (IllegalArgumentException e) {
                // not a record this release reads: the running Sextant skips it too
            }
        });
        if (!exists) {
            throw new MissingTopicException("topic " + log.topic() + " does not exist on " + log.cluster()
                    + ": start Sextant (this release creates it), then run the cutover");
        }
        return cut;
    }

    /**
     * Every group cut over now; none when the topic does not exist (no Sextant that creates it ran, so nothing was
     * ever cut over): what a command that writes checks before it writes.
     */
    public Map<String, CutoverRecord> readIfAny() {
        try {
            return read();
        } catch (MissingTopicException e) {
            return Map.of();
        }
    }

    /** Records the group as cut over; returns once the brokers acknowledged it. */
    public void record(CutoverRecord cut) {
        log.write(CutoverRecord.key(cut.group()), cut.toBytes());
    }

    /** Gives the group back to the sync (a tombstone); returns once the brokers acknowledged it. */
    public void withdraw(String group) {
        log.write(CutoverRecord.key(group), null);
    }

    /** The cutovers topic does not exist. */
    private static final class MissingTopicException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        MissingTopicException(String message) {
            super(message);
        }
    }
}
