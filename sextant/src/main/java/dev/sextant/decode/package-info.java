/**
 * Decoders for the three input topics Sextant reads on the source cluster, and the immutable model they produce.
 *
 * <ul>
 *   <li>{@link dev.sextant.decode.ConsumerOffsetsDecoder}: {@code __consumer_offsets} to
 *       {@link dev.sextant.decode.ConsumerOffsetsRecord};</li>
 *   <li>{@link dev.sextant.decode.ShareStateDecoder}: {@code __share_group_state} to
 *       {@link dev.sextant.decode.ShareStateRecord};</li>
 *   <li>{@link dev.sextant.decode.OffsetSyncDecoder}: MirrorMaker 2's {@code mm2-offset-syncs.<alias>.internal} to
 *       {@link dev.sextant.decode.OffsetSync}.</li>
 * </ul>
 *
 * <p>The two coordinator topics are read with Kafka's own generated record classes
 * ({@code org.apache.kafka.coordinator.group.generated}, {@code org.apache.kafka.coordinator.share.generated}),
 * which need nothing but kafka-clients. The serdes around them ({@code CoordinatorRecordSerde}) live in
 * kafka-coordinator-common / kafka-server-common, which are deliberately not on the classpath, so the 2-byte
 * type and version prefixes are read here. Which versions are readable comes from Kafka's
 * {@code CoordinatorRecordType} enums, so a Kafka upgrade that adds a value version is picked up without code
 * changes here, and a record newer than the jars is reported instead of being mis-read.
 *
 * <p>{@link dev.sextant.decode.OffsetCommitBytes} writes an offset commit the way the coordinator does, for the
 * commits {@code source.offsets.read=admin} reads through the Admin API: they are then decoded like the log's.
 *
 * <p>Every decoder either returns a non-null record or throws {@link dev.sextant.decode.UndecodableRecordException};
 * no other exception escapes, whatever the bytes. All classes are stateless and thread-safe.
 */
package dev.sextant.decode;
