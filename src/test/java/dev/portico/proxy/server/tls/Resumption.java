package dev.portico.proxy.server.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code openssl s_client} saving a session ({@code -sess_out}) and offering it again ({@code -sess_in}), possibly
 * to another listener: what a client resuming its session on another replica does. Each connection sends a request
 * and waits for the server to close ({@code -ign_eof}): under TLS 1.3 the session ticket arrives after the
 * handshake, and a client that hangs up at once never reads it.
 */
final class Resumption {

    private final Path session;
    private final String serverName;
    private final String protocol;

    /** @param protocol {@code TLSv1.2} or {@code TLSv1.3}: the only one offered */
    Resumption(String serverName, String protocol) throws IOException {
        this.session = Files.createTempFile("portico-session", ".pem");
        this.serverName = serverName;
        this.protocol = protocol;
    }

    /** Makes a full handshake with the listener on {@code port} and keeps its session (ticket included). */
    void start(int port) throws Exception {
        String output = run(port, "-sess_out", session.toString());
        if (!output.contains("New, " + protocol) || Files.size(session) == 0) {
            throw new AssertionError("no session of " + protocol + " was saved: " + output);
        }
    }

    /** Offers the kept session to the listener on {@code port}: whether it was resumed ({@code Reused}). */
    boolean resumesOn(int port) throws Exception {
        String output = run(port, "-sess_in", session.toString());
        if (output.contains("Reused, " + protocol)) {
            return true;
        }
        if (output.contains("New, " + protocol)) {
            return false;
        }
        throw new AssertionError("no " + protocol + " handshake: " + output);
    }

    private String run(int port, String... sessionOptions) throws Exception {
        List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-connect", "127.0.0.1:" + port,
                "-servername", serverName, "TLSv1.3".equals(protocol) ? "-tls1_3" : "-tls1_2", "-ign_eof"));
        command.addAll(List.of(sessionOptions));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().write(("GET / HTTP/1.1\r\nHost: " + serverName + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroy();
            throw new AssertionError("openssl s_client did not end: " + output);
        }
        return output;
    }
}
