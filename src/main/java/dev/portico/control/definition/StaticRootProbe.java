package dev.portico.control.definition;

import dev.portico.control.api.error.FieldError;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Whether a vhost's {@code static.root} can be served from now. A root that is not there yet is accepted, because
 * deployments often create it after the vhost, but it is reported: as a warning on the vhost and in
 * {@code /api/v1/status}, since until it exists no file is served (requests go to the upstreams, or get 404).
 */
public final class StaticRootProbe {

    private StaticRootProbe() {
    }

    /** Null when the root is a readable directory (symbolic links followed, as the data plane does), else why not. */
    public static String problem(String root) {
        Path path = Path.of(root);
        if (!Files.exists(path)) {
            return "does not exist";
        }
        if (!Files.isDirectory(path)) {
            return "is not a directory";
        }
        return Files.isReadable(path) && Files.isExecutable(path) ? null : "cannot be read by the Portico process";
    }

    /** The warnings of a normalised definition: none, or one for {@code static.root}. */
    static List<FieldError> warnings(VhostDefinition definition) {
        if (definition.staticFiles() == null || definition.staticFiles().root() == null) {
            return List.of();
        }
        String problem = problem(definition.staticFiles().root());
        return problem == null ? List.of() : List.of(new FieldError("static.root", problem
                + ": no file is served until it is a readable directory (requests go to the upstreams, or get 404 "
                + "without upstreams)"));
    }
}
