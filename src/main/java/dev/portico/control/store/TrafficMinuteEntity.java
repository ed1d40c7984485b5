package dev.portico.control.store;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/** A {@code traffic_minute} row: one vhost's traffic in one bucket; top lists are JSON arrays of {@link TopItem}. */
@Entity
@Table(name = "traffic_minute")
@IdClass(TrafficMinuteEntity.Key.class)
public class TrafficMinuteEntity extends PanacheEntityBase {

    @Id
    @Column(name = "vhost_id")
    public UUID vhostId;

    @Id
    @Column(name = "minute")
    public Instant minute;

    @Column(nullable = false)
    public long requests;

    @Column(name = "bytes_in", nullable = false)
    public long bytesIn;

    @Column(name = "bytes_out", nullable = false)
    public long bytesOut;

    @Column(name = "status_1xx", nullable = false)
    public long status1xx;

    @Column(name = "status_2xx", nullable = false)
    public long status2xx;

    @Column(name = "status_3xx", nullable = false)
    public long status3xx;

    @Column(name = "status_4xx", nullable = false)
    public long status4xx;

    @Column(name = "status_5xx", nullable = false)
    public long status5xx;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "top_paths", nullable = false, columnDefinition = "jsonb")
    public String topPaths;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "top_clients", nullable = false, columnDefinition = "jsonb")
    public String topClients;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "top_agents", nullable = false, columnDefinition = "jsonb")
    public String topAgents;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "top_referrers", nullable = false, columnDefinition = "jsonb")
    public String topReferrers;

    /** The primary key: vhost and bucket start. */
    public static class Key implements Serializable {
        public UUID vhostId;
        public Instant minute;

        public Key() {
        }

        public Key(UUID vhostId, Instant minute) {
            this.vhostId = vhostId;
            this.minute = minute;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key other && Objects.equals(vhostId, other.vhostId)
                    && Objects.equals(minute, other.minute);
        }

        @Override
        public int hashCode() {
            return Objects.hash(vhostId, minute);
        }
    }
}
