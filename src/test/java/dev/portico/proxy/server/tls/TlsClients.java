package dev.portico.proxy.server.tls;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Real TLS clients for the listener's tests: the JDK's {@code SSLSocket}, and the {@code openssl s_client} command
 * where the test reads the alert a refused handshake ended with. Both trust any certificate: the tests assert which
 * one was presented, not that it chains to a root.
 */
final class TlsClients {

    private TlsClients() {
    }

    /**
     * A JDK socket to {@code port} that completed its handshake, sending {@code serverName} as SNI (null: none),
     * offering only {@code protocols} ({@code TLSv1.2}, {@code TLSv1.3}).
     */
    static SSLSocket handshake(int port, String serverName, String... protocols) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {new TrustingAnyCertificate()}, null);
        Socket plain = new Socket(InetAddress.getLoopbackAddress(), port);
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(plain, "127.0.0.1", port, true);
        socket.setSoTimeout(10_000);
        SSLParameters parameters = socket.getSSLParameters();
        List<SNIServerName> names = new ArrayList<>();
        if (serverName != null) {
            names.add(new SNIHostName(serverName));
        }
        parameters.setServerNames(names);
        parameters.setProtocols(protocols.length == 0 ? new String[] {"TLSv1.3", "TLSv1.2"} : protocols);
        socket.setSSLParameters(parameters);
        try {
            socket.startHandshake();
        } catch (IOException refused) {
            socket.close();
            throw refused;
        }
        return socket;
    }

    /**
     * A JDK socket to {@code port} that negotiated {@code h2} by ALPN with {@code serverName} as SNI; a small
     * {@code receiveBuffer} (bytes, 0 for the default) lets a test stop reading and make the server's writes back up.
     */
    static SSLSocket h2(int port, String serverName, int receiveBuffer) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {new TrustingAnyCertificate()}, null);
        Socket plain = new Socket();
        if (receiveBuffer > 0) {
            plain.setReceiveBufferSize(receiveBuffer);
        }
        plain.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(plain, "127.0.0.1", port, true);
        socket.setSoTimeout(10_000);
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setServerNames(List.of(new SNIHostName(serverName)));
        parameters.setApplicationProtocols(new String[] {"h2"});
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        if (!"h2".equals(socket.getApplicationProtocol())) {
            socket.close();
            throw new IOException("ALPN chose " + socket.getApplicationProtocol() + ", not h2");
        }
        return socket;
    }

    /** Writes {@code request} on a socket that completed its handshake and reads until the server closes. */
    static String exchange(SSLSocket socket, String request) throws IOException {
        socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }

    /** The certificate {@code socket}'s server presented (its leaf). */
    static X509Certificate presented(SSLSocket socket) throws IOException {
        return (X509Certificate) socket.getSession().getPeerCertificates()[0];
    }

    /**
     * What {@code openssl s_client} printed connecting to {@code port} with {@code options} (such as
     * {@code -servername a.test}); stdin is empty, so it ends after the handshake.
     */
    static String openssl(int port, String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of("openssl", "s_client", "-connect", "127.0.0.1:" + port));
        command.addAll(List.of(options));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(new File("/dev/null")).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroy();
            throw new AssertionError("openssl s_client did not end: " + output);
        }
        return output;
    }

    /** Extended, so the JDK does not wrap it in checks of its own. */
    private static final class TrustingAnyCertificate extends X509ExtendedTrustManager {
        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
