package dev.sextant.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sextant.apply.WriteConcurrencyLimit.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.CoordinatorLoadInProgressException;
import org.apache.kafka.common.errors.DisconnectException;
import org.apache.kafka.common.errors.FencedMemberEpochException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.junit.jupiter.api.Test;

class AdminDestinationClientTest {

    @Test
    void timeoutsAndDisconnectsAreCongestion() {
        assertEquals(Outcome.CONGESTED, AdminDestinationClient.loadSignal(new TimeoutException("timed out")));
        assertEquals(Outcome.CONGESTED, AdminDestinationClient.loadSignal(
                new CompletionException(new TimeoutException("timed out"))));
        assertEquals(Outcome.CONGESTED, AdminDestinationClient.loadSignal(new DisconnectException("gone")));
        assertEquals(Outcome.CONGESTED, AdminDestinationClient.loadSignal(
                new CoordinatorLoadInProgressException("loading")));
    }

    @Test
    void refusalsAboutTheGroupOrItsPartitionsAreNot() {
        for (Throwable refusal : new Throwable[] {
                new UnknownMemberIdException("active"), new GroupNotEmptyException("active"),
                new RebalanceInProgressException("active"), new FencedMemberEpochException("active"),
                new GroupIdNotFoundException("a share group"), new GroupAuthorizationException("no ACL"),
                new TopicAuthorizationException("no ACL"), new UnknownTopicOrPartitionException("not mirrored"),
                new UnsupportedVersionException("old broker"), new IllegalStateException("closed")}) {
            assertEquals(Outcome.NEUTRAL, AdminDestinationClient.loadSignal(refusal), refusal.toString());
        }
    }

    @Test
    void writesPastTheLimitWaitAndClosingCompletesEveryOne() throws Exception {
        // a destination that never answers: nothing listens on port 1
        AdminDestinationClient client = new AdminDestinationClient(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1",
                AdminClientConfig.CLIENT_ID_CONFIG, "sextant-test"), 16);
        List<CompletableFuture<Map<TopicPartition, Throwable>>> writes = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            writes.add(client.alterConsumerGroupOffsets("group-" + i,
                    Map.of(new TopicPartition("orders", 0), new OffsetAndMetadata(i)), WriteLease.ALWAYS));
        }
        assertEquals(4, client.writeLimit());
        assertEquals(4, client.writesInFlight());
        assertEquals(6, client.writesQueued());

        long start = System.nanoTime();
        client.close();
        long tookMs = (System.nanoTime() - start) / 1_000_000;

        // the writers close at once, each within 5 s: not one after the other
        assertTrue(tookMs < 10_000, "closed in " + tookMs + " ms");
        for (int i = 4; i < writes.size(); i++) {
            assertTrue(writes.get(i).isCompletedExceptionally(), "queued write " + i + " failed at close");
            Throwable err = writes.get(i).handle((ok, e) -> e).join();
            assertInstanceOf(IllegalStateException.class, KafkaFutures.unwrap(err), err.toString());
        }
        // those in flight fail as their Admin client's thread gives up its calls, which may end just after close
        for (int i = 0; i < 4; i++) {
            Throwable err = writes.get(i).handle((ok, e) -> e).get(10, TimeUnit.SECONDS);
            assertTrue(err != null, "write " + i + " failed");
        }
        assertEquals(0, client.writesQueued());
        assertEquals(0, client.writesInFlight());
    }
}
