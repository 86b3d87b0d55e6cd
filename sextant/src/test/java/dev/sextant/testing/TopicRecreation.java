package dev.sextant.testing;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/** Creating a topic again right after deleting it, for the ITs that recreate one (poll it with a deadline). */
public final class TopicRecreation {

    private TopicRecreation() {
    }

    /** Creates {@code topic} with one partition; false while the broker is still deleting its previous incarnation. */
    public static boolean tryCreate(Admin admin, String topic) {
        try {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(10, TimeUnit.SECONDS);
            return true;
        } catch (ExecutionException e) {
            return false; // the deletion is still under way
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
