# --help, usage errors and eval.
OUT=$(lb --help); RC=$?
expect_rc 0
expect_err "usage: labbook build"
expect_err "Exit status: 0 success"
OUT=$(lb build --frobnicate 2>&1); RC=$?
expect_rc 2
expect_err "labbook: unknown option '--frobnicate'"
expect_err "Run 'labbook build --help'"
OUT=$(lb nonsense 2>&1); RC=$?
expect_rc 2
OUT=$(lb eval --results nowhere '1 + 1'); RC=$?
expect_rc 0
expect_err "2"
OUT=$(lb eval --results nowhere 'nope.x' 2>&1); RC=$?
expect_rc 1
expect_err "no results for experiment 'nope'"
