package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/workbench"
)

// benchPeer compares the stages with a peer (bench --peer) on the programs of the
// selection that say at which sizes the peer runs them: per program, size and variant,
// the peer's models and every stage, each with its time and how many times faster than
// each model it is. A stage's answer other than the peer's is a failure (status 1);
// a peer whose runtime is not installed is skipped, and says so.
func (a *app) benchPeer(stdout, stderr io.Writer, dir string, sel benchSel, peer workbench.Peer, timeout time.Duration) error {
	if err := peer.CheckSuite(dir); err != nil {
		return err
	}
	var progs []workbench.BenchProgram
	for _, p := range sel.progs {
		if len(p.PeerSizes(peer.Name)) > 0 {
			progs = append(progs, p)
		}
	}
	if len(progs) == 0 {
		return fmt.Errorf("--peer %s: no program of the selection says at which sizes %s runs it (-- peer %s: SIZES)", peer.Name, peer.Name, peer.Name)
	}
	if err := peer.Available(); err != nil {
		fmt.Fprintf(stderr, "bench --peer %s: skipped %d %s: %v\n", peer.Name, len(progs), workbench.Plural(len(progs), "program", "programs"), err)
		return nil
	}
	compared, differ := 0, 0
	for _, p := range progs {
		variants, err := a.wb.SelectVariants(p.Calculus, sel.only)
		if err != nil {
			return err
		}
		configs := p.Configurations()
		prog := configs[len(configs)-1].Program // every annotation kept, as the peer's program has them
		stages := a.selectedStages(p, sel)
		sizes := p.PeerSizes(peer.Name)
		if sel.sizes != nil {
			sizes = sel.sizes
		}
		for _, size := range sizes {
			for _, variant := range variants {
				fmt.Fprintf(stdout, "\n%s n=%s (%s), against %s\n", p.Name, size, variant, peer.Name)
				if err := workbench.Prepare(p.Calculus, variant); err != nil {
					return err
				}
				// A file variant meets the peer's model of the variant it stands for
				// (gradual/rules/ed.sem, ed's).
				modelled := variant
				if fv, ok := p.Calculus.(workbench.FileVariants); ok && !slices.Contains(p.Calculus.Variant().Values, variant) {
					stand, ok := fv.StandsFor(variant)
					if !ok {
						return fmt.Errorf("%s stands for no semantics %s models", variant, peer.Name)
					}
					modelled = stand
				}
				runs, err := peer.Run(dir, p, size, modelled, timeout)
				if err != nil {
					return err
				}
				tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
				fmt.Fprint(tw, "run\tcontractions\tanswer\ttime\t")
				for _, r := range runs {
					fmt.Fprintf(tw, "× %s %s\t", peer.Name, r.Model)
				}
				fmt.Fprintln(tw)
				for _, r := range runs {
					fmt.Fprintf(tw, "%s %s\t%d\t%s\t%s\t", peer.Name, r.Model, r.Contractions, r.Answer, r.Time.Round(time.Millisecond))
					for range runs {
						fmt.Fprint(tw, "\t")
					}
					fmt.Fprintln(tw)
				}
				for _, st := range workbench.RunningUnder(p.Calculus, stages, variant) {
					row := workbench.RunBench(prog, size, st, variant, interderive.Options{})
					compared++
					if row.Err != nil {
						fmt.Fprintf(tw, "%s\t\terror: %s\t\t\n", st.Name(), row.Err)
						if !errors.Is(row.Err, interderive.ErrResourceLimit) {
							differ++
						}
						continue
					}
					answer := row.Answer
					if answer != runs[0].Answer {
						answer += " DIFFERS from " + peer.Name
						differ++
					}
					fmt.Fprintf(tw, "%s\t%d\t%s\t%s %s\t", st.Name(), row.Contractions, answer, row.Time.Round(time.Microsecond), spread(row.Timing))
					for _, r := range runs {
						fmt.Fprintf(tw, "%.3g\t", r.Time.Seconds()/row.Time.Seconds())
					}
					fmt.Fprintln(tw)
				}
				tw.Flush()
			}
		}
	}
	fmt.Fprintf(stdout, "\n%d %s compared with %s\n", compared, workbench.Plural(compared, "run", "runs"), peer.Name)
	if differ > 0 {
		fmt.Fprintf(stderr, "%d %s failed or differ from %s's answer\n", differ, workbench.Plural(differ, "run", "runs"), peer.Name)
		return &exitError{exitFailed}
	}
	return nil
}
