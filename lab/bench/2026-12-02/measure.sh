# Sourced by this folder's scripts: `measure NAME COMMAND...` runs COMMAND with its output in
# $out/NAME.log and prints the cores' busy share over it, from /proc/stat.
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8}' /proc/stat; }
measure() {
  local name=$1; shift
  read -r b0 t0 < <(busy)
  local start=$(date +%s.%N)
  "$@" > "$out/$name.log" 2>&1 || true
  local end=$(date +%s.%N)
  read -r b1 t1 < <(busy)
  python3 - "$name" "$b0" "$t0" "$b1" "$t1" "$start" "$end" <<'PY'
import sys
name, b0, t0, b1, t1, s, e = sys.argv[1], *map(float, sys.argv[2:])
print(f"{name}: cores busy {100 * (b1 - b0) / (t1 - t0):.1f}% over {e - s:.0f} s")
PY
}
