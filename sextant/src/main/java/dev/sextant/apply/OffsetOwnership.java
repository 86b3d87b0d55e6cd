package dev.sextant.apply;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The mark Sextant leaves in the metadata of every offset it commits on the destination:
 *
 * <pre>
 *   sextant/&lt;application.id&gt; c=&lt;source cluster id&gt; t=&lt;source commit time, epoch ms&gt; o=&lt;the
 *       commit's offset in __consumer_offsets&gt; b=&lt;replay bound&gt; src=&lt;source offset&gt;</pre>
 *
 * It tells Sextant's own commits from a consumer's (a consumer that ran on the destination, or another tool), which
 * Sextant never overwrites; and it names the source commit the offset carries, so that a write of an older commit
 * (a stale instance after a rebalance, a commit replayed after a restore) never replaces a newer one; and, with the
 * replay bound of its translation (records a consumer resuming there may see again; 0 is exact), it tells a failover
 * with the source gone how exact each destination offset is. Older marks ({@code sextant/<id> src=<offset>}, then
 * without {@code b=}, then without {@code o=}) are Sextant's, of an unknown time, bound or log position.
 *
 * <p>Which of two commits is newer is decided by their place in {@code __consumer_offsets} when both marks carry it
 * (a group lives on one partition of it, so the log orders its commits, also two in one millisecond or across a
 * coordinator move to a broker whose clock is behind), and by the commit time otherwise. That order holds within one
 * source cluster only: a replaced source starts {@code __consumer_offsets} again at 0, so a mark naming another source
 * cluster ({@code c=}) is no commit of this one, older or newer ({@link #fromAnotherSource}); the sync refuses such a
 * group ({@code SOURCE_CHANGED}) until an operator releases the marks ({@code sextant rebaseline --source --apply},
 * {@link #released}). Marks without {@code c=} (older ones, or written by a command that did not know the source) are
 * compared as if of this source.
 */
public final class OffsetOwnership {

    /**
     * The source commit a mark names; {@code commitTimestamp} and {@code bound} are -1 when the mark predates them.
     */
    public record Mark(long commitTimestamp, long sourceOffset, long bound, long commitLogOffset,
                       String sourceCluster) {

        public Mark(long commitTimestamp, long sourceOffset, long bound, long commitLogOffset) {
            this(commitTimestamp, sourceOffset, bound, commitLogOffset, null);
        }

        public Mark(long commitTimestamp, long sourceOffset, long bound) {
            this(commitTimestamp, sourceOffset, bound, -1);
        }

        public Mark(long commitTimestamp, long sourceOffset) {
            this(commitTimestamp, sourceOffset, -1, -1);
        }

        /** True when this mark's commit came after the planned one: by the log if both know it, else by time. */
        public boolean newerThan(PlannedPartition part) {
            return commitLogOffset >= 0 && part.commitLogOffset() >= 0 ? commitLogOffset > part.commitLogOffset()
                    : commitTimestamp > part.commitTimestamp();
        }

        /** True when this mark's commit came before the planned one; false when neither order is known. */
        public boolean olderThan(PlannedPartition part) {
            return commitLogOffset >= 0 && part.commitLogOffset() >= 0 ? commitLogOffset < part.commitLogOffset()
                    : commitTimestamp >= 0 && commitTimestamp < part.commitTimestamp();
        }
    }

    private static final Pattern MARK = Pattern.compile(
            "(?: c=([A-Za-z0-9_-]+))?(?: t=(-?\\d+))?(?: o=(-?\\d+))?(?: b=(-?\\d+))? src=(-?\\d+)$");

    /**
     * The longest text after the prefix read as a mark's fields: every field of Sextant's marks at its widest fits
     * with room to spare; Kafka takes up to {@code offset.metadata.max.bytes} (4,096 by default) from anyone, and a
     * longer text is not parsed at all.
     */
    static final int MAX_FIELDS_LENGTH = 256;

    private final String prefix;
    /** The prefix and the space after it: built once, it is tested on every partition of every group written. */
    private final String prefixAndSpace;
    /** The source cluster's id, null when not known (a command run with the source gone). */
    private final String sourceCluster;
    /** The prefix and this source's {@code c=}: what a mark written now starts with. */
    private final String writtenPrefix;
    /** {@link #writtenPrefix} and the space after it: a mark of this source, told without parsing it. */
    private final String writtenPrefixAndSpace;

    /** Marks without the source cluster: for commands that do not know it (the source gone). */
    public OffsetOwnership(String applicationId) {
        this(applicationId, null);
    }

    /** @param sourceCluster the source cluster's id, named in every mark written ({@code c=}); null when not known */
    public OffsetOwnership(String applicationId, String sourceCluster) {
        this.prefix = "sextant/" + applicationId;
        this.prefixAndSpace = prefix + " ";
        this.sourceCluster = sourceCluster;
        this.writtenPrefix = sourceCluster == null ? prefix : prefix + " c=" + sourceCluster;
        this.writtenPrefixAndSpace = writtenPrefix + " ";
    }

    /** The source cluster's id, when known. */
    public Optional<String> sourceCluster() {
        return Optional.ofNullable(sourceCluster);
    }

    /**
     * True when the mark names a source cluster other than this one: its commit is not ordered against this source's
     * commits. False when either is not known.
     */
    public boolean fromAnotherSource(Mark mark) {
        return sourceCluster != null && mark.sourceCluster() != null && !sourceCluster.equals(mark.sourceCluster());
    }

    /**
     * The source cluster an offset's metadata names when it is Sextant's mark of another source than this one; empty
     * otherwise. Read before every write of every group: a mark of this source is told by its prefix, unparsed.
     */
    public Optional<String> otherSource(String metadata) {
        if (sourceCluster == null || metadata == null || metadata.startsWith(writtenPrefixAndSpace)) {
            return Optional.empty();
        }
        return mark(metadata).filter(this::fromAnotherSource).map(Mark::sourceCluster);
    }

    /**
     * The mark released from its source: what {@code sextant rebaseline --source --apply} writes in place of a mark
     * of a replaced source cluster, keeping the offset and its replay bound. Without a cluster, a commit time or a log
     * position it names no commit, so the next commit of the new source replaces it.
     */
    public String released(Mark mark) {
        return prefix + (mark.bound() < 0 ? "" : " b=" + mark.bound()) + " src=" + mark.sourceOffset();
    }

    public String metadataFor(long commitTimestamp, long sourceOffset) {
        return writtenPrefix + " t=" + commitTimestamp + " src=" + sourceOffset;
    }

    /** The mark of a planned write: its commit, the commit's log position and the translation's bound. */
    public String metadataFor(PlannedPartition part) {
        if (part.commitLogOffset() < 0) {
            return metadataFor(part.commitTimestamp(), part.sourceOffset(), part.bound());
        }
        return writtenPrefix + " t=" + part.commitTimestamp() + " o=" + part.commitLogOffset()
                + (part.bound() < 0 ? "" : " b=" + part.bound()) + " src=" + part.sourceOffset();
    }

    /** The mark with the translation's replay bound ({@code bound} &lt; 0: unknown, left out). */
    public String metadataFor(long commitTimestamp, long sourceOffset, long bound) {
        // src= stays last, as in every mark before it: tools that read the source offset from the end keep working
        return bound < 0 ? metadataFor(commitTimestamp, sourceOffset)
                : writtenPrefix + " t=" + commitTimestamp + " b=" + bound + " src=" + sourceOffset;
    }

    /**
     * True when an offset's metadata is the mark of any Sextant (this one or another application): the offset was
     * written by a Sextant, not committed by a consumer. In a two-way setup the other direction's Sextant wrote it;
     * syncing it back would send a group's offsets to the cluster they came from.
     */
    public static boolean anySextant(String metadata) {
        return metadata != null && metadata.startsWith("sextant/");
    }

    /**
     * True when an offset's metadata is this Sextant's mark, one it can read whole. Anyone who may commit on the
     * destination can write metadata that starts like a mark: one that does not read as a mark (a field out of range,
     * garbage, text of any length) is someone else's offset, never overwritten as Sextant's.
     */
    public boolean owns(String metadata) {
        return metadata != null && (metadata.equals(prefix) || mark(metadata).isPresent());
    }

    /**
     * The commit an offset Sextant wrote carries; empty for offsets it did not write, and for metadata that starts
     * like its mark but does not read as one. Never throws, whatever the metadata holds.
     */
    public Optional<Mark> mark(String metadata) {
        if (metadata == null || metadata.length() > prefix.length() + MAX_FIELDS_LENGTH
                || !metadata.startsWith(prefixAndSpace)) {
            return Optional.empty();
        }
        return fields(metadata.substring(prefix.length()));
    }

    /**
     * The commit the mark of any Sextant, of any application, names: what another Sextant's write carries (the
     * source offset it was translated from, and that source's cluster). Empty for a consumer's metadata and for
     * metadata that starts like a mark but does not read as one.
     */
    public static Optional<Mark> anyMark(String metadata) {
        int fields = anySextant(metadata) ? metadata.indexOf(' ') : -1;
        if (fields < 0 || metadata.length() - fields > MAX_FIELDS_LENGTH) {
            return Optional.empty();
        }
        return fields(metadata.substring(fields));
    }

    /** The fields after a mark's prefix, from the space before the first one. */
    private static Optional<Mark> fields(String text) {
        Matcher m = MARK.matcher(text);
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Mark(number(m.group(2)), Long.parseLong(m.group(5)), number(m.group(4)),
                    number(m.group(3)), m.group(1)));
        } catch (NumberFormatException outOfRange) {
            return Optional.empty(); // digits past a long: no Sextant wrote them
        }
    }

    private static long number(String field) {
        return field == null ? -1 : Long.parseLong(field);
    }
}
