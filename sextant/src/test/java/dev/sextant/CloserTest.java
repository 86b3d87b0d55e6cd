package dev.sextant;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CloserTest {

    @Test
    void aThrowingCloseDoesNotStopTheOthersAndTheFirstFailureCarriesTheRest() {
        List<String> closed = new ArrayList<>();
        IllegalStateException first = new IllegalStateException("query server");
        IllegalArgumentException second = new IllegalArgumentException("source reader");
        Closer closer = new Closer();
        closer.close(() -> {
            closed.add("query server");
            throw first;
        });
        closer.close(() -> closed.add("streams"));
        closer.close(() -> {
            closed.add("source reader");
            throw second;
        });
        closer.close(() -> closed.add("destination"));

        assertEquals(List.of("query server", "streams", "source reader", "destination"), closed);
        assertSame(first, assertThrows(IllegalStateException.class, closer::rethrow));
        assertArrayEquals(new Throwable[] {second}, first.getSuppressed());
    }

    @Test
    void nothingIsThrownWhenEveryCloseEndsNormally() {
        Closer closer = new Closer();
        closer.close(() -> { });
        assertDoesNotThrow(closer::rethrow);
    }

    @Test
    void theSameFailureTwiceIsNotSuppressedInItself() {
        IllegalStateException shared = new IllegalStateException("closed twice");
        Closer closer = new Closer();
        closer.close(() -> {
            throw shared;
        });
        closer.close(() -> {
            throw shared;
        });
        assertSame(shared, assertThrows(IllegalStateException.class, closer::rethrow));
        assertEquals(0, shared.getSuppressed().length);
    }
}
