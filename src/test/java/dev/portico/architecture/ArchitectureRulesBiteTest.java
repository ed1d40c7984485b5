package dev.portico.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each rule of {@link ArchitectureTest} fails on a planted violation: the same {@link Rules}, built for the fixture
 * tree under {@code dev.portico.architecture.fixture}, must report the planted class, and must not report the class
 * beside it that does what the rule allows (so a rule cannot pass these checks by failing everything).
 */
class ArchitectureRulesBiteTest {

    private static final String ROOT = "dev.portico.architecture.fixture";
    private static final JavaClasses FIXTURES = new ClassFileImporter().importPackages(ROOT);
    private static final Rules RULES = Rules.forRoot(ROOT);

    @Test
    void aPackageCycleIsCaught() {
        bites(Rules::packagesAreFreeOfCycles, "fixture.proxy.alpha", "fixture.proxy.beta");
    }

    @Test
    void aTopLevelCycleIsCaught() {
        // proxy.route.SnapshotSource -> control.store.Row, control.api.Reads -> proxy.route.Router
        bites(Rules::topLevelPackagesAreFreeOfCycles, "Slice control", "Slice proxy");
    }

    @Test
    void theVhostModelImportingPorticoIsCaught() {
        bites(Rules::vhostModelImportsNothingOfPortico, "fixture.vhost.Spec");
    }

    @Test
    void theHttpRulesUsingMoreThanTheVhostModelAreCaught() {
        bites(Rules::httpRulesUseOnlyTheVhostModel, "fixture.http.FieldName");
    }

    @Test
    void theDataPlaneUsingTheControlPlaneIsCaught() {
        bites(Rules::proxyNeverUsesTheControlPlane, "fixture.proxy.route.SnapshotSource");
    }

    @Test
    void telemetryUsingTheControlPlaneIsCaught() {
        bites(Rules::telemetryAndCacheNeverUseTheControlPlane, "fixture.telemetry.Meter");
    }

    @Test
    void theControlPlaneUsingAProxyInsideIsCaughtButNotAPublishedType() {
        EvaluationResult result = bites(Rules::controlPlaneUsesOnlyPublishedProxyTypes, "fixture.control.api.Peeks");
        assertNotReported(result, "fixture.control.api.Reads");
    }

    @Test
    void aSnapshotThatKnowsTheDatabaseIsCaught() {
        bites(Rules::snapshotsAreBuiltWithoutKnowingTheDatabase, "fixture.proxy.route.SnapshotSource");
    }

    @Test
    void jdbcOnEventLoopCodeIsCaught() {
        bites(Rules::eventLoopCodeNeverUsesPersistence, "fixture.proxy.cache.Jdbc", "java.sql.Connection");
    }

    @Test
    void synchronizedBlocksAndMethodsOnEventLoopCodeAreCaughtButNotOffTheLoops() {
        EvaluationResult result = bites(Rules::eventLoopCodeNeverTakesAMonitor,
                "fixture.proxy.upstream.Locks.increment()> has a synchronized block",
                "fixture.proxy.upstream.SyncMethod.increment()> is synchronized");
        assertNotReported(result, "offloop");
    }

    @Test
    void sleepingAndWaitingOnEventLoopCodeAreCaughtButNotOffTheLoops() {
        EvaluationResult result = bites(Rules::eventLoopCodeNeverWaits,
                "Sleeps.pause()> calls method <java.lang.Thread.sleep(long)>",
                "Waits.onVertx(io.vertx.core.Future)> calls method <java.util.concurrent.CompletableFuture.get()>",
                "Waits.onFuture(java.util.concurrent.CompletableFuture)> calls method "
                        + "<java.util.concurrent.CompletableFuture.join()>",
                "Waits.onLatch(java.util.concurrent.CountDownLatch)> calls method "
                        + "<java.util.concurrent.CountDownLatch.await()>");
        assertNotReported(result, "offloop");
    }

    @Test
    void blockingFileApisOnEventLoopCodeAreCaughtButNotInTheFileWorkers() {
        EvaluationResult result = bites(Rules::eventLoopCodeNeverUsesBlockingFileApis,
                "fixture.proxy.files.ReadsDisk.read(java.nio.file.Path)> calls method "
                        + "<java.nio.file.Files.readAllBytes");
        assertNotReported(result, "offloop");
    }

    @Test
    void vertxInternalsOutsideTheTransportsAreCaughtButNotInsideThem() {
        EvaluationResult result = bites(Rules::vertxInternalsOnlyInTheTransports,
                "fixture.proxy.upstream.Internals", "io.vertx.core.impl.ContextInternal");
        assertNotReported(result, "fixture.proxy.server.");
        assertNotReported(result, "fixture.proxy.upstream.pool.");
    }

    /** The real rules import main classes only: none of these fixtures (nor any test class) reaches them. */
    @Test
    void theRealRulesNeverSeeTheFixtures() {
        JavaClasses main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.portico");
        List<String> testClasses = main.stream().map(JavaClass::getName)
                .filter(name -> name.startsWith("dev.portico.architecture")).toList();
        assertEquals(List.of(), testClasses);
        assertFalse(main.isEmpty());
    }

    private static EvaluationResult bites(Function<Rules, ArchRule> rule, String... reported) {
        EvaluationResult result = rule.apply(RULES).evaluate(FIXTURES);
        assertTrue(result.hasViolation(), "the rule passed on the planted violation: " + rule.apply(RULES));
        String report = String.join("\n", result.getFailureReport().getDetails());
        for (String expected : reported) {
            assertTrue(report.contains(expected), "expected <" + expected + "> in:\n" + report);
        }
        return result;
    }

    private static void assertNotReported(EvaluationResult result, String allowed) {
        String report = String.join("\n", result.getFailureReport().getDetails());
        assertFalse(report.contains(allowed), "reported what the rule allows (" + allowed + "):\n" + report);
    }
}
