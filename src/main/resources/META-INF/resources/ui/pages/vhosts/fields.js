// Every field of a vhost as the API takes it (VhostDefinition), in one list the editor builds its form from, reads
// back into JSON, and fills from a GET. Sections only group the form; the key path is what the API names in errors[].
// Types: text, textarea, bool, int, number, select, list (one per line), map (Name: value per line), group (an
// object; optional groups are null until switched on) and rows (an array of objects).
// Placeholders show the server's defaults: an empty field is left out and the server fills the default in.

const SIZE = 'A size such as 512KiB, 64MiB or 1GiB';

const HEADER_RULES = [
  { key: 'set', label: 'Set', type: 'map', help: 'Name: value per line, replacing any present' },
  { key: 'add', label: 'Add', type: 'map', help: 'Name: value per line, appended' },
  { key: 'remove', label: 'Remove', type: 'list', help: 'One header name per line' },
];

export const SECTIONS = [
  {
    section: 'Basics', open: true, fields: [
      { key: 'name', label: 'Name', type: 'text', required: true,
        help: 'Unique, 1-63 of A-Z a-z 0-9 . _ - starting with a letter or digit' },
      { key: 'hostnames', label: 'Host names', type: 'list', required: true,
        help: 'One per line: exact names or *.suffix wildcards, unique across vhosts' },
      { key: 'wwwRedirect', label: 'Redirect between www and apex', type: 'select', options: ['to_apex', 'to_www'],
        help: 'to_apex sends www.name to name (308), to_www the reverse; both must be host names above' },
      { key: 'enabled', label: 'Enabled', type: 'bool', default: true,
        help: 'A disabled vhost keeps its host names and answers 404' },
      { key: 'access', label: 'IP rules', type: 'group', optional: true,
        help: 'Deny wins; then a non-empty allow list admits only what it lists (403 access_denied)', fields: [
          { key: 'allow', label: 'Allow', type: 'list', placeholder: '10.0.0.0/8\n2001:db8::/32',
            help: 'One IPv4 or IPv6 block (or address) per line' },
          { key: 'deny', label: 'Deny', type: 'list', placeholder: '192.0.2.7',
            help: 'One IPv4 or IPv6 block (or address) per line' },
        ] },
      { key: 'basicAuth', label: 'Basic auth (JSON)', type: 'json', rows: 4,
        placeholder: '{"realm": "staff", "users": [{"name": "ann", "password": "..."}]}',
        help: 'A password is stored only as its bcrypt hash; or give "hash" (bcrypt or argon2id). 401 auth_required / auth_failed' },
      { key: 'rateLimit', label: 'Rate limit (JSON)', type: 'json', rows: 2,
        placeholder: '{"requestsPerSecond": 5, "burst": 10, "key": "client"}',
        help: 'Token bucket per client, header:Name, claim:name or route, per instance; 429 rate_limited' },
      { key: 'forwardAuth', label: 'Forward auth (JSON)', type: 'json', rows: 4,
        placeholder: '{"url": "http://auth.internal:9091/check", "copyHeaders": ["X-User"]}',
        help: 'Every request is first asked of this auth service: 2xx passes, 401/403/redirects are relayed, '
          + 'anything else fails closed (see the README\'s Forward auth)' },
      { key: 'jwt', label: 'JWT bearer tokens (JSON)', type: 'json', rows: 4,
        placeholder: '{"jwksUrl": "https://login.example.com/.well-known/jwks.json", "issuer": "https://login.example.com", "audience": ["shop"], "claimHeaders": {"sub": "X-User-Id"}}',
        help: 'Requests need Authorization: Bearer with a token signed by the key set or key (401 otherwise; '
          + 'see the README\'s JWT)' },
    ],
  },
  {
    section: 'Upstreams', open: true, fields: [
      { key: 'upstreams', label: 'Upstreams', type: 'rows', item: 'Upstream', min: 0,
        help: '1-64 origin servers; none only when static files are served', fields: [
          { key: 'url', label: 'URL', type: 'text', required: true, placeholder: 'http://10.0.0.5:8080',
            help: 'http:// or https:// host, optional :port and base path' },
          { key: 'weight', label: 'Weight', type: 'int', placeholder: '1', help: 'Relative share of requests, 1-100' },
          { key: 'protocol', label: 'Protocol', type: 'select', options: ['http/1.1', 'h2', 'h2c'],
            placeholder: 'http/1.1', help: 'h2 over https:// (ALPN), h2c over http://; gRPC needs one of them' },
          { key: 'backup', label: 'Backup', type: 'bool', default: false,
            help: 'Used only when no primary upstream is available' },
          { key: 'tls', label: 'TLS to this upstream', type: 'group', optional: true,
            help: 'Only for https:// URLs; off: the JVM trust store and the URL host', fields: [
              { key: 'caBundle', label: 'CA bundle (PEM)', type: 'textarea', help: 'Trusted instead of the JVM trust store' },
              { key: 'verify', label: 'Verify the certificate', type: 'bool', default: true },
              { key: 'serverName', label: 'Server name', type: 'text', help: 'SNI and the name checked, instead of the URL host' },
              { key: 'clientCertificate', label: 'Client certificate id', type: 'text', help: 'For mutual TLS' },
            ] },
        ] },
      { key: 'preserveHost', label: 'Preserve Host', type: 'bool', default: true,
        help: "Send the client's Host upstream; off sends the upstream's host:port" },
    ],
  },
  {
    section: 'Balancing', fields: [
      { key: 'balance', label: 'Policy', type: 'select', placeholder: 'round_robin',
        options: ['round_robin', 'least_conn', 'random_two', 'hash', 'sticky'] },
      { key: 'balanceBy', label: 'random_two compares by', type: 'select', options: ['in_flight', 'latency'],
        placeholder: 'in_flight' },
      { key: 'hashOn', label: 'hash hashes', type: 'text', placeholder: 'client_address',
        help: 'client_address, path, header:<Name> or cookie:<name>' },
      { key: 'sticky', label: 'Sticky cookie', type: 'group', optional: true, fields: [
        { key: 'cookie', label: 'Cookie name', type: 'text', placeholder: 'portico_sticky' },
        { key: 'ttl', label: 'Lifetime', type: 'text', placeholder: '1h' },
      ] },
      { key: 'slowStart', label: 'Slow start', type: 'text', placeholder: '0s',
        help: 'A returning upstream ramps from 10% to its weight over this time' },
    ],
  },
  {
    section: 'Timeouts and limits', fields: [
      { key: 'connectTimeout', label: 'Connect timeout', type: 'text', placeholder: '5s', help: 'e.g. 500ms, 5s, 1m (at most 1h)' },
      { key: 'readTimeout', label: 'Read timeout', type: 'text', placeholder: '60s',
        help: 'For the response head, and between two reads of the body' },
      { key: 'maxRequestBody', label: 'Largest request body', type: 'text', placeholder: '1GiB (global default)',
        help: `${SIZE}, or unlimited` },
      { key: 'maxInFlight', label: 'Most requests in flight', type: 'int', help: 'Empty for no limit; past it 503' },
      { key: 'upstreamLimits', label: 'Upstream queue', type: 'group', optional: true, fields: [
        { key: 'maxPending', label: 'Most waiting requests', type: 'int', placeholder: '1024' },
        { key: 'queueTimeout', label: 'Longest wait', type: 'text', placeholder: 'connect timeout' },
      ] },
      { key: 'websocket', label: 'Forward WebSocket and other upgrades', type: 'bool', default: true },
      { key: 'websocketIdleTimeout', label: 'Tunnel idle timeout', type: 'text', placeholder: '1h' },
    ],
  },
  {
    section: 'Headers', fields: [
      { key: 'securityHeaders', label: 'Add security headers', type: 'bool', default: true,
        help: 'X-Content-Type-Options, X-Frame-Options, Referrer-Policy when the upstream sends none' },
      { key: 'requestHeaders', label: 'Request headers', type: 'group', optional: true, fields: HEADER_RULES },
      { key: 'responseHeaders', label: 'Response headers', type: 'group', optional: true, fields: HEADER_RULES },
    ],
  },
  {
    section: 'Cache', fields: [
      { key: 'cache', label: 'Response cache', type: 'group', fields: [
        { key: 'enabled', label: 'Enabled', type: 'bool', default: false },
        { key: 'maxSize', label: 'Memory', type: 'text', placeholder: '64MiB', help: SIZE },
        { key: 'maxObjectSize', label: 'Largest response stored', type: 'text', placeholder: '8MiB' },
        { key: 'defaultTtl', label: 'Heuristic freshness cap', type: 'text', placeholder: '0s' },
        { key: 'staleWhileRevalidate', label: 'Stale while revalidate', type: 'text', placeholder: '0s' },
        { key: 'staleIfError', label: 'Stale if error', type: 'text', placeholder: '0s' },
        { key: 'lockTimeout', label: 'Collapsed request wait', type: 'text', placeholder: '5s' },
        { key: 'ignoreQueryParams', label: 'Query parameters left out of the key', type: 'list' },
      ] },
    ],
  },
  {
    section: 'Static files', fields: [
      { key: 'static', label: 'Serve a directory', type: 'group', optional: true, fields: [
        { key: 'root', label: 'Root directory', type: 'text', required: true, placeholder: '/srv/site' },
        { key: 'index', label: 'Index files', type: 'list', placeholder: 'index.html' },
        { key: 'tryFiles', label: 'Try files', type: 'list', placeholder: '$uri\n$uri/' },
        { key: 'listing', label: 'List directories without an index', type: 'bool', default: false },
        { key: 'hidden', label: 'Serve dotfiles', type: 'bool', default: false },
        { key: 'precompressed', label: 'Serve .br/.zst/.gz files', type: 'bool', default: true },
        { key: 'sendfile', label: 'Use sendfile', type: 'bool', default: true },
        { key: 'cacheControl', label: 'Cache-Control rules', type: 'rows', item: 'Rule', min: 0, fields: [
          { key: 'match', label: 'Path pattern', type: 'text', required: true, placeholder: '/assets/*' },
          { key: 'value', label: 'Cache-Control', type: 'text', required: true, placeholder: 'public, max-age=31536000' },
        ] },
      ] },
    ],
  },
  {
    section: 'Compression', fields: [
      { key: 'compression', label: 'Response compression', type: 'group', fields: [
        { key: 'enabled', label: 'Enabled', type: 'bool', default: false },
        { key: 'encodings', label: 'Encodings, preferred first', type: 'list', placeholder: 'br\nzstd\ngzip' },
        { key: 'types', label: 'Media types', type: 'list', placeholder: 'text/*\napplication/json' },
        { key: 'minLength', label: 'Smallest body compressed', type: 'text', placeholder: '1KiB' },
        { key: 'levels', label: 'Levels', type: 'group', fields: [
          { key: 'gzip', label: 'gzip (1-9)', type: 'int', placeholder: '5' },
          { key: 'br', label: 'Brotli (0-11)', type: 'int', placeholder: '4' },
          { key: 'zstd', label: 'Zstandard (1-19)', type: 'int', placeholder: '3' },
        ] },
      ] },
    ],
  },
  {
    section: 'HTTPS', fields: [
      { key: 'tls', label: 'HTTPS for this vhost', type: 'group', optional: true, fields: [
        { key: 'certificate', label: 'Certificate id', type: 'text', help: 'An uploaded certificate covering every host name' },
        { key: 'acme', label: 'Obtain it by ACME', type: 'bool', default: false },
        { key: 'httpsRedirect', label: 'Redirect http to https', type: 'bool', default: false },
        { key: 'hsts', label: 'HSTS', type: 'group', optional: true, fields: [
          { key: 'maxAge', label: 'Max age (seconds)', type: 'int', placeholder: '31536000' },
          { key: 'includeSubDomains', label: 'Include subdomains', type: 'bool', default: false },
          { key: 'preload', label: 'Preload', type: 'bool', default: false },
        ] },
      ] },
    ],
  },
  {
    section: 'Resilience', fields: [
      { key: 'retry', label: 'Retries', type: 'group', fields: [
        { key: 'on', label: 'Retry on', type: 'list', placeholder: 'connect_failure',
          help: 'connect_failure, timeout, reset or a status such as 503' },
        { key: 'attempts', label: 'Tries in all', type: 'int', placeholder: '3' },
        { key: 'perTryTimeout', label: 'Per-try timeout', type: 'text', placeholder: 'read timeout' },
        { key: 'backoff', label: 'Backoff', type: 'text', placeholder: '25ms' },
        { key: 'maxBackoff', label: 'Longest backoff', type: 'text', placeholder: '250ms' },
        { key: 'retryBufferSize', label: 'Body kept for retries', type: 'text', placeholder: '64KiB' },
        { key: 'budget', label: 'Budget (share of requests)', type: 'number', placeholder: '0.2' },
        { key: 'minRetriesPerSecond', label: 'Retries per second beyond the budget', type: 'int', placeholder: '10' },
      ] },
      { key: 'healthCheck', label: 'Active health check', type: 'group', optional: true, fields: [
        { key: 'type', label: 'Type', type: 'select', options: ['http', 'tcp'], placeholder: 'http' },
        { key: 'path', label: 'Path', type: 'text', placeholder: '/' },
        { key: 'method', label: 'Method', type: 'select', options: ['GET', 'HEAD'], placeholder: 'GET' },
        { key: 'expectStatus', label: 'Passing statuses', type: 'list', placeholder: '200-399' },
        { key: 'expectBody', label: 'Body contains', type: 'text' },
        { key: 'host', label: 'Host header', type: 'text' },
        { key: 'interval', label: 'Interval', type: 'text', placeholder: '5s' },
        { key: 'timeout', label: 'Timeout', type: 'text', placeholder: '2s' },
        { key: 'rise', label: 'Passes to come back', type: 'int', placeholder: '2' },
        { key: 'fall', label: 'Failures to go out', type: 'int', placeholder: '3' },
        { key: 'jitter', label: 'Jitter', type: 'text', placeholder: 'a tenth of the interval' },
      ] },
      { key: 'outlierDetection', label: 'Outlier detection', type: 'group', fields: [
        { key: 'enabled', label: 'Enabled', type: 'bool', default: true },
        { key: 'consecutive5xx', label: '5xx in a row', type: 'int', placeholder: '5' },
        { key: 'consecutiveGatewayErrors', label: 'Gateway errors in a row', type: 'int', placeholder: '5' },
        { key: 'baseEjectionTime', label: 'First ejection', type: 'text', placeholder: '30s' },
        { key: 'maxEjectionTime', label: 'Longest ejection', type: 'text', placeholder: '5m' },
        { key: 'maxEjectedPercent', label: 'Most ejected (%)', type: 'int', placeholder: '50' },
        { key: 'failureRatio', label: 'Failure ratio', type: 'number', placeholder: '0 (off)' },
        { key: 'failureRatioMinRequests', label: 'Fewest requests for the ratio', type: 'int', placeholder: '50' },
        { key: 'failureRatioWindow', label: 'Ratio window', type: 'text', placeholder: '10s' },
      ] },
      { key: 'circuitBreaker', label: 'Circuit breaker', type: 'group', optional: true, fields: [
        { key: 'failureRatio', label: 'Failure ratio that opens it', type: 'number', placeholder: '0.5' },
        { key: 'minRequests', label: 'Fewest requests', type: 'int', placeholder: '20' },
        { key: 'window', label: 'Window', type: 'text', placeholder: '10s' },
        { key: 'coolDown', label: 'Cool-down', type: 'text', placeholder: '10s' },
        { key: 'halfOpenRequests', label: 'Trial requests', type: 'int', placeholder: '3' },
      ] },
    ],
  },
  {
    section: 'CORS and error pages', fields: [
      { key: 'cors', label: 'CORS (JSON)', type: 'json', rows: 4,
        placeholder: '{"allowOrigins": ["https://app.example.com", "https://*.example.com"], "allowMethods": ["GET", "POST"],\n "allowHeaders": ["Content-Type", "Authorization"], "allowCredentials": true, "maxAge": "10m"}',
        help: 'Preflights answered by Portico (204, or 403 cors_refused); upstream Access-Control-* fields are replaced' },
      { key: 'errorPages', label: 'Error pages (JSON)', type: 'json', rows: 4,
        placeholder: '{"html": "<h1>{{status}} {{title}}</h1><p>{{message}}</p><small>{{requestId}}</small>",\n "json": "{\\"error\\": \\"{{reason}}\\", \\"requestId\\": \\"{{requestId}}\\"}", "statuses": [502, 503, 504], "upstreamErrors": true}',
        help: 'Pages for Portico\'s 4xx/5xx replies (and upstream 5xx with upstreamErrors), HTML or JSON by Accept; placeholders are escaped' },
    ],
  },
  {
    section: 'Routes', fields: [
      { key: 'routes', label: 'Routes (JSON)', type: 'json', rows: 10,
        placeholder: '[{"match": {"path": "/api/*"}, "stripPrefix": "/api", "upstreams": [{"url": "http://10.0.0.7:8080"}]},\n {"match": {"path": "/healthz"}, "respond": {"body": "fine"}}]',
        help: 'Tried in order, first match wins; each may override the vhost\'s settings (see the README\'s Routes)' },
    ],
  },
  {
    section: 'Access log', fields: [
      { key: 'accessLog', label: 'Access log', type: 'group', fields: [
        { key: 'enabled', label: 'Log this vhost', type: 'bool', default: true },
        { key: 'redactQuery', label: 'Redact query strings', type: 'bool', default: false },
      ] },
    ],
  },
];
