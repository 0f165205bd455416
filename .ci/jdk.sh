# Sourced by .ci/run and book/refresh.sh: exports JAVA_HOME pointing at a JDK >= 21, or exits.
java_major() { # prints the major version of the java binary $1, or 0
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -1 | cut -d. -f1 || echo 0
}

pick_jdk() {
  local c
  for c in "${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/*; do
    [ -n "$c" ] && [ -x "$c/bin/java" ] && [ -x "$c/bin/javac" ] || continue
    if [ "$(java_major "$c/bin/java")" -ge 21 ] 2>/dev/null; then echo "$c"; return 0; fi
  done
  return 1
}

if ! JAVA_HOME=$(pick_jdk); then
  echo "arch-lab needs a JDK 21 or newer; none found in JAVA_HOME or /usr/lib/jvm" >&2
  exit 1
fi
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
echo "== JDK: $JAVA_HOME ($(java_major "$JAVA_HOME/bin/java"))"
