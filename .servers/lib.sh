# Shared by the lab's server scripts (.servers/*.sh); sourced, not run.

# A loopback port nobody listens on, picked at random in 20000..59999.
free_port() {
  local port i
  for i in $(seq 1 50); do
    port=$(( 20000 + RANDOM % 40000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"; return 0
    fi
  done
  return 1
}
