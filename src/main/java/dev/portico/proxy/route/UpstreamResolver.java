package dev.portico.proxy.route;

import dev.portico.proxy.upstream.UpstreamSettings;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.dns.DefaultDnsQuestion;
import io.netty.handler.codec.dns.DnsRawRecord;
import io.netty.handler.codec.dns.DnsRecord;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.resolver.HostsFileEntriesResolver;
import io.netty.resolver.ResolvedAddressTypes;
import io.netty.resolver.dns.DnsNameResolver;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.DnsServerAddressStreamProvider;
import io.netty.resolver.dns.DnsServerAddressStreamProviders;
import io.netty.resolver.dns.NoopDnsCache;
import io.netty.resolver.dns.NoopDnsCnameCache;
import io.netty.resolver.dns.SequentialDnsServerAddressStreamProvider;
import io.netty.util.NetUtil;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Resolves upstream host names off the request path and keeps their addresses for the snapshot compiler
 * ({@link UpstreamAddresses}): each answer is kept for its TTL, bounded by {@code portico.upstream.dns.min-ttl} and
 * {@code max-ttl}, then asked again; a name whose query fails keeps its last addresses (the upstreams stay as they
 * were) and is asked again at the minimum TTL, its problem reported by {@link #problems()}. Names in
 * {@code /etc/hosts} are read from there. Queries go out from a thread of their own and never wait: a caller gets a
 * future of whether anything changed ({@link #refresh}); the control plane waits for it and recompiles.
 */
@Singleton
public class UpstreamResolver {

    private static final Logger LOG = Logger.getLogger(UpstreamResolver.class);

    /** A name's last good answer, when to ask again, and what went wrong last time (null when nothing). */
    private record Entry(List<InetAddress> addresses, long refreshAtNanos, Problem problem) {
    }

    /** A name whose last query failed, since when, and why. */
    public record Problem(String name, String error, Instant since) {
    }

    private final long minTtlNanos;
    private final long maxTtlNanos;
    private final EventLoopGroup loop;
    private final DnsNameResolver resolver;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private volatile UpstreamAddresses current = UpstreamAddresses.NONE;

    public UpstreamResolver(UpstreamSettings settings) {
        UpstreamSettings.Dns dns = settings.dns();
        this.minTtlNanos = dns.minTtl().toNanos();
        this.maxTtlNanos = Math.max(minTtlNanos, dns.maxTtl().toNanos());
        // A thread of its own: the data plane's loops may be epoll ones, and a query must never share their time.
        this.loop = new NioEventLoopGroup(1, new DefaultThreadFactory("portico-dns", true));
        DnsNameResolverBuilder builder = new DnsNameResolverBuilder(loop.next())
                .datagramChannelType(NioDatagramChannel.class)
                .queryTimeoutMillis(Math.max(1, dns.timeout().toMillis()))
                // Every answer is this class's to keep, by its TTL: Netty caching it too would hide changes.
                .resolveCache(NoopDnsCache.INSTANCE)
                .cnameCache(NoopDnsCnameCache.INSTANCE);
        builder.nameServerProvider(dns.servers().map(UpstreamResolver::servers)
                .orElseGet(DnsServerAddressStreamProviders::platformDefault));
        this.resolver = builder.build();
    }

    private static DnsServerAddressStreamProvider servers(List<String> servers) {
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (String server : servers) {
            String text = server.trim();
            int colon = text.lastIndexOf(':');
            boolean withPort = colon > 0 && text.indexOf(':') == colon;
            String host = withPort ? text.substring(0, colon) : text;
            int port = withPort ? Integer.parseInt(text.substring(colon + 1)) : 53;
            addresses.add(new InetSocketAddress(host, port));
        }
        return new SequentialDnsServerAddressStreamProvider(addresses);
    }

    /** What the compiler expands upstream host names into now. */
    public UpstreamAddresses addresses() {
        return current;
    }

    /** Names whose last query failed (they keep their last addresses). */
    public List<Problem> problems() {
        List<Problem> problems = new ArrayList<>();
        for (Entry entry : entries.values()) {
            if (entry.problem() != null) {
                problems.add(entry.problem());
            }
        }
        problems.sort(Comparator.comparing(Problem::name));
        return problems;
    }

    /**
     * Asks again for every name in {@code names} whose answer is due, and forgets names no longer used.
     *
     * @param names the host names of the upstreams now (IP literals are skipped)
     * @return a future of whether {@link #addresses()} changed once every query is answered or failed
     */
    public CompletableFuture<Boolean> refresh(Set<String> names) {
        entries.keySet().retainAll(names);
        long now = System.nanoTime();
        List<CompletableFuture<Void>> queries = new ArrayList<>();
        for (String name : names) {
            if (NetUtil.isValidIpV4Address(name) || NetUtil.isValidIpV6Address(name)) {
                continue;
            }
            Entry entry = entries.get(name);
            if (entry != null && now - entry.refreshAtNanos() < 0) {
                continue;
            }
            InetAddress fromHosts = HostsFileEntriesResolver.DEFAULT.address(name, ResolvedAddressTypes.IPV4_PREFERRED);
            if (fromHosts != null) {
                entries.put(name, new Entry(List.of(fromHosts), now + maxTtlNanos, null));
                continue;
            }
            queries.add(query(name, DnsRecordType.A)
                    .thenCompose(answer -> answer.addresses().isEmpty() ? query(name, DnsRecordType.AAAA)
                            : CompletableFuture.completedFuture(answer))
                    .handle((answer, failure) -> {
                        remember(name, answer, failure);
                        return null;
                    }));
        }
        return CompletableFuture.allOf(queries.toArray(new CompletableFuture[0])).thenApply(done -> publish());
    }

    /** One query's addresses, and the smallest TTL among them. */
    private record Answer(List<InetAddress> addresses, long ttlSeconds) {
    }

    private CompletableFuture<Answer> query(String name, DnsRecordType type) {
        CompletableFuture<Answer> answer = new CompletableFuture<>();
        resolver.resolveAll(new DefaultDnsQuestion(name, type)).addListener(done -> {
            if (!done.isSuccess()) {
                answer.completeExceptionally(done.cause());
                return;
            }
            @SuppressWarnings("unchecked")
            List<DnsRecord> records = (List<DnsRecord>) done.getNow();
            try {
                answer.complete(addressesIn(name, type, records));
            } catch (UnknownHostException | RuntimeException e) {
                answer.completeExceptionally(e);
            } finally {
                for (DnsRecord record : records) {
                    ReferenceCountUtil.release(record);
                }
            }
        });
        return answer;
    }

    /** The addresses among {@code records} (a CNAME chain's records are skipped), in a stable order. */
    private static Answer addressesIn(String name, DnsRecordType type, List<DnsRecord> records)
            throws UnknownHostException {
        List<InetAddress> addresses = new ArrayList<>();
        long ttl = Long.MAX_VALUE;
        for (DnsRecord record : records) {
            if (record.type() != type || !(record instanceof DnsRawRecord raw)) {
                continue;
            }
            ByteBuf content = raw.content();
            byte[] ip = new byte[content.readableBytes()];
            content.getBytes(content.readerIndex(), ip);
            addresses.add(InetAddress.getByAddress(name, ip));
            ttl = Math.min(ttl, record.timeToLive());
        }
        addresses.sort(Comparator.comparing(InetAddress::getHostAddress));
        return new Answer(List.copyOf(addresses), ttl == Long.MAX_VALUE ? 0 : ttl);
    }

    private void remember(String name, Answer answer, Throwable failure) {
        long now = System.nanoTime();
        Entry before = entries.get(name);
        if (failure == null && !answer.addresses().isEmpty()) {
            long ttl = Math.min(maxTtlNanos, Math.max(minTtlNanos, Duration.ofSeconds(answer.ttlSeconds()).toNanos()));
            if (before != null && before.problem() != null) {
                LOG.infof("Upstream host %s resolves again: %s", name, text(answer.addresses()));
            }
            entries.put(name, new Entry(answer.addresses(), now + ttl, null));
            return;
        }
        String error = failure == null ? "no address records" : rootMessage(failure);
        Problem problem = before != null && before.problem() != null ? before.problem()
                : new Problem(name, error, Instant.now());
        if (before == null || before.problem() == null) {
            LOG.warnf("Upstream host %s could not be resolved (%s); %s", name, error,
                    before == null || before.addresses().isEmpty() ? "it is connected to by name"
                            : "its last addresses " + text(before.addresses()) + " are kept");
        }
        List<InetAddress> kept = before == null ? List.of() : before.addresses();
        entries.put(name, new Entry(kept, now + minTtlNanos, problem));
    }

    /** Makes the entries the current addresses; whether they changed. */
    private boolean publish() {
        Map<String, List<InetAddress>> byName = new HashMap<>();
        for (Map.Entry<String, Entry> entry : entries.entrySet()) {
            if (!entry.getValue().addresses().isEmpty()) {
                byName.put(entry.getKey(), entry.getValue().addresses());
            }
        }
        if (byName.equals(current.byName())) {
            return false;
        }
        current = new UpstreamAddresses(byName);
        return true;
    }

    static String text(List<InetAddress> addresses) {
        return addresses.stream().map(InetAddress::getHostAddress).toList().toString();
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        // Netty's query timeouts carry no stack trace and say so; the operator needs the first part only.
        return message.replace(" (no stack trace available)", "");
    }

    @PreDestroy
    void close() {
        resolver.close();
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}
