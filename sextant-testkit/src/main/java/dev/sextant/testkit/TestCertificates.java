package dev.sextant.testkit;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throwaway certificate authority for secured local clusters: a self-signed CA made by {@link #create}, which
 * issues server and client certificates and writes each with its key into {@link #directory()}, both as a PKCS12
 * key store and as a PEM file.
 *
 * <p>Invariants:
 * <ul>
 *   <li>Everything is new: the CA's key is generated in memory, never written, and dies with this object, so
 *       nothing outside this test run can ever be trusted by, or trust, these certificates.</li>
 *   <li>A file is written completely before its record is returned and never rewritten: asking for the same server or
 *       client name again returns the same files (and the same certificate).</li>
 *   <li>One password ({@link #password()}) protects every PKCS12 store and the keys in them; the PEM files hold the
 *       key unencrypted (PKCS#8 {@code BEGIN PRIVATE KEY}) followed by the certificate chain (leaf, then CA).</li>
 *   <li>Keys are EC P-256 signed with SHA256withECDSA: generating one takes milliseconds, where RSA-2048 takes up to
 *       a second on 2 cores. Certificates are valid from an hour ago (no clock-skew surprises) for 30 days.</li>
 * </ul>
 *
 * <p>Bouncy Castle only builds and writes the certificates; no security provider is registered, so the JVM's own
 * providers read every file (as the brokers' and MirrorMaker's JVMs do).
 */
public final class TestCertificates {

    /** Subject alternative names of every server certificate: what a client on this machine connects to. */
    public static final String SERVER_IP = "127.0.0.1";
    public static final String SERVER_DNS = "localhost";

    private static final String KEY_ALGORITHM = "EC";
    private static final String CURVE = "secp256r1";
    private static final String SIGNATURE = "SHA256withECDSA";
    private static final Duration VALIDITY = Duration.ofDays(30);
    private static final Duration BACKDATING = Duration.ofHours(1);
    private static final String NAME_PATTERN = "[A-Za-z0-9._-]+";

    private final Path directory;
    private final String password;
    private final KeyPair caKeys;
    private final X509Certificate caCertificate;
    private final TrustMaterial trust;
    private final SecureRandom random;
    private final Map<String, KeyMaterial> issued = new LinkedHashMap<>();

    /** The CA's certificate, as a PKCS12 trust store (protected by {@code password}) and as a PEM file. */
    public record TrustMaterial(Path trustStore, Path caPem, String password) {
    }

    /**
     * One identity's key and certificate chain: {@code keyStore} is PKCS12 (store and key protected by
     * {@code password}), {@code pem} the unencrypted key followed by the chain. The subject is {@code CN=<commonName>}.
     */
    public record KeyMaterial(String commonName, Path keyStore, Path pem, String password,
                              X509Certificate certificate) {
    }

    private TestCertificates(Path directory, String password, KeyPair caKeys, X509Certificate caCertificate,
                             TrustMaterial trust, SecureRandom random) {
        this.directory = directory;
        this.password = password;
        this.caKeys = caKeys;
        this.caCertificate = caCertificate;
        this.trust = trust;
        this.random = random;
    }

    /**
     * A new CA named {@code CN=<caName>}; writes its trust store ({@code truststore.p12}) and certificate
     * ({@code ca.pem}) into {@code directory}, which is created if needed.
     */
    public static TestCertificates create(Path directory, String caName) {
        checkName(caName);
        SecureRandom random = new SecureRandom();
        try {
            Files.createDirectories(directory);
            String password = HexFormat.of().formatHex(bytes(random, 12));
            KeyPair caKeys = newKeyPair(random);
            X500Principal caSubject = new X500Principal("CN=" + caName);
            Instant now = Instant.now();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(caSubject, serial(random),
                    Date.from(now.minus(BACKDATING)), Date.from(now.plus(VALIDITY)), caSubject, caKeys.getPublic());
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            builder.addExtension(Extension.subjectKeyIdentifier, false,
                    extensions.createSubjectKeyIdentifier(caKeys.getPublic()));
            X509Certificate caCertificate = sign(builder, caKeys);

            Path trustStore = directory.resolve("truststore.p12");
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setCertificateEntry("ca", caCertificate);
            writeStore(store, trustStore, password);
            Path caPem = directory.resolve("ca.pem");
            writePem(caPem, caCertificate);
            return new TestCertificates(directory, password, caKeys, caCertificate,
                    new TrustMaterial(trustStore, caPem, password), random);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the test CA into " + directory, e);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot create the test CA", e);
        }
    }

    /**
     * A server certificate {@code CN=<commonName>} for 127.0.0.1 and localhost ({@code server-<commonName>.p12} and
     * {@code .pem}). It may also authenticate as a client (extended key usage serverAuth and clientAuth): a broker is
     * a client of its own controller and inter-broker listeners, and presents the same certificate there.
     */
    public synchronized KeyMaterial server(String commonName) {
        return issue("server", commonName, true);
    }

    /** A client certificate {@code CN=<commonName>} ({@code client-<commonName>.p12} and {@code .pem}). */
    public synchronized KeyMaterial client(String commonName) {
        return issue("client", commonName, false);
    }

    /** The CA's certificate as trust store and PEM file. */
    public TrustMaterial trust() {
        return trust;
    }

    public X509Certificate caCertificate() {
        return caCertificate;
    }

    /** The password of every PKCS12 store and key written here. */
    public String password() {
        return password;
    }

    public Path directory() {
        return directory;
    }

    private KeyMaterial issue(String kind, String commonName, boolean server) {
        checkName(commonName);
        String fileName = kind + "-" + commonName;
        KeyMaterial known = issued.get(fileName);
        if (known != null) {
            return known;
        }
        try {
            KeyPair keys = newKeyPair(random);
            Instant now = Instant.now();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(caCertificate, serial(random),
                    Date.from(now.minus(BACKDATING)), Date.from(now.plus(VALIDITY)),
                    new X500Principal("CN=" + commonName), keys.getPublic());
            JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.keyUsage, true,
                    new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement));
            builder.addExtension(Extension.extendedKeyUsage, false, server
                    ? new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth,
                            KeyPurposeId.id_kp_clientAuth})
                    : new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
            if (server) {
                builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                        new GeneralName(GeneralName.iPAddress, SERVER_IP),
                        new GeneralName(GeneralName.dNSName, SERVER_DNS)}));
            }
            builder.addExtension(Extension.subjectKeyIdentifier, false,
                    extensions.createSubjectKeyIdentifier(keys.getPublic()));
            builder.addExtension(Extension.authorityKeyIdentifier, false,
                    extensions.createAuthorityKeyIdentifier(caCertificate));
            X509Certificate certificate = sign(builder, caKeys);
            Certificate[] chain = {certificate, caCertificate};

            Path keyStore = directory.resolve(fileName + ".p12");
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry(commonName, keys.getPrivate(), password.toCharArray(), chain);
            writeStore(store, keyStore, password);
            Path pem = directory.resolve(fileName + ".pem");
            writePem(pem, new JcaPKCS8Generator(keys.getPrivate(), null), certificate, caCertificate);
            KeyMaterial material = new KeyMaterial(commonName, keyStore, pem, password, certificate);
            issued.put(fileName, material);
            return material;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the " + kind + " certificate of " + commonName, e);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot issue a " + kind + " certificate for " + commonName, e);
        }
    }

    private static KeyPair newKeyPair(SecureRandom random) throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance(KEY_ALGORITHM);
        generator.initialize(new ECGenParameterSpec(CURVE), random);
        return generator.generateKeyPair();
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair issuerKeys)
            throws OperatorCreationException, GeneralSecurityException {
        return new JcaX509CertificateConverter().getCertificate(
                builder.build(new JcaContentSignerBuilder(SIGNATURE).build(issuerKeys.getPrivate())));
    }

    /** A positive serial of 127 random bits: unique without bookkeeping. */
    private static BigInteger serial(SecureRandom random) {
        return new BigInteger(127, random);
    }

    private static byte[] bytes(SecureRandom random, int count) {
        byte[] bytes = new byte[count];
        random.nextBytes(bytes);
        return bytes;
    }

    private static void writeStore(KeyStore store, Path file, String password)
            throws IOException, GeneralSecurityException {
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, password.toCharArray());
        }
    }

    private static void writePem(Path file, Object... objects) throws IOException {
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.US_ASCII);
             JcaPEMWriter pem = new JcaPEMWriter(out)) {
            for (Object object : objects) {
                pem.writeObject(object);
            }
        }
    }

    private static void checkName(String name) {
        Objects.requireNonNull(name, "name");
        // a name becomes a file name and a CN; anything else would need escaping in both
        if (!name.matches(NAME_PATTERN)) {
            throw new IllegalArgumentException("a certificate name must match " + NAME_PATTERN + ": " + name);
        }
    }

    @Override
    public String toString() {
        return "test CA " + caCertificate.getSubjectX500Principal().getName() + " in " + directory;
    }
}
