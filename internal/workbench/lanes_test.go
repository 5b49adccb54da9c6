package workbench

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/interderive/interderive"
)

// laneRows runs f on a new lane and returns its rows: each "RULE: line | line ...",
// the last one (after the last contraction) with the rule "end".
func laneRows(f func(l *lane)) []string {
	ch := make(chan laneRow, 100)
	l := newLane("s", ch)
	f(l)
	l.finish(Outcome{}, nil)
	close(ch)
	var rows []string
	for r := range ch {
		rule := r.rule
		if rule == "" {
			rule = "end"
		}
		rows = append(rows, rule+": "+strings.Join(r.lines, " / "))
	}
	return rows
}

// TestLanePlacement: where each line goes, rule by rule, by hand.
func TestLanePlacement(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(l *lane)
		want []string
	}{
		{"a step goes to the row being built", func(l *lane) {
			l.Step("a")
			l.contract("r1")
			l.Step("b")
		}, []string{"r1: a", "end: b"}},
		{"a line about the last contraction goes to its row", func(l *lane) {
			l.Step("a")
			l.contract("r1")
			l.About(1, "x")
			l.Step("b")
			l.contract("r2")
			l.About(2, "y")
		}, []string{"r1: a / x", "r2: b / y", "end: "}},
		{"a line about an earlier contraction goes under its header", func(l *lane) {
			l.contract("r1")
			l.contract("r2")
			l.Step("s")
			l.About(1, "| y")
			l.About(1, "| z")
			l.contract("r3")
		}, []string{"r1: ", "r2: ", "r3: s / | contraction 1 (r1) completes / | y / | z", "end: "}},
		{"a report heads the row being built, even for the last contraction", func(l *lane) {
			l.contract("r1")
			l.Report(1, "trace", 0, "trace: t")
			l.Report(1, "derivative", 0, "derivative: d")
			l.About(1, "contract: c")
		}, []string{"r1: ", "end: contraction 1 (r1) completes / trace: t / derivative: d / contract: c"}},
		{"a new contraction forgets the header", func(l *lane) {
			l.contract("r1")
			l.contract("r2")
			l.Report(1, "trace", 0, "a")
			l.contract("r3")
			l.About(1, "b")
			l.About(3, "c")
		}, []string{"r1: ", "r2: ", "r3: contraction 1 (r1) completes / a / c", "end: contraction 1 (r1) completes / b"}},
		{"a header for another contraction replaces it", func(l *lane) {
			l.contract("r1")
			l.contract("r2")
			l.contract("r3")
			l.Report(1, "x", 0, "x")
			l.Report(2, "y", 0, "y")
			l.About(1, "z")
		}, []string{"r1: ", "r2: ", "r3: ", "end: contraction 1 (r1) completes / x / contraction 2 (r2) completes / y / contraction 1 (r1) completes / z"}},
		{"a header is indented as its line", func(l *lane) {
			l.contract("rd")
			l.contract("op")
			l.Report(1, "trace", 0, "| | trace: t")
		}, []string{"rd: ", "op: ", "end: | | contraction 1 (rd) completes / | | trace: t"}},
		{"no header for a contraction not made", func(l *lane) {
			l.contract("r1")
			l.About(5, "far")
			l.Report(0, "none", 0, "zero")
		}, []string{"r1: ", "end: far / zero"}},
	} {
		if got := laneRows(tc.run); !cmp.Equal(got, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
	// A line is kept whole: the stage prints each of its items within the budget.
	long := strings.Repeat("x", 1000)
	if got := laneRows(func(l *lane) { l.Step(long) }); !cmp.Equal(got, []string{"end: " + long}) {
		t.Errorf("a long line: %q", got)
	}
}

// TestRuleLog: every contraction's rule, from the distinct rules.
func TestRuleLog(t *testing.T) {
	var r ruleLog
	for _, rule := range []string{"a", "b", "a", "c"} {
		r.add(rule)
	}
	if got := []string{r.at(1), r.at(2), r.at(3), r.at(4), r.at(0), r.at(5)}; !cmp.Equal(got, []string{"a", "b", "a", "c", "?", "?"}) || len(r.names) != 3 {
		t.Errorf("rules %q, %d distinct", got, len(r.names))
	}
}

// TestTrace: one stage's lane, streamed, by hand from the counter: on 2, ref counts
// 2 and 1 down, each row with its count and what is left after it, and reports the
// total of contraction 1 after the last one; quiet shows its contractions alone,
// compactly, and the report.
func TestTrace(t *testing.T) {
	w, c := newBench(t), newCounter()
	for _, tc := range []struct {
		stage, lang, src, want string
	}{
		{"ref", "count", "2", `speed one, stage ref
program    2

contraction 1: dec
  count 2
  now 1

contraction 2: dec
  count 1
  now 0

after the last contraction
  | contraction 1 (dec) completes
  | total 2
  | closed

answer     done(2)
`},
		{"quiet", "tally", "||", `speed one, stage quiet
program    ||
contraction 1: dec
contraction 2: dec

after the last contraction
  | contraction 1 (dec) completes
  | total 2

answer     done(2)
`},
	} {
		var b strings.Builder
		out, err := w.Trace(&b, c, load(t, c, tc.lang, tc.src), tc.stage, "", "", interderive.Options{})
		if err != nil || out.Steps != 2 || b.String() != tc.want {
			t.Errorf("%s: %v, %d steps\n%s\nwant\n%s", tc.stage, err, out.Steps, b.String(), tc.want)
		}
	}
	// A run that stops: its rows, then its error; the program within the output
	// budget.
	var b strings.Builder
	_, err := w.Trace(&b, c, load(t, c, "tally", strings.Repeat("|", 100)), "ref", "one", "plain", interderive.Options{Fuel: 1, Output: 10})
	want := "speed one, stage ref\nprogram    ||||||||||" + elided(10) + "\n\ncontraction 1: dec\n  count 100\n  now 99\n\nafter the last contraction\n  count 99\n"
	if !isFuel(err) || b.String() != want {
		t.Errorf("out of fuel: %v\n%s\nwant\n%s", err, b.String(), want)
	}
	if _, err := w.Trace(&b, c, load(t, c, "count", "1"), "fast", "", "", interderive.Options{}); err == nil || !strings.HasPrefix(err.Error(), `stage "fast" is not available for counter`) {
		t.Errorf("an unknown stage: %v", err)
	}
}

// TestTraceReports: only the reports, under the contraction they are about, or, for
// a stage that does not know it, after the contractions made so far.
func TestTraceReports(t *testing.T) {
	var r strings.Builder
	tr := &reportTracer{out: &r}
	tr.Report(0, "x", 0, "w")
	tr.contract("a")
	tr.Report(0, "x", 0, "x")
	tr.Report(0, "x", 0, "x2")
	tr.Report(1, "y", 0, "y")
	tr.contract("b")
	tr.Report(0, "z", 0, "z")
	tr.Report(1, "v", 0, "v")
	if want := "\nbefore the first contraction\n  w\n\nafter contraction 1 (a)\n  x\n  x2\n\ncontraction 1 (a)\n  y\n\nafter contraction 2 (b)\n  z\n\ncontraction 1 (a)\n  v\n"; r.String() != want {
		t.Errorf("got\n%s\nwant\n%s", r.String(), want)
	}
	w, c := newBench(t), newCounter()
	var b strings.Builder
	if _, err := w.TraceReports(&b, c, load(t, c, "count", "2"), "quiet", "two", "", interderive.Options{}); err != nil {
		t.Fatal(err)
	}
	// By hand: 2 under two is one dec2, and quiet reports a total of 1 about it.
	if want := "speed two, stage quiet\nprogram    2\n\ncontraction 1 (dec2)\n  | total 1\n\nanswer     done(1)\n"; b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// twoStages is a workbench of the counter on ref and quiet.
func twoStages(t *testing.T, stages ...interderive.Stage) *Workbench {
	t.Helper()
	if stages == nil {
		stages = []interderive.Stage{refStage, quietStage}
	}
	w, err := New([]Calculus{newCounter()}, stages)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestSideBySide: every stage at once, aligned on the contractions, by hand from the
// counter (as TestTrace).
func TestSideBySide(t *testing.T) {
	c := newCounter()
	w := twoStages(t)
	var b strings.Builder
	if err := w.WriteSideBySide(&b, c, load(t, c, "count", "2"), "", "", interderive.Options{}); err != nil {
		t.Fatal(err)
	}
	want := `speed     one
program   2

contraction 1: dec
  ref
      count 2
      now 1
  quiet
      (no intermediate state to show)

contraction 2: dec
  ref
      count 1
      now 0
  quiet
      (no intermediate state to show)

after the last contraction
  ref
      | contraction 1 (dec) completes
      | total 2
      | closed
  quiet
      | contraction 1 (dec) completes
      | total 2

ref        done(2)
quiet      done(2)
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	// Collected: the same, and WriteText writes it alike.
	s, err := w.SideBySide(c, load(t, c, "count", "2"), "one", "", interderive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	s.WriteText(&text)
	if text.String() != want {
		t.Errorf("WriteText:\n%s\nwant\n%s", text.String(), want)
	}
	var j strings.Builder
	s, _ = w.SideBySide(c, load(t, c, "count", "1"), "one", "", interderive.Options{})
	if err := s.WriteJSON(&j); err != nil {
		t.Fatal(err)
	}
	// Version 2: each lane's rules and answer, then a step per row with every lane's
	// lines there (the counter prints no decomposition: no redex to locate).
	wantJSON := `{"version":2,"title":"counter, speed one, mode plain","calculus":"counter","program":"1","parameter":"speed","variant":"one","mode":"plain","reference":"ref",` +
		`"lanes":[{"stage":"ref","rules":["dec"],"answer":"done(1)"},{"stage":"quiet","rules":["dec"],"answer":"done(1)"}],"steps":[` +
		`{"n":1,"rule":"dec","agree":true,"redex":null,"contractum":null,"stages":[{"stage":"ref","rule":"dec","lines":["count 1","now 0"]},{"stage":"quiet","rule":"dec","lines":[]}]},` +
		`{"n":2,"rule":"","agree":true,"redex":null,"contractum":null,"stages":[{"stage":"ref","rule":"","lines":["| contraction 1 (dec) completes","| total 1","| closed"]},` +
		`{"stage":"quiet","rule":"","lines":["| contraction 1 (dec) completes","| total 1"]}]}]}` + "\n"
	if j.String() != wantJSON {
		t.Errorf("JSON\n%s\nwant\n%s", j.String(), wantJSON)
	}
	var h strings.Builder
	if err := s.WriteHTML(&h); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<h1>interderive trace: counter, speed one, mode plain</h1>", "<th>ref</th><th>quiet</th>", "<pre>count 1\nnow 0\n⇒ dec</pre>", "<b>quiet</b>: done(1)"} {
		if !strings.Contains(h.String(), want) {
			t.Errorf("the page lacks %q:\n%s", want, h.String())
		}
	}
}

// TestSideBySideEnds: the stages disagree where wrong says oops (7: its third
// contraction); a stage stuck ends its lane with its error, which Err gives; a stage
// out of fuel is stopped at a resource limit (Limit, Limited).
func TestSideBySideEnds(t *testing.T) {
	c := newCounter()
	var b strings.Builder
	err := twoStages(t, refStage, wrongStage).WriteSideBySide(&b, c, load(t, c, "count", "7"), "one", "", interderive.Options{})
	if err != nil || !strings.Contains(b.String(), "\ncontraction 3: THE STAGES DISAGREE\n  ref (dec)\n      count 5\n      now 4\n  wrong (oops)\n") {
		t.Errorf("%v\n%s", err, b.String())
	}
	s, err := twoStages(t, refStage, stuckStage).SideBySide(c, load(t, c, "count", "5"), "one", "", interderive.Options{})
	if err != nil || !isStuck(s.Err()) || s.Lanes[1].Error == "" || s.Lanes[1].Limit || len(s.Lanes[1].Rules) != 3 {
		t.Errorf("stuck: %v %+v", err, s)
	}
	s, _ = twoStages(t).SideBySide(c, load(t, c, "count", "5"), "one", "", interderive.Options{Fuel: 2})
	if !isFuel(s.Err()) || !cmp.Equal(s.Limited(), []string{"ref", "quiet"}) {
		t.Errorf("out of fuel: %v %v", s.Err(), s.Limited())
	}
}

// streamed is a program whose run checks, at every contraction, how many rows the
// trace has written: a lane sends each row once it is final, through a channel of
// laneAhead rows, so that a stage is never more than a few rows ahead of the writer.
type streamed struct {
	n       int
	written *atomic.Int64
	ahead   *atomic.Int64 // the most rows the run was ahead
}

func (streamed) Lang() string                                   { return "count" }
func (streamed) Source(interderive.PrintBudget) (string, error) { return "streamed", nil }

func (p streamed) Run(_ interderive.Stage, _ string, opts interderive.Options) (Outcome, error) {
	c := interderive.NewCounter(opts)
	for i := 1; i <= p.n; i++ {
		opts.Observer.Step(fmt.Sprintf("step %d", i))
		if err := c.Contract("dec"); err != nil {
			return Outcome{}, err
		}
		if a := int64(i) - p.written.Load(); a > p.ahead.Load() {
			p.ahead.Store(a)
		}
	}
	return Outcome{Value: "done", Steps: p.n}, nil
}

// countingWriter counts the rows written (their "contraction" lines).
type countingWriter struct{ rows *atomic.Int64 }

func (w countingWriter) Write(b []byte) (int, error) {
	w.rows.Add(int64(strings.Count(string(b), "contraction ")))
	return len(b), nil
}

// TestTraceStreams: a run of 10,000 contractions is never more than a few rows ahead
// of what the trace has written.
func TestTraceStreams(t *testing.T) {
	w, c := newBench(t), newCounter()
	p := streamed{n: 10_000, written: &atomic.Int64{}, ahead: &atomic.Int64{}}
	if _, err := w.Trace(countingWriter{p.written}, c, p, "quiet", "", "", interderive.Options{}); err != nil {
		t.Fatal(err)
	}
	if a := p.ahead.Load(); a > laneAhead+3 {
		t.Errorf("the run went %d rows ahead of the trace, want at most %d", a, laneAhead+3)
	}
	if p.written.Load() != 10_000 {
		t.Errorf("%d rows written, want 10,000", p.written.Load())
	}
}
