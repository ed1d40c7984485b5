package dev.portico.control.store;

import dev.portico.control.definition.VhostMapper;
import dev.portico.control.definition.VhostView;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.CollectionTable;
import jakarta.persistence.Column;
import jakarta.persistence.ElementCollection;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

/** A vhost row. {@code definition} is the normalised {@link dev.portico.control.definition.VhostDefinition} as JSON. */
@Entity
@Table(name = "vhost")
public class VhostEntity extends PanacheEntityBase {

    /** The version of a newly created vhost. */
    public static final long FIRST_VERSION = 1;

    @Id
    public UUID id;

    @Column(nullable = false, length = 63)
    public String name;

    @Column(nullable = false)
    public boolean enabled;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false, columnDefinition = "jsonb")
    public String definition;

    /**
     * Starts at {@link #FIRST_VERSION} and goes up by one with every committed change; the API shows it as
     * {@code version} and as the ETag. (Hibernate would otherwise store a new primitive version as 0.)
     */
    @Version
    public long version = FIRST_VERSION;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    @ElementCollection(fetch = FetchType.EAGER)
    @CollectionTable(name = "vhost_hostname", joinColumns = @JoinColumn(name = "vhost_id"))
    @Column(name = "hostname", nullable = false)
    public Set<String> hostnames = new HashSet<>();

    /** This row as the API shows it. */
    public VhostView toView() {
        return VhostMapper.toView(id, version, definition, createdAt, updatedAt);
    }
}
