package workbench

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/interderive/interderive"
)

// hogs is a calculus of two programs, in *.hog files: "hog" holds hogSize bytes live
// (collected once, so that the live heap counts them) and then contracts, which its
// memory budget stops at its first look; "small" waits until a hog has held its memory, and
// makes 8 contractions in no memory to speak of. Each answers "done".
type hogs struct {
	*counter
	allocated chan struct{} // closed once a hog holds its memory
	once      sync.Once
}

const hogSize = 32 << 20

func newHogs() *hogs {
	return &hogs{counter: &counter{name: "hogs", exts: []string{"hog"}, flag: "speed"}, allocated: make(chan struct{})}
}

func (h *hogs) Load(_ string, src []byte) (Program, error) {
	var text strings.Builder
	for _, line := range strings.Split(string(src), "\n") {
		line, _, _ = strings.Cut(line, "--")
		text.WriteString(line)
	}
	switch s := strings.TrimSpace(text.String()); s {
	case "hog", "small":
		return hogProgram{h: h, hog: s == "hog"}, nil
	default:
		return nil, &LoadError{Phase: "syntax", Err: fmt.Errorf("%q is not hog or small", s)}
	}
}

type hogProgram struct {
	h   *hogs
	hog bool
}

func (hogProgram) Lang() string                                   { return "hog" }
func (hogProgram) Source(interderive.PrintBudget) (string, error) { return "a hog", nil }

func (p hogProgram) Run(_ interderive.Stage, _ string, opts interderive.Options) (Outcome, error) {
	c := interderive.NewCounter(opts)
	var mem []byte
	if p.hog {
		mem = make([]byte, hogSize)
		for i := range mem {
			mem[i] = 1
		}
		runtime.GC()
		p.h.once.Do(func() { close(p.h.allocated) })
	} else {
		select {
		case <-p.h.allocated:
		case <-time.After(5 * time.Second): // no hog: nothing to wait for
		}
	}
	// Past the first looks at the budgets (interderive's firstLook, 4, starts the
	// clock; the heap is looked at 5 ms later): the hog waits 10 ms after its
	// fifth contraction, so that its next look reads the heap.
	for i := range 16 {
		if err := c.Contract("tick"); err != nil {
			return Outcome{Steps: c.Steps()}, err
		}
		if p.hog && i == 4 {
			time.Sleep(10 * time.Millisecond)
		}
	}
	runtime.KeepAlive(mem)
	return Outcome{Observation: "done", Value: "done", Answer: "done", Steps: c.Steps()}, nil
}

// TestCheckMemoryPerRun: every run of check has its own memory budget, though the
// budget is measured on the process's live heap, which the runs share: the small
// programs, in no memory of their own, pass beside a hog that holds twice the budget
// (stopped at its first look at the heap, 5 ms after its first look at the budgets), where they failed with it ("out of memory ...
// (0 contractions)"), either running beside it or after it, before a collection had
// seen its memory go.
func TestCheckMemoryPerRun(t *testing.T) {
	w, err := New([]Calculus{newHogs()}, []interderive.Stage{refStage})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"a.hog": "-- expect[two]: done\nhog"}
	for i := range 4 {
		files[fmt.Sprintf("s%d.hog", i)] = "-- expect[two]: done\nsmall"
	}
	dir := writeFiles(t, files)
	out, r := check(t, w, CheckOptions{Memory: hogSize / 2}, dir)
	if r.Runs != 5 || r.Passed != 4 || r.Failed != 1 || len(r.Failures) != 1 ||
		!strings.HasSuffix(r.Failures[0].File, "a.hog") || !strings.Contains(r.Failures[0].Message, "out of memory") {
		t.Errorf("got\n%swant the hog alone to fail, out of memory", out)
	}
}
