package targets

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	g "github.com/interderive/interderive/gradual"
	gradualcalc "github.com/interderive/interderive/internal/calculi/gradual"
	"github.com/interderive/interderive/internal/gogen"
	"github.com/interderive/interderive/internal/workbench"
	"github.com/interderive/interderive/sem"
)

// generatedRuns is how many runs a generated stage times itself over (-repeat,
// after its warm-up): about 70 ms of typed fib 14, as long as the workbench times
// the hand-written machine (MinBenchTime).
const generatedRuns = 500

// generatedStages is the time a run of the program at size takes on each of the
// stages that derive --go generates from the standard ED rule file, built once with
// the Go toolchain (go on the PATH) and timed by itself over generatedRuns runs, the
// best of times processes; its answer must be want. errNoGo when there is no Go
// toolchain.
func generatedStages(p workbench.BenchProgram, size, want string, times int, stages ...string) (map[string]time.Duration, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return nil, errNoGo
	}
	rs, err := gradualcalc.StandardRuleSemantics("ed")
	if err != nil {
		return nil, err
	}
	e, err := g.Parse([]byte(p.Source(size)), g.GTLC)
	if err != nil {
		return nil, err
	}
	if e, _, err = g.InsertCasts(e); err != nil {
		return nil, err
	}
	var labels gradualcalc.Labels
	term, err := rs.Term(e, &labels)
	if err != nil {
		return nil, err
	}
	files, err := gogen.Generate(rs.Lang, "ed.sem")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "interderive-generated-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := gogen.Write(dir, files); err != nil {
		return nil, err
	}
	bin := filepath.Join(dir, "ed")
	build := exec.Command(goTool, "build", "-o", bin, ".")
	build.Dir, build.Env = dir, append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build of the generated package: %v\n%s", err, out)
	}
	prog := filepath.Join(dir, "program.term")
	if err := os.WriteFile(prog, []byte(sem.Format(term)), 0o644); err != nil {
		return nil, err
	}
	best := map[string]time.Duration{}
	for _, stage := range stages {
		for range times {
			d, err := timeGenerated(bin, stage, prog, want)
			if err != nil {
				return nil, err
			}
			if best[stage] == 0 || d < best[stage] {
				best[stage] = d
			}
		}
	}
	return best, nil
}

// timeGenerated runs the generated package's binary on the program on a stage,
// generatedRuns times in one process, and gives the time a run takes as it reports it.
func timeGenerated(bin, stage, prog, want string) (time.Duration, error) {
	run := exec.Command(bin, "-stage", stage, "-repeat", strconv.Itoa(generatedRuns), prog)
	var stderr bytes.Buffer
	run.Stderr = &stderr
	out, err := run.Output()
	if err != nil {
		return 0, fmt.Errorf("the generated %s: %v: %s", stage, err, stderr.String())
	}
	if got := string(bytes.TrimSpace(out)); got != want {
		return 0, fmt.Errorf("the generated %s answers %q, not %q", stage, got, want)
	}
	m := reportedTime.FindStringSubmatch(stderr.String())
	if m == nil {
		return 0, fmt.Errorf("the generated %s printed no time: %q", stage, stderr.String())
	}
	ns, err := strconv.ParseInt(m[1], 10, 64)
	return time.Duration(ns), err
}

// reportedTime is the time a run takes as the generated command's -repeat prints it.
var reportedTime = regexp.MustCompile(`\((\d+) ns\)`)

// errNoGo says that the generated stages are not measured: no Go toolchain to build it.
var errNoGo = fmt.Errorf("not measured: no Go toolchain (go) on the PATH to build the generated package")
