package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.domain.LogRange;
import dev.sextant.state.PositionKey;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Properties of the mark parser, over generated input: it reads what anyone who may commit on the destination can
 * write, so it must answer for any text, never throw, and never take for Sextant's an offset whose metadata does not
 * read whole as Sextant's mark. Each property runs over thousands of cases drawn from fixed seeds (a failure names its
 * seed and case, and runs the same again): text near the mark's grammar (fields, digits past a long, separators,
 * repetitions up to 5,000 characters) as well as arbitrary characters and bytes.
 */
class OffsetOwnershipPropertiesTest {

    private static final String PREFIX = "sextant/sextant-prod";
    private static final int CASES = 2_000;
    private static final String[] PIECES = {" ", "t=", "o=", "b=", "src=", "c=", "=", "-", "0", "1", "9",
        "9223372036854775807", "9223372036854775808", "99999999999999999999", "Pn9CcvFKT9O489YwTgXn8A", "sextant/",
        "\u0000", "\uFFFF", "é", "\n", "x"};

    private final OffsetOwnership ownership = new OffsetOwnership("sextant-prod", "Pn9CcvFKT9O489YwTgXn8A");

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void textNearTheMarksGrammarIsOwnedExactlyWhenItReadsAsAMark(long seed) {
        forEachCase(seed, random -> PREFIX + " " + grammarLike(random), metadata -> {
            Optional<OffsetOwnership.Mark> mark = ownership.mark(metadata);
            assertEquals(mark.isPresent(), ownership.owns(metadata));
            ownership.otherSource(metadata); // reads the mark as well: it must answer too
        });
    }

    @ParameterizedTest
    @ValueSource(longs = {4, 5})
    void anyCharactersOrBytesAreAnsweredWithoutThrowing(long seed) {
        forEachCase(seed, random -> random.nextBoolean() ? PREFIX + " " + anyText(random) : anyBytesAsText(random),
                metadata -> assertEquals(ownership.mark(metadata).isPresent() || metadata.equals(PREFIX),
                        ownership.owns(metadata)));
    }

    @ParameterizedTest
    @ValueSource(longs = {6, 7})
    void everyMarkSextantWritesReadsBackAsWritten(long seed) {
        Random random = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            long sourceOffset = random.nextLong() & Long.MAX_VALUE;
            long commitTimestamp = random.nextLong() & Long.MAX_VALUE;
            long bound = random.nextInt(3) == 0 ? -1 : random.nextLong() & Long.MAX_VALUE;
            long logOffset = random.nextInt(3) == 0 ? -1 : random.nextLong() & Long.MAX_VALUE;
            PlannedPartition part = new TranslatedPosition(new PositionKey("g", "orders", 0),
                    new TopicPartition("source.orders", 0), sourceOffset, commitTimestamp, logOffset, 7, bound, -1,
                    -1).within(LogRange.UNKNOWN);
            String metadata = ownership.metadataFor(part);
            Optional<OffsetOwnership.Mark> mark = ownership.mark(metadata);
            assertTrue(mark.isPresent(), "seed " + seed + ": " + metadata);
            assertTrue(ownership.owns(metadata), metadata);
            assertEquals(new OffsetOwnership.Mark(commitTimestamp, sourceOffset, bound, logOffset,
                    "Pn9CcvFKT9O489YwTgXn8A"), mark.get(), metadata);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {8})
    void aFieldPastALongIsNeverAMark(long seed) {
        Random random = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            StringBuilder digits = new StringBuilder("9");
            int length = 20 + random.nextInt(60); // 20 digits or more: past Long.MAX_VALUE
            while (digits.length() < length) {
                digits.append(random.nextInt(10));
            }
            String field = new String[] {"t", "o", "b"}[random.nextInt(3)];
            for (String metadata : new String[] {PREFIX + " " + field + "=" + digits + " src=5",
                PREFIX + " t=1 src=" + digits}) {
                assertFalse(ownership.owns(metadata), "seed " + seed + ": " + metadata);
                assertEquals(Optional.empty(), ownership.mark(metadata), metadata);
            }
        }
    }

    /** Runs {@code property} on {@link #CASES} generated inputs; a failure names the seed, the case and the input. */
    private static void forEachCase(long seed, Function<Random, String> generate,
                                    Consumer<String> property) {
        Random random = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            String metadata = generate.apply(random);
            try {
                property.accept(metadata);
            } catch (RuntimeException | AssertionError e) {
                throw new AssertionError("seed " + seed + ", case " + i + ": '" + metadata + "'", e);
            }
        }
    }

    /** Pieces of the grammar in any order, at times long runs of one piece (up to about 5,000 characters). */
    private static String grammarLike(Random random) {
        StringBuilder text = new StringBuilder();
        int pieces = random.nextInt(12);
        for (int p = 0; p < pieces; p++) {
            String piece = PIECES[random.nextInt(PIECES.length)];
            text.append(random.nextInt(20) == 0 ? piece.repeat(1 + random.nextInt(1_000)) : piece);
        }
        return text.toString();
    }

    private static String anyText(Random random) {
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(10) == 0 ? random.nextInt(5_000) : random.nextInt(80);
        for (int c = 0; c < length; c++) {
            text.append((char) random.nextInt(Character.MAX_VALUE + 1));
        }
        return text.toString();
    }

    private static String anyBytesAsText(Random random) {
        byte[] bytes = new byte[random.nextInt(300)];
        random.nextBytes(bytes);
        return (random.nextBoolean() ? PREFIX + " " : "") + new String(bytes, StandardCharsets.UTF_8);
    }
}
