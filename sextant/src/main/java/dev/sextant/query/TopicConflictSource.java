package dev.sextant.query;

import dev.sextant.deadletter.DeadLetterReader;
import dev.sextant.deadletter.DeadLetterRecord;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/** Reads the dead-letter topic on the source cluster for each request (it is small: one record per change). */
public final class TopicConflictSource implements ConflictSource {

    private final Map<String, Object> clientConfig;
    private final String topic;

    public TopicConflictSource(Map<String, Object> clientConfig, String topic) {
        this.clientConfig = clientConfig;
        this.topic = topic;
    }

    @Override
    public List<DeadLetterRecord> recent(String group, int limit) {
        try (DeadLetterReader reader = new DeadLetterReader(clientConfig, topic)) {
            Deque<DeadLetterRecord> recent = new ArrayDeque<>();
            for (DeadLetterRecord record : reader.readToEnd(Duration.ofSeconds(10))) {
                if (group == null || group.equals(record.group())) {
                    recent.addLast(record);
                    if (recent.size() > limit) {
                        recent.removeFirst();
                    }
                }
            }
            return List.copyOf(recent);
        } catch (RuntimeException e) {
            throw QueryException.unavailable("cannot read the dead-letter topic " + topic + " (" + e.getMessage()
                    + "); retry", e);
        }
    }
}
