package dev.portico.proxy.routes;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import dev.portico.proxy.core.Exchange;
import dev.portico.proxy.core.RequestTarget;
import dev.portico.proxy.core.Stage;
import dev.portico.proxy.core.StageFactory;
import dev.portico.proxy.core.SubRequest;
import dev.portico.proxy.core.SubResponse;
import dev.portico.proxy.core.outcome.LocalReason;
import dev.portico.vhost.RouteSpec;
import io.vertx.core.Future;

import java.util.List;
import java.util.Locale;

/**
 * A route's path rewrite (Traefik's StripPrefix, AddPrefix and ReplacePathRegex; Caddy's {@code handle_path} and
 * {@code uri}): {@code /api/v1/x} with {@code stripPrefix /api/v1} goes upstream as {@code /x}. It runs inside the
 * cache, which so keys responses by the client's URL (two routes rewriting to the same path on different upstreams
 * never share an entry), and before the static files, which look the rewritten path up.
 *
 * <p>The rewrite works on the normalised path the route matched, never on another reading of the target: the
 * segments kept are the client's own bytes (dot segments resolved), and text decoded for matching goes back
 * percent-encoded. A prefix that an encoded slash would split ({@code /api%2Fx}) has no single reading: 400.
 */
public final class PathRewriteStage implements Stage {

    /** Only in the pipeline of a route that rewrites. */
    public static final StageFactory FACTORY = context -> context.route() == null || context.route().rewrite() == null
            ? null : new PathRewriteStage(context.route().rewrite(), context.route().match().caseSensitive());

    private final List<String> strip;
    private final String addPrefix;
    private final Pattern regex;
    private final String replacement;
    private final boolean caseSensitive;

    private PathRewriteStage(RouteSpec.Rewrite rewrite, boolean caseSensitive) {
        List<String> prefix = rewrite.stripPrefix() == null ? List.of() : segments(rewrite.stripPrefix());
        // Compared as the route matched: lower case unless it is case-sensitive, folded once here.
        this.strip = caseSensitive ? prefix : prefix.stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
        this.addPrefix = rewrite.addPrefix();
        this.regex = rewrite.regex() == null ? null : Pattern.compile(rewrite.regex());
        this.replacement = rewrite.replacement();
        this.caseSensitive = caseSensitive;
    }

    private static List<String> segments(String prefix) {
        String trimmed = prefix.replaceAll("^/+|/+$", "");
        return trimmed.isEmpty() ? List.of() : List.of(trimmed.split("/+"));
    }

    @Override
    public Flow onRequest(Exchange exchange) {
        MatchedRoute matched = exchange.get(MatchedRoute.SLOT);
        if (matched == null) {
            return Flow.NEXT;
        }
        String rewritten = rewrite(matched.path());
        if (rewritten == null) {
            exchange.replyLocal(LocalReason.BAD_REQUEST, "The request path has an encoded slash where the route "
                    + "strips its prefix: it has no single reading");
            return Flow.TAKEN;
        }
        RequestTarget target = exchange.target();
        exchange.target(new RequestTarget(target.authority(), target.hostname(), rewritten));
        return Flow.NEXT;
    }

    @Override
    public Future<SubResponse> onSubRequest(SubRequest request, SubRequest.Next next) {
        MatchedRoute matched = request.parent().get(MatchedRoute.SLOT);
        String rewritten = matched == null ? null : rewrite(matched.path());
        return next.proceed(rewritten == null ? request : request.withPathAndQuery(rewritten));
    }

    /** The origin-form target to send; null when the prefix to strip has no single reading. */
    String rewrite(RequestPath path) {
        String out;
        if (regex != null) {
            out = replaced(path.matchForm());
        } else {
            int from = !strip.isEmpty() && startsWithStrip(path.segments()) ? strip.size() : 0;
            out = path.suffix(from);
            if (out == null) {
                return null;
            }
            if (addPrefix != null) {
                out = out.equals("/") && from > 0 ? addPrefix : addPrefix + out;
            }
        }
        return path.query() == null ? out : out + "?" + path.query();
    }

    private boolean startsWithStrip(List<String> segments) {
        if (segments.size() < strip.size()) {
            return false;
        }
        for (int i = 0; i < strip.size(); i++) {
            String have = segments.get(i);
            boolean same = (caseSensitive ? have : have.toLowerCase(Locale.ROOT)).equals(strip.get(i));
            if (!same) {
                return false;
            }
        }
        return true;
    }

    /** Every match of the expression replaced; {@code $N} in the replacement is group N, encoded for a path. */
    private String replaced(String text) {
        Matcher m = regex.matcher(text);
        StringBuilder out = new StringBuilder(text.length() + 16);
        int last = 0;
        boolean any = false;
        while (m.find()) {
            any = true;
            out.append(PathText.encode(text.substring(last, m.start())));
            appendReplacement(m, out);
            last = m.end();
            if (m.end() == m.start()) {
                break;
            }
        }
        if (!any) {
            return PathText.encode(text);
        }
        out.append(PathText.encode(text.substring(last)));
        String result = out.toString();
        return result.startsWith("/") ? result : "/" + result;
    }

    private void appendReplacement(Matcher m, StringBuilder out) {
        for (int i = 0; i < replacement.length(); i++) {
            char c = replacement.charAt(i);
            if (c == '$' && i + 1 < replacement.length() && Character.isDigit(replacement.charAt(i + 1))) {
                int group = replacement.charAt(++i) - '0';
                String value = group <= m.groupCount() ? m.group(group) : null;
                if (value != null) {
                    out.append(PathText.encode(value));
                }
            } else {
                out.append(c);
            }
        }
    }
}
