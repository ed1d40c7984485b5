package dev.portico.testing;

import org.jboss.logmanager.ExtLogRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Every log record that reaches the root logger while it is open, as the console would see it (logger filters and
 * levels applied), for tests that assert what an operator would read.
 */
public final class LogCapture implements AutoCloseable {

    /** One captured record: level, category, formatted message and whether it carried a stack trace. */
    public record Line(Level level, String category, String message, Throwable thrown) {
        @Override
        public String toString() {
            return level + " [" + category + "] " + message + (thrown == null ? "" : " (with " + thrown + ")");
        }
    }

    private final List<Line> lines = new ArrayList<>();
    private final Logger root = Logger.getLogger("");
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            String message = record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
            synchronized (lines) {
                lines.add(new Line(record.getLevel(), record.getLoggerName(), message, record.getThrown()));
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private LogCapture() {
        handler.setLevel(Level.ALL);
        root.addHandler(handler);
    }

    public static LogCapture start() {
        return new LogCapture();
    }

    /** The lines so far that match. */
    public List<Line> lines(Predicate<Line> filter) {
        synchronized (lines) {
            return lines.stream().filter(filter).toList();
        }
    }

    /** Lines at {@code level} or above. */
    public List<Line> atLeast(Level level) {
        return lines(line -> line.level().intValue() >= level.intValue());
    }

    @Override
    public void close() {
        root.removeHandler(handler);
    }
}
