package dev.sextant.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import org.slf4j.LoggerFactory;

/**
 * What is logged with an exception, on any thread, while it records: a stop must log none. Attached to the root
 * logger, so it sees what the configured levels let through (logback-test.xml: Kafka at WARN, Sextant at INFO).
 */
public final class LoggedExceptions implements AutoCloseable {

    private final Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
    private final ConcurrentLinkedQueue<ILoggingEvent> events = new ConcurrentLinkedQueue<>();
    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
            if (event.getThrowableProxy() != null) {
                events.add(event);
            }
        }
    };

    private LoggedExceptions() {
        appender.setName("logged-exceptions");
        appender.setContext(root.getLoggerContext());
        appender.start();
        root.addAppender(appender);
    }

    /** Starts recording. */
    public static LoggedExceptions record() {
        return new LoggedExceptions();
    }

    /** Every event with an exception, each described on one line (empty: none). */
    public List<String> all() {
        return atLeast(Level.ALL);
    }

    /** Events with an exception at {@code level} or above, each described on one line (empty: none). */
    public List<String> atLeast(Level level) {
        return events.stream().filter(e -> e.getLevel().isGreaterOrEqual(level))
                .map(LoggedExceptions::describe).toList();
    }

    /**
     * Events with an exception at {@code level} or above that a stop can cause: logged by Sextant's own code, or
     * carrying a {@code ConcurrentModificationException} (a Kafka client closed from two threads), each on one line.
     * Kafka clients' complaints about the clusters (a topic absent from the destination, asked for by a running task)
     * are not the stop's: they come whenever the task asks, during the stop or not.
     */
    public List<String> fromStop(Level level) {
        return events.stream().filter(e -> e.getLevel().isGreaterOrEqual(level))
                .filter(e -> e.getLoggerName().startsWith("dev.sextant.") || concurrentUse(e))
                .map(LoggedExceptions::describe).toList();
    }

    private static boolean concurrentUse(ILoggingEvent event) {
        for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
            if (t.getClassName().equals("java.util.ConcurrentModificationException")) {
                return true;
            }
        }
        return false;
    }

    private static String describe(ILoggingEvent event) {
        StringBuilder causes = new StringBuilder();
        for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
            causes.append(causes.isEmpty() ? "" : " <- ").append(t.getClassName()).append(": ").append(t.getMessage());
        }
        return event.getLevel() + " [" + event.getThreadName() + "] " + event.getLoggerName() + " - "
                + event.getFormattedMessage() + " (" + causes + ")";
    }

    /** Stops recording. */
    @Override
    public void close() {
        root.detachAppender(appender);
        appender.stop();
    }

    /** For a failure message: the events, one a line. */
    public static String lines(List<String> events) {
        return events.stream().collect(Collectors.joining("\n  ", "\n  ", ""));
    }
}
