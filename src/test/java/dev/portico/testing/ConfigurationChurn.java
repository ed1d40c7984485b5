package dev.portico.testing;

import io.vertx.core.json.JsonObject;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.IntFunction;

/**
 * Commits through the API as an operator busy with other sites would: add a vhost, edit one, delete one, and now and
 * then edit the vhost under test itself. Each commit is a new routing snapshot on every event loop.
 */
public final class ConfigurationChurn {

    private final String ownId;
    private final IntFunction<JsonObject> ownEdit;
    private final String otherUpstream;
    private final Deque<String> others = new ArrayDeque<>();
    private int commits;

    /**
     * @param ownId         the vhost under test
     * @param ownEdit       its body for the {@code i}th edit of it (same host names, something else changed)
     * @param otherUpstream the upstream URL the other vhosts name
     */
    public ConfigurationChurn(String ownId, IntFunction<JsonObject> ownEdit, String otherUpstream) {
        this.ownId = ownId;
        this.ownEdit = ownEdit;
        this.otherUpstream = otherUpstream;
    }

    /** Makes {@code count} commits, {@code pauseMillis} apart; every fourth edits the vhost under test. */
    public void run(int count, long pauseMillis) throws InterruptedException {
        for (int i = 0; i < count; i++) {
            commit(i);
            Thread.sleep(pauseMillis);
        }
    }

    /** Commits made so far. */
    public int commits() {
        return commits;
    }

    private void commit(int i) {
        switch (i % 4) {
            case 0 -> others.add(Api.create(Api.vhost("churn-" + i, "churn-" + i + ".test", otherUpstream)));
            case 1 -> {
                if (others.isEmpty()) {
                    others.add(Api.create(Api.vhost("churn-" + i, "churn-" + i + ".test", otherUpstream)));
                } else {
                    String id = others.peekLast();
                    Api.given().body(Api.vhost("churn-edited-" + i, "churn-edited-" + i + ".test", otherUpstream)
                            .put("readTimeout", "45s").encode()).put("/api/v1/vhosts/" + id).then().statusCode(200);
                }
            }
            case 2 -> Api.given().body(ownEdit.apply(i).encode()).put("/api/v1/vhosts/" + ownId).then()
                    .statusCode(200);
            default -> {
                if (others.size() > 1) {
                    Api.delete(others.pollFirst());
                } else {
                    others.add(Api.create(Api.vhost("churn-" + i, "churn-" + i + ".test", otherUpstream)));
                }
            }
        }
        commits++;
    }
}
