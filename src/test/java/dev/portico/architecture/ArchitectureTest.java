package dev.portico.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Portico's architecture (issue 12, README "Layout", docs/architecture.md), checked on the main classes: no package
 * cycles, layers that point down, nothing that blocks in code that runs on event loops, Vert.x internals only in the
 * two transports. The rules are in {@link Rules}; {@link ArchitectureRulesBiteTest} proves each one fails on a
 * planted violation. Every rule runs strictly: nothing is frozen and no rule exempts a class by name (a class that
 * breaks a rule moves, or stops breaking it).
 */
class ArchitectureTest {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.portico");

    private static final Rules RULES = Rules.forRoot("dev.portico");

    /** app, control, telemetry, proxy, cache, http, vhost: each imports only below it. */
    @Test
    void topLevelPackagesAreFreeOfCycles() {
        RULES.topLevelPackagesAreFreeOfCycles().check(MAIN);
    }

    @Test
    void packagesAreFreeOfCycles() {
        RULES.packagesAreFreeOfCycles().check(MAIN);
    }

    @Test
    void theVhostModelImportsNothingOfPortico() {
        RULES.vhostModelImportsNothingOfPortico().check(MAIN);
    }

    @Test
    void theHttpRulesUseOnlyTheVhostModel() {
        RULES.httpRulesUseOnlyTheVhostModel().check(MAIN);
    }

    @Test
    void theDataPlaneNeverUsesTheControlPlane() {
        RULES.proxyNeverUsesTheControlPlane().check(MAIN);
    }

    @Test
    void telemetryAndTheCacheNeverUseTheControlPlane() {
        RULES.telemetryAndCacheNeverUseTheControlPlane().check(MAIN);
    }

    @Test
    void theControlPlaneUsesOnlyTheProxysPublishedTypes() {
        RULES.controlPlaneUsesOnlyPublishedProxyTypes().check(MAIN);
    }

    @Test
    void snapshotsAreBuiltWithoutKnowingTheDatabase() {
        RULES.snapshotsAreBuiltWithoutKnowingTheDatabase().check(MAIN);
    }

    @Test
    void eventLoopCodeNeverUsesPersistence() {
        RULES.eventLoopCodeNeverUsesPersistence().check(MAIN);
    }

    @Test
    void eventLoopCodeNeverTakesAMonitor() {
        RULES.eventLoopCodeNeverTakesAMonitor().check(MAIN);
    }

    @Test
    void eventLoopCodeNeverWaits() {
        RULES.eventLoopCodeNeverWaits().check(MAIN);
    }

    @Test
    void eventLoopCodeNeverUsesBlockingFileApis() {
        RULES.eventLoopCodeNeverUsesBlockingFileApis().check(MAIN);
    }

    @Test
    void vertxInternalsAreUsedOnlyByTheTransports() {
        RULES.vertxInternalsOnlyInTheTransports().check(MAIN);
    }
}
