package dev.sextant.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.sextant.config.HostAndPort;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** One warning, at bind, for an API open to anyone beyond loopback; none when it is protected or local. */
class QueryServerWarningTest {

    private final Logger logger = (Logger) LoggerFactory.getLogger(QueryServer.class);
    private final ListAppender<ILoggingEvent> events = new ListAppender<>();

    @BeforeEach
    void capture() {
        events.start();
        logger.addAppender(events);
    }

    @AfterEach
    void release() {
        logger.detachAppender(events);
    }

    private long warnings(QueryServer.Settings settings) {
        events.list.clear();
        QueryServer.bind(settings).close();
        return events.list.stream().filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN
                && e.getFormattedMessage().contains("open to anyone")).count();
    }

    @Test
    void warnsOnlyForAnOpenApiBeyondLoopback() {
        HostAndPort everywhere = new HostAndPort("0.0.0.0", 0);
        assertEquals(1, warnings(QueryServer.Settings.plain(everywhere)));
        assertEquals(0, warnings(QueryServer.Settings.plain(new HostAndPort("127.0.0.1", 0))));
        assertEquals(0, warnings(new QueryServer.Settings(everywhere, 16, Optional.empty(), "none",
                Optional.of("a-token"), List.of("/health/live"))));
    }
}
