package dev.reverie.multi;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM on the test class path running one {@code main} class, for tests that need a second
 * process: its stdout lines are collected as they come (flushed lines are never lost, even when the
 * child is killed), its stderr goes to a file so a green run prints nothing. Not thread-safe.
 */
public final class ChildJvm implements AutoCloseable {

    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> all = java.util.Collections.synchronizedList(new ArrayList<>());
    private final Thread reader;
    private final Path stderr;

    private ChildJvm(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
        this.reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    all.add(line);
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // the child died: what it flushed was read
            }
        }, "child-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code main} with {@code args} in a new JVM; its stderr goes to {@code stderr}. */
    public static ChildJvm start(Class<?> main, Path stderr, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("-Xmx256m");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
        command.add(main.getName());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        return new ChildJvm(p, stderr);
    }

    /** Waits up to {@code timeoutMs} for a stdout line starting with {@code prefix}; returns it or null. */
    public String awaitLine(String prefix, long timeoutMs) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            String line = lines.poll(left, TimeUnit.NANOSECONDS);
            if (line == null) {
                return null;
            }
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    /** Waits for the child to exit on its own; returns its exit code. */
    public int waitFor(long timeoutMs) throws InterruptedException {
        if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("child did not exit within " + timeoutMs + " ms; stderr: " + stderr());
        }
        reader.join(5_000);
        return process.exitValue();
    }

    /** SIGKILL on Linux: no shutdown hook, no finally block runs. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
        reader.join(5_000);
    }

    /** Every stdout line read so far. */
    public List<String> lines() {
        synchronized (all) {
            return List.copyOf(all);
        }
    }

    /** The stdout lines starting with {@code prefix}, without it. */
    public List<String> lines(String prefix) {
        List<String> out = new ArrayList<>();
        for (String l : lines()) {
            if (l.startsWith(prefix)) {
                out.add(l.substring(prefix.length()));
            }
        }
        return out;
    }

    public OutputStream stdin() {
        return process.getOutputStream();
    }

    public String stderr() {
        try {
            return Files.exists(stderr) ? Files.readString(stderr) : "";
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
