package dev.sextant.cli;

import dev.sextant.failover.FailoverReport;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A consumer group's failover positions as the reset plan Kafka's {@code kafka-consumer-groups.sh --reset-offsets
 * --from-file FILE --group G --execute} takes: one line {@code topic,partition,offset} per partition, no header, each
 * line ended by {@code \n}. Kafka's tool (GroupOffsetsResetter.parseResetPlan) reads a file whose first line has
 * these three columns as the plan of the one {@code --group} given; it splits lines on {@code \n} and reads each with
 * Jackson's CSV reader. Topic names never hold a comma or a quote, so nothing is quoted.
 *
 * <p>A partition's offset is where a consumer of the group resumes after the failover: the translation a Sextant
 * instance holds and the destination lacks ({@code PENDING}, {@code MISSING}: what {@code failover --apply} writes),
 * else the destination's offset. A partition with neither (no translation, nothing on the destination) has no line:
 * it is in {@link #leftOut()}, never dropped silently.
 */
final class ResetPlanCsv {

    /** One line of the plan. */
    record Line(String topic, int partition, long offset) {
    }

    private final List<Line> lines;
    private final List<String> leftOut;

    private ResetPlanCsv(List<Line> lines, List<String> leftOut) {
        this.lines = List.copyOf(lines);
        this.leftOut = List.copyOf(leftOut);
    }

    static ResetPlanCsv of(FailoverReport.GroupState group) {
        List<Line> lines = new ArrayList<>();
        List<String> leftOut = new ArrayList<>();
        for (FailoverReport.PartitionState p : group.partitions()) {
            Long offset = resumeOffset(p);
            if (offset == null) {
                leftOut.add(p.topic() + "-" + p.partition() + " (" + p.status() + ")");
            } else {
                lines.add(new Line(p.topic(), p.partition(), offset));
            }
        }
        lines.sort(Comparator.comparing(Line::topic).thenComparingInt(Line::partition));
        return new ResetPlanCsv(lines, leftOut);
    }

    /** Where a consumer resumes on this partition after the failover; null when nothing says. */
    static Long resumeOffset(FailoverReport.PartitionState p) {
        boolean toWrite = p.status() == FailoverReport.PartitionStatus.PENDING
                || p.status() == FailoverReport.PartitionStatus.MISSING;
        return toWrite && p.pendingOffset() != null ? p.pendingOffset() : p.offset();
    }

    List<Line> lines() {
        return lines;
    }

    /** The partitions without a line, as {@code topic-partition (STATUS)}. */
    List<String> leftOut() {
        return leftOut;
    }

    /** The file's content: empty when no partition has an offset. */
    String text() {
        StringBuilder csv = new StringBuilder();
        for (Line line : lines) {
            csv.append(line.topic()).append(',').append(line.partition()).append(',').append(line.offset())
                    .append('\n'); // \n, not the platform's separator: Kafka's tool splits on \n
        }
        return csv.toString();
    }
}
