package dev.sextant.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Secured clusters of their own (not the shared plain ones): the source on SASL_SSL with SCRAM-SHA-512, the
 * destination on SSL with client certificates, both denying what no ACL allows, and MirrorMaker 2 mirroring between
 * them as the admin. Checks that the admin's config works for every helper (and for transactions), that a principal
 * without ACLs is refused until it is granted Read and Describe, and that a wrong password or a certificate of
 * another CA does not get in.
 */
class SecureClustersIT {

    private static final Logger LOG = LoggerFactory.getLogger(SecureClustersIT.class);
    private static final String TOPIC = "secure-orders";
    private static final int PARTITIONS = 3;
    private static final int PER_PARTITION = 20;
    private static final String USER = "sextant";
    private static final String PASSWORD = "sextant-secret";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private static LocalClusters clusters;

    @BeforeAll
    static void startSecuredClusters() {
        clusters = LocalClusters.builder()
                .secured()
                .scramUser(USER, PASSWORD)
                .mirrorMaker(LocalMirrorMaker.Options.builder().topics(TOPIC).build())
                .start();
        LOG.info("Secured clusters with MirrorMaker ready in {} ms:\n{}", clusters.startupTime().toMillis(),
                clusters.describe());
        clusters.createTopic(clusters.source(), TOPIC, PARTITIONS);
        Clients.produceNumbered(clusters.source(), TOPIC, PARTITIONS, PER_PARTITION);
    }

    @AfterAll
    static void stopClusters() {
        if (clusters != null) {
            clusters.close();
        }
    }

    @Test
    void mirrorMakerMirrorsBetweenSecuredClustersAsTheAdmin() {
        assertEquals(SecurityProtocol.SASL_SSL, clusters.source().securityProtocol());
        assertEquals(SecurityProtocol.SSL, clusters.destination().securityProtocol());
        Map<Integer, Long> sourceEnds = clusters.endOffsets(clusters.source(), TOPIC);
        assertEquals((long) PARTITIONS * PER_PARTITION, sourceEnds.values().stream().mapToLong(Long::longValue).sum());

        clusters.awaitMirrored(TOPIC, sourceEnds, TIMEOUT);

        assertEquals(sourceEnds, clusters.endOffsets(clusters.destination(), LocalMirrorMaker.mirroredTopic(TOPIC)));
        // group helpers work as the admin too (a super user needs no group ACL)
        Clients.commit(clusters.destination(), "secure-admin-group", LocalMirrorMaker.mirroredTopic(TOPIC),
                Map.of(0, 5L));
        Map<Integer, OffsetAndMetadata> committed = Clients.committed(clusters, clusters.destination(),
                "secure-admin-group", LocalMirrorMaker.mirroredTopic(TOPIC));
        assertEquals(5L, committed.get(0).offset());
    }

    @Test
    void transactionsCommitOnBothClusters() throws Exception {
        for (LocalKafkaBroker cluster : List.of(clusters.source(), clusters.destination())) {
            String topic = "secure-transactions-" + cluster.name();
            clusters.createTopic(cluster, topic, 1);
            Map<String, Object> props = cluster.clientProperties();
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                    new StringSerializer())) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>(topic, "in a transaction"));
                producer.commitTransaction();
            }
            // record + commit marker: the broker writes the marker as a client of its own inter-broker listener,
            // i.e. authenticated as itself (what Kafka Streams' exactly-once needs)
            Await.until(TIMEOUT, "the commit marker on " + topic,
                    () -> clusters.endOffsets(cluster, topic).equals(Map.of(0, 2L)));
        }
    }

    @Test
    void scramUserWithoutAclsIsDeniedUntilGrantedReadAndDescribe() throws Exception {
        LocalKafkaBroker source = clusters.source();
        Map<String, Object> user = source.clientProperties(USER);

        assertDenied(() -> describe(user, TOPIC));
        assertDenied(() -> produceOne(user, TOPIC));

        grantReadAndDescribe(source, TOPIC);

        Map<Integer, Long> ends = clusters.endOffsets(source, TOPIC);
        assertEquals((long) PARTITIONS * PER_PARTITION, Await.value(TIMEOUT,
                USER + " reading " + TOPIC + " once granted", () -> readAllOrNullIfDenied(user, TOPIC, ends)));
        // exactly what was granted: reading, not writing
        assertDenied(() -> produceOne(user, TOPIC));
    }

    @Test
    void certificateCnWithoutAclsIsDeniedUntilGrantedReadAndDescribe() throws Exception {
        String mirrored = LocalMirrorMaker.mirroredTopic(TOPIC);
        clusters.awaitMirrored(TOPIC, TIMEOUT);
        LocalKafkaBroker destination = clusters.destination();
        Map<String, Object> user = destination.clientProperties(USER); // a certificate CN=sextant, issued now

        assertDenied(() -> describe(user, mirrored));

        grantReadAndDescribe(destination, mirrored);

        Map<Integer, Long> ends = clusters.endOffsets(destination, mirrored);
        assertEquals((long) PARTITIONS * PER_PARTITION, Await.value(TIMEOUT, "CN=" + USER + " reading " + mirrored
                + " once granted", () -> readAllOrNullIfDenied(user, mirrored, ends)));
    }

    @Test
    void wrongScramPasswordFailsAuthentication() {
        Map<String, Object> wrong = clusters.source().clientProperties(USER, PASSWORD + "-wrong");

        ExecutionException failure = assertThrows(ExecutionException.class, () -> describeCluster(wrong));

        assertInstanceOf(SaslAuthenticationException.class, failure.getCause(), failure.toString());
    }

    @Test
    void destinationTakesItsCasPkcs12KeyStoreButNotAnotherCasCertificate() throws Exception {
        // the same identity as PKCS12 instead of the PEM files clientProperties() names
        TestCertificates.KeyMaterial own = clusters.destination().certificates().orElseThrow().client(USER);
        describeCluster(withPkcs12KeyStore(clusters.destination().clientProperties(), own));

        // CN=admin is a super user on the destination, but this certificate comes from the source's CA
        TestCertificates.KeyMaterial foreign = clusters.source().certificates().orElseThrow().client("admin");
        Map<String, Object> config = withPkcs12KeyStore(clusters.destination().clientProperties(), foreign);

        ExecutionException failure = assertThrows(ExecutionException.class, () -> describeCluster(config));

        assertInstanceOf(SslAuthenticationException.class, failure.getCause(), failure.toString());
    }

    private static Map<String, Object> withPkcs12KeyStore(Map<String, Object> config,
                                                          TestCertificates.KeyMaterial key) {
        config.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PKCS12");
        config.put(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, key.keyStore().toString());
        config.put(SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, key.password());
        config.put(SslConfigs.SSL_KEY_PASSWORD_CONFIG, key.password());
        return config;
    }

    private static void grantReadAndDescribe(LocalKafkaBroker cluster, String topic) throws Exception {
        ResourcePattern pattern = new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL);
        List<AclBinding> acls = new ArrayList<>();
        for (AclOperation operation : List.of(AclOperation.READ, AclOperation.DESCRIBE)) {
            acls.add(new AclBinding(pattern,
                    new AccessControlEntry("User:" + USER, "*", operation, AclPermissionType.ALLOW)));
        }
        try (Admin admin = clusters.admin(cluster)) {
            admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
        }
    }

    /** Fails unless {@code action} fails with a {@link TopicAuthorizationException} (directly or as the cause). */
    private static void assertDenied(ThrowingAction action) {
        Exception failure = assertThrows(Exception.class, action::run);
        Throwable cause = failure instanceof ExecutionException ? failure.getCause() : failure;
        assertInstanceOf(TopicAuthorizationException.class, cause, failure.toString());
    }

    private static void describe(Map<String, Object> config, String topic) throws Exception {
        try (Admin admin = Admin.create(config)) {
            admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS);
        }
    }

    private static void describeCluster(Map<String, Object> config) throws Exception {
        try (Admin admin = Admin.create(config)) {
            admin.describeCluster().nodes().get(30, TimeUnit.SECONDS);
        }
    }

    private static void produceOne(Map<String, Object> config, String topic) throws Exception {
        Map<String, Object> props = new HashMap<>(config);
        // not idempotent: the refusal is then the topic's (an idempotent producer may first fail on the cluster)
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, 0, null, "not allowed")).get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Reads every partition of {@code topic} from the start to {@code ends} without a consumer group (so only topic
     * ACLs matter); returns the number of records, or null while the broker still refuses.
     */
    private static Long readAllOrNullIfDenied(Map<String, Object> config, String topic, Map<Integer, Long> ends) {
        Map<String, Object> props = new HashMap<>(config);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        long records = 0;
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            ends.keySet().forEach(p -> partitions.add(new TopicPartition(topic, p)));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp.partition()))) {
                assertFalse(System.nanoTime() > deadline, "could not read " + topic + " to " + ends);
                records += consumer.poll(Duration.ofMillis(200)).count();
            }
        } catch (TopicAuthorizationException notYet) {
            return null; // the ACL has not reached the authorizer yet
        }
        assertTrue(records > 0);
        return records;
    }

    @FunctionalInterface
    private interface ThrowingAction {
        void run() throws Exception;
    }
}
