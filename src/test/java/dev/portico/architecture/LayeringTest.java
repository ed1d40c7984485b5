package dev.portico.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** The seams the design depends on, checked on the compiled classes. */
class LayeringTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.portico");

    @Test
    void theDataPlaneNeverTouchesBlockingPersistence() {
        noClasses().that().resideInAPackage("dev.portico.dataplane..")
                .should().dependOnClassesThat().resideInAnyPackage("jakarta.persistence..", "java.sql..",
                        "org.hibernate..", "io.quarkus.hibernate..", "io.agroal..", "jakarta.transaction..",
                        "io.quarkus.narayana..")
                .check(CLASSES);
    }

    @Test
    void theDataPlaneDoesNotReachIntoTheManagementLayer() {
        noClasses().that().resideInAPackage("dev.portico.dataplane..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.portico.management..", "jakarta.ws.rs..")
                .check(CLASSES);
    }

    @Test
    void snapshotsAreBuiltWithoutKnowingTheDatabase() {
        noClasses().that().resideInAPackage("dev.portico.config..")
                .and().doNotHaveSimpleName("ConfigChangeListener")
                .should().dependOnClassesThat().resideInAnyPackage("dev.portico.management..", "jakarta.persistence..",
                        "org.hibernate..")
                .check(CLASSES);
    }

    @Test
    void nothingBlocksOnLocksInTheDataPlane() {
        noClasses().that().resideInAPackage("dev.portico.dataplane..")
                .and().doNotHaveSimpleName("DataPlaneServer")
                .should().dependOnClassesThat().resideInAnyPackage("java.util.concurrent.locks..")
                .orShould().callMethod(Thread.class, "sleep", long.class)
                .check(CLASSES);
    }
}
