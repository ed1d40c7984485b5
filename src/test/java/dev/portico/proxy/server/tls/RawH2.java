package dev.portico.proxy.server.tls;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;


/**
 * A hostile HTTP/2 client: writes frames byte by byte as an attacker would (no flow control, no HPACK state of its
 * own beyond literals and the static table), and reads what the server sends back until its GOAWAY.
 */
public final class RawH2 implements AutoCloseable {

    public static final int DATA = 0x0;
    public static final int HEADERS = 0x1;
    public static final int RST_STREAM = 0x3;
    public static final int SETTINGS = 0x4;
    public static final int PING = 0x6;
    public static final int GOAWAY = 0x7;
    public static final int WINDOW_UPDATE = 0x8;
    public static final int CONTINUATION = 0x9;
    public static final int END_STREAM = 0x1;
    public static final int END_HEADERS = 0x4;
    public static final long ENHANCE_YOUR_CALM = 0xb;
    public static final long CANCEL = 0x8;

    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;

    /** Connects over TLS, negotiates h2 and sends the preface with {@code settings} (pairs of id, value). */
    RawH2(int port, String serverName, int receiveBuffer, int... settings) throws Exception {
        this(TlsClients.h2(port, serverName, receiveBuffer), settings);
    }

    /** Connects in cleartext to a listener that takes h2c with prior knowledge, and sends the preface. */
    public static RawH2 cleartext(int port, int... settings) throws IOException {
        return new RawH2(new Socket(InetAddress.getLoopbackAddress(), port), settings);
    }

    private RawH2(Socket socket, int... settings) throws IOException {
        this.socket = socket;
        out = socket.getOutputStream();
        in = new DataInputStream(socket.getInputStream());
        out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        byte[] payload = new byte[settings.length / 2 * 6];
        for (int i = 0; i < settings.length / 2; i++) {
            int id = settings[2 * i];
            int value = settings[2 * i + 1];
            payload[6 * i] = (byte) (id >>> 8);
            payload[6 * i + 1] = (byte) id;
            payload[6 * i + 2] = (byte) (value >>> 24);
            payload[6 * i + 3] = (byte) (value >>> 16);
            payload[6 * i + 4] = (byte) (value >>> 8);
            payload[6 * i + 5] = (byte) value;
        }
        frame(SETTINGS, 0, 0, payload);
        out.flush();
    }

    /** One frame, buffered until {@link #flush}. */
    public void frame(int type, int flags, int stream, byte[] payload) throws IOException {
        byte[] head = {(byte) (payload.length >>> 16), (byte) (payload.length >>> 8), (byte) payload.length,
            (byte) type, (byte) flags, (byte) (stream >>> 24), (byte) (stream >>> 16), (byte) (stream >>> 8),
            (byte) stream};
        out.write(head);
        out.write(payload);
    }

    /** How long {@link #next} waits for a frame. */
    public void readTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    public void flush() throws IOException {
        out.flush();
    }

    /** A complete GET request head for {@code authority} (static-table entries and literals, no indexing). */
    public static byte[] get(String authority, String path) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.write(0x82); // :method GET
        block.write(0x87); // :scheme https
        literal(block, 1, authority); // :authority
        literal(block, 4, path); // :path
        return block.toByteArray();
    }

    /** A literal field without indexing whose name is static-table entry {@code nameIndex}. */
    static void literal(ByteArrayOutputStream block, int nameIndex, String value) {
        block.write(nameIndex); // 0000xxxx: literal without indexing, indexed name (index < 15)
        writeString(block, value);
    }

    /** A literal field with incremental indexing and a new name: it enters the dynamic table (index 62). */
    static void indexedLiteral(ByteArrayOutputStream block, String name, String value) {
        block.write(0x40);
        writeString(block, name);
        writeString(block, value);
    }

    /** An HPACK string literal, not Huffman-coded, with its length as a 7-bit prefixed integer. */
    static void writeString(ByteArrayOutputStream block, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.ISO_8859_1);
        int length = bytes.length;
        if (length < 127) {
            block.write(length);
        } else {
            block.write(127);
            length -= 127;
            while (length >= 128) {
                block.write((length & 0x7f) | 0x80);
                length >>>= 7;
            }
            block.write(length);
        }
        block.write(bytes, 0, bytes.length);
    }

    /** A WINDOW_UPDATE's payload: {@code bytes} more the sender may send. */
    public static byte[] windowIncrement(int bytes) {
        return errorCode(bytes);
    }

    public static byte[] errorCode(long code) {
        return new byte[] {(byte) (code >>> 24), (byte) (code >>> 16), (byte) (code >>> 8), (byte) code};
    }

    /** A frame the server sent. */
    public record Frame(int type, int flags, int stream, byte[] payload) {
        /** The error code of a GOAWAY or RST_STREAM. */
        public long errorCode() {
            int at = type == GOAWAY ? 4 : 0;
            return (payload[at] & 0xffL) << 24 | (payload[at + 1] & 0xffL) << 16 | (payload[at + 2] & 0xffL) << 8
                    | (payload[at + 3] & 0xffL);
        }
    }

    /** The next frame; null when the connection ended (reset or closed) or nothing came within the timeout. */
    public Frame next() throws IOException {
        try {
            int length = in.readUnsignedByte() << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
            int type = in.readUnsignedByte();
            int flags = in.readUnsignedByte();
            int stream = in.readInt() & 0x7fffffff;
            byte[] payload = new byte[length];
            in.readFully(payload);
            return new Frame(type, flags, stream, payload);
        } catch (EOFException | SocketException | SocketTimeoutException | javax.net.ssl.SSLException ended) {
            return null;
        }
    }

    /** Reads frames until one of {@code type} on {@code stream} (any stream for -1); null if none came. */
    public Frame await(int type, int stream) throws IOException {
        for (Frame frame = next(); frame != null; frame = next()) {
            if (frame.type() == type && (stream < 0 || frame.stream() == stream)) {
                return frame;
            }
        }
        return null;
    }

    /** The error code of the server's GOAWAY; -1 when the connection ended without one. */
    public long awaitGoAway() throws IOException {
        Frame goAway = await(GOAWAY, -1);
        return goAway == null ? -1 : goAway.errorCode();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
