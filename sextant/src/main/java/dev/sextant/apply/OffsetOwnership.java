package dev.sextant.apply;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The mark Sextant leaves in the metadata of every offset it commits on the destination:
 *
 * <pre>  sextant/&lt;application.id&gt; t=&lt;source commit time, epoch ms&gt; src=&lt;source offset&gt;</pre>
 *
 * It tells Sextant's own commits from a consumer's (a consumer that ran on the destination, or another tool), which
 * Sextant never overwrites; and it names the source commit the offset carries, so that a write of an older commit
 * (a stale instance after a rebalance, a commit replayed after a restore) never replaces a newer one. Marks written
 * before the commit time was added ({@code sextant/<id> src=<offset>}) are Sextant's, of an unknown time.
 */
public final class OffsetOwnership {

    /** The source commit a mark names; {@code commitTimestamp} is -1 when the mark predates it. */
    public record Mark(long commitTimestamp, long sourceOffset) {
    }

    private static final Pattern MARK = Pattern.compile("(?: t=(-?\\d+))? src=(-?\\d+)$");

    private final String prefix;

    public OffsetOwnership(String applicationId) {
        this.prefix = "sextant/" + applicationId;
    }

    public String metadataFor(long commitTimestamp, long sourceOffset) {
        return prefix + " t=" + commitTimestamp + " src=" + sourceOffset;
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
        return Optional.of(new Mark(m.group(1) == null ? -1 : Long.parseLong(m.group(1)), Long.parseLong(m.group(2))));
    }
}
