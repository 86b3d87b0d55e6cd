package dev.sextant.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import dev.sextant.SextantApplication;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dependency rules of docs/architecture.md, checked on the application's own classes (this module's
 * {@code target/classes}, not the client or the testkit it is tested with). Each rule's message says what it keeps.
 */
class ArchitectureTest {

    private static JavaClasses app;

    @BeforeAll
    static void importTheApplication() throws URISyntaxException {
        Path classes = Path.of(SextantApplication.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        app = new ClassFileImporter().importPath(classes);
    }

    private static void check(ArchRule rule) {
        rule.check(app);
    }

    /** A call to the Admin API that changes a cluster (as opposed to describing or listing it). */
    private static final DescribedPredicate<JavaMethodCall> ADMIN_WRITE = new DescribedPredicate<>(
            "an Admin call that changes a cluster") {
        private final Pattern writes = Pattern.compile(
                "(alter|create|delete|remove|elect|incrementalAlter|fence|abort|unregister|update)[A-Z].*");

        @Override
        public boolean test(JavaMethodCall call) {
            return call.getTargetOwner().isAssignableTo(Admin.class)
                    && writes.matcher(call.getName()).matches();
        }
    };

    @Test
    void noPackageCycles() {
        check(slices().matching("dev.sextant.(*)..").should().beFreeOfCycles());
    }

    @Test
    void configImportsNothingOfSextant() {
        check(noClasses().that().resideInAPackage("dev.sextant.config..")
                .should().dependOnClassesThat(resideInAPackage("dev.sextant..")
                        .and(not(resideInAPackage("dev.sextant.config.."))))
                .because("configuration is read first and by everything; it must not pull the rest in"));
    }

    @Test
    void decodingKnowsNothingOfTheDestinationOrHttp() {
        check(noClasses().that().resideInAPackage("dev.sextant.decode..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sextant.apply..", "dev.sextant.query..",
                        "dev.sextant.client..", "java.net.http..", "com.sun.net.httpserver..",
                        "org.apache.kafka.clients.admin..")
                .because("decoding turns source records into values, nothing more"));
    }

    @Test
    void translationIsPure() {
        check(classes().that().resideInAPackage("dev.sextant.translate..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.sextant.translate..",
                        "dev.sextant.domain..", "java.lang..", "java.util..")
                .because("translation reads the sync history through SyncHistory: no Kafka client, no store, no I/O"));
    }

    @Test
    void theDomainIsPure() {
        check(classes().that().resideInAPackage("dev.sextant.domain..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.sextant.domain..", "java.lang..",
                        "java.util..", "java.nio..")
                .because("the vocabulary every layer speaks must not pull any layer in"));
    }

    @Test
    void onlyApplyWritesToTheDestination() {
        check(noClasses().that().resideOutsideOfPackage("dev.sextant.apply..")
                .and().resideOutsideOfPackage("dev.sextant.source..")
                .should().callMethodWhere(ADMIN_WRITE)
                .because("offsets reach the destination only through the appliers and their guards "
                        + "(dev.sextant.source creates Sextant's own topics on the source cluster)"));
        check(noClasses().that().resideInAPackage("dev.sextant.source..")
                .should().callMethodWhere(new DescribedPredicate<>("an Admin call other than createTopics") {
                    @Override
                    public boolean test(JavaMethodCall call) {
                        return ADMIN_WRITE.test(call) && !call.getName().equals("createTopics");
                    }
                })
                .because("the source side only ever creates Sextant's own topics"));
    }

    @Test
    void queriesReadStoresAndNeverWriteToACluster() {
        check(noClasses().that().resideInAPackage("dev.sextant.query..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.sextant.apply..", "dev.sextant.topology..",
                        "org.apache.kafka.clients.producer..")
                .orShould().callMethodWhere(ADMIN_WRITE)
                .because("interactive queries read stores and topics; writing is the sync's job"));
    }

    @Test
    void nothingImportsTheCommandLine() {
        check(noClasses().that().resideOutsideOfPackage("dev.sextant.cli..")
                .should().dependOnClassesThat().resideInAPackage("dev.sextant.cli..")
                .because("the command line is an entry point, not a library"));
    }

    @Test
    void toolingIsNeverPartOfTheApplication() {
        check(noClasses().should().dependOnClassesThat().resideInAnyPackage("dev.sextant.testkit..",
                        "dev.sextant.demo..", "dev.sextant.bench..", "org.eclipse.aether..", "org.apache.http..",
                        "org.codehaus.plexus..", "com.google.gson..", "org.junit..")
                .because("the testkit, demo and benchmark are never on the application's runtime classpath "
                        + "(the build's enforcer rule checks the dependency tree too)"));
    }
}
