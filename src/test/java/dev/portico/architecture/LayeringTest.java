package dev.portico.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** The seams the design depends on, checked on the compiled classes. */
class LayeringTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.portico");

    @Test
    void theDataPlaneNeverTouchesBlockingPersistence() {
        noClasses().that().resideInAnyPackage("dev.portico.proxy..", "dev.portico.http..")
                .should().dependOnClassesThat().resideInAnyPackage("jakarta.persistence..", "java.sql..",
                        "org.hibernate..", "io.quarkus.hibernate..", "io.agroal..", "jakarta.transaction..",
                        "io.quarkus.narayana..")
                .check(CLASSES);
    }

    @Test
    void theDataPlaneDoesNotReachIntoTheManagementLayer() {
        noClasses().that().resideInAnyPackage("dev.portico.proxy..", "dev.portico.http..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.portico.control..", "jakarta.ws.rs..")
                .check(CLASSES);
    }

    @Test
    void snapshotsAreBuiltWithoutKnowingTheDatabase() {
        noClasses().that().resideInAnyPackage("dev.portico.vhost..", "dev.portico.proxy.route..",
                        "dev.portico.control.snapshot..", "dev.portico.control.replicas..", "dev.portico.config..")
                .and().doNotHaveSimpleName("ReplicaListener")
                .should().dependOnClassesThat().resideInAnyPackage("dev.portico.control.api..",
                        "dev.portico.control.definition..", "dev.portico.control.store..",
                        "dev.portico.control.health..", "jakarta.persistence..", "org.hibernate..")
                .check(CLASSES);
    }

    @Test
    void nothingBlocksOnLocksInTheDataPlane() {
        noClasses().that().resideInAnyPackage("dev.portico.proxy..", "dev.portico.http..")
                .and().doNotHaveSimpleName("DataPlaneServer")
                .should().dependOnClassesThat().resideInAnyPackage("java.util.concurrent.locks..")
                .orShould().callMethod(Thread.class, "sleep", long.class)
                .check(CLASSES);
    }

    /**
     * Event loops never touch the disk themselves: file I/O goes through Vert.x's asynchronous file system and
     * {@code sendFile}, and the blocking lookups of static files live in one class that runs on the file worker pool.
     */
    @Test
    void onlyTheFileProbeUsesBlockingFileApisInTheDataPlane() {
        noClasses().that().resideInAnyPackage("dev.portico.proxy..", "dev.portico.http..")
                .and().doNotHaveFullyQualifiedName("dev.portico.proxy.files.offloop.FileProbe")
                .should().dependOnClassesThat().belongToAnyOf(File.class, Files.class, FileInputStream.class,
                        FileOutputStream.class, RandomAccessFile.class, FileChannel.class, DirectoryStream.class)
                .orShould().callMethod(Path.class, "toRealPath", LinkOption[].class)
                .orShould().callMethod(Path.class, "toFile")
                .check(CLASSES);
    }
}
