package dev.sextant.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.net.ssl.KeyManagerFactory;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.security.ssl.DefaultSslEngineFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestCertificatesTest {

    @TempDir
    Path dir;

    @Test
    void serverCertificateChainsToTheCaAndNamesLoopback() throws Exception {
        TestCertificates ca = TestCertificates.create(dir, "test-ca");
        TestCertificates.KeyMaterial server = ca.server("kafka-broker");

        KeyStore store = load(server.keyStore(), ca.password());
        X509Certificate[] chain = Arrays.stream(store.getCertificateChain("kafka-broker"))
                .map(X509Certificate.class::cast).toArray(X509Certificate[]::new);
        assertEquals(2, chain.length);
        assertEquals("CN=kafka-broker", chain[0].getSubjectX500Principal().getName());
        assertEquals(ca.caCertificate(), chain[1]);
        assertNotNull(store.getKey("kafka-broker", ca.password().toCharArray()));
        validate(chain[0], load(ca.trust().trustStore(), ca.password()));

        Set<String> names = chain[0].getSubjectAlternativeNames().stream()
                .map(san -> san.get(0) + ":" + san.get(1)).collect(Collectors.toSet());
        assertEquals(Set.of("7:127.0.0.1", "2:localhost"), names); // 7 = iPAddress, 2 = dNSName
        assertTrue(chain[0].getExtendedKeyUsage().containsAll(List.of("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2")),
                "serverAuth and clientAuth");
    }

    @Test
    void clientCertificateIsForClientsOnlyAndIssuedOnce() throws Exception {
        TestCertificates ca = TestCertificates.create(dir, "test-ca");
        TestCertificates.KeyMaterial client = ca.client("sextant");

        assertSame(client, ca.client("sextant"));
        assertEquals("CN=sextant", client.certificate().getSubjectX500Principal().getName());
        assertEquals(List.of("1.3.6.1.5.5.7.3.2"), client.certificate().getExtendedKeyUsage());
        assertEquals(null, client.certificate().getSubjectAlternativeNames());
        validate(client.certificate(), load(ca.trust().trustStore(), ca.password()));
        // a key manager is what a TLS client builds from the key store: it must accept store and key password
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm())
                .init(load(client.keyStore(), client.password()), client.password().toCharArray());
    }

    @Test
    void pemFileHoldsAnUnencryptedPkcs8KeyThenTheChain() throws Exception {
        TestCertificates ca = TestCertificates.create(dir, "test-ca");
        TestCertificates.KeyMaterial client = ca.client("sextant");

        String pem = Files.readString(client.pem());
        assertTrue(pem.startsWith("-----BEGIN PRIVATE KEY-----"), pem);
        assertEquals(2, pem.split("-----BEGIN CERTIFICATE-----", -1).length - 1, pem);
        try (InputStream in = Files.newInputStream(ca.trust().caPem())) {
            assertEquals(ca.caCertificate(), CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
    }

    @Test
    void kafkaLoadsThePemFilesAsKeyStoreAndTrustStore() {
        TestCertificates ca = TestCertificates.create(dir, "test-ca");
        TestCertificates.KeyMaterial client = ca.client("sextant");

        try (DefaultSslEngineFactory factory = kafkaSslEngineFactory(Map.of(
                SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PEM",
                SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, client.pem().toString(),
                SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM",
                SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, ca.trust().caPem().toString()))) {
            KeyStore keys = factory.keystore();
            String alias = keys.aliases().nextElement();
            assertEquals(client.certificate(), keys.getCertificate(alias));
            assertEquals(2, keys.getCertificateChain(alias).length);
            assertEquals(1, factory.truststore().size());
            assertNotNull(factory.createClientSslEngine("127.0.0.1", 0, "https"));
        } catch (Exception e) {
            throw new AssertionError("Kafka rejected the PEM files", e);
        }
    }

    @Test
    void kafkaLoadsThePkcs12Stores() {
        TestCertificates ca = TestCertificates.create(dir, "test-ca");
        TestCertificates.KeyMaterial server = ca.server("kafka-broker");

        try (DefaultSslEngineFactory factory = kafkaSslEngineFactory(Map.of(
                SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PKCS12",
                SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, server.keyStore().toString(),
                SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, server.password(),
                SslConfigs.SSL_KEY_PASSWORD_CONFIG, server.password(),
                SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12",
                SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, ca.trust().trustStore().toString(),
                SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, ca.trust().password()))) {
            assertEquals(server.certificate(), factory.keystore().getCertificate("kafka-broker"));
            assertNotNull(factory.createServerSslEngine("127.0.0.1", 0));
        } catch (Exception e) {
            throw new AssertionError("Kafka rejected the PKCS12 stores", e);
        }
    }

    @Test
    void namesMustBeSimple() {
        assertThrows(IllegalArgumentException.class, () -> TestCertificates.create(dir, "CN=evil,O=x"));
        TestCertificates ca = TestCertificates.create(dir, "test-ca");
        assertThrows(IllegalArgumentException.class, () -> ca.client("../x"));
        assertThrows(IllegalArgumentException.class, () -> ca.server("a b"));
    }

    /** Kafka's own SSL engine factory, configured as a client's config parser would do it (types, defaults). */
    private static DefaultSslEngineFactory kafkaSslEngineFactory(Map<String, String> ssl) {
        ConfigDef definition = new ConfigDef();
        SslConfigs.addClientSslSupport(definition);
        DefaultSslEngineFactory factory = new DefaultSslEngineFactory();
        factory.configure(definition.parse(ssl));
        return factory;
    }

    private static KeyStore load(Path file, String password) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, password.toCharArray());
        }
        return store;
    }

    /** PKIX path validation against the trust store, as a TLS peer does it (revocation off: a test CA has no CRL). */
    private static void validate(X509Certificate leaf, KeyStore trustStore) throws Exception {
        X509Certificate caCert = (X509Certificate) trustStore.getCertificate("ca");
        assertNotNull(caCert, "the trust store's CA entry");
        PKIXParameters parameters = new PKIXParameters(Set.of(new TrustAnchor(caCert, null)));
        parameters.setRevocationEnabled(false);
        CertPathValidator.getInstance("PKIX").validate(
                CertificateFactory.getInstance("X.509").generateCertPath(List.of(leaf)), parameters);
    }
}
