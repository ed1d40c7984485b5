-- Automatic certificates (ACME, RFC 8555).

-- The ACME account Portico orders with, one per directory URL. The account key pair is sealed with SecretBox
-- (context 'portico:acme-account:<directory_url>'), so a dump alone cannot act as the account; the account URL is
-- what the CA answered when the account was created, and logging in with it needs no new registration.
create table acme_account (
    directory_url   text         primary key,
    account_url     text         not null,
    email           text,
    key_ciphertext  bytea        not null,
    created_at      timestamptz  not null default now()
);
comment on table acme_account is 'ACME accounts, one per directory; the key pair is sealed (SecretBox)';

-- Which replica renews: one row, a lease rather than an advisory lock, because an ACME order outlives any one
-- connection or transaction. Taking the lease over from another holder (after expires_at) increments epoch; every
-- write the renewer makes checks its epoch is still the current one (fencing), so a stalled former holder that
-- wakes up after losing the lease cannot overwrite the new holder's work.
create table acme_lease (
    id          smallint     primary key check (id = 1),
    holder      text,
    epoch       bigint       not null default 0,
    expires_at  timestamptz  not null default '-infinity'
);
comment on table acme_lease is 'The single renewer lease; epoch fences writes of a former holder';
insert into acme_lease (id) values (1);

-- ACME orders Portico made. names_key is the order's names lower-cased, sorted and joined by ',': the unique partial
-- index below makes a second live order for the same names impossible, whichever replica tries.
create table acme_order (
    id          uuid         primary key,
    names_key   text         not null,
    state       varchar(16)  not null check (state in ('pending', 'processing', 'valid', 'invalid')),
    order_url   text,
    epoch       bigint       not null,
    created_at  timestamptz  not null default now(),
    finished_at timestamptz
);
comment on table acme_order is 'ACME orders; at most one live (pending or processing) order per set of names';
create unique index acme_order_one_live_per_names on acme_order (names_key) where state in ('pending', 'processing');

-- HTTP-01 challenge answers: GET /.well-known/acme-challenge/<token> must answer key_authorization on every replica,
-- since the CA may reach any of them. Rows are removed when the challenge is over, and expire by themselves.
create table acme_challenge (
    token              text         primary key,
    key_authorization  text         not null,
    names_key          text         not null,
    expires_at         timestamptz  not null
);
comment on table acme_challenge is 'Live HTTP-01 challenge tokens and their key authorizations, answerable by any replica';
create index acme_challenge_expires on acme_challenge (expires_at);

-- Where each ACME vhost stands, so every attempt is explained: the CA's own words for the last failure, when the
-- next attempt is due, how many failed in a row (the backoff's exponent), and the certificate currently issued.
create table acme_certificate_state (
    vhost_id         uuid         primary key references vhost (id) on delete cascade,
    state            varchar(16)  not null check (state in ('pending', 'valid', 'renewing', 'failed')),
    last_error       text,
    next_attempt_at  timestamptz  not null,
    attempts         integer      not null default 0,
    certificate_id   uuid         references certificate (id) on delete set null,
    updated_at       timestamptz  not null default now()
);
comment on table acme_certificate_state is 'Per ACME vhost: state, last error in the CA''s words, next attempt, issued certificate';
