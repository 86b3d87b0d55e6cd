package dev.sextant.source;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.Uuid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link SourceTopicNames} cached over the Admin API: one describeTopics by id per unknown id, never blocking. */
public final class AdminSourceTopicNames implements SourceTopicNames {

    private static final Logger log = LoggerFactory.getLogger(AdminSourceTopicNames.class);

    private final Admin admin;
    private final Map<Uuid, String> names = new ConcurrentHashMap<>();
    private final Set<Uuid> inFlight = ConcurrentHashMap.newKeySet();

    public AdminSourceTopicNames(Map<String, Object> clientConfig) {
        this.admin = Admin.create(clientConfig);
    }

    @Override
    public Optional<String> name(Uuid topicId) {
        String name = names.get(topicId);
        if (name == null && inFlight.add(topicId)) {
            admin.describeTopics(TopicCollection.ofTopicIds(Set.of(topicId))).allTopicIds().toCompletionStage()
                    .whenComplete((descriptions, err) -> {
                        inFlight.remove(topicId);
                        if (descriptions != null) {
                            descriptions.forEach((id, d) -> names.put(id, d.name()));
                        } else {
                            log.debug("Cannot name source topic id {} yet: {}", topicId, err.toString());
                        }
                    });
        }
        return Optional.ofNullable(name);
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
