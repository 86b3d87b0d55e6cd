package dev.sextant.testkit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JVM shutdown hook that closes every local cluster component still running when the JVM exits (a test run
 * that ends without closing, Ctrl-C in the demo).
 *
 * <p>Invariants:
 * <ul>
 *   <li>Components are closed in reverse order of registration, one after the other: MirrorMaker is started after
 *       its brokers, so it is stopped before them (stopped after them it hangs ~25 s).</li>
 *   <li>A component unregisters itself when closed normally, so the hook never closes anything twice and holds no
 *       reference to closed components.</li>
 * </ul>
 * A single hook is used because the JVM runs separate hooks concurrently and in no defined order.
 */
public final class ShutdownRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(ShutdownRegistry.class);
    private static final Deque<AutoCloseable> LIVE = new ArrayDeque<>();
    private static boolean hookInstalled;

    private ShutdownRegistry() {
    }

    /** Closes {@code component} at JVM exit unless it was unregistered; later registrations close first. */
    public static synchronized void register(AutoCloseable component) {
        if (!hookInstalled) {
            Runtime.getRuntime().addShutdownHook(new Thread(ShutdownRegistry::closeAll, "sextant-local-shutdown"));
            hookInstalled = true;
        }
        LIVE.push(component);
    }

    public static synchronized void unregister(AutoCloseable component) {
        LIVE.removeIf(c -> c == component);
    }

    private static void closeAll() {
        List<AutoCloseable> toClose;
        synchronized (ShutdownRegistry.class) {
            toClose = new ArrayList<>(LIVE); // push() made this newest-first
        }
        for (AutoCloseable component : toClose) {
            synchronized (ShutdownRegistry.class) {
                if (LIVE.stream().noneMatch(c -> c == component)) {
                    continue; // already closed by a component closed before it (e.g. LocalClusters)
                }
            }
            try {
                LOG.info("JVM exit: closing {}", component);
                component.close();
            } catch (Exception e) {
                LOG.warn("JVM exit: closing {} failed", component, e);
            }
        }
    }
}
