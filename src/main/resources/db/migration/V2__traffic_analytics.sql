-- Traffic analytics: one row per vhost and minute (portico.analytics.bucket; a minute unless changed for tests).
-- The top lists are JSON arrays of {"key", "count"} (agents also carry "class"), highest count first. A row is
-- never written twice in place: a replica, or a restart, that writes the same vhost and minute again adds its
-- counts to the row and merges the top lists, so nothing conflicts and nothing is lost.
create table traffic_minute (
    vhost_id       uuid         not null references vhost (id) on delete cascade,
    minute         timestamptz  not null,
    requests       bigint       not null,
    bytes_in       bigint       not null,
    bytes_out      bigint       not null,
    status_1xx     bigint       not null,
    status_2xx     bigint       not null,
    status_3xx     bigint       not null,
    status_4xx     bigint       not null,
    status_5xx     bigint       not null,
    top_paths      jsonb        not null,
    top_clients    jsonb        not null,
    top_agents     jsonb        not null,
    top_referrers  jsonb        not null,
    constraint traffic_minute_pkey primary key (vhost_id, minute)
);

-- Retention deletes by age across every vhost.
create index traffic_minute_minute_idx on traffic_minute (minute);
