package dev.sextant.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether a group keeps its destination offsets through the destination's offsets retention: a control group is
 * committed there by hand (nobody writes it again, so the retention deletes it: proof the retention runs), and the
 * watched group's offsets are sampled every 500 ms for a while.
 */
public final class RetentionWatch {

    /**
     * @param controlGoneMs when the control group's offsets were gone, from the start; -1 when they never were
     * @param gaps          each sample in which the watched group did not hold every expected offset
     */
    public record Result(long controlGoneMs, List<String> gaps) {
    }

    private RetentionWatch() {
    }

    /**
     * Commits {@code control} at offset 10 of {@code topic}-0 by hand, then samples for {@code duration}.
     *
     * @param expected what the watched group holds, by partition
     */
    public static Result sample(Admin destination, String topic, String control, String group,
                                Map<Integer, Long> expected, Duration duration) throws Exception {
        destination.alterConsumerGroupOffsets(control, Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(10)))
                .all().get(30, TimeUnit.SECONDS);
        long start = System.nanoTime();
        long controlGoneMs = -1;
        List<String> gaps = new ArrayList<>();
        while (System.nanoTime() - start < duration.toNanos()) {
            long at = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            Map<Integer, Long> held = offsets(destination, group);
            if (!held.equals(expected)) {
                gaps.add(at + " ms: " + held);
            }
            if (controlGoneMs < 0 && offsets(destination, control).isEmpty()) {
                controlGoneMs = at;
            }
            Thread.sleep(500); // the sampling interval, not a wait for a condition
        }
        return new Result(controlGoneMs, List.copyOf(gaps));
    }

    /** The group's committed offsets on the destination, by partition. */
    public static Map<Integer, Long> offsets(Admin admin, String group) {
        try {
            Map<Integer, Long> out = new TreeMap<>();
            admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS)
                    .forEach((tp, om) -> {
                        if (om != null) {
                            out.put(tp.partition(), om.offset());
                        }
                    });
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the offsets of " + group, e);
        }
    }
}
