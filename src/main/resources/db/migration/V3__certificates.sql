-- Which key encrypts secrets (private keys): only its id, an HMAC of a fixed label, never the key. A replica or a
-- restart with another key is refused while sealed rows exist.
create table secret_key_check (
    id          smallint    primary key check (id = 1),
    key_id      varchar(16) not null,
    created_at  timestamptz not null default now()
);

-- A certificate and its private key. The chain is public and kept as PEM; the key is sealed with AES-256-GCM
-- (SecretBox) and bound to the row's id. The leaf's metadata is copied out for listing without parsing.
create table certificate (
    id                  uuid         primary key,
    names               jsonb        not null,
    subject             text         not null,
    issuer              text         not null,
    not_before          timestamptz  not null,
    not_after           timestamptz  not null,
    sha256_fingerprint  varchar(64)  not null,
    key_type            varchar(16)  not null,
    source              varchar(16)  not null,
    chain_pem           text         not null,
    key_ciphertext      bytea        not null,
    created_at          timestamptz  not null
);
