# The two recorded runs of the book on one H100 agree: every judged point of
# at least 50 microseconds within 3%, host-bound copies counted apart.
OUT=$(lb compare "$ROOT/results/h100" "$ROOT/results/h100-repeat" --max-diff 3 2>&1); RC=$?
expect_rc 0
expect_err " 0 over 3.0%; "
expect_err "host-bound points not judged"
expect_no_err "differs in its parameters"
expect_no_err "(only in"
