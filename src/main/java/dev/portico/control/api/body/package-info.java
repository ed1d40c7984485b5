/**
 * The API's request-body limit ({@code portico.admin.max-body-size}). Quarkus' own limit
 * ({@code quarkus.http.limits.max-body-size}, turned off in {@code application.properties}) answers an empty 413 from
 * a Vert.x route, before any JAX-RS filter has checked the bearer token. Portico enforces the limit itself, after the
 * token: {@link dev.portico.control.api.body.DeclaredBodyLimit} refuses a Content-Length over the limit before the
 * body is read, {@link dev.portico.control.api.body.CountedBodyLimit} counts a chunked body while it is read, and
 * {@link dev.portico.control.api.body.UnreadBodyDrain} deals with a body left unread by an early answer.
 */
package dev.portico.control.api.body;
