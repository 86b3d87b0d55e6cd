package dev.sextant.translate;

import java.util.Locale;

/**
 * How close a translated offset is to the record the source consumer would read next.
 *
 * <p>{@link #EXACT}: the destination offset points at exactly that record (identity mirrors, or an offset sync
 * that lands on or right before the committed offset). {@link #BOUNDED}: the destination offset is at or before
 * that record, never after it, and at most {@link OffsetTranslation#bound()} records before it; a consumer that
 * resumes there replays at most that many records and loses none.
 */
public enum Precision {
    EXACT,
    BOUNDED;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
