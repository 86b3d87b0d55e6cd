package dev.sextant.failover;

import dev.sextant.apply.DestinationGroup;
import dev.sextant.apply.DestinationSession;
import dev.sextant.apply.GroupGuard;
import dev.sextant.apply.GroupOutcome;
import dev.sextant.apply.TranslatedPosition;
import dev.sextant.command.CommandContext;
import dev.sextant.config.SextantConfig;
import dev.sextant.config.Translation;
import dev.sextant.domain.GroupKind;
import dev.sextant.domain.Reason;
import dev.sextant.source.SourceSession;
import dev.sextant.state.CutoverRecord;
import dev.sextant.state.InMemorySyncHistory;
import dev.sextant.state.MirrorMatch;
import dev.sextant.state.PositionKey;
import dev.sextant.state.PositionStatus;
import dev.sextant.translate.IdentityTranslator;
import dev.sextant.translate.OffsetSyncTranslator;
import dev.sextant.translate.OffsetTranslation;
import dev.sextant.translate.OffsetTranslator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * A manual failover of one consumer group while the sync is stopped: its committed offsets on the source, translated
 * with the offset-sync history Sextant kept on the source (or one to one with {@code translation=identity}), and
 * optionally written to the destination through the sync's own guards.
 *
 * <pre>
 *   plan:  source committed offsets ──▶ translate (history topic replayed in memory) ──▶ rows
 *   apply: DestinationSession: topics there? type? active? ──▶ within each log ──▶ the sync's applier (diverged?
 *          rewind?) ──▶ alterConsumerGroupOffsets
 * </pre>
 *
 * <p>Invariant: nothing is written unless every partition translates and exists on the destination, the group is a
 * consumer group there or absent, has no members there, and its destination offsets are Sextant's own or absent; and
 * nothing translates through a history that describes another destination cluster ({@code DESTINATION_CHANGED}) or
 * another mirror topic than the destination's ({@code MIRROR_RESEEDED}, {@link HistoryMirrors}): the checks the
 * running sync makes, which nothing makes while it is stopped.
 */
public final class ManualFailover {

    private final CommandContext context;
    private final SextantConfig config;

    /** Reads, translates (with the interval evidence the running sync has) and writes through {@code context}. */
    public ManualFailover(CommandContext context) {
        this.context = context;
        this.config = context.config();
    }

    /**
     * One partition of the group.
     *
     * @param destinationOffset null when nothing translates the source offset ({@code problem} says why)
     * @param refusal           with a problem, its reason: {@code UNTRANSLATABLE} (no sync), {@code MIRROR_RESEEDED}
     *                          (the history describes another mirror than the destination's); null without one
     */
    public record Row(String topic, int partition, long sourceOffset, String destinationTopic, Long destinationOffset,
                      String precision, Long bound, String problem, Reason refusal) {

        TopicPartition destination() {
            return new TopicPartition(destinationTopic, partition);
        }
    }

    /**
     * The translated positions of a group.
     *
     * @param groupType     {@code consumer}, or {@code streams} for a Kafka Streams group (KIP-1071) on the source
     * @param sourceCluster the source cluster's id, named in the marks written; null when it could not be read
     * @param historySize   syncs in the rebuilt history (0 with identity translation)
     * @param warnings      things the operator should know (members still on the source, topics filtered out)
     * @param pinned        the destination cluster the history describes (pinned by the running sync); null when it
     *                      pins none (identity translation, or no instance ran)
     * @param unchecked     why the mirror topics could not be checked against the history (the destination did not
     *                      answer), which {@link #apply} refuses; null when they were, or need not be
     */
    public record Plan(String group, String groupType, String sourceCluster, String translation, long historySize,
                       List<Row> rows, List<String> warnings, String pinned, String unchecked) {

        public boolean complete() {
            return rows.stream().allMatch(r -> r.problem() == null);
        }
    }

    public enum Status { APPLIED, REFUSED, FAILED }

    /**
     * @param reason   the guard that refused, or null
     * @param statuses per destination partition, what the apply did (empty when nothing was attempted)
     */
    public record Result(Status status, Reason reason, String message, Map<TopicPartition, PositionStatus> statuses) {
    }

    /**
     * Reads the group's committed offsets on the source and translates them.
     *
     * @throws IllegalStateException when the source cannot be read or the group has no committed offsets there
     */
    public Plan plan(String group) {
        List<String> warnings = new ArrayList<>();
        SourceGroup source = sourceGroup(group, warnings);
        Map<TopicPartition, OffsetAndMetadata> committed = source.offsets();
        boolean identity = config.translation() == Translation.IDENTITY;
        OffsetTranslator translator;
        long historySize = 0;
        String pinned = null;
        Map<String, MirrorMatch.Result> mirrors = Map.of();
        String unchecked = null;
        if (identity) {
            translator = new IdentityTranslator();
        } else {
            InMemorySyncHistory history = context.loadHistory(context.timeout().multipliedBy(2));
            translator = new OffsetSyncTranslator(history, context.intervalEvidence());
            historySize = history.size();
            pinned = history.destinationCluster().orElse(null);
            Set<String> topics = new TreeSet<>();
            committed.keySet().stream().filter(tp -> config.includesTopic(tp.topic())).forEach(tp -> topics.add(
                    tp.topic()));
            try {
                mirrors = mirrors(history, topics, pinned, warnings);
            } catch (IllegalStateException e) {
                unchecked = "cannot read the mirror topics on the destination to check that the offset-sync history "
                        + "still describes them: " + e.getMessage();
                warnings.add(unchecked + "; --apply writes nothing until they can be read");
            }
        }
        Map<String, MirrorMatch.Result> judged = mirrors;
        List<Row> rows = new ArrayList<>();
        committed.entrySet().stream()
                .sorted(Comparator.comparing((Map.Entry<TopicPartition, OffsetAndMetadata> e) -> e.getKey().topic())
                        .thenComparingInt(e -> e.getKey().partition()))
                .forEach(e -> {
                    TopicPartition tp = e.getKey();
                    if (!config.includesTopic(tp.topic())) {
                        warnings.add("skipped " + tp + ": topic excluded by topics.include/topics.exclude");
                        return;
                    }
                    long offset = e.getValue().offset();
                    String destinationTopic = mirrorOf(tp.topic());
                    MirrorMatch.Result mirror = judged.get(tp.topic());
                    if (mirror != null && mirror.verdict() == MirrorMatch.Verdict.RESEEDED) {
                        rows.add(new Row(tp.topic(), tp.partition(), offset, destinationTopic, null, null, null,
                                mirror.reason() + "; nothing translates through it (the sync forgets it: "
                                + "MIRROR_RESEEDED, and writes the group again through the new mirror's offset syncs "
                                + "once Sextant runs and MirrorMaker 2 emits them)", Reason.MIRROR_RESEEDED));
                        return;
                    }
                    Optional<OffsetTranslation> t = translator.translate(tp.topic(), tp.partition(), offset);
                    rows.add(t.map(x -> new Row(tp.topic(), tp.partition(), offset, destinationTopic,
                                    x.destinationOffset(), x.precision().label(), x.bound(), null, null))
                            .orElseGet(() -> new Row(tp.topic(), tp.partition(), offset, destinationTopic, null, null,
                                    null, "no offset sync at or below " + offset + " in Sextant's history",
                                    Reason.UNTRANSLATABLE)));
                });
        judged.values().stream().filter(r -> r.verdict() == MirrorMatch.Verdict.UNPROVEN).forEach(r -> warnings.add(
                r.reason() + ": translated through it all the same, as the running sync does once it cannot prove "
                + "it; if the mirror was deleted and mirrored again since, these offsets point into a gone log"));
        return new Plan(group, source.type(), source.cluster(), config.translation().configValue(), historySize, rows,
                warnings, pinned, unchecked);
    }

    private String mirrorOf(String topic) {
        return config.replicationPolicy().formatRemoteTopic(config.sourceAlias(), topic);
    }

    /**
     * Whether the history describes the mirrors of {@code topics} as the destination holds them now, as the sync
     * checks it ({@link HistoryMirrors}); none judged on a destination that is not the cluster the history pins
     * (said as a warning: {@link #apply} refuses it whole).
     *
     * @throws IllegalStateException when the destination cannot be read
     */
    private Map<String, MirrorMatch.Result> mirrors(InMemorySyncHistory history, Set<String> topics, String pinned,
                                                    List<String> warnings) {
        if (pinned != null) {
            String there = context.destinationClusterId();
            if (!there.equals(pinned)) {
                warnings.add("the destination is cluster " + there + ", not the cluster " + pinned + " the "
                        + "offset-sync history describes: --apply refuses it (DESTINATION_CHANGED)");
                return Map.of();
            }
        }
        UnaryOperator<String> mirrorOf = this::mirrorOf;
        return HistoryMirrors.judge(history, topics, context.destination(null, false), mirrorOf,
                context.intervalEvidence());
    }

    /** The group as the source holds it: its committed offsets, its type, and the cluster's id (null: unknown). */
    private record SourceGroup(Map<TopicPartition, OffsetAndMetadata> offsets, String type, String cluster) {
    }

    private SourceGroup sourceGroup(String group, List<String> warnings) {
        SourceSession.CommittedGroup committed = context.source().committed(group);
        if (committed.members() > 0) {
            warnings.add("group '" + group + "' still has " + committed.members() + " member(s) on the source (state "
                    + committed.state() + "): its offsets may move after this translation; stop its consumers there "
                    + "first");
        }
        return new SourceGroup(committed.offsets(), committed.streams() ? "streams" : "consumer",
                context.source().clusterId());
    }

    /**
     * Writes a complete plan to the destination through the sync's guards, each offset inside its destination
     * partition's log as read now (with {@code translation=identity} a lagging mirror is written at its end).
     */
    public Result apply(Plan plan) {
        Result changed = destinationChanged(plan); // first: on another cluster, every other verdict is beside the point
        if (changed != null) {
            return changed;
        }
        if (!plan.complete()) {
            boolean reseeded = plan.rows().stream().anyMatch(r -> r.refusal() == Reason.MIRROR_RESEEDED);
            return new Result(Status.REFUSED, reseeded ? Reason.MIRROR_RESEEDED : Reason.UNTRANSLATABLE,
                    "not every partition translates (" + String.join("; ", plan.rows().stream()
                    .filter(r -> r.problem() != null).map(r -> r.topic() + "-" + r.partition() + ": " + r.problem())
                    .toList()) + "); nothing written", Map.of());
        }
        if (plan.rows().isEmpty()) {
            return new Result(Status.REFUSED, null, "no partition to write; nothing written", Map.of());
        }
        if (plan.unchecked() != null) {
            return new Result(Status.FAILED, null, plan.unchecked() + "; nothing written", Map.of());
        }
        Result cutOver = cutOver(plan.group());
        if (cutOver != null) {
            return cutOver;
        }
        try (DestinationSession destination = context.destination(plan.sourceCluster(), false)) {
            Result refused = guard(destination, plan);
            return refused != null ? refused : write(destination, plan);
        } catch (IllegalStateException e) {
            return new Result(Status.FAILED, null, "cannot read the destination's groups and topics: "
                    + e.getMessage(), Map.of());
        }
    }

    /**
     * The refusal of a group cut over to the destination ({@code sextant cutover}), as the sync refuses it: its
     * consumers run there, and nothing moves it from the source; null when it is not cut over.
     */
    private Result cutOver(String group) {
        CutoverRecord cut;
        try {
            cut = context.cutovers().readIfAny().get(group);
        } catch (IllegalStateException e) {
            return new Result(Status.FAILED, null, "cannot read which groups are cut over (Sextant's cutovers topic on "
                    + "the source): " + e.getMessage() + "; nothing written", Map.of());
        }
        return cut == null ? null : new Result(Status.REFUSED, Reason.CUT_OVER, "group '" + group + "' was cut over "
                + "to the destination at " + Instant.ofEpochMilli(cut.cutAt()) + " ('sextant cutover'): its "
                + "consumers run there and nothing moves it from the source; 'sextant cutover --group " + group
                + " --undo --apply' gives it back first; nothing written", Map.of());
    }

    /**
     * The refusal of a destination that is not the cluster the history describes, as the sync refuses it (a cluster
     * rebuilt at the same address, or another one behind the same name): the history's offsets are of mirrors on the
     * pinned cluster and mean nothing on this one; null when it is that cluster, or the history pins none.
     */
    private Result destinationChanged(Plan plan) {
        if (plan.pinned() == null) {
            return null;
        }
        String there;
        try {
            there = context.destinationClusterId();
        } catch (IllegalStateException e) {
            return new Result(Status.FAILED, null, e.getMessage() + "; nothing written", Map.of());
        }
        return there.equals(plan.pinned()) ? null : new Result(Status.REFUSED, Reason.DESTINATION_CHANGED,
                "the destination is cluster " + there + ", not the cluster " + plan.pinned() + " the offset-sync "
                + "history describes (rebuilt, or another cluster behind destination.bootstrap.servers): its "
                + "translations are of mirrors there; once MirrorMaker 2 mirrors to this one, accept it with "
                + "'sextant rebaseline --apply'; nothing written", Map.of());
    }

    /** Why the destination refuses the whole plan before anything is written (topics, type, members); or null. */
    private static Result guard(DestinationSession destination, Plan plan) {
        Set<TopicPartition> partitions = new LinkedHashSet<>();
        plan.rows().forEach(r -> partitions.add(r.destination()));
        Set<TopicPartition> present = destination.logRanges(partitions).keySet();
        List<String> absent = partitions.stream().filter(tp -> !present.contains(tp)).map(TopicPartition::toString)
                .toList();
        if (!absent.isEmpty()) {
            return new Result(Status.REFUSED, Reason.TOPIC_NOT_MIRRORED, "not on the destination (not mirrored "
                    + "yet?): " + String.join(", ", absent) + "; nothing written", Map.of());
        }
        DestinationGroup there = destination.groups().get(plan.group());
        GroupGuard guard = GroupGuard.judge(Optional.ofNullable(there), GroupKind.CONSUMER);
        if (guard == GroupGuard.TYPE_CONFLICT) {
            return new Result(Status.REFUSED, Reason.TYPE_CONFLICT, "group '" + plan.group() + "' exists on the "
                    + "destination as a " + there.typeLabel() + " group; a consumer group is never written over "
                    + "another type; nothing written", Map.of());
        }
        if (guard == GroupGuard.GROUP_ACTIVE) {
            return refusedActive(plan.group(), there.state(), Map.of());
        }
        return null;
    }

    private Result write(DestinationSession destination, Plan plan) {
        List<TranslatedPosition> translations = new ArrayList<>();
        long readAt = System.currentTimeMillis();
        Map<PositionKey, TopicPartition> byKey = new LinkedHashMap<>();
        for (Row row : plan.rows()) {
            PositionKey key = new PositionKey(plan.group(), row.topic(), row.partition());
            // the source's committed offsets as read now: newer than any commit the sync carried before it stopped
            translations.add(TranslatedPosition.of(key, row.destination(), row.sourceOffset(), readAt,
                    row.destinationOffset(), row.bound() == null ? -1 : row.bound()));
            byKey.put(key, row.destination());
        }
        GroupOutcome outcome = destination.write(destination.plan(Map.of(plan.group(), translations)), Map.of())
                .get(plan.group());
        if (outcome == null) {
            return new Result(Status.FAILED, null, "the destination did not confirm the write within "
                    + context.timeout().toSeconds() + " s", Map.of());
        }
        Map<TopicPartition, PositionStatus> statuses = new LinkedHashMap<>();
        outcome.partitions().forEach((key, result) -> statuses.put(byKey.get(key), result.status()));
        return result(plan, outcome, statuses);
    }

    /** What the destination's answer to the write means for the group's failover. */
    private static Result result(Plan plan, GroupOutcome outcome, Map<TopicPartition, PositionStatus> statuses) {
        if (outcome.retry()) {
            return new Result(Status.FAILED, null, "the destination could not be written: " + outcome.detail(),
                    statuses);
        }
        if (outcome.reason() == Reason.GROUP_ACTIVE) {
            return refusedActive(plan.group(), "joined while writing: " + outcome.detail(), statuses);
        }
        if (outcome.reason() == Reason.DESTINATION_DIVERGED) {
            return new Result(Status.REFUSED, Reason.DESTINATION_DIVERGED, "group '" + plan.group()
                    + "' has offsets on the destination that Sextant did not write (" + outcome.detail()
                    + "): it already runs there, or another tool moved it; nothing written", statuses);
        }
        if (outcome.reason() != null) {
            return new Result(Status.REFUSED, outcome.reason(), outcome.detail() + "; nothing written", statuses);
        }
        List<String> failed = new ArrayList<>();
        statuses.forEach((tp, status) -> {
            if (status != PositionStatus.APPLIED && status != PositionStatus.REWIND_SKIPPED) {
                failed.add(tp + " " + status);
            }
        });
        if (!failed.isEmpty() || statuses.size() != plan.rows().size()) {
            return new Result(Status.FAILED, null, "not every partition was written: " + String.join(", ", failed),
                    statuses);
        }
        boolean skipped = statuses.containsValue(PositionStatus.REWIND_SKIPPED);
        return new Result(Status.APPLIED, null, "written to the destination" + (skipped
                ? " (partitions marked REWIND_SKIPPED keep their higher destination offset: sync.rewind=never)" : ""),
                statuses);
    }

    private static Result refusedActive(String group, String state, Map<TopicPartition, PositionStatus> statuses) {
        return new Result(Status.REFUSED, Reason.GROUP_ACTIVE, "group '" + group + "' is active on the destination ("
                + state + "): it has members there, and Sextant never makes a group double-active; stop its "
                + "consumers on the destination first; nothing written", statuses);
    }
}
