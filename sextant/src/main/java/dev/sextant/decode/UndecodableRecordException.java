package dev.sextant.decode;

import java.util.Objects;
import java.util.Optional;

/**
 * An input record the decoders cannot turn into a model record. Callers count and skip it.
 *
 * <p>Checked on purpose: every call site must decide what skipping means, since an escaping exception would
 * kill a Kafka Streams thread on one bad record. No stack trace is captured (these can be routine, e.g. record
 * types from a newer broker); the cause, if any, keeps its own.
 */
public final class UndecodableRecordException extends Exception {

    /** Coarse category, so callers can count "newer than us" apart from "broken". */
    public enum Problem {
        /** Bytes too short, truncated, trailing bytes, or rejected by Kafka's generated readers. */
        MALFORMED,
        /** The key's type id is not one Sextant's Kafka jars know (e.g. 9 and 18, unused in 4.4, or future types). */
        UNKNOWN_TYPE,
        /** The value's version is outside the range the Kafka jars can read for its key type. */
        UNKNOWN_VERSION
    }

    private final Problem problem;
    private final String group;
    private final String signature;

    UndecodableRecordException(Problem problem, String group, String signature, String reason, Throwable cause) {
        super(Objects.requireNonNull(reason, "reason"), cause, false, false);
        this.problem = Objects.requireNonNull(problem, "problem");
        this.group = group;
        this.signature = Objects.requireNonNull(signature, "signature");
    }

    /** A record of one of Sextant's own topics (or any input) whose bytes do not hold what they should. */
    public static UndecodableRecordException malformed(String group, String reason, Throwable cause) {
        return new UndecodableRecordException(Problem.MALFORMED, group, "malformed", reason, cause);
    }

    static UndecodableRecordException unknownType(String topicName, short typeId) {
        return new UndecodableRecordException(Problem.UNKNOWN_TYPE, null, "key type " + typeId,
                "unknown " + topicName + " key type " + typeId, null);
    }

    static UndecodableRecordException unknownVersion(String group, String typeName, short version, short lowest,
                                                     short highest) {
        return new UndecodableRecordException(Problem.UNKNOWN_VERSION, group, typeName + " v" + version,
                "value version " + version + " of " + typeName + " is outside the readable range " + lowest + "–"
                        + highest, null);
    }

    /**
     * What failed, the same for every record that fails the same way ({@code "malformed"}, {@code "key type 24"},
     * {@code "OffsetCommit v5"}), so a newer broker's records are counted as one kind, not reported one by one.
     */
    public String signature() {
        return signature;
    }

    /** What kind of problem this is. */
    public Problem problem() {
        return problem;
    }

    /** Human-readable reason, the same as {@link #getMessage()}; never null. */
    public String reason() {
        return getMessage();
    }

    /**
     * The group id, when the key could be decoded but the value could not; empty when the key itself is the
     * problem or the input has no group (offset syncs).
     */
    public Optional<String> group() {
        return Optional.ofNullable(group);
    }
}
