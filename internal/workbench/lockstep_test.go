package workbench

import (
	"errors"
	"strings"
	"testing"

	"github.com/interderive/interderive"
)

// TestLockstep: the first disparity, by hand from the counter's stages: wrong says
// oops at its third contraction from 7 to 40, reports a total of 5 for 4 and answers 6
// for 5; stuck stops when 2 are left from 5 on (5, 4, 3, 2 under one: three
// contractions; 6, 4, 2 under two: two), before the contraction the others make.
func TestLockstep(t *testing.T) {
	w, c := newBench(t), newCounter()
	all := []interderive.Stage{refStage, quietStage, wrongStage, stuckStage}
	for _, tc := range []struct {
		name, src, variant string
		stages             []interderive.Stage
		mode               Mode
		fuel               int
		want               string // the disparity, "" for none
		ref                string // the reference's answer, or its error's prefix
	}{
		{"agreement", "3", "one", all, plain, 100, "", "done after 3"},
		{"agreement, quick", "3", "one", all[:3], quick, 100, "", "done after 3"},
		{"another contraction", "7", "one", all[:3], plain, 100, "wrong under one (plain): contraction 3 is oops, but ref's is dec", "done after 7"},
		{"another contraction under two", "8", "two", all[:3], plain, 100, "wrong under two (plain): contraction 3 is oops, but ref's is dec2", "done after 4"},
		{"another report", "4", "one", all[:3], plain, 100, "wrong under one (plain): report 1 (total) is | total 5, but ref's is | total 4", "done after 4"},
		{"another answer", "5", "one", all[:3], plain, 100, "wrong under one (plain): answer done(6), but ref's done(5)", "done after 5"},
		{"stuck", "5", "one", []interderive.Stage{refStage, stuckStage}, plain, 100,
			"stuck under one (plain): contraction 4 is (end), but ref's is dec", "done after 5"},
		{"stuck under two", "6", "two", []interderive.Stage{refStage, stuckStage}, plain, 100,
			"stuck under two (plain): contraction 3 is (end), but ref's is dec2", "done after 3"},
		{"the reference stuck", "5", "one", []interderive.Stage{stuckStage, refStage}, plain, 100,
			"stuck under one (plain): internal error: the stuck stage is stuck", "out of"},
		{"out of fuel alike", "9", "one", all[:2], plain, 4, "", "out of fuel"},
		{"out of fuel before they part", "9", "one", all[:3], plain, 2, "", "out of fuel"},
		{"fuel just enough", "2", "one", all[:2], plain, 2, "", "done after 2"},
	} {
		ref, d := w.Lockstep(c, load(t, c, "count", tc.src), tc.stages, tc.variant, tc.mode, tc.fuel)
		got := ""
		if d != nil {
			got = d.Error()
		}
		if !strings.HasPrefix(got, tc.want) || (tc.want == "") != (got == "") {
			t.Errorf("%s: disparity %q, want %q", tc.name, got, tc.want)
		}
		answer := ref.Outcome.Observation
		if ref.Err != nil {
			answer = ref.Err.Error()
		}
		if tc.name != "the reference stuck" && !strings.HasPrefix(answer, tc.ref) {
			t.Errorf("%s: the reference's %q, want %q", tc.name, answer, tc.ref)
		}
	}
}

// TestLockstepScripted: a calculus with one mode everywhere names none; errors of
// different kinds part, a panic too.
func TestLockstepScripted(t *testing.T) {
	w := scriptBench(t)
	fuel := &interderive.FuelError{Steps: 2}
	for _, tc := range []struct {
		prog scripted
		want string
	}{
		{scripted{"ref": {n: 2, answer: "1"}, "s2": {n: 2, other: 2, answer: "1"}}, "s2 under v: contraction 2 is x, but ref's is r"},
		{scripted{"ref": {n: 2, err: fuel}, "s2": {n: 2, err: errors.New("boom")}}, "s2 under v: error boom, but ref's out of fuel after 2 contractions"},
		{scripted{"ref": {n: 2, err: fuel}, "s2": {n: 2, answer: "1"}}, "s2 under v: error <nil>, but ref's out of fuel after 2 contractions"},
		{scripted{"ref": {n: 2, answer: "1"}, "s2": {n: 2, panics: true}}, "s2 under v: error internal error: the s2 stage panicked: boom, but ref's <nil>"},
		{scripted{"ref": {n: 2, err: fuel}, "s2": {n: 2, err: fuel}}, ""},
	} {
		_, d := w.Lockstep(scriptCalculus{}, tc.prog, w.Stages()[:2], "v", Mode{Name: "only", Reference: true}, 10)
		got := ""
		if d != nil {
			got = d.Error()
		}
		if got != tc.want {
			t.Errorf("disparity %q, want %q", got, tc.want)
		}
	}
}
