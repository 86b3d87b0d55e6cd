package dev.sextant.sync;

import dev.sextant.state.PositionKey;
import dev.sextant.translate.OffsetTranslator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;

/**
 * Parked positions that no offset sync covers ({@code UNTRANSLATABLE}), by source partition, so that they are planned
 * again at the first flush after a sync that covers them arrives instead of waiting out their park (up to
 * {@link Backoffs#MAX_PARK_MS}). The first sync of a partition, or syncs read late (a fresh instance still catching up
 * with MirrorMaker 2's topic, a history that went back to a new log), cover them.
 *
 * <p>Cost: at each flush, one map lookup per partition that has waiting positions (its newest sync, kept in memory);
 * only when that changed, one translation of the highest waiting offset, the one most likely covered. When it is
 * covered, every waiting position of the partition is offered again, and those still uncovered park again. A waiting
 * position that a new commit moved on is offered once more than needed; nothing is missed.
 *
 * <p>Invariant: a key is held here from its park until its partition's history changes; it is never the only way
 * back to the pending set (its park expires too), so dropping an entry can delay a position, never lose it.
 */
final class UncoveredPositions implements ReplanTrigger {

    /** One source partition's waiting positions and its newest sync when they were last checked. */
    private static final class Waiting {
        final Set<PositionKey> keys = new HashSet<>();
        long highestOffset = -1;
        Long newestChecked;
    }

    private final Function<TopicPartition, Long> newestUpstream;
    private final OffsetTranslator translator;
    private final Map<TopicPartition, Waiting> byPartition = new HashMap<>();

    /**
     * @param newestUpstream the newest sync's upstream offset of a partition, or null when it has none; a null
     *                       function (identity translation, where every offset is covered) keeps nothing
     * @param translator     the translation the planner uses
     */
    UncoveredPositions(Function<TopicPartition, Long> newestUpstream, OffsetTranslator translator) {
        this.newestUpstream = newestUpstream;
        this.translator = translator;
    }

    /** The position at {@code offset} was parked because no sync covers it. */
    void waitFor(PositionKey key, long offset) {
        if (newestUpstream == null) {
            return;
        }
        TopicPartition tp = new TopicPartition(key.topic(), key.partition());
        Waiting waiting = byPartition.get(tp);
        if (waiting == null) {
            waiting = new Waiting();
            waiting.newestChecked = newestUpstream.apply(tp);
            byPartition.put(tp, waiting);
        }
        waiting.keys.add(key);
        waiting.highestOffset = Math.max(waiting.highestOffset, offset);
    }

    /** Offsets no sync covered are planned again as soon as one does, not when their park runs out. */
    @Override
    public void markDue(long now, PendingGroups pending) {
        covered().forEach(pending::mark);
    }

    /** The waiting positions a sync received since the last call covers; they stop waiting here. */
    List<PositionKey> covered() {
        List<PositionKey> out = new ArrayList<>();
        for (Iterator<Map.Entry<TopicPartition, Waiting>> it = byPartition.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<TopicPartition, Waiting> e = it.next();
            TopicPartition tp = e.getKey();
            Waiting waiting = e.getValue();
            Long newest = newestUpstream.apply(tp);
            if (Objects.equals(newest, waiting.newestChecked)) {
                continue;
            }
            waiting.newestChecked = newest;
            if (translator.translate(tp.topic(), tp.partition(), waiting.highestOffset).isPresent()) {
                out.addAll(waiting.keys);
                it.remove();
            }
        }
        return out;
    }

    /** Partitions with waiting positions (for tests and the gauge of what is held). */
    int partitions() {
        return byPartition.size();
    }
}
