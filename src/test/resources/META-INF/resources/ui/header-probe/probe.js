/* A file under /ui/ for SecurityHeadersTest; the dashboard's own files live in src/main/resources. */
export const probe = true;
