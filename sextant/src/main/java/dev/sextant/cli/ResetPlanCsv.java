package dev.sextant.cli;

import dev.sextant.failover.FailoverReport;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Failover positions as the reset plan Kafka's {@code kafka-consumer-groups.sh --reset-offsets --from-file FILE
 * --execute} takes, no header, each line ended by {@code \n}. Kafka's tool (GroupOffsetsResetter.parseResetPlan, Kafka
 * 4.4) splits the file on {@code \n} and reads each line with Jackson's CSV reader: when one {@code --group} is given
 * and the first line reads as {@code topic,partition,offset}, the file is that group's plan ({@link #of}: one group,
 * which the operator may apply to any group name); otherwise every line is {@code group,topic,partition,offset}
 * ({@link #bulk}: many groups, applied with {@code --all-groups} or a {@code --group} per group, or with one). Topic
 * names never hold a comma or a quote; a group name may, and is then quoted as CSV quotes ({@code "a,b"}, a quote
 * doubled). A group name with a line break cannot be on one line: its group is left out, and named.
 *
 * <p>A partition's offset is where a consumer of the group resumes after the failover: the translation a Sextant
 * instance holds and the destination lacks ({@code PENDING}, {@code MISSING}: what {@code failover --apply} writes),
 * else the destination's offset. A partition with neither (no translation, nothing on the destination) has no line:
 * it is in {@link #leftOut()}, never dropped silently.
 */
final class ResetPlanCsv {

    /** One line of the plan; {@code group} null in a one-group plan. */
    record Line(String group, String topic, int partition, long offset) {
    }

    private final List<Line> lines;
    private final List<String> leftOut;

    private ResetPlanCsv(List<Line> lines, List<String> leftOut) {
        this.lines = List.copyOf(lines);
        this.leftOut = List.copyOf(leftOut);
    }

    /** One group's plan, three columns. */
    static ResetPlanCsv of(FailoverReport.GroupState group) {
        List<Line> lines = new ArrayList<>();
        List<String> leftOut = new ArrayList<>();
        add(group, null, lines, leftOut, "");
        lines.sort(Comparator.comparing(Line::topic).thenComparingInt(Line::partition));
        return new ResetPlanCsv(lines, leftOut);
    }

    /** The plan of every group given, four columns, by group, topic and partition. */
    static ResetPlanCsv bulk(List<FailoverReport.GroupState> groups) {
        List<Line> lines = new ArrayList<>();
        List<String> leftOut = new ArrayList<>();
        for (FailoverReport.GroupState group : groups) {
            if (group.group().indexOf('\n') >= 0 || group.group().indexOf('\r') >= 0) {
                leftOut.add(quoted(group.group()) + " (a line break in the name: no CSV line holds it)");
                continue;
            }
            add(group, group.group(), lines, leftOut, group.group() + ": ");
        }
        lines.sort(Comparator.comparing(Line::group).thenComparing(Line::topic).thenComparingInt(Line::partition));
        return new ResetPlanCsv(lines, leftOut);
    }

    private static void add(FailoverReport.GroupState group, String name, List<Line> lines, List<String> leftOut,
                            String prefix) {
        for (FailoverReport.PartitionState p : group.partitions()) {
            Long offset = resumeOffset(p);
            if (offset == null) {
                leftOut.add(prefix + p.topic() + "-" + p.partition() + " (" + p.status() + ")");
            } else {
                lines.add(new Line(name, p.topic(), p.partition(), offset));
            }
        }
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

    /** The partitions (and groups) without a line, as {@code [group: ]topic-partition (STATUS)}. */
    List<String> leftOut() {
        return leftOut;
    }

    /** The file's content: empty when no partition has an offset. */
    String text() {
        StringBuilder csv = new StringBuilder();
        for (Line line : lines) {
            if (line.group() != null) {
                csv.append(field(line.group())).append(',');
            }
            csv.append(line.topic()).append(',').append(line.partition()).append(',').append(line.offset())
                    .append('\n'); // \n, not the platform's separator: Kafka's tool splits on \n
        }
        return csv.toString();
    }

    /** A group name as a CSV field: as it is, or quoted when it holds a comma or a quote. */
    static String field(String value) {
        return value.indexOf(',') >= 0 || value.indexOf('"') >= 0 ? quoted(value) : value;
    }

    private static String quoted(String value) {
        return '"' + value.replace("\"", "\"\"") + '"';
    }
}
