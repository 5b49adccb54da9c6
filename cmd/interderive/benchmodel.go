package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/calculi/rules"
	"github.com/interderive/interderive/internal/redex"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/sem"
)

// modelScript is the Redex side of bench --peer redex --model, in the suite's
// directory: it runs a model's relation on one term and times it.
var modelScript = filepath.Join("redex", "model.rkt")

// besideModel finds the modules a model requires that are files beside it: a
// collection path of redex-examples, redex/examples/NAME, is NAME.rkt in the model's
// directory (where redex-examples keeps them), and a relative path, "NAME.rkt", that
// file.
func besideModel(file string) redex.Library {
	return func(spec *redex.Datum) (string, *redex.Module, bool) {
		var name string
		switch {
		case spec.Kind == redex.Symbol && strings.HasPrefix(spec.Text, "redex/examples/"):
			name = strings.TrimPrefix(spec.Text, "redex/examples/") + ".rkt"
		case spec.Kind == redex.String && strings.HasSuffix(spec.Text, ".rkt") && !filepath.IsAbs(spec.Text):
			name = spec.Text
		default:
			return "", nil, false
		}
		path := filepath.Join(filepath.Dir(file), filepath.FromSlash(name))
		src, err := os.ReadFile(path)
		if err != nil {
			return "", nil, false
		}
		m, err := redex.Read(src)
		if err != nil {
			return "", nil, false
		}
		return name, m, true
	}
}

// importModel reads, recognizes and imports a Redex model; its errors are rendered
// with the model's positions and carets.
func importModel(file string) (*redex.Imported, error) {
	src, err := workbench.ReadSource(file, nil, 0)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	im, err := redex.Load(src, file, besideModel(file))
	if err != nil && (im == nil || im.Sem == "") {
		return nil, errors.New(interderive.Describe(file, src, err))
	}
	return im, err
}

// readModel reads and recognizes a Redex model (the modules it requires found beside
// it), with its source; its errors are rendered with the model's positions.
func readModel(file string) (*redex.Model, []byte, error) {
	src, err := workbench.ReadSource(file, nil, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("model: %w", err)
	}
	mod, err := redex.Read(src)
	if err != nil {
		return nil, nil, errors.New(interderive.Describe(file, src, err))
	}
	model, err := redex.RecognizeWith(mod, besideModel(file))
	if err != nil {
		return nil, nil, errors.New(interderive.Describe(file, src, err))
	}
	return model, src, nil
}

// modelBench is what bench --peer redex --model compares: the model, the rule file
// written by hand for it if any (--model-rules), the program to compare on if not the
// longest test (--model-term), the peer and its timeout.
type modelBench struct {
	model, rules, term string
	peer               workbench.Peer
	timeout            time.Duration
}

// peerTime is how long each side is timed over, all told: Redex's reduction and each
// stage's evaluation, in modelRounds rounds that alternate between them (Redex's
// round, then each stage's), so that a slow phase of the machine, which comes and goes
// within seconds, weighs on both sides alike.
const (
	peerTime    = 500 * time.Millisecond
	modelRounds = 5
)

// benchModel compares the derived stages of an imported Redex model with Redex
// itself (bench --peer redex --model MODEL.rkt), on the model's longest test: the
// test-->> whose program takes the most contractions. Redex runs the model's own
// relation (testdata/bench/redex/model.rkt's rounds, its cache of matches off); each
// stage runs the rule file the model translates to. Both are timed over half a second
// all told (peerTime), in modelRounds rounds that alternate between Redex and the
// stages: Redex's time is the mean of its repetitions, a stage's the mean of its
// evaluation alone, timed as bench's are (TimeRoundsOver); neither prints the
// answer. The table gives
// each run's contractions, answer and time, and how many times faster than Redex
// each stage is. An answer other than Redex's (up to α-equivalence) makes the exit
// status 1. A rule file written by hand for the model (mb.rules) stands for the
// import, its corpus for the tests; a program (mb.term) for the tests.
func (a *app) benchModel(stdout, stderr io.Writer, dir string, mb modelBench, opts interderive.Options) error {
	name, text, relation, tests, err := modelTests(mb)
	if err != nil {
		return err
	}
	model := mb.model
	tmp, err := os.MkdirTemp("", "interderive-model-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, name+ruleFileExt), []byte(text), 0o644); err != nil {
		return err
	}
	path := filepath.Join(tmp, name, "test.term") // DIR/NAME/*.term: NAME.sem is its rule file
	c, lang, err := a.wb.LanguageFor(path, "")
	if err != nil {
		return err
	}
	if c, err = a.wb.Define(c, nil, path, []byte(tests[0].Program)); err != nil {
		return err
	}
	variant, err := a.wb.VariantFor(c, "")
	if err != nil {
		return err
	}
	stages := a.wb.StagesUnder(c, variant)
	// The longest test: the most contractions on the reference stage.
	var longest *redex.TermFile
	var prog workbench.Program
	most := -1
	for _, t := range tests {
		p, err := c.Load(lang.Ext, []byte(t.Program))
		if err != nil {
			return fmt.Errorf("%s: %w", interderive.Escape(t.Name), err)
		}
		out, err := p.Run(stages[0], variant, opts)
		if err == nil && out.Steps > most {
			longest, prog, most = t, p, out.Steps
		}
	}
	if longest == nil {
		return fmt.Errorf("%s: no test of the model runs to an answer on %s", interderive.Escape(model), stages[0].Name())
	}
	what := "its longest test"
	if mb.term != "" {
		what = "the program"
	}
	fmt.Fprintf(stdout, "%s, %s (%s, %s on %s): %s\n", interderive.Escape(model), what, longest.Name,
		plural(most, "contraction", "contractions"), stages[0].Name(), interderive.Escape(programText(longest.Program)))
	peer, timeout := mb.peer, mb.timeout
	var session *workbench.PeerSession
	var peerRun *workbench.PeerRun
	if err := peer.Available(); err != nil {
		fmt.Fprintf(stderr, "bench --peer %s --model: Redex not run: %v\n", peer.Name, err)
	} else if session, peerRun, err = startModel(peer, dir, model, relation, longest.Program, timeout); err != nil {
		return err
	} else {
		defer session.Close()
	}
	// Each stage's answer, then the rounds: Redex's, then each stage's evaluation
	// alone (as Redex's time is: the term's evaluation, not the printing of its
	// answer), modelRounds times.
	type timed struct {
		out   workbench.Outcome
		err   error
		total time.Duration
	}
	runs := make([]timed, len(stages))
	for i, s := range stages {
		runs[i].out, runs[i].err = prog.Run(s, variant, opts)
	}
	rp := prog.(rules.Program)
	rounds := 1
	if session != nil {
		rounds = modelRounds
		peerRun.Time = 0
	}
	for range rounds {
		if session != nil {
			t, err := session.Time(peerTime / modelRounds)
			if err != nil {
				return err
			}
			peerRun.Time += t / modelRounds
		}
		for i, s := range stages {
			if runs[i].err != nil {
				continue
			}
			st, _ := sem.StageOf(s)
			t, err := workbench.TimeRoundsOver(peerTime/time.Duration(rounds), func() error { _, err := st.Eval(rp.Language(), rp.Term, opts); return err })
			if err != nil {
				return err
			}
			runs[i].total += t.Mean()
		}
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "run\tcontractions\tanswer\ttime\t× redex\t\n")
	if peerRun != nil {
		fmt.Fprintf(tw, "redex\t%d\t%s\t%s\t\t\n", peerRun.Contractions, interderive.Escape(peerRun.Answer), roundTime(peerRun.Time))
	}
	differ := 0
	for i, s := range stages {
		out, err := runs[i].out, runs[i].err
		if err != nil {
			fmt.Fprintf(tw, "%s\t\t%s\t\t\t\n", s.Name(), interderive.Escape(err.Error()))
			differ++
			continue
		}
		mean := runs[i].total / time.Duration(rounds)
		ratio := ""
		if peerRun != nil {
			ratio = fmt.Sprintf("%.0f", float64(peerRun.Time)/float64(mean))
			// Redex's answer read as a term of the rule file, up to α-equivalence (Redex
			// names fresh variables its own way), as check reads an expectation.
			if !workbench.MatchesIn(c, strings.Join(strings.Fields(peerRun.Answer), " "), out.Observation, out) {
				ratio += " (answer differs)"
				differ++
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t\n", s.Name(), out.Steps, interderive.Escape(out.Observation), roundTime(mean), ratio)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if differ > 0 {
		fmt.Fprintf(stderr, "bench --peer %s --model: %s whose answer is not Redex's\n", peer.Name, plural(differ, "stage", "stages"))
		return &exitError{exitFailed}
	}
	return nil
}

// programText is a program's text on one line, its comment lines left out.
func programText(src string) string {
	var lines []string
	for _, line := range strings.Split(src, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), ";") {
			lines = append(lines, line)
		}
	}
	return strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
}

// modelTests are the rule file a model is compared on, with its name, the model's
// relation and the programs to compare on: the import's rule file and tests (named
// by their lines), or the rule file written by hand and its corpus; or, with mb.term,
// that one program.
func modelTests(mb modelBench) (name, text, relation string, tests []*redex.TermFile, err error) {
	if mb.rules == "" {
		im, err := importModel(mb.model)
		if err != nil {
			return "", "", "", nil, err
		}
		for _, t := range im.Tests {
			t.Name = fmt.Sprintf("line %d", t.Line)
		}
		name, text, relation, tests = im.Name, im.Sem, im.Relation, im.Tests
	} else {
		src, err := os.ReadFile(mb.rules)
		if err != nil {
			return "", "", "", nil, fmt.Errorf("--model-rules: %w", err)
		}
		if relation, err = modelRelation(mb.model); err != nil {
			return "", "", "", nil, err
		}
		name, text = strings.TrimSuffix(filepath.Base(mb.rules), ruleFileExt), string(src)
		files, _ := filepath.Glob(filepath.Join(strings.TrimSuffix(mb.rules, ruleFileExt), "*.term"))
		for _, f := range files {
			prog, err := os.ReadFile(f)
			if err != nil {
				return "", "", "", nil, err
			}
			tests = append(tests, &redex.TermFile{Name: filepath.Base(f), Program: string(prog)})
		}
	}
	if mb.term != "" {
		prog, err := os.ReadFile(mb.term)
		if err != nil {
			return "", "", "", nil, fmt.Errorf("--model-term: %w", err)
		}
		tests = []*redex.TermFile{{Name: filepath.Base(mb.term), Program: string(prog)}}
	}
	if len(tests) == 0 {
		return "", "", "", nil, fmt.Errorf("%s: no test-->> of the model is a program of its rule file: nothing to compare on (--model-term gives one)", interderive.Escape(mb.model))
	}
	return name, text, relation, tests, nil
}

// modelRelation is the name of a model's first reduction relation, the one Redex
// runs.
func modelRelation(file string) (string, error) {
	model, _, err := readModel(file)
	if err != nil {
		return "", err
	}
	if len(model.Relations) == 0 || model.Relations[0].Name == "" {
		return "", fmt.Errorf("%s: no named reduction relation for Redex to run", interderive.Escape(file))
	}
	return model.Relations[0].Name, nil
}

// roundTime rounds a time to three significant digits.
func roundTime(d time.Duration) time.Duration {
	for r := time.Duration(1); r < time.Hour; r *= 10 {
		if d < 1000*r {
			return d.Round(r)
		}
	}
	return d
}

// runModel runs the model's relation on the term under the peer's runtime, within
// timeout.
// startModel starts Redex on the model's relation and term (model.rkt's rounds),
// and reads its reduction: the contractions and the answer; its time is the rounds'.
func startModel(peer workbench.Peer, dir, model, relation, term string, timeout time.Duration) (*workbench.PeerSession, *workbench.PeerRun, error) {
	s, err := peer.StartScript(filepath.Join(dir, modelScript), timeout, model, relation, term, "rounds")
	if err != nil {
		return nil, nil, err
	}
	// The model's own tests may print before: the run's line starts with redex.
	line, err := s.Line("redex ")
	if err != nil {
		return nil, nil, err
	}
	runs, err := workbench.ParsePeerOutput(line)
	if err != nil {
		s.Close()
		return nil, nil, fmt.Errorf("racket %s printed %q: want redex CONTRACTIONS ANSWER SECONDS", modelScript, line)
	}
	return s, &runs[0], nil
}
