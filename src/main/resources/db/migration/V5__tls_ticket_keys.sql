-- TLS session ticket keys (RFC 5077, RFC 8446 section 4.6.1), shared by every replica so that a client resumes its
-- session on whichever replica it reaches. One key per rotation period (period = floor(epoch seconds / rotation)):
-- any replica may create the key of the current and the next period ahead of time with
-- "insert ... on conflict do nothing"; the first insert wins and every replica reads the same row. The 48 bytes
-- (name 16, HMAC key 16, AES key 16) are sealed with SecretBox, context 'portico:ticket:<period>', so a dump alone
-- cannot decrypt recorded tickets. Rows older than the previous period are deleted by the rotation.
-- Unlike certificates, these rows do not pin the secret key (SecretKeySource.SEALED_TABLES): they are disposable, and
-- a row sealed by a secret key that was since replaced is simply replaced with a new key.
create table tls_ticket_key (
    period          bigint       primary key,
    key_ciphertext  bytea        not null,
    created_at      timestamptz  not null default now()
);
comment on table tls_ticket_key is 'TLS session ticket keys, one per rotation period, sealed (SecretBox)';
