package dev.sextant.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class IncludedNamesTest {

    @Test
    void admitsEachIncludedNameAsOneInstanceAndAsksTheFilterOncePerName() {
        AtomicInteger asked = new AtomicInteger();
        IncludedNames names = new IncludedNames(n -> {
            asked.incrementAndGet();
            return n.startsWith("billing");
        });
        String first = names.admit(new String("billing-1"));
        String again = names.admit(new String("billing-1")); // a record decoded later: a fresh copy
        assertEquals("billing-1", first);
        assertSame(first, again);
        assertNull(names.admit("audit"));
        assertNull(names.admit(new String("audit")));
        assertFalse(names.includes("audit"));
        assertTrue(names.includes("billing-1"));
        assertEquals(2, asked.get());
    }

    @Test
    void churningNamesDoNotGrowItForEver() {
        IncludedNames names = new IncludedNames(n -> n.startsWith("job-"));
        names.admit("job-1");
        names.forget("job-1"); // its group was deleted
        assertEquals(0, names.size());
        for (int i = 0; i < IncludedNames.MAX_NAMES + 10; i++) {
            names.admit("job-run-" + i); // a fresh group id per run, never deleted
        }
        assertTrue(names.size() <= IncludedNames.MAX_NAMES, names.size() + " names held");
        assertTrue(names.includes("job-run-3"), "a name seen again is matched again");
    }

    @Test
    void aStoredNameIsKeptWhenTheFilterNoLongerIncludesIt() {
        IncludedNames names = new IncludedNames(n -> n.startsWith("billing"));
        String stored = new String("billing-1");
        assertSame(stored, names.canonical(stored), "the first instance seen becomes the one");
        assertSame(stored, names.admit(new String("billing-1")));
        assertEquals("audit", names.canonical("audit"));
        assertNull(names.admit("audit"));
    }
}
