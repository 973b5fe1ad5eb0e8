#!/bin/sh
# The sum of the first n squares, for each n it is given, written as
# records: a program in any language that appends JSON lines to the file
# $LAB_RECORDS names is an experiment. Run by hand, it prints them.
for n in "$@"; do
	sum=$((n * (n + 1) * (2 * n + 1) / 6))
	echo "n $n: $sum"
	line=$(printf '{"n":%d,"sum":%d}' "$n" "$sum")
	if [ -n "$LAB_RECORDS" ]; then
		echo "$line" >> "$LAB_RECORDS"
	else
		echo "record: $line"
	fi
done
