/**
 * A checkpoint served over HTTP on its own, until stopped: {@link archlab.serve.ServedCheckpoint} serves one in the
 * JVM it runs in (the entry a checkpoint's {@code Serve} main hands its fixture to), and
 * {@link archlab.serve.ServedProcess} starts that main as a child process and talks to it: where it listens, its pid,
 * a clean stop (SIGTERM) or a crash (SIGKILL). What is served comes from the checkpoint, never named here.
 */
package archlab.serve;
