package archlab.claims;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Who the student's process runs as, decided once per grader JVM. When the grader runs as root and {@code setpriv}
 * is installed, every student process runs under a user id of its own ({@link #uid()}, in no group, no new
 * privileges, at most {@value #MAX_TASKS} threads and processes) that can read a copy of the class path made for it
 * and write only its own home folder and the folders every user may write ({@code /tmp}, {@code /var/tmp},
 * {@code /dev/shm}, emptied of its files after each attempt: {@link #deleteLeftovers()}): it cannot write the lab, the reports or the scorecard, cannot signal or trace
 * the grader, and every process it starts — even one that leaves the process tree — is found and killed by that uid.
 * Otherwise the student's process runs as the grader's own user: its memory is still its own, but files are a door
 * ({@link #describe()} says which, and the scorecard prints it).
 *
 * <p>Thread-safety: immutable once built; {@link #current()} builds it once.
 */
final class SolutionSandbox {

    /** The most threads and processes the student's uid may have at once (the JVM's own need a few dozen). */
    static final int MAX_TASKS = 1024;
    /** The first of the uids a student's process may run as. */
    static final int FIRST_UID = 50_000;
    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");
    private static final Path PRLIMIT = Path.of("/usr/bin/prlimit");
    private static final Path SETSID = Path.of("/usr/bin/setsid");
    private static final Path KILL = Path.of("/usr/bin/kill");
    private static volatile SolutionSandbox current;

    private final int uid;
    private final Path root;
    private SolutionSandbox(int uid, Path root) {
        this.uid = uid;
        this.root = root;
    }

    /** @return the sandbox of this JVM: a uid of its own when root, the grader's own user otherwise */
    static SolutionSandbox current() {
        SolutionSandbox s = current;
        if (s == null) {
            synchronized (SolutionSandbox.class) {
                s = current;
                if (s == null) {
                    current = s = build();
                }
            }
        }
        return s;
    }

    private static SolutionSandbox build() {
        try {
            Path root = Files.createTempDirectory("archlab-solution-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(root), "archlab-solution-cleanup"));
            if (ownUid() != 0 || !Files.isExecutable(SETPRIV) || !Files.isExecutable(PRLIMIT) || !Files.isExecutable(SETSID)
                    || !Files.isExecutable(KILL)) {
                return new SolutionSandbox(-1, root);
            }
            Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
            return new SolutionSandbox(freeUid(), root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the student's process a folder", e);
        }
    }

    /** @return the uid the student's processes run as, or -1 when they run as the grader's own user */
    int uid() {
        return uid;
    }

    boolean separateUser() {
        return uid >= 0;
    }

    /** @return one line for the scorecard: how the student's process is kept apart */
    String describe() {
        return separateUser()
                ? "the solution ran in processes of its own under uid " + uid + " (writing only its home and the shared"
                        + " temporary folders, emptied of its files after each attempt; at most " + MAX_TASKS + " threads),"
                        + " judged over loopback"
                : "the solution ran in a process of its own, judged over loopback, as the grader's own user (the grader is not"
                        + " root: files are not closed to it; grade as root to run it under a uid of its own)";
    }

    /**
     * @return {@code classPath} as the student's uid can read it: for a separate user a copy (hard links where the
     *         under a folder it may enter; otherwise unchanged
     */
    synchronized List<Path> readable(List<Path> classPath) throws IOException {
        if (!separateUser()) {
            return classPath;
        }
        Path dir = Files.createTempDirectory(root, "cp-");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<Path> out = new ArrayList<>();
        int i = 0;
        for (Path entry : classPath) {
            Path target = dir.resolve((i++) + "-" + entry.getFileName());
            if (Files.isDirectory(entry)) {
                copyTree(entry, target);
            } else if (Files.isRegularFile(entry)) {
                Files.copy(entry, target); // a copy, not a link: a link's mode is the original's, under root's home
                Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r--r--"));
            } else {
                continue;
            }
            out.add(target);
        }
        return out;
    }

    /** @return a new home folder for one student process, owned by its uid (mode 700) */
    Path newHome() throws IOException {
        Path home = Files.createTempDirectory(root, "home-");
        if (separateUser()) {
            Files.setAttribute(home, "unix:uid", uid);
            Files.setAttribute(home, "unix:gid", uid);
        }
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
        return home;
    }

    /** @return the command's prefix that runs what follows as the student's uid; empty for the grader's own user */
    List<String> prefix() {
        if (!separateUser()) {
            return List.of();
        }
        // setsid: a session of its own, with no controlling terminal (no TIOCSTI into the instructor's shell); the
        // process is no group leader, so setsid execs in place and the JVM keeps the pid the grader started
        return List.of(PRLIMIT.toString(), "--nproc=" + MAX_TASKS, "--nofile=4096", "--core=0", "--", SETSID.toString(),
                SETPRIV.toString(), "--reuid=" + uid, "--regid=" + uid, "--clear-groups", "--no-new-privs", "--pdeathsig=KILL");
    }

    /**
     * Sends SIGKILL to every process of the student's uid at once, as that uid ({@code kill -KILL -1}: the kernel
     * signals every process the caller may signal, so a process that forks as fast as it can is not outrun the way a
     * list-then-kill is). Nothing for the grader's own user.
     */
    void killEveryProcessOfUid() {
        if (!separateUser()) {
            return;
        }
        try {
            List<String> command = List.of(SETPRIV.toString(), "--reuid=" + uid, "--regid=" + uid, "--clear-groups",
                    KILL.toString(), "-KILL", "--", "-1");
            Process kill = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            kill.waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
        } catch (IOException e) {
            // the list-then-kill loop that follows still runs
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return every live process of the student's uid (a separate user only; empty otherwise) */
    List<ProcessHandle> processesOfUid() {
        if (!separateUser()) {
            return List.of();
        }
        List<ProcessHandle> out = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).forEach(p -> {
                try {
                    if (((Integer) Files.getAttribute(p, "unix:uid")) == uid) {
                        ProcessHandle.of(Long.parseLong(p.getFileName().toString())).ifPresent(out::add);
                    }
                } catch (IOException | RuntimeException e) {
                    // it ended while listed
                }
            });
        } catch (IOException e) {
            // no /proc: nothing to list
        }
        return out;
    }

    /** The folders every user may write: what the student's uid leaves there is deleted after each attempt. */
    private static final List<Path> SHARED_TEMP = List.of(Path.of("/tmp"), Path.of("/var/tmp"), Path.of("/dev/shm"));

    /**
     * Deletes what the student's uid left in the folders every user may write, so that nothing carries from one
     * attempt (one claim) to the next. Nothing for the grader's own user: its files are not told from the grader's.
     */
    void deleteLeftovers() {
        if (!separateUser()) {
            return;
        }
        for (Path dir : SHARED_TEMP) {
            try (Stream<Path> entries = Files.list(dir)) {
                entries.filter(p -> {
                    try {
                        return ((Integer) Files.getAttribute(p, "unix:uid", java.nio.file.LinkOption.NOFOLLOW_LINKS)) == uid;
                    } catch (IOException | RuntimeException e) {
                        return false;
                    }
                }).forEach(SolutionSandbox::deleteTree);
            } catch (IOException e) {
                // no such folder here
            }
        }
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // under the system's temp: left for the OS
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Path d = to.resolve(from.relativize(dir).toString());
                Files.createDirectories(d);
                Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxr-xr-x"));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Path f = to.resolve(from.relativize(file).toString());
                Files.copy(file, f);
                Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static int ownUid() throws IOException {
        return uidOf(Path.of("/proc/self/status")).orElse(-1);
    }

    private static Optional<Integer> uidOf(Path status) throws IOException {
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("Uid:")) {
                return Optional.of(Integer.parseInt(line.substring(4).trim().split("\\s+")[0]));
            }
        }
        return Optional.empty();
    }

    /**
     * @return a uid in {@value #FIRST_UID}..{@value #FIRST_UID} + 9999 that no account or group names and no process
     *         runs as, chosen from this JVM's pid (below systemd's dynamic users, 61184 and up)
     */
    private static int freeUid() throws IOException {
        String passwd = Files.exists(Path.of("/etc/passwd")) ? Files.readString(Path.of("/etc/passwd")) : "";
        long pid = ProcessHandle.current().pid();
        String group = Files.exists(Path.of("/etc/group")) ? Files.readString(Path.of("/etc/group")) : "";
        for (int i = 0; i < 10_000; i++) {
            int candidate = FIRST_UID + (int) ((pid + i) % 10_000);
            if (passwd.contains(":" + candidate + ":") || group.contains(":" + candidate + ":")) {
                continue;
            }
            SolutionSandbox probe = new SolutionSandbox(candidate, null);
            if (probe.processesOfUid().isEmpty()) {
                return candidate;
            }
        }
        throw new IllegalStateException("no free uid in " + FIRST_UID + ".." + (FIRST_UID + 9_999) + " for the student's process");
    }
}
