# A results folder that cannot be written: a clear error, non-zero exit.
records_kernel sq
chapter 01-a.md <<'MD'
# A

```{experiment} sq
source: kernels/sq/sq.c
```
MD
mkdir res && chmod a-w res
if [ "$(id -u)" = 0 ]; then
	# root ignores permissions; a file where the folder should be fails alike
	rmdir res && echo "not a folder" > res
fi
build
expect_rc 1
expect_err "cannot"
expect_html a.html "This experiment failed"
