package driver

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/interderive/interderive"
)

// A BenchProgram is a program of the benchmark suite (testdata/bench/NAME.EXT.in),
// parameterised by a size n written {n} in its text, with the sizes it runs at
// (a comment "-- sizes: 10, 20, 40").
type BenchProgram struct {
	Name  string
	Lang  Language
	Text  string
	Sizes []string
}

// LoadBench reads the suite's programs from a directory.
func LoadBench(dir string) ([]BenchProgram, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.in"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var progs []BenchProgram
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(filepath.Base(f), ".in")
		l, err := LanguageFor(name, "")
		if err != nil {
			return nil, err
		}
		p := BenchProgram{Name: name, Lang: l, Text: string(src)}
		sc := bufio.NewScanner(bytes.NewReader(src))
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "-- sizes:"); ok {
				for _, s := range strings.Split(rest, ",") {
					p.Sizes = append(p.Sizes, strings.TrimSpace(s))
				}
			}
		}
		if len(p.Sizes) == 0 {
			return nil, fmt.Errorf("%s: no -- sizes: comment", f)
		}
		progs = append(progs, p)
	}
	return progs, nil
}

// A BenchRow is one measured run.
type BenchRow struct {
	Program, Size, Stage, Variant string
	Answer                        string
	Contractions                  int
	Time                          time.Duration
	PeakHeap                      uint64 // bytes in use at the highest sample, above the baseline
	Err                           error
}

// RunBench runs a program at one size on one stage under one variant, timing it and
// sampling the heap while it runs (every millisecond: the peak is approximate).
func RunBench(p BenchProgram, size, stage, variant string, opts interderive.Options) BenchRow {
	row := BenchRow{Program: p.Name, Size: size, Stage: stage, Variant: variant}
	prog, err := p.Lang.Load([]byte(strings.ReplaceAll(p.Text, "{n}", size)))
	if err != nil {
		row.Err = err
		return row
	}
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				runtime.ReadMemStats(&m)
				if m.HeapInuse > base.HeapInuse && m.HeapInuse-base.HeapInuse > peak.Load() {
					peak.Store(m.HeapInuse - base.HeapInuse)
				}
			}
		}
	}()
	opts.OnContract = func(string) { row.Contractions++ }
	start := time.Now()
	out, err := prog.Run(stage, variant, opts)
	row.Time = time.Since(start)
	close(stop)
	wg.Wait()
	row.Answer, row.Err, row.PeakHeap = out.Observation, err, peak.Load()
	return row
}

// GrowthExponent fits time = a · contractions^k by least squares on the logarithms and
// returns k (NaN with fewer than two usable points).
func GrowthExponent(rows []BenchRow) float64 {
	var xs, ys []float64
	for _, r := range rows {
		if r.Err == nil && r.Contractions > 0 && r.Time > 0 {
			xs = append(xs, math.Log(float64(r.Contractions)))
			ys = append(ys, math.Log(r.Time.Seconds()))
		}
	}
	n := float64(len(xs))
	if n < 2 {
		return math.NaN()
	}
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx, sy, sxx, sxy = sx+xs[i], sy+ys[i], sxx+xs[i]*xs[i], sxy+xs[i]*ys[i]
	}
	den := n*sxx - sx*sx
	if den == 0 {
		return math.NaN()
	}
	return (n*sxy - sx*sy) / den
}
