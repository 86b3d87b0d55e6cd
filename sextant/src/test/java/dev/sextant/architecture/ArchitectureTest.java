package dev.sextant.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import dev.sextant.SextantApplication;
import dev.sextant.apply.ConsumerGroupApplier;
import dev.sextant.apply.DestinationClient;
import dev.sextant.apply.DestinationGroup;
import dev.sextant.apply.DestinationSession;
import dev.sextant.apply.GroupGuard;
import dev.sextant.apply.PlannedPartition;
import dev.sextant.apply.ShareGroupApplier;
import dev.sextant.apply.TranslatedPosition;
import dev.sextant.history.HistorySink;
import dev.sextant.history.OffsetSyncCatchUp;
import dev.sextant.history.OffsetSyncIntake;
import dev.sextant.sync.SyncGauges;
import dev.sextant.sync.SyncRuntime;
import dev.sextant.sync.SyncSettings;
import dev.sextant.sync.TaskSync;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
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

    /**
     * The "may use" column of docs/architecture.md, whole: each layer names the layers it may depend on, and any
     * other dependency between Sextant's packages fails. Dependencies on classes outside these layers (Kafka, the
     * JDK, the client module) are other rules' business.
     */
    @Test
    void layersUseOnlyWhatTheMapAllows() {
        check(layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("config").definedBy("dev.sextant.config..")
                .layer("clients").definedBy("dev.sextant.clients..")
                .layer("domain").definedBy("dev.sextant.domain..")
                .layer("decode").definedBy("dev.sextant.decode..")
                .layer("translate").definedBy("dev.sextant.translate..")
                .layer("state").definedBy("dev.sextant.state..")
                .layer("source").definedBy("dev.sextant.source..")
                .layer("acl").definedBy("dev.sextant.acl..")
                .layer("apply").definedBy("dev.sextant.apply..")
                .layer("deadletter").definedBy("dev.sextant.deadletter..")
                .layer("metrics").definedBy("dev.sextant.metrics..")
                .layer("history").definedBy("dev.sextant.history..")
                .layer("sync").definedBy("dev.sextant.sync..")
                .layer("topology").definedBy("dev.sextant.topology..")
                .layer("query").definedBy("dev.sextant.query..")
                .layer("failover").definedBy("dev.sextant.failover..")
                .layer("adopt").definedBy("dev.sextant.adopt..")
                .layer("cutover").definedBy("dev.sextant.cutover..")
                .layer("rebaseline").definedBy("dev.sextant.rebaseline..")
                .layer("command").definedBy("dev.sextant.command..")
                .layer("cli").definedBy("dev.sextant.cli..")
                .layer("wiring").definedBy("dev.sextant")
                .whereLayer("config").mayNotAccessAnyLayer()
                .whereLayer("clients").mayNotAccessAnyLayer()
                .whereLayer("domain").mayNotAccessAnyLayer()
                .whereLayer("decode").mayOnlyAccessLayers("domain")
                .whereLayer("translate").mayOnlyAccessLayers("domain")
                .whereLayer("state").mayOnlyAccessLayers("domain", "translate", "decode", "clients")
                .whereLayer("source").mayOnlyAccessLayers("domain", "decode", "metrics", "clients")
                .whereLayer("acl").mayOnlyAccessLayers("config", "decode", "clients")
                .whereLayer("apply").mayOnlyAccessLayers("domain", "state", "acl", "clients")
                .whereLayer("deadletter").mayOnlyAccessLayers("domain")
                .whereLayer("metrics").mayOnlyAccessLayers("domain")
                .whereLayer("history").mayOnlyAccessLayers("domain", "decode", "translate", "state", "source", "apply",
                        "deadletter", "metrics", "clients")
                .whereLayer("sync").mayOnlyAccessLayers("config", "domain", "decode", "translate", "state", "source",
                        "apply", "deadletter", "metrics", "history")
                .whereLayer("topology").mayOnlyAccessLayers("config", "domain", "decode", "translate", "state",
                        "source", "apply", "deadletter", "metrics", "history", "sync")
                .whereLayer("query").mayOnlyAccessLayers("config", "domain", "state", "translate", "deadletter")
                .whereLayer("command").mayOnlyAccessLayers("config", "domain", "decode", "translate", "state",
                        "source", "apply", "deadletter", "metrics", "history", "clients")
                .whereLayer("failover").mayOnlyAccessLayers("config", "domain", "state", "translate", "source",
                        "apply", "command")
                .whereLayer("adopt").mayOnlyAccessLayers("config", "domain", "state", "translate", "apply", "command")
                .whereLayer("cutover").mayOnlyAccessLayers("config", "domain", "decode", "state", "source", "apply",
                        "clients", "command")
                .whereLayer("rebaseline").mayOnlyAccessLayers("config", "domain", "state", "apply", "clients",
                        "command")
                .whereLayer("cli").mayNotBeAccessedByAnyLayer()
                .whereLayer("wiring").mayOnlyBeAccessedByLayers("cli")
                .because("each layer is read, tested and changed without the ones above it (docs/architecture.md)"));
    }

    @Test
    void theSyncEngineAndTheHistoryIntakeKnowNothingOfKafkaStreams() {
        check(noClasses().that().resideInAnyPackage("dev.sextant.sync..", "dev.sextant.history..")
                .should().dependOnClassesThat().resideInAPackage("org.apache.kafka.streams..")
                .because("one task's sync and the offset-sync checks are plain code, tested without a topology; "
                        + "the Kafka Streams shells around them live in dev.sextant.topology"));
    }

    /**
     * The Kafka Streams processors are shells: what a task does with its records is the sync engine's, behind
     * {@code TaskSync} (built from {@code SyncSettings}, {@code SyncRuntime} and {@code SyncGauges}); what becomes of
     * an offset sync is the history intake's, behind {@code OffsetSyncIntake} (and {@code OffsetSyncCatchUp}, which
     * the history's readers report to). A processor that reached further in would decide again what the engine
     * decides, untested without a topology.
     */
    @Test
    void topologyReachesTheEnginesOnlyThroughTheirEntryPoints() {
        check(noClasses().that().resideInAPackage("dev.sextant.topology..")
                .should().dependOnClassesThat(resideInAnyPackage("dev.sextant.sync..", "dev.sextant.history..")
                        .and(not(belongToAnyOf(TaskSync.class, SyncSettings.class, SyncRuntime.class,
                                SyncGauges.class, OffsetSyncIntake.class, HistorySink.class, OffsetSyncCatchUp.class))))
                .because("the sync engine and the offset-sync intake are entered through TaskSync and "
                        + "OffsetSyncIntake; their insides change without the shells"));
    }

    /**
     * Inside the packages that grew large, no class depends on a class that depends back on it (directly or through
     * others): a helper never reaches up into the class that drives it for a constant or a rule.
     */
    @Test
    void noClassCyclesInsideTheLargePackages() {
        check(slices().assignedFrom(TOP_LEVEL_CLASSES_OF_THE_SYNC_PATH).should().beFreeOfCycles()
                .because("helpers take what they need as parameters or from a shared holder (Backoffs, "
                        + "TopologyNames), never from the class that uses them"));
    }

    /**
     * Each top-level class of sync/, history/, topology/, config/ and cli/ (its nested classes with it) as a slice of
     * its own.
     */
    private static final SliceAssignment TOP_LEVEL_CLASSES_OF_THE_SYNC_PATH = new SliceAssignment() {
        private final Pattern path = Pattern.compile(
                "dev\\.sextant\\.(sync|history|topology|config|cli)\\.[^.$]+.*");

        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String name = javaClass.getName();
            if (!path.matcher(name).matches()) {
                return SliceIdentifier.ignore();
            }
            int nested = name.indexOf('$');
            return SliceIdentifier.of(nested < 0 ? name : name.substring(0, nested));
        }

        @Override
        public String getDescription() {
            return "top-level classes of dev.sextant.sync, .history, .topology, .config and .cli";
        }
    };

    /**
     * Offsets reach the destination through the appliers' guards: no other class calls a {@code DestinationClient}
     * method that changes the destination ({@code alter*}), whoever holds the client (a command's session, the sync).
     * The implementations of the interface are the exception: a default method hands over to its own implementation.
     */
    @Test
    void onlyTheAppliersAlterTheDestination() {
        check(noClasses().that().doNotBelongToAnyOf(ConsumerGroupApplier.class, ShareGroupApplier.class)
                .and().areNotAssignableTo(DestinationClient.class)
                .should().callMethodWhere(new DescribedPredicate<>("a DestinationClient alter* method") {
                    @Override
                    public boolean test(JavaMethodCall call) {
                        return call.getTargetOwner().isAssignableTo(DestinationClient.class)
                                && call.getName().startsWith("alter");
                    }
                })
                .because("every write of an offset passes the appliers' guards (ownership, newer commit, exact "
                        + "floor, rewind); a write beside them, as rebaseline --source's once was, skips them"));
    }

    /**
     * One guard chain: whether a group's members stand in the way of a write is asked of {@code GroupGuard} (type,
     * then members), by the sync and by every command that writes, never judged again beside it.
     */
    @Test
    void everyWriterAsksTheOneGuardChain() {
        check(noClasses().that().doNotBelongToAnyOf(GroupGuard.class, DestinationGroup.class)
                .should().callMethod(DestinationGroup.class, "active")
                .because("a writer that judges a group's members itself can forget the type before them, or the "
                        + "members altogether; GroupGuard.judge is the chain every writer asks"));
    }

    /** The packages of the one-off commands: each takes its clients from a {@code CommandContext}. */
    private static final String[] COMMAND_PACKAGES = {"dev.sextant.failover..", "dev.sextant.adopt..",
        "dev.sextant.cutover..", "dev.sextant.rebaseline..", "dev.sextant.cli.."};

    /** Opening a Kafka client, directly or through one of Sextant's classes that owns one. */
    private static final DescribedPredicate<JavaCall<?>> OPENS_A_CLIENT = new DescribedPredicate<>(
            "opening a Kafka client") {
        @Override
        public boolean test(JavaCall<?> call) {
            JavaClass owner = call.getTargetOwner();
            if (call instanceof JavaMethodCall) {
                return (owner.isAssignableTo(Admin.class) && call.getName().equals("create"))
                        || (owner.isEquivalentTo(DestinationSession.class) && call.getName().equals("open"));
            }
            return call instanceof JavaConstructorCall && owner.isAssignableTo(AutoCloseable.class)
                    && (owner.getPackageName().startsWith("org.apache.kafka.clients")
                    || owner.getPackageName().matches("dev\\.sextant\\.(apply|source|clients|deadletter|history)"));
        }
    };

    @Test
    void commandsTakeTheirClientsFromTheContext() {
        check(noClasses().that().resideInAnyPackage(COMMAND_PACKAGES)
                .should().callCodeUnitWhere(OPENS_A_CLIENT)
                .because("a command reads and writes the clusters through CommandContext (one set of bounds, "
                        + "client settings and topic names for every command); one that opens its own client copies "
                        + "that plumbing again"));
    }

    /**
     * A class of the application is designed to stay within 400 lines; checkstyle's 450 is the hard stop for every
     * file. A class that grows past the design size is split by idea before the next feature splits it by the gate.
     */
    @Test
    void applicationClassesStayWithinTheDesignSize() throws IOException {
        Path sources = Path.of("src", "main", "java");
        List<String> over = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                long lines = Files.readAllLines(file).size();
                if (lines > DESIGN_SIZE_LINES) {
                    over.add(sources.relativize(file) + " (" + lines + " lines)");
                }
            }
        }
        assertTrue(over.isEmpty(), "over the design size of " + DESIGN_SIZE_LINES + " lines, split by idea: " + over);
    }

    private static final int DESIGN_SIZE_LINES = 400;

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

    /**
     * One write path: a translated position becomes a planned destination write in one place, which keeps it inside
     * the mirror partition's log and carries what the mark and the guards need; the sync and every command that
     * writes ({@code failover} in all its modes, {@code adopt}) plan through it.
     */
    @Test
    void onlyTranslatedPositionPlansADestinationWrite() {
        // PlannedPartition itself: its shorter constructors hand over to the canonical one, planning nothing
        check(noClasses().that().doNotBelongToAnyOf(TranslatedPosition.class, PlannedPartition.class)
                .should().callConstructorWhere(new DescribedPredicate<>("a constructor of PlannedPartition") {
                    @Override
                    public boolean test(JavaConstructorCall call) {
                        return call.getTargetOwner().isEquivalentTo(PlannedPartition.class);
                    }
                })
                .because("a write planned elsewhere could skip the clamp into the mirror partition's log (as "
                        + "failover --from-source --apply once did) or the mark's inputs: plan through "
                        + "TranslatedPosition.within (DestinationSession.plan for a command)"));
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
