-- Signed-out dashboard sessions (issue 16). A session lives in its signed cookie only (SessionCookies), so nothing is
-- stored while it is valid; signing out adds a row here, and every replica refuses the session from then on: at once
-- through NOTIFY portico_session_revoked, or at its next poll (portico.reload.poll-interval). Only the SHA-256 of the
-- session id is stored, never the id or the cookie: a dump of this table cannot be turned into a cookie. A row is
-- deleted once the session would have expired anyway.
create table dashboard_session_revocation (
    session_sha256  bytea        primary key,
    expires_at      timestamptz  not null,
    revoked_at      timestamptz  not null default now()
);
create index dashboard_session_revocation_expires on dashboard_session_revocation (expires_at);
comment on table dashboard_session_revocation is 'Signed-out dashboard sessions (SHA-256 of the id) until they expire';
