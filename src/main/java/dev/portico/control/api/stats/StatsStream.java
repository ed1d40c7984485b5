package dev.portico.control.api.stats;

import dev.portico.proxy.core.outcome.CircuitReport;
import dev.portico.proxy.core.outcome.UpstreamReport;
import dev.portico.proxy.route.UpstreamHealthService;
import dev.portico.telemetry.Drops;
import dev.portico.telemetry.stats.LiveStats;
import dev.portico.telemetry.stats.StatsAggregator;
import jakarta.inject.Singleton;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import jakarta.ws.rs.sse.SseEventSink;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The subscribers of {@code /api/v1/stats/stream}. Each interval every subscriber gets one event, unless its
 * previous event is still being written: a slow client has its events dropped (and counted), it never makes
 * anything queue or wait. Closed connections are forgotten on the next interval.
 */
@Singleton
public class StatsStream {

    /** A comment line this often keeps idle proxies between client and Portico from closing the stream. */
    static final int HEARTBEAT_EVERY_INTERVALS = 10;
    /** Upstream events waiting for a slow subscriber; more are dropped and counted. */
    static final int MAX_QUEUED_TRANSITIONS = 100;

    private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
    private final Drops drops;
    private long intervals;

    public StatsStream(StatsAggregator aggregator, Drops drops, UpstreamHealthService upstreamHealth) {
        this.drops = drops;
        aggregator.onInterval(this::publish);
        upstreamHealth.onTransition(this::publishTransition);
        upstreamHealth.onCircuitTransition(this::publishTransition);
    }

    private void publishTransition(UpstreamReport.Transition transition) {
        publishTransition("upstream", transition.vhost(), UpstreamEvent.class, UpstreamEvent.of(transition));
    }

    private void publishTransition(CircuitReport.Transition transition) {
        publishTransition("circuit", transition.vhost(), CircuitEvent.class, CircuitEvent.of(transition));
    }

    /**
     * An upstream or a circuit breaker changed state: an {@code upstream} or {@code circuit} event to every subscriber
     * (of that vhost, when filtered). Never dropped while a stats event is being written: it waits, in a short queue,
     * to go right after it.
     */
    private <T> void publishTransition(String name, String vhost, Class<T> type, T data) {
        for (Subscriber subscriber : subscribers) {
            if (subscriber.vhost == null || subscriber.vhost.isBlank() || subscriber.vhost.equals(vhost)) {
                subscriber.offerTransition(subscriber.sse.newEventBuilder()
                        .name(name)
                        .mediaType(MediaType.APPLICATION_JSON_TYPE)
                        .data(type, data)
                        .build());
            }
        }
    }

    /** Registers a stream and sends it the latest interval right away. */
    void subscribe(SseEventSink sink, Sse sse, String vhost, LiveStats latest) {
        Subscriber subscriber = new Subscriber(sink, sse, vhost);
        subscribers.add(subscriber);
        subscriber.offer(event(sse, latest, vhost), null);
    }

    /** Open streams now. */
    public int subscriberCount() {
        subscribers.removeIf(Subscriber::closed);
        return subscribers.size();
    }

    private void publish(LiveStats stats) {
        boolean heartbeat = ++intervals % HEARTBEAT_EVERY_INTERVALS == 0;
        for (Subscriber subscriber : subscribers) {
            if (subscriber.closed()) {
                subscribers.remove(subscriber);
                continue;
            }
            OutboundSseEvent event = event(subscriber.sse, stats, subscriber.vhost);
            subscriber.offer(event, heartbeat ? subscriber.sse.newEventBuilder().comment("heartbeat").build() : null);
        }
    }

    static LiveStats filter(LiveStats stats, String vhost) {
        if (vhost == null || vhost.isBlank()) {
            return stats;
        }
        return new LiveStats(stats.sequence(), stats.time(), stats.intervalSeconds(), stats.connections(),
                stats.total(), stats.vhosts().stream().filter(v -> v.vhost().equals(vhost)).toList(),
                stats.dropped());
    }

    private static OutboundSseEvent event(Sse sse, LiveStats stats, String vhost) {
        return sse.newEventBuilder()
                .id(Long.toString(stats.sequence()))
                .name("stats")
                .mediaType(MediaType.APPLICATION_JSON_TYPE)
                .data(LiveStats.class, filter(stats, vhost))
                .build();
    }

    private final class Subscriber {
        private final SseEventSink sink;
        private final Sse sse;
        private final String vhost;
        private final OneInFlight sender = new OneInFlight(this::failed, drops);
        private final Queue<OutboundSseEvent> transitions = new ConcurrentLinkedQueue<>();

        Subscriber(SseEventSink sink, Sse sse, String vhost) {
            this.sink = sink;
            this.sse = sse;
            this.vhost = vhost;
        }

        boolean closed() {
            return sender.failed() || sink.isClosed();
        }

        /** Sends the event and, when given, a comment right after it, as one write in flight. */
        void offer(OutboundSseEvent event, OutboundSseEvent comment) {
            sender.offer(() -> (comment == null ? sink.send(event)
                    : sink.send(event).thenCompose(sent -> sink.send(comment))).thenCompose(sent -> sendTransitions()));
        }

        /** Queues the event, and sends it now unless a write is in progress (it then goes after that one). */
        void offerTransition(OutboundSseEvent event) {
            if (transitions.size() >= MAX_QUEUED_TRANSITIONS) {
                drops.add(Drops.Kind.SSE_EVENTS, 1);
                return;
            }
            transitions.add(event);
            sender.tryOffer(this::sendTransitions);
        }

        private CompletionStage<?> sendTransitions() {
            OutboundSseEvent next = transitions.poll();
            return next == null ? CompletableFuture.completedFuture(null)
                    : sink.send(next).thenCompose(sent -> sendTransitions());
        }

        private void failed() {
            subscribers.remove(this);
            sink.close();
        }
    }
}
