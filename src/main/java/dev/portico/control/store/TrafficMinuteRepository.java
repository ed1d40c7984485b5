package dev.portico.control.store;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** {@code traffic_minute} rows. */
@ApplicationScoped
public class TrafficMinuteRepository implements PanacheRepositoryBase<TrafficMinuteEntity, TrafficMinuteEntity.Key> {

    /** The row of a vhost and bucket, locked until the transaction ends; null when there is none. */
    public TrafficMinuteEntity lock(UUID vhostId, Instant minute) {
        return findById(new TrafficMinuteEntity.Key(vhostId, minute), LockModeType.PESSIMISTIC_WRITE);
    }

    /**
     * Inserts the row unless the vhost and bucket already have one (another replica, an earlier write) or the vhost
     * was deleted meanwhile.
     *
     * @return whether the row was inserted
     */
    public boolean insertIfAbsent(TrafficMinuteEntity row) {
        return getEntityManager().createNativeQuery("""
                        insert into traffic_minute (vhost_id, minute, requests, bytes_in, bytes_out, status_1xx,
                            status_2xx, status_3xx, status_4xx, status_5xx, top_paths, top_clients, top_agents,
                            top_referrers)
                        select cast(:vhost as uuid), :minute, :requests, :bytesIn, :bytesOut, :s1, :s2, :s3, :s4, :s5,
                            cast(:paths as jsonb), cast(:clients as jsonb), cast(:agents as jsonb),
                            cast(:referrers as jsonb)
                        where exists (select 1 from vhost where id = cast(:vhost as uuid))
                        on conflict (vhost_id, minute) do nothing""")
                .setParameter("vhost", row.vhostId.toString())
                .setParameter("minute", row.minute)
                .setParameter("requests", row.requests)
                .setParameter("bytesIn", row.bytesIn)
                .setParameter("bytesOut", row.bytesOut)
                .setParameter("s1", row.status1xx)
                .setParameter("s2", row.status2xx)
                .setParameter("s3", row.status3xx)
                .setParameter("s4", row.status4xx)
                .setParameter("s5", row.status5xx)
                .setParameter("paths", row.topPaths)
                .setParameter("clients", row.topClients)
                .setParameter("agents", row.topAgents)
                .setParameter("referrers", row.topReferrers)
                .executeUpdate() == 1;
    }

    /** A vhost's buckets that start in {@code [from, to)}, oldest first. */
    public List<TrafficMinuteEntity> range(UUID vhostId, Instant from, Instant to) {
        return list("vhostId = ?1 and minute >= ?2 and minute < ?3", Sort.by("minute"), vhostId, from, to);
    }

    /** Deletes every bucket that starts before {@code cutoff}; returns how many. */
    public long deleteBefore(Instant cutoff) {
        return delete("minute < ?1", cutoff);
    }
}
