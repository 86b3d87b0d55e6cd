package dev.sextant.apply;

/**
 * The mark Sextant leaves in the metadata of every offset it commits on the destination, so it can tell its own
 * commits from a consumer's (a consumer that ran on the destination, or another tool): it never overwrites
 * offsets it does not own.
 *
 * <pre>  sextant/&lt;application.id&gt; src=&lt;source offset&gt;</pre>
 */
public final class OffsetOwnership {

    private final String prefix;

    public OffsetOwnership(String applicationId) {
        this.prefix = "sextant/" + applicationId;
    }

    public String metadataFor(long sourceOffset) {
        return prefix + " src=" + sourceOffset;
    }

    public boolean owns(String metadata) {
        return metadata != null && (metadata.equals(prefix) || metadata.startsWith(prefix + " "));
    }
}
