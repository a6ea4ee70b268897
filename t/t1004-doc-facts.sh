#!/bin/sh
test_description='facts the documentation states that the tree can check: the library'"'"'s soname and the rule language'"'"'s keywords'
. "${top_srcdir:-..}/t/test-lib.sh"

# The soname major is current - age of libgerules' -version-info (libtool).
test_expect_success 'the soname follows from -version-info' '
	sed -n "s/^libgerules_la_LDFLAGS = -version-info \\([0-9]*\\):\\([0-9]*\\):\\([0-9]*\\) .*/\\1 \\3/p" \
		"$top_srcdir/Makefile.am" >vi &&
	test "$(wc -l <vi)" -eq 1 &&
	read cur age <vi &&
	echo "libgerules.so.$((cur - age))" >soname &&
	test_grep "^libgerules\\.so\\.[0-9]*\$" soname
'

test_expect_success 'the built library has that soname (when a shared library is built)' '
	lib=$(ls "${top_builddir:-$top_srcdir}"/.libs/libgerules.so.*.*.* 2>/dev/null | head -n 1) &&
	if test -n "$lib" && command -v readelf >/dev/null
	then
		readelf -d "$lib" | sed -n "s/.*Library soname: \\[\\(.*\\)\\]/\\1/p" >built &&
		test_cmp soname built
	fi
'

test_expect_success 'doc/c-api.md and doc/python.md name only that soname' '
	cat "$top_srcdir/doc/c-api.md" "$top_srcdir/doc/python.md" |
		grep -o "libgerules\\.so\\.[0-9][0-9]*" | sort -u >named &&
	test_cmp soname named
'

# Keywords: every quoted word the lexer turns into a token, against the list
# doc/rule-language.md gives after "Keywords:".
test_expect_success 'doc/rule-language.md lists exactly the lexer'"'"'s keywords' '
	sed -n "s/^ *\"\\([a-z_0-9]*\\)\" *{ TOK(.*/\\1/p" "$top_srcdir/src/lang/lexer.re" | sort >expect &&
	test "$(wc -l <expect)" -gt 50 &&
	awk "/^Keywords: \`/{f=1} f{print} f&&/\`\\.\$/{exit}" "$top_srcdir/doc/rule-language.md" |
		sed -e "s/^Keywords: //" -e "s/[\`.]//g" | tr " " "\\n" | sed "/^\$/d" | sort >actual &&
	test_cmp expect actual
'

# A file under rules/ that Makefile.am does not name is left out of `make dist`
# and of `make install`: the tarball's own `gerules test` then runs fewer cases.
test_expect_success 'Makefile.am names every file under rules/ (make dist and install ship it)' '
	(cd "$top_srcdir" && find rules -type f \( -name "*.rules" -o -name "*.case" -o -name "*.json" \) | sort) >files &&
	test "$(wc -l <files)" -gt 60 &&
	while read f; do
		grep -q "[[:space:]=]$f\([[:space:]\\]\|\$\)" "$top_srcdir/Makefile.am" || echo "$f"
	done <files >unlisted &&
	test_must_be_empty unlisted
'

# A test script or program under t/ that TESTS does not name never runs.
test_expect_success 'Makefile.am runs every test under t/ (t/README.md: adding a test)' '
	(cd "$top_srcdir" && ls t/t[0-9][0-9][0-9][0-9]-*.sh t/t[0-9][0-9][0-9][0-9]-*.c | sed "s/\.[a-z]*\$//" | sort) >tests &&
	test "$(wc -l <tests)" -gt 60 &&
	while read f; do
		grep -q "[[:space:]=]$f\(\.sh\)\{0,1\}\([[:space:]\\]\|\$\)" "$top_srcdir/Makefile.am" || echo "$f"
	done <tests >unrun &&
	test_must_be_empty unrun
'

test_done
