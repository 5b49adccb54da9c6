package workbench

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/interderive/interderive"
)

// TestMatches: equal text; an expectation ending in " *" matches the answers that
// begin with what precedes the star and a blank; approximations number by number.
func TestMatches(t *testing.T) {
	tests := []struct {
		expected, actual string
		want             bool
	}{
		{"4", "4", true},
		{"4", "5", false},
		{"blame *", "blame l1", true},
		{"blame *", "4", false},
		{"blame *", "blame", false},
		{"blame *", "blamed l1", false},
		{"blame l1", "blame l2", false},
		{"done after *", "done after 12", true},
		{"done after *", "done before 12", false},
		{"*", "*", true},
		{"*", "4", false},
		{approxPrefix + "0.8414709848078965", "0.8414709848078964", true},
		{approxPrefix + "0.84147", "0.8414709848078965", false},
		{approxPrefix + "<1, <2.5, 1e-3>>", "<1.0000000000001, <2.5, 0.001>>", true},
		{approxPrefix + "<1, 2>", "<<1, 2>, 3>", false},
		{approxPrefix + "0", "1e-12", true},
		{approxPrefix + "0", "1e-3", false},
		{approxPrefix + "1", "undefined", false},
	}
	for _, tt := range tests {
		if got := Matches(tt.expected, tt.actual); got != tt.want {
			t.Errorf("Matches(%q, %q) = %v, want %v", tt.expected, tt.actual, got, tt.want)
		}
	}
}

// TestParseExpectationsErrors: a comment line shaped as a directive that is not a
// valid one is an error at its line and column, with a suggestion when the word is
// a directive's name misspelt; prose comments pass. Every position is counted by
// hand (columns count runes from 1); the variants are the counter's, one and two.
func TestParseExpectationsErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // the error, "" for none
	}{
		{"misspelt, brackets", "-- expct[one]: 4\n3", `1:4: unknown directive "expct": did you mean "expect"?`},
		{"misspelt, no brackets", "-- expext: 4\n3", `1:4: unknown directive "expext": did you mean "expect"?`},
		{"upper case", "-- Expect: 4\n3", `1:4: unknown directive "Expect": did you mean "expect"?`},
		{"rule for rules", "-- expect: 4\n  -- rule: dec\n3", `2:6: unknown directive "rule": did you mean "rules"?`},
		{"expected", "-- expected: 4\n3", `1:4: unknown directive "expected": did you mean "expect"?`},
		{"unknown word in brackets", "-- answer[one]: 4\n3", `1:4: unknown directive "answer" (the directives: expect, expect-approx, rules, fuel, type, holds)`},
		{"unknown variant", "-- expect[one, xx]: 4\n3", `1:16: unknown speed "xx" (known: one, two)`},
		{"missing colon", "-- expect[one] 4\n3", `1:16: a colon must follow expect[...]`},
		{"unclosed", "-- expect[one: 4\n3", `1:10: expect[ has no closing ]`},
		{"empty answer", "-- expect:\n3", `1:11: an empty expectation: write the answer after the colon`},
		{"bad fuel", "-- expect: 4\n-- fuel: many\n3", `2:10: fuel must be a positive number, not "many"`},
		{"fuel in brackets", "-- expect: 4\n-- fuel[one]: 3\n3", `2:4: fuel applies to every variant: write -- fuel: N`},
		{"second fuel", "-- expect: 4\n-- fuel: 5\n-- fuel: 6\n3", `3:4: a second fuel line (the first is line 2)`},
		{"duplicate", "-- expect: 4\n-- expect[two]: 4\n3", `2:4: a second expectation for two (already "4")`},
		{"rules without expect", "-- expect[one]: 4\n-- rules[two]: dec\n3", `2:4: rules for two, which has no expectation`},
		{"holds in brackets", "-- holds[one]: p\n3", `1:4: holds applies to every variant: write -- holds: PROPERTY`},
		{"empty holds", "-- holds: ,\n3", `1:11: an empty holds: name the properties after the colon`},
		// Prose: a first word far from every directive, a word with no colon or
		// bracket after it, a first token that is not a word, a directive in the
		// middle of a line.
		{"prose", "-- expect: 4\n-- LD: slow\n-- note: x\n-- Total: 3\n-- expect the answer\n-- -dec-> x\n3 -- expct: 5", ""},
	}
	for _, tt := range tests {
		_, err := ParseExpectations([]byte(tt.src), newCounter())
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
	// Several errors are all reported, in line order.
	_, err := ParseExpectations([]byte("-- expct: 4\n-- expect[q]: 4\n"), newCounter())
	var list interderive.ErrorList
	if !errors.As(err, &list) || len(list) != 2 || list[0].Pos.Line != 1 || list[1].Pos.Line != 2 {
		t.Errorf("two errors: got %v", err)
	}
}

// only is a counter whose plain -- expect: covers the variant one alone.
type only struct{ *counter }

func (o only) Variant() Parameter {
	p := o.counter.Variant()
	p.Expect = []string{"one"}
	return p
}

// TestExpectations reads well-formed comments: per variant, approximations marked,
// rules per variant, fuel; a plain expect covers Parameter.Expect.
func TestExpectations(t *testing.T) {
	src := "-- expect[one]: done after 3\n-- expect[two]: done *\n-- rules[one]: dec, dec2\n-- fuel: 50\n-- type[one]: count\n-- note: prose\n3"
	x, err := ParseExpectations([]byte(src), newCounter())
	if err != nil {
		t.Fatal(err)
	}
	want := Expectations{Answer: map[string]string{"one": "done after 3", "two": "done *"},
		Rules: map[string][]string{"one": {"dec", "dec2"}}, Type: map[string]string{"one": "count"}, Fuel: 50}
	if diff := cmp.Diff(want, x); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	x, err = ParseExpectations([]byte("-- expect-approx: 0.5\n1"), newCounter())
	if err != nil || x.Answer["one"] != approxPrefix+"0.5" || x.Answer["two"] != approxPrefix+"0.5" {
		t.Errorf("expect-approx: %v, %v", x.Answer, err)
	}
	x, err = ParseExpectations([]byte("-- expect: 1\n1"), only{newCounter()})
	if diff := cmp.Diff(map[string]string{"one": "1"}, x.Answer); err != nil || diff != "" {
		t.Errorf("a plain expect of a calculus that expects only one: %v (-want +got)\n%s", err, diff)
	}
}
