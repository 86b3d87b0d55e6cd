package dev.sextant.apply;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The mark Sextant leaves in the metadata of every offset it commits on the destination:
 *
 * <pre>
 *   sextant/&lt;application.id&gt; t=&lt;source commit time, epoch ms&gt; b=&lt;replay bound&gt;
 *       src=&lt;source offset&gt;</pre>
 *
 * It tells Sextant's own commits from a consumer's (a consumer that ran on the destination, or another tool), which
 * Sextant never overwrites; and it names the source commit the offset carries, so that a write of an older commit
 * (a stale instance after a rebalance, a commit replayed after a restore) never replaces a newer one; and, with the
 * replay bound of its translation (records a consumer resuming there may see again; 0 is exact), it tells a failover
 * with the source gone how exact each destination offset is. Older marks ({@code sextant/<id> src=<offset>}, then
 * without {@code b=}) are Sextant's, of an unknown time or bound.
 */
public final class OffsetOwnership {

    /**
     * The source commit a mark names; {@code commitTimestamp} and {@code bound} are -1 when the mark predates them.
     */
    public record Mark(long commitTimestamp, long sourceOffset, long bound) {

        public Mark(long commitTimestamp, long sourceOffset) {
            this(commitTimestamp, sourceOffset, -1);
        }
    }

    private static final Pattern MARK = Pattern.compile("(?: t=(-?\\d+))?(?: b=(-?\\d+))? src=(-?\\d+)$");

    private final String prefix;

    public OffsetOwnership(String applicationId) {
        this.prefix = "sextant/" + applicationId;
    }

    public String metadataFor(long commitTimestamp, long sourceOffset) {
        return prefix + " t=" + commitTimestamp + " src=" + sourceOffset;
    }

    /** The mark with the translation's replay bound ({@code bound} &lt; 0: unknown, left out). */
    public String metadataFor(long commitTimestamp, long sourceOffset, long bound) {
        // src= stays last, as in every mark before it: tools that read the source offset from the end keep working
        return bound < 0 ? metadataFor(commitTimestamp, sourceOffset)
                : prefix + " t=" + commitTimestamp + " b=" + bound + " src=" + sourceOffset;
    }

    public boolean owns(String metadata) {
        return metadata != null && (metadata.equals(prefix) || metadata.startsWith(prefix + " "));
    }

    /** The commit an offset Sextant wrote carries; empty for offsets it did not write, or marks it cannot read. */
    public Optional<Mark> mark(String metadata) {
        if (!owns(metadata)) {
            return Optional.empty();
        }
        Matcher m = MARK.matcher(metadata.substring(prefix.length()));
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(new Mark(m.group(1) == null ? -1 : Long.parseLong(m.group(1)), Long.parseLong(m.group(3)),
                m.group(2) == null ? -1 : Long.parseLong(m.group(2))));
    }
}
