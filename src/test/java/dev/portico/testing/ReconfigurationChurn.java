package dev.portico.testing;

import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.IntFunction;

/**
 * A run of configuration commits while long-lived streams are open: vhosts added, edited and deleted beside the
 * streams' own vhost, and the own vhost itself edited (same id, new settings), spread evenly over a duration. The
 * streams' tests (WebSocket, and later SSE, gRPC) run their traffic meanwhile and check that nothing was dropped.
 * Every commit goes through the management API and is live when its call returns.
 */
public final class ReconfigurationChurn {

    private final String ownId;
    private final IntFunction<JsonObject> ownEdit;
    private final String otherUpstreamUrl;
    private final Deque<String> others = new ArrayDeque<>();
    private int created;
    private int editedOwn;
    private int editedOthers;
    private int deleted;

    /**
     * @param ownId            the streams' vhost, edited every few commits and never deleted
     * @param ownEdit          the own vhost's definition for commit {@code i}: each a real change (a header rule, a
     *                         timeout), same name and host names
     * @param otherUpstreamUrl where the other vhosts forward (they get no traffic; any URL does)
     */
    public ReconfigurationChurn(String ownId, IntFunction<JsonObject> ownEdit, String otherUpstreamUrl) {
        this.ownId = ownId;
        this.ownEdit = ownEdit;
        this.otherUpstreamUrl = otherUpstreamUrl;
    }

    /** Makes {@code commits} commits, one every {@code over / commits}; returns when the last is live. */
    public void run(int commits, Duration over) throws InterruptedException {
        long spacingNanos = over.toNanos() / commits;
        long next = System.nanoTime();
        for (int i = 0; i < commits; i++) {
            commit(i);
            next += spacingNanos;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
        }
    }

    private void commit(int i) {
        switch (i % 5) {
            case 0, 3 -> {
                created++;
                String name = "churn-" + i;
                others.addLast(Api.create(Api.vhost(name, name + ".churn.test", otherUpstreamUrl)));
            }
            case 1 -> {
                if (others.isEmpty()) {
                    commit(0);
                    return;
                }
                editedOthers++;
                String id = others.peekLast();
                String name = Api.given().get("/api/v1/vhosts/" + id).then().statusCode(200).extract().path("name");
                JsonObject edited = Api.vhost(name, name + ".churn.test", otherUpstreamUrl)
                        .put("readTimeout", (10 + i) + "s");
                Api.given().body(edited.encode()).put("/api/v1/vhosts/" + id).then().statusCode(200);
            }
            case 2 -> {
                editedOwn++;
                Api.given().body(ownEdit.apply(i).encode()).put("/api/v1/vhosts/" + ownId).then().statusCode(200);
            }
            default -> {
                if (others.isEmpty()) {
                    commit(0);
                    return;
                }
                deleted++;
                Api.delete(others.pollFirst());
            }
        }
    }

    /** What the run did, e.g. for a test's failure message: creates, edits of others, own edits, deletes. */
    @Override
    public String toString() {
        return "created " + created + ", edited others " + editedOthers + ", edited own " + editedOwn + ", deleted "
                + deleted;
    }

    public int ownEdits() {
        return editedOwn;
    }

    public int deletes() {
        return deleted;
    }
}
