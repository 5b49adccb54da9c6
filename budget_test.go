package interderive

import (
	"errors"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// TestCounterSlowContractions: when contractions are slow (a millisecond each, as a
// reduction semantics' steps on a large term), the counter looks at the clock more
// often than every timeCheckEvery contractions, so that a timeout of 30ms stops the
// run after about 30 of them rather than after 256 (a quarter of a second, and
// minutes when a step takes a second).
func TestCounterSlowContractions(t *testing.T) {
	c := NewCounter(Options{Timeout: 30 * time.Millisecond})
	var err error
	for err == nil && c.Steps() < timeCheckEvery {
		time.Sleep(time.Millisecond)
		err = c.Contract("r")
	}
	if !errors.Is(err, ErrTimeout) || c.Steps() >= timeCheckEvery/2 {
		t.Fatalf("after %d contractions of a millisecond: %v; want a timeout within %d", c.Steps(), err, timeCheckEvery/2)
	}
}

// TestCounterMemory: a run that keeps a mebibyte a contraction alive stops with a
// *MemoryError once its live heap passes a budget of 32 MiB (well before it has kept
// 1 GiB), while a run that allocates as much but keeps none of it is not stopped. The
// runtime's soft limit is the budget, as the command sets it, so that collections
// come as the heap nears it and the live heap is known. The counter watches the heap
// without a goroutine of its own: none is left behind.
func TestCounterMemory(t *testing.T) {
	goroutines := runtime.NumGoroutine()
	const budget = 32 << 20
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(budget))
	c := NewCounter(Options{Memory: budget})
	var kept [][]byte
	var err error
	for err == nil && len(kept) < 1024 {
		kept = append(kept, make([]byte, 1<<20))
		err = c.Contract("r")
	}
	var me *MemoryError
	if !errors.As(err, &me) || !errors.Is(err, ErrOutOfMemory) {
		t.Fatalf("after keeping %d MiB: %v, want a *MemoryError", len(kept), err)
	}
	if len(kept) > 256 {
		t.Errorf("stopped only after keeping %d MiB", len(kept))
	}
	if me.Limit != budget || me.Live <= budget || me.Steps != c.Steps() {
		t.Errorf("MemoryError %+v: want the budget %d, a live heap over it, and %d contractions", me, budget, c.Steps())
	}
	if !strings.Contains(me.Error(), "over the budget of 32 MiB") {
		t.Errorf("message %q does not name the budget", me.Error())
	}
	t.Logf("stopped after keeping %d MiB: %v", len(kept), err)
	kept = nil
	runtime.GC()

	c = NewCounter(Options{Memory: budget, Fuel: 300})
	var sink []byte
	for range 300 {
		sink = make([]byte, 1<<20)
		if err := c.Contract("r"); err != nil {
			t.Fatalf("a run that keeps nothing stopped after %d contractions: %v", c.Steps(), err)
		}
	}
	_ = sink
	if n := runtime.NumGoroutine(); n > goroutines {
		t.Errorf("%d goroutines after the runs, %d before", n, goroutines)
	}
}

// TestCounterCheck: Check, for work between contractions, reports the time budget
// with the contractions performed so far, and nothing when no budget is set. A
// counter's clock starts at its first look (Counter.Start): the first Check starts
// it, within the budget.
func TestCounterCheck(t *testing.T) {
	c := NewCounter(Options{Timeout: time.Nanosecond})
	for range 3 {
		c.n++ // contractions made before the deadline, without a look at the clock
	}
	if err := c.Check(); err != nil {
		t.Errorf("the first Check, which starts the clock: %v", err)
	}
	time.Sleep(time.Millisecond)
	var te *TimeoutError
	if err := c.Check(); !errors.As(err, &te) || te.Steps != 3 {
		t.Errorf("Check past the deadline: %v, want a timeout after 3 contractions", err)
	}
	if err := NewCounter(Options{}).Check(); err != nil {
		t.Errorf("Check without budgets: %v", err)
	}
	if err := NewLimits(Options{}, nil).Check(); err != nil {
		t.Errorf("Limits.Check without budgets: %v", err)
	}
}

// TestContractInlined: the fast path of Counter.Contract is inlined into every stage
// (one increment and one comparison); the compiler's report says so.
func TestContractInlined(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(gobin, "build", "-gcflags=-m", "-o", "/dev/null", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "can inline (*Counter).Contract") {
		t.Errorf("(*Counter).Contract is not inlinable:\n%s", out)
	}
}

func TestParseBytes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64 // -1: an error
	}{
		{"0", 0},
		{"4096", 4096},
		{"512B", 512},
		{"4GiB", 4 << 30},
		{"4gib", 4 << 30},
		{"1.5 GiB", 3 << 29},
		{"512MiB", 512 << 20},
		{"64KiB", 64 << 10},
		{"2GB", 2_000_000_000},
		{"1kB", 1000},
		{"1TiB", 1 << 40},
		{"", -1},
		{"GiB", -1},
		{"-1GiB", -1},
		{"4 GiBs", -1},
		{"1e3", -1},
		{"inf", -1},
		{"NaN", -1},
		{"0x10", -1},
		{"9999999TiB", -1},
	} {
		got, err := ParseBytes(tc.in)
		if tc.want < 0 {
			if err == nil {
				t.Errorf("ParseBytes(%q) = %d, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1 KiB"}, {1536, "1.5 KiB"},
		{1 << 20, "1 MiB"}, {4 << 30, "4 GiB"}, {3 << 29, "1.5 GiB"}, {1 << 40, "1 TiB"},
	} {
		if got := FormatBytes(tc.n); got != tc.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

// TestDefaultMemory: half of physical memory, or of the control group's limit if it
// is lower; a limit of "max" (v2) or of 2^63 rounded to pages (v1) is none; 4 GiB when
// nothing can be read.
func TestDefaultMemory(t *testing.T) {
	const meminfo = "MemTotal:       16384000 kB\nMemFree:         1000 kB\n" // 16,777,216,000 bytes
	for _, tc := range []struct {
		name    string
		meminfo string
		cgroups []string
		want    int64
	}{
		{"physical", meminfo, nil, 8_388_608_000},
		{"cgroup v2 lower", meminfo, []string{"2147483648\n"}, 1 << 30},
		{"cgroup v2 max", meminfo, []string{"max\n"}, 8_388_608_000},
		{"cgroup v1 unlimited", meminfo, []string{"", "9223372036854771712\n"}, 8_388_608_000},
		{"cgroup higher", meminfo, []string{"68719476736"}, 8_388_608_000},
		{"two cgroups", meminfo, []string{"4294967296", "1073741824"}, 1 << 29},
		{"cgroup only", "", []string{"1073741824"}, 1 << 29},
		{"nothing", "", nil, FallbackMemory},
		{"garbage", "MemTotal: lots\n", []string{"-1", "x"}, FallbackMemory},
	} {
		if got := defaultMemory(tc.meminfo, tc.cgroups); got != tc.want {
			t.Errorf("%s: defaultMemory = %d, want %d", tc.name, got, tc.want)
		}
	}
	if DefaultMemory() <= 0 {
		t.Errorf("DefaultMemory() = %d", DefaultMemory())
	}
}

func TestCgroupLimitFiles(t *testing.T) {
	got := cgroupLimitFiles("12:memory:/user/a\n4:cpu,memory:/b\n0::/app\n1:cpu:/c\n0::/\n2:memory:/../x\n")
	want := []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes",
		"/sys/fs/cgroup/memory/user/a/memory.limit_in_bytes", "/sys/fs/cgroup/memory/b/memory.limit_in_bytes",
		"/sys/fs/cgroup/app/memory.max"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("cgroupLimitFiles = %q,\nwant %q", got, want)
	}
}

// TestResourceLimits: running out of memory and an answer too long to print are
// resource limits (exit status 3), like fuel and time.
func TestResourceLimits(t *testing.T) {
	for _, err := range []error{&MemoryError{}, &OutputError{}} {
		if !errors.Is(err, ErrResourceLimit) {
			t.Errorf("%T is not a resource limit", err)
		}
	}
	if !errors.Is(&MemoryError{}, ErrOutOfMemory) || !errors.Is(&OutputError{}, ErrOutputLimit) {
		t.Errorf("the errors do not match their kinds")
	}
}

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 5, "abc"}, {"abc", 2, "ab"}, {"aρb", 2, "a"}, {"aρb", 3, "aρ"}, {"ρ", 0, ""},
	} {
		if got := Cut(tc.s, tc.n); got != tc.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
