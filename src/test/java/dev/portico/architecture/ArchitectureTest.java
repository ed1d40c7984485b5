package dev.portico.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.freeze.ViolationLineMatcher;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.freeze.FreezingArchRule.freeze;

/**
 * Portico's architecture (issue 12, README "Layout"), checked on the main classes: no package cycles, layers that
 * point down, nothing that blocks on event-loop code, Vert.x internals only behind the server. The rules are in
 * {@link Rules}; {@link ArchitectureRulesBiteTest} proves each one fails on a planted violation.
 *
 * <p>The rules the code already keeps run strictly. For the others the restructure is not finished, so what the
 * code does against them today is frozen: recorded in {@code src/test/resources/archunit_store/} (one file a rule),
 * so a new violation fails while a recorded one passes. No rule exempts a class by name: a class that breaks a rule
 * moves (or stops breaking it) and its lines leave the store. Work that removes a recorded violation deletes its line from the store;
 * the store is neither created nor updated by a test run (see {@code archunit.properties}), so a stale line fails
 * too. A recorded cycle is matched by the packages it runs through, not by the classes that tie them, so work inside
 * a cycle does not have to touch the store.
 */
class ArchitectureTest {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.portico");

    private static final Rules RULES = Rules.forRoot("dev.portico");

    /** Two cycle violations are the same cycle when their first part, "Cycle detected: Slice a -> ...", is. */
    private static final ViolationLineMatcher SAME_PACKAGES = (first, second) -> path(first).equals(path(second));

    /** app, control, telemetry, proxy, cache, http, vhost (and config, the settings): each imports only below it. */
    @Test
    void topLevelPackagesAreFreeOfCycles() {
        frozenCycles(RULES.topLevelPackagesAreFreeOfCycles()).check(MAIN);
    }

    @Test
    void packagesAreFreeOfCycles() {
        frozenCycles(RULES.packagesAreFreeOfCycles()).check(MAIN);
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
        frozen(RULES.controlPlaneUsesOnlyPublishedProxyTypes()).check(MAIN);
    }

    @Test
    void snapshotsAreBuiltWithoutKnowingTheDatabase() {
        RULES.snapshotsAreBuiltWithoutKnowingTheDatabase().check(MAIN);
    }

    @Test
    void eventLoopCodeNeverUsesPersistence() {
        frozen(RULES.eventLoopCodeNeverUsesPersistence()).check(MAIN);
    }

    @Test
    void eventLoopCodeNeverTakesAMonitor() {
        frozen(RULES.eventLoopCodeNeverTakesAMonitor()).check(MAIN);
    }

    @Test
    void eventLoopCodeNeverWaits() {
        frozen(RULES.eventLoopCodeNeverWaits()).check(MAIN);
    }

    @Test
    void eventLoopCodeNeverUsesBlockingFileApis() {
        frozen(RULES.eventLoopCodeNeverUsesBlockingFileApis()).check(MAIN);
    }

    @Test
    void vertxInternalsAreUsedOnlyByTheTransports() {
        frozen(RULES.vertxInternalsOnlyInTheTransports()).check(MAIN);
    }

    private static ArchRule frozen(ArchRule rule) {
        return freeze(rule);
    }

    private static ArchRule frozenCycles(ArchRule cycleRule) {
        return freeze(cycleRule).associateViolationLinesVia(SAME_PACKAGES);
    }

    private static String path(String cycleViolation) {
        String path = cycleViolation.split("Dependencies of", 2)[0];
        return path.replaceAll("\\s+", " ").replaceFirst(" 1\\. ?$", "").trim();
    }
}
