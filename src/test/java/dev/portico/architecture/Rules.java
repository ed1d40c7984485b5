package dev.portico.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.lang.ArchRule;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.FileReader;
import java.io.FileWriter;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.StampedLock;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * Portico's architecture (README "Layout", issue 12) as rules for a root package: {@code dev.portico} for the real
 * code, {@code dev.portico.architecture.fixture} for the planted violations that prove each rule bites. No rule
 * names a class: what a rule allows, it allows by package (the {@code offloop} packages hold a feature's own threads,
 * the transports may use Vert.x internals), and {@link ArchitectureTest} runs every rule strictly.
 */
final class Rules {

    /** JPA, JDBC, transactions, the database driver and migrations: blocking, and the control plane's business. */
    static final String[] PERSISTENCE = {"jakarta.persistence..", "java.sql..", "javax.sql..", "org.hibernate..",
            "io.quarkus.hibernate..", "io.quarkus.panache..", "io.agroal..", "jakarta.transaction..",
            "io.quarkus.narayana..", "org.postgresql..", "org.flywaydb.."};

    /** Vert.x's and Netty's implementation packages: no compatibility promise, so only the server may use them. */
    static final String[] VERTX_INTERNALS = {"io.vertx.core.impl..", "io.vertx.core.net.impl..",
            "io.vertx.core.http.impl..", "io.netty.util.internal.."};

    /** The java.io and java.nio types whose every use reads or writes the disk on the calling thread. */
    private static final Class<?>[] BLOCKING_FILE_TYPES = {Files.class, File.class, FileInputStream.class,
            FileOutputStream.class, FileReader.class, FileWriter.class, RandomAccessFile.class, FileChannel.class,
            DirectoryStream.class};

    private final String root;

    private Rules(String root) {
        this.root = root;
    }

    static Rules forRoot(String root) {
        return new Rules(root);
    }

    /**
     * Code that runs on an event loop, or is called from one: the data plane, the HTTP rules, the cache and
     * telemetry, except the packages named {@code offloop}, which hold a feature's own threads and may block: the
     * file workers' probe ({@code proxy.files.offloop}), the access-log writer ({@code telemetry.accesslog.offloop}),
     * the analytics rollup and writer ({@code telemetry.analytics.offloop}) and the statistics' reader-side ledger
     * ({@code telemetry.stats.offloop}) and the data plane's start and drain ({@code proxy.server.offloop}, on Quarkus'
     * main and shutdown threads). What the loops call stays in the feature's package and never waits.
     */
    DescribedPredicate<JavaClass> eventLoopCode() {
        return resideInAnyPackage(root + ".proxy..", root + ".http..", root + ".cache..", root + ".telemetry..")
                .and(resideOutsideOfPackages("..offloop.."))
                .as("run on event loops (proxy, http, cache, telemetry; not offloop)");
    }

    private DescribedPredicate<JavaClass> porticoOutside(String... allowed) {
        String[] packages = new String[allowed.length];
        for (int i = 0; i < allowed.length; i++) {
            packages[i] = root + "." + allowed[i] + "..";
        }
        return resideInAPackage(root + "..").and(resideOutsideOfPackages(packages));
    }

    // ---- cycles ------------------------------------------------------------------------------------------------

    ArchRule topLevelPackagesAreFreeOfCycles() {
        return slices().matching(root + ".(*)..").should().beFreeOfCycles();
    }

    ArchRule packagesAreFreeOfCycles() {
        return slices().matching(root + ".(**)").should().beFreeOfCycles();
    }

    // ---- layers ------------------------------------------------------------------------------------------------

    /** The vhost model is the bottom layer: immutable specs that import nothing of Portico. */
    ArchRule vhostModelImportsNothingOfPortico() {
        return noClasses().that().resideInAPackage(root + ".vhost..")
                .should().dependOnClassesThat(porticoOutside("vhost").as("are Portico classes outside vhost"))
                .as("the vhost model (" + root + ".vhost..) imports nothing else of Portico");
    }

    /**
     * The shared HTTP rules sit on the vhost model only (the data plane, the cache and the API all use them), and
     * know nothing of JAX-RS, the control plane's API.
     */
    ArchRule httpRulesUseOnlyTheVhostModel() {
        return noClasses().that().resideInAPackage(root + ".http..")
                .should().dependOnClassesThat(porticoOutside("http", "vhost")
                        .as("are Portico classes outside http and vhost"))
                .orShould().dependOnClassesThat().resideInAPackage("jakarta.ws.rs..")
                .as("the HTTP rules (" + root + ".http..) use nothing of Portico but the vhost model, and no JAX-RS");
    }

    /** The data plane never reaches up into the control plane (nor into JAX-RS, the control plane's API). */
    ArchRule proxyNeverUsesTheControlPlane() {
        return noClasses().that().resideInAPackage(root + ".proxy..")
                .should().dependOnClassesThat().resideInAnyPackage(root + ".control..", "jakarta.ws.rs..")
                .as("the data plane (" + root + ".proxy..) never uses the control plane or JAX-RS");
    }

    /** Telemetry and the cache are used by the control plane, never the reverse. */
    ArchRule telemetryAndCacheNeverUseTheControlPlane() {
        return noClasses().that().resideInAnyPackage(root + ".telemetry..", root + ".cache..")
                .should().dependOnClassesThat().resideInAPackage(root + ".control..")
                .as("telemetry (" + root + ".telemetry..) and the cache (" + root + ".cache..) never use the "
                        + "control plane");
    }

    /**
     * The control plane uses the data plane through its published types only: the routing snapshot
     * ({@code proxy.route}), the server ({@code proxy.server}) and the outcomes ({@code proxy.core.outcome});
     * not the pipeline's insides.
     */
    ArchRule controlPlaneUsesOnlyPublishedProxyTypes() {
        return noClasses().that().resideInAPackage(root + ".control..")
                .should().dependOnClassesThat(resideInAPackage(root + ".proxy..")
                        .and(resideOutsideOfPackages(root + ".proxy.route", root + ".proxy.server",
                                root + ".proxy.core.outcome"))
                        .as("are proxy classes outside proxy.route, proxy.server and proxy.core.outcome"))
                .as("the control plane uses only the proxy's published types (proxy.route, proxy.server, "
                        + "proxy.core.outcome)");
    }

    /** Compiling and publishing a snapshot never touches the database, the API or the stored definitions. */
    ArchRule snapshotsAreBuiltWithoutKnowingTheDatabase() {
        return noClasses().that().resideInAnyPackage(root + ".vhost..", root + ".proxy.route..",
                        root + ".control.snapshot..", root + ".control.replicas..")
                .should().dependOnClassesThat().resideInAnyPackage(root + ".control.api..",
                        root + ".control.definition..", root + ".control.store..", root + ".control.health..",
                        "jakarta.persistence..", "org.hibernate..")
                .as("snapshots are compiled and published without the database, the API or the stored definitions");
    }

    // ---- no blocking on event loops ----------------------------------------------------------------------------

    ArchRule eventLoopCodeNeverUsesPersistence() {
        return noClasses().that(eventLoopCode())
                .should().dependOnClassesThat().resideInAnyPackage(PERSISTENCE)
                .as("code that runs on event loops never uses JPA, JDBC, Panache or Hibernate");
    }

    ArchRule eventLoopCodeNeverTakesAMonitor() {
        return classes().that(eventLoopCode())
                .should(MonitorUse.neverTakeAMonitor())
                .as("code that runs on event loops never takes a monitor (synchronized methods or blocks)");
    }

    ArchRule eventLoopCodeNeverWaits() {
        return noClasses().that(eventLoopCode())
                .should().dependOnClassesThat(assignableTo(Lock.class).or(assignableTo(ReadWriteLock.class))
                        .or(assignableTo(Condition.class)).or(assignableTo(StampedLock.class))
                        .as("are locks or lock conditions"))
                .orShould().callMethodWhere(call(Thread.class, "sleep|join"))
                .orShould().callMethodWhere(call(Object.class, "wait"))
                .orShould().callMethodWhere(call(LockSupport.class, "park.*"))
                .orShould().callMethodWhere(call(Future.class, "get|join"))
                .orShould().callMethodWhere(call(io.vertx.core.Future.class, "await"))
                .orShould().callMethodWhere(call(io.netty.util.concurrent.Future.class, "await.*|sync.*"))
                .orShould().callMethodWhere(call(CountDownLatch.class, "await"))
                .orShould().callMethodWhere(call(CyclicBarrier.class, "await"))
                .orShould().callMethodWhere(call(Semaphore.class, "acquire.*"))
                .orShould().callMethodWhere(call(BlockingQueue.class, "take|put"))
                .orShould().callMethodWhere(call(ExecutorService.class, "awaitTermination|invokeAll|invokeAny"))
                .as("code that runs on event loops never sleeps, parks, locks, or waits on a future, a latch or a "
                        + "queue");
    }

    ArchRule eventLoopCodeNeverUsesBlockingFileApis() {
        return noClasses().that(eventLoopCode())
                .should().dependOnClassesThat().belongToAnyOf(BLOCKING_FILE_TYPES)
                .orShould().callMethodWhere(call(java.nio.file.Path.class, "toRealPath|toFile"))
                .as("code that runs on event loops never uses blocking file APIs (the file workers' offloop "
                        + "packages do)");
    }

    // ---- Vert.x internals --------------------------------------------------------------------------------------

    /**
     * Vert.x's and Netty's internals belong to the two transports only: the client side ({@code proxy.server}: the
     * listeners, the strict HTTP/1 reader, interim responses) and the upstream side ({@code proxy.upstream.pool}: the
     * pooled connections' codec and body handoff). Everything else uses the public APIs.
     */
    ArchRule vertxInternalsOnlyInTheTransports() {
        return noClasses().that().resideInAPackage(root + "..")
                .and().resideOutsideOfPackages(root + ".proxy.server..", root + ".proxy.upstream.pool..")
                .should().dependOnClassesThat().resideInAnyPackage(VERTX_INTERNALS)
                .as("Vert.x and Netty internals (io.vertx.core.impl, .net.impl, .http.impl, "
                        + "io.netty.util.internal) are used only by the transports, proxy.server and "
                        + "proxy.upstream.pool");
    }

    /** A call to a method named like {@code names} of {@code type} or of one of its subtypes. */
    private static DescribedPredicate<JavaMethodCall> call(Class<?> type, String names) {
        return new DescribedPredicate<>(type.getName() + "." + names) {
            @Override
            public boolean test(JavaMethodCall call) {
                return call.getName().matches(names) && call.getTargetOwner().isAssignableTo(type);
            }
        };
    }
}
