package dev.portico.testing;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.dns.DatagramDnsQuery;
import io.netty.handler.codec.dns.DatagramDnsQueryDecoder;
import io.netty.handler.codec.dns.DatagramDnsResponse;
import io.netty.handler.codec.dns.DatagramDnsResponseEncoder;
import io.netty.handler.codec.dns.DefaultDnsQuestion;
import io.netty.handler.codec.dns.DefaultDnsRawRecord;
import io.netty.handler.codec.dns.DnsQuestion;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.handler.codec.dns.DnsResponseCode;
import io.netty.handler.codec.dns.DnsSection;
import io.netty.util.NetUtil;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real DNS server on a loopback UDP port for tests of upstream name resolution: answers A queries for the names a
 * test sets, with the TTL it sets, NXDOMAIN for the rest; it can be told to stop answering (a DNS outage: the
 * client's query times out).
 */
public final class LoopbackDns implements AutoCloseable {

    /** The A records of one name and their TTL. */
    private record Answer(List<String> addresses, long ttlSeconds) {
    }

    private final EventLoopGroup group = new NioEventLoopGroup(1);
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final AtomicInteger queries = new AtomicInteger();
    private volatile boolean silent;
    private final Channel channel;

    private LoopbackDns() throws InterruptedException {
        channel = new Bootstrap().group(group).channel(NioDatagramChannel.class)
                .handler(new ChannelInitializer<NioDatagramChannel>() {
                    @Override
                    protected void initChannel(NioDatagramChannel ch) {
                        ch.pipeline().addLast(new DatagramDnsQueryDecoder(), new DatagramDnsResponseEncoder(),
                                new Responder());
                    }
                }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    public static LoopbackDns start() {
        try {
            return new LoopbackDns();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** {@code host:port}, as {@code portico.upstream.dns.servers} takes it. */
    public String address() {
        return "127.0.0.1:" + ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** From now on {@code name} has these A records with this TTL. */
    public void answer(String name, long ttlSeconds, String... addresses) {
        answers.put(name.toLowerCase(), new Answer(List.of(addresses), ttlSeconds));
    }

    /** Stops answering anything (true) or answers again (false). */
    public void silent(boolean silent) {
        this.silent = silent;
    }

    /** Queries received so far. */
    public int queries() {
        return queries.get();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS);
    }

    private final class Responder extends SimpleChannelInboundHandler<DatagramDnsQuery> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, DatagramDnsQuery query) {
            queries.incrementAndGet();
            if (silent) {
                return;
            }
            DnsQuestion question = query.recordAt(DnsSection.QUESTION);
            DatagramDnsResponse response = new DatagramDnsResponse(query.recipient(), query.sender(), query.id());
            response.setRecursionAvailable(true);
            response.addRecord(DnsSection.QUESTION, new DefaultDnsQuestion(question.name(), question.type()));
            String name = question.name().endsWith(".") ? question.name().substring(0, question.name().length() - 1)
                    : question.name();
            Answer answer = answers.get(name.toLowerCase());
            if (answer == null) {
                response.setCode(DnsResponseCode.NXDOMAIN);
            } else if (question.type() == DnsRecordType.A) {
                for (String address : answer.addresses()) {
                    response.addRecord(DnsSection.ANSWER, new DefaultDnsRawRecord(question.name(), DnsRecordType.A,
                            answer.ttlSeconds(), Unpooled.wrappedBuffer(NetUtil.createByteArrayFromIpAddressString(
                                    address))));
                }
            }
            ctx.writeAndFlush(response);
        }
    }
}
