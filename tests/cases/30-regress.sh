# The render spec in tests/regress: each small book's pages, rendered with
# --no-run from its bundle, are the expected HTML beside it, byte for byte.
out=$("$ROOT/tests/regress/run" 2>&1) || fail "$out"
