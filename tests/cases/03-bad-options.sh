# Unknown, missing, repeated and malformed options, each with its line.
chapter 01-a.md <<'MD'
# A

```{experiment} one
source: kernels/x/x.c
colour: blue
timeout: soon
```

```{chart} c1
data: one
x: n
```

```{experiment} two
source: kernels/x/x.c
allow-error: maybe
args: a
args: b
show: everything
```

```{experiment}
source: kernels/x/x.c
```

```{experiment} bad-id
source: kernels/x/x.c
```
MD
build --no-run
expect_rc 1
expect_err "chapters/01-a.md:5: error: unknown option 'colour'; {experiment} takes source, args, flags, timeout, allow-error, show"
expect_err "chapters/01-a.md:6: error: option 'timeout' wants a positive whole number, not 'soon'"
expect_err "chapters/01-a.md:9: error: {chart} is missing its 'y' option"
expect_err "chapters/01-a.md:16: error: option 'allow-error' wants true or false, not 'maybe'"
expect_err "chapters/01-a.md:18: error: option 'args' given twice (first at line 17)"
expect_err "chapters/01-a.md:19: error: option 'show' lists 'everything'"
expect_err "chapters/01-a.md:22: error: {experiment} needs an id"
expect_err "chapters/01-a.md:26: error: 'bad-id' is not a valid id"
expect_html a.html "unknown option"
# args: with a quote never closed, and env: words that are not NAME=value,
# are errors at their lines, not a program run with what was guessed.
chapter 01-a.md <<'MD'
# A

```{experiment} q
source: kernels/x/x.c
args: "unbalanced
env: NOEQUALS =x 1BAD=y
```

```{experiment} r
source: kernels/x/x.c
env: GOOD=1 ALSO_GOOD="a b"
args: 'it''s' "a \"b\""
```
MD
build --no-run
expect_rc 1
expect_err "chapters/01-a.md:5: error: option 'args': "
expect_err "chapters/01-a.md:6: error: option 'env': 'NOEQUALS' is not NAME=value"
expect_no_err "chapters/01-a.md:11:"
expect_no_err "chapters/01-a.md:12:"
# A table's sort: is a field, then asc or desc; another word is an error.
chapter 01-a.md <<'MD'
# A

```{table}
data: q
columns: n
sort: n sideways
```

```{table}
data: q
columns: n
sort: n asc desc
```
MD
build --no-run
expect_rc 1
expect_err "chapters/01-a.md:6: error: option 'sort' wants a field, then asc or desc (sort: gbps desc), not 'n sideways'"
expect_err "chapters/01-a.md:12: error: option 'sort' wants a field, then asc or desc"
