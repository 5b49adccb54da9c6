package rules_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/calculi"
	"github.com/interderive/interderive/internal/calculi/rules"
	"github.com/interderive/interderive/internal/cases/rulescases"
	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/sem"
	"pgregory.net/rapid"
)

// TestDisciplinesAgree: every rule file of the repository that qualifies for
// environments (testdata/rules, gradual/rules, the hooks' gcd.sem aside), on random
// closed programs of its grammar (rules.Generator), runs on every derived stage under
// both disciplines — environments, and substitution asked for (sem.Language.Substitute)
// — with the same contractions and the same answer, run-time error or fuel as the
// derived reduction semantics (agree): the one engine's two disciplines are one
// semantics. rapid shrinks a disagreement to a small program.
func TestDisciplinesAgree(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "rules", "*.sem"))
	casts, _ := filepath.Glob(filepath.Join("..", "..", "..", "gradual", "rules", "*.sem"))
	files = append(files, casts...)
	if len(files) < 8 {
		t.Fatalf("%d rule files", len(files))
	}
	stages := derivedStages()
	if len(stages) != 6 || stages[5].Name() != "compile" {
		t.Fatalf("%d derived stages, want the six, compile last", len(stages))
	}
	for i, file := range files {
		if !testenv.InTurn(i, 0, 2) {
			continue // -short: every other file
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		l, err := sem.Load(src)
		if err != nil {
			t.Fatal(err)
		}
		subst := *l
		subst.Substitute = true
		gen := rules.Generator{Lang: l, Depth: 4}
		t.Run(filepath.Base(file), func(t *testing.T) {
			programs, contracted := 0, 0
			fired := map[string]bool{}
			// compare runs term on every stage under both disciplines; "" when they agree.
			compare := func(term *sem.Term) string {
				ref := runStage(l, term, stages[0])
				programs++
				if len(ref.rules) > 0 {
					contracted++
				}
				for _, r := range ref.rules {
					fired[r] = true
				}
				for _, s := range stages[1:] {
					for _, lang := range []*sem.Language{l, &subst} {
						if msg := agree(ref, runStage(lang, term, s)); msg != "" {
							return fmt.Sprintf("%s (substitution %v): %s\nprogram: %s", s.Name(), lang.Substitute, msg, sem.Format(term))
						}
					}
				}
				return ""
			}
			// The file's own programs first (testdata/rules/NAME/*.term), whose rules
			// fire by construction; then random ones.
			for _, own := range rulescases.OwnPrograms(t, l, file) {
				if own.Err != nil {
					t.Fatalf("%s: %v", own.Path, own.Err)
				}
				if msg := compare(own.Term); msg != "" {
					t.Errorf("%s: %s", own.Path, msg)
				}
			}
			check := func() {
				rapid.Check(t, func(rt *rapid.T) {
					if msg := compare(gen.Draw(rt)); msg != "" {
						rt.Fatal(msg)
					}
				})
			}
			check()
			// Under -short rapid draws 50 programs, now and then too few to fire a
			// fourth of the rules (below): a few more rounds top them up, each one
			// checked as the first.
			for round := 0; round < 5 && (contracted == 0 || 4*len(fired) < len(l.RuleNames())); round++ {
				check()
			}
			t.Logf("%d programs, %d of them with a contraction; rules fired: %d of %d", programs, contracted, len(fired), len(l.RuleNames()))
			// The comparison means something only where rules fire: the files' own
			// programs fire theirs, and random programs of these grammars, often stuck at
			// once (a type error), reach a good part of the rules (observed: 0 to 157
			// programs of 250 with a contraction, and at least 8 of the cast semantics'
			// 19 or 20 rules).
			if contracted == 0 || 4*len(fired) < len(l.RuleNames()) {
				t.Errorf("%d programs with a contraction, %d rules fired of %d: the generator reaches too little", contracted, len(fired), len(l.RuleNames()))
			}
		})
	}
}

// derivedStages are the registered stages that derive rule files (sem.StageOf), in
// derivation order: the reduction semantics first.
func derivedStages() []interderive.Stage {
	var stages []interderive.Stage
	for _, s := range calculi.Stages() {
		if _, ok := sem.StageOf(s); ok {
			stages = append(stages, s)
		}
	}
	return stages
}
