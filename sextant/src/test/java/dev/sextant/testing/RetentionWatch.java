package dev.sextant.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether groups keep their destination offsets through the destination's offsets retention: a control group is
 * committed there by hand (nobody writes it again, so the retention deletes it: proof the retention runs), and the
 * watched groups' offsets are sampled every 500 ms for a while, all in the same window.
 */
public final class RetentionWatch {

    /**
     * @param controlGoneMs when the control group's offsets were gone, from the start; -1 when they never were
     * @param gaps          by watched group, each sample in which it did not hold every expected offset
     */
    public record Result(long controlGoneMs, Map<String, List<String>> gaps) {

        /** The samples in which {@code group} did not hold every expected offset. */
        public List<String> gaps(String group) {
            return gaps.getOrDefault(group, List.of());
        }
    }

    private RetentionWatch() {
    }

    /**
     * Commits {@code control} at offset 10 of {@code topic}-0 by hand, then samples every group for {@code duration}.
     *
     * @param expected what each watched group holds, by group, then by partition
     */
    public static Result sample(Admin destination, String topic, String control,
                                Map<String, Map<Integer, Long>> expected, Duration duration) throws Exception {
        destination.alterConsumerGroupOffsets(control, Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(10)))
                .all().get(30, TimeUnit.SECONDS);
        long start = System.nanoTime();
        long controlGoneMs = -1;
        Map<String, List<String>> gaps = new LinkedHashMap<>();
        expected.keySet().forEach(group -> gaps.put(group, new ArrayList<>()));
        while (System.nanoTime() - start < duration.toNanos()) {
            long at = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            expected.forEach((group, offsets) -> {
                Map<Integer, Long> held = offsets(destination, group);
                if (!held.equals(offsets)) {
                    gaps.get(group).add(at + " ms: " + held);
                }
            });
            if (controlGoneMs < 0 && offsets(destination, control).isEmpty()) {
                controlGoneMs = at;
            }
            Thread.sleep(500); // the sampling interval, not a wait for a condition
        }
        Map<String, List<String>> found = new LinkedHashMap<>();
        gaps.forEach((group, samples) -> found.put(group, List.copyOf(samples)));
        return new Result(controlGoneMs, found);
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
