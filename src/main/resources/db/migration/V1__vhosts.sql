-- One row: the configuration version. Every committed change to routing bumps it in the same transaction, so a
-- snapshot built after reading version N contains at least every change up to N; replicas compare it to decide
-- whether to reload.
create table config_state (
    id         smallint    primary key check (id = 1),
    version    bigint      not null,
    changed_at timestamptz not null default now()
);
insert into config_state (id, version) values (1, 0);

-- A vhost: the full normalised definition as the API shows it lives in "definition"; name, enabled and the
-- hostnames are copied out of it to carry the uniqueness rules.
create table vhost (
    id          uuid         primary key,
    name        varchar(63)  not null,
    enabled     boolean      not null,
    definition  jsonb        not null,
    version     bigint       not null,
    created_at  timestamptz  not null,
    updated_at  timestamptz  not null
);
create unique index vhost_name_key on vhost (lower(name));

create table vhost_hostname (
    hostname  varchar(255) not null,
    vhost_id  uuid         not null references vhost (id) on delete cascade,
    constraint vhost_hostname_key primary key (hostname)
);
create index vhost_hostname_vhost_idx on vhost_hostname (vhost_id);

-- The generated management token, when PORTICO_ADMIN_TOKEN is not set; only its SHA-256 is kept.
create table admin_token (
    id            smallint    primary key check (id = 1),
    token_sha256  varchar(64) not null,
    created_at    timestamptz not null default now()
);
