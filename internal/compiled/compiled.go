// Package compiled is the compiled engine of the rule files (--engine compiled): the
// derived stages of a rule file as derive --go writes them (internal/gogen), built by
// the Go toolchain as a plugin (go build -buildmode=plugin), loaded into the
// workbench's process and run there, as K's LLVM backend runs a definition compiled to
// native code. It runs every stage the generated package has (reduction, closures,
// machine, cps2, interp) with the run's fuel, time and memory budgets and its
// contraction events, and gives the answer and the errors the tables' stages give
// (lockstep_test.go checks them against each other).
//
// The tables (sem, and the stages' rules.go) stay the reference: they run where there
// is no Go toolchain or no cgo, show a run's states (a trace's Observer, which the
// compiled stages do not feed), and run the rule files the generator refuses (a
// non-deterministic relation). A calculus's own hooks and prims run in the
// workbench's process: the generated code calls them back (gogen.GenerateHosted,
// hostCalls); and the values of its own atom types stay there, in each run's
// registry (gogen.Atoms), the generated code holding their handles. A built plugin
// is kept in the user's cache directory under the digest of its source and of the Go
// version, and built again only when either changes; a process loads it once (Go's
// plugin package keeps what it opened), its module named by the digest, so that two
// rule files of one name are two plugins.
package compiled

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"plugin"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/internal/gogen"
	"github.com/interderive/interderive/sem"
)

// ErrUnavailable is the error (wrapped) of a machine where the compiled engine
// cannot build or load a rule file's stages: no Go toolchain, no cgo, a toolchain
// other than the one interderive was built with. --engine tables runs there.
var ErrUnavailable = errors.New("the compiled engine is unavailable")

// evalFunc is the type of the generated package's Eval (rt/export.go.txt), and
// hookFunc and primFunc the types of the calls of the calculus's own hooks and prims
// it makes back to the workbench (hook and prim).
type (
	hookFunc = func(name string, args [][]int64, argNames [][]string) (result []int64, resultNames []string, fail []string)
	primFunc = func(name string, args []int64) (int64, bool)
	evalFunc = func(stage string, prog []int64, names []string, fuel int, deadline time.Time, memory int64, onContract func(string), hook hookFunc, prim primFunc) (answer []int64, answerNames []string, fail []string)
)

// Semantics is the compiled stages of one rule file's language.
type Semantics struct {
	lang *sem.Language
	eval evalFunc
	// funcs are the calculus's own hooks, by name, which the generated code calls
	// back (hook: nil where there is none), and prim runs its own prims.
	funcs map[string]*sem.Function
	prim  primFunc
	// literals are the rule file's literals of its calculus's own atom types, whose
	// values stay here (gogen.Atoms): each run's registry starts from them.
	literals *gogen.Atoms
}

// Load is the compiled stages of l, read from the file named file (for names and
// messages): built into dir (the user's cache directory if dir is ""), unless built
// there before, and loaded. The calculus's own hooks and prims run in this process,
// called back by the generated code (gogen.GenerateHosted), and its own atom types'
// values stay here. A file the generator refuses (a non-deterministic relation), a
// machine with no Go toolchain or no cgo, and a build or load that fails are errors
// that say so.
func Load(l *sem.Language, file, dir string) (*Semantics, error) { return load(l, file, dir, nil) }

// load is Load, which calls building (if not nil) before a build, the first run's
// wait of a few seconds.
func load(l *sem.Language, file, dir string, building func(file, dir string)) (*Semantics, error) {
	files, literals, err := gogen.GenerateHosted(l, file)
	if err != nil {
		return nil, fmt.Errorf("the compiled engine cannot run %s: %w", file, err)
	}
	if dir == "" {
		dir = CacheDir()
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(h, "module by digest\n") // the plugins built before their module was named by the digest, not loaded
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		fmt.Fprintf(h, "%s %d\n", name, len(files[name]))
		h.Write(files[name])
	}
	digest := hex.EncodeToString(h.Sum(nil))[:24]
	// A plugin's path, by which a process knows it loaded, is its module's: two rule
	// files of one name (the generator names the module after the file) would be one
	// plugin to Go, and the second refused ("plugin already loaded"). The module is
	// named by the digest.
	files["go.mod"] = gogen.GoMod("interderive_" + digest)
	pkg := filepath.Join(dir, digest)
	so := filepath.Join(pkg, "stages.so")
	if _, err := os.Stat(so); err != nil {
		if building != nil {
			building(file, dir)
		}
		if err := build(dir, pkg, files); err != nil {
			return nil, fmt.Errorf("%w (--engine %s runs the file's tables): %v", ErrUnavailable, interderive.EngineTables, err)
		}
		prune(dir, time.Now().Add(-unusedFor))
	} else {
		now := time.Now()
		_ = os.Chtimes(pkg, now, now) // used: kept by prune
	}
	p, err := plugin.Open(so)
	if err != nil {
		return nil, fmt.Errorf("%w (--engine %s runs the file's tables): loading %s, built for %s: %v", ErrUnavailable, interderive.EngineTables, so, file, err)
	}
	sym, err := p.Lookup("Eval")
	if err != nil {
		return nil, fmt.Errorf("the compiled engine: %s has no Eval: %v", so, err)
	}
	eval, ok := sym.(evalFunc)
	if !ok {
		return nil, fmt.Errorf("the compiled engine: %s's Eval is a %T", so, sym)
	}
	se := &Semantics{lang: l, eval: eval, literals: literals}
	se.funcs, se.prim = hostCalls(l)
	return se, nil
}

// hostCalls are l's own hooks, by name, and the call of its own prims, that the
// generated code makes back to this process (nil where l has none): a prim computed
// by its Go (a hook's call is Semantics.hook's).
func hostCalls(l *sem.Language) (map[string]*sem.Function, primFunc) {
	funcs := map[string]*sem.Function{}
	for _, f := range l.Functions {
		if f.Hook != nil {
			funcs[f.Hook.Name] = f
		}
	}
	prims := map[string]*sem.Prim{}
	for _, name := range l.Hooks().PrimNames() {
		if p, ok := l.Hooks().Prim(name); ok {
			if !gogen.DefaultPrim(p) { // the δ-table's are written in Go
				prims[name] = p
			}
		}
	}
	prim := func(name string, args []int64) (int64, bool) {
		p := prims[name]
		switch {
		case p == nil:
			return 0, false
		case p.Test:
			if p.Cmp(args) {
				return 1, true
			}
			return 0, true
		}
		return p.Int(args)
	}
	if len(funcs) == 0 {
		funcs = nil
	}
	if len(prims) == 0 {
		prim = nil
	}
	return funcs, prim
}

// hook is the call of the calculus's own hooks back to this process, for a run
// whose atoms of the calculus's own atom types are atoms (nil where there is no
// hook): a hook's arguments decoded, applied as sem applies it
// (sem.Language.CallHook: its result's sort checked), its result encoded, or its
// failure as Eval gives one (the program's run-time error, or the reason the hook
// failed, the function's error).
func (s *Semantics) hook(atoms *gogen.Atoms) hookFunc {
	if s.funcs == nil {
		return nil
	}
	l := s.lang
	return func(name string, args [][]int64, argNames [][]string) ([]int64, []string, []string) {
		f := s.funcs[name]
		if f == nil {
			return nil, nil, []string{"other", "the compiled engine called hook " + name + ", which " + l.Name + " does not have"}
		}
		terms := make([]*sem.Term, len(args))
		for i := range args {
			t, err := gogen.Decode(l, args[i], argNames[i], atoms)
			if err != nil {
				return nil, nil, []string{"other", fmt.Sprintf("the compiled engine gave hook %s an argument it cannot read: %v", name, err)}
			}
			terms[i] = t
		}
		t, err := l.CallHook(f, terms)
		var re *interderive.RuntimeError
		var fe *sem.FunctionError
		switch {
		case errors.As(err, &re):
			return nil, nil, []string{"runtime", strconv.Itoa(int(re.Pos.Line)), strconv.Itoa(int(re.Pos.Col)), re.Reason, re.Term}
		case errors.As(err, &fe):
			return nil, nil, []string{"function", fe.Reason}
		case err != nil:
			return nil, nil, []string{"function", err.Error()}
		}
		res, resNames, err := gogen.Encode(t, atoms)
		if err != nil {
			return nil, nil, []string{"function", err.Error()}
		}
		return res, resNames, nil
	}
}

// CacheDir is where Load keeps the plugins it builds: interderive/compiled in the
// user's cache directory (os.UserCacheDir), or in the temporary directory where
// there is none.
func CacheDir() string {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, "interderive", "compiled")
}

// unusedFor is how long a built plugin is kept unused: each build removes those
// that no run has loaded for that long (rule files edited since, an older Go).
const unusedFor = 30 * 24 * time.Hour

// prune removes the plugins of dir that no run has loaded since before (the time of
// their directory, which Load sets at each load), and the builds that were left
// unfinished then. What cannot be removed is left: another process may hold it.
func prune(dir string, before time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && e.IsDir() && info.ModTime().Before(before) {
			_ = os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}

// build writes the package's files into a new directory in dir, builds it as a
// plugin there, and renames the directory to pkg (another process may have built it
// in the meantime: then its build stands).
func build(dir, pkg string, files map[string][]byte) error {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("it needs the Go toolchain (go) on the PATH to build a rule file's stages: %v", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := gogen.Write(tmp, files); err != nil {
		return err
	}
	cmd := exec.Command(goTool, "build", "-buildmode=plugin", "-o", "stages.so", ".")
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "CGO_ENABLED=1", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build -buildmode=plugin of the generated stages: %v\n%s", err, out)
	}
	if v, err := goVersion(goTool, tmp); err == nil && v != runtime.Version() {
		return fmt.Errorf("the Go toolchain on the PATH is %s and interderive was built with %s: a plugin loads only into a program built by the same toolchain", v, runtime.Version())
	}
	if err := os.Rename(tmp, pkg); err != nil {
		if _, statErr := os.Stat(filepath.Join(pkg, "stages.so")); statErr == nil {
			return nil // built by another process
		}
		return err
	}
	return nil
}

// goVersion is the version of the Go toolchain goTool.
func goVersion(goTool, dir string) (string, error) {
	cmd := exec.Command(goTool, "env", "GOVERSION")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}

// runs is why the compiled engine has no stage named name, nil where it has one
// (gogen.Stages).
func runs(name string) error {
	if !slices.Contains(gogen.Stages, name) {
		return fmt.Errorf("the compiled engine has no %s stage (it runs %s); --engine %s runs the file's tables", name, strings.Join(gogen.Stages, ", "), interderive.EngineTables)
	}
	return nil
}

// Stage is the compiled stage named name (gogen.Stages).
func (s *Semantics) Stage(name string) (sem.Stage, error) {
	if err := runs(name); err != nil {
		return nil, err
	}
	return stage{s: s, name: name}, nil
}

// stage is one of the compiled stages.
type stage struct {
	s    *Semantics
	name string
}

// errObserved is a run whose states are watched: the compiled stages report their
// contractions, not their states.
var errObserved = fmt.Errorf("the compiled engine shows a run's contractions, not its states: --engine %s shows them", interderive.EngineTables)

// Eval runs t on the compiled stage. l is the language the stage was compiled from,
// or one read from the same file: the term crosses by its constructors' numbers.
func (st stage) Eval(l *sem.Language, t *sem.Term, opts interderive.Options) (sem.Answer, error) {
	if opts.StepObserver() != nil {
		return sem.Answer{}, errObserved // a lockstep's observer of reports runs: a rule file's stages report nothing
	}
	atoms := st.s.literals.Clone() // the run's atoms of the calculus's own atom types
	prog, names, err := gogen.Encode(t, atoms)
	if err != nil {
		return sem.Answer{}, err
	}
	fuel := opts.Fuel
	if fuel <= 0 {
		fuel = interderive.DefaultFuel
	}
	var deadline time.Time
	if opts.Timeout > 0 {
		deadline = time.Now().Add(opts.Timeout)
	}
	ans, ansNames, fail := st.s.eval(st.name, prog, names, fuel, deadline, max(opts.Memory, 0), opts.OnContract, st.s.hook(atoms), st.s.prim)
	if fail != nil {
		return sem.Answer{}, st.s.failure(fail, opts)
	}
	v, err := gogen.Decode(l, ans, ansNames, atoms)
	if err != nil {
		return sem.Answer{}, fmt.Errorf("the compiled engine gave an answer it cannot read: %w", err)
	}
	return sem.Answer{Value: v}, nil
}

// failure is the workbench's error for the generated package's (rt/export.go.txt's
// failure: a kind and its fields).
func (s *Semantics) failure(f []string, opts interderive.Options) error {
	n := func(i int) int {
		if i >= len(f) {
			return 0
		}
		v, _ := strconv.Atoi(f[i])
		return v
	}
	arg := func(i int) string {
		if i >= len(f) {
			return ""
		}
		return f[i]
	}
	switch f[0] {
	case "runtime":
		return &interderive.RuntimeError{Pos: interderive.Pos{Line: int32(n(1)), Col: int32(n(2))}, Reason: arg(3), Term: arg(4)}
	case "stuck":
		return interderive.Stuck(arg(2), "%s", arg(1))
	case "fuel":
		return &interderive.FuelError{Steps: n(1)}
	case "timeout":
		return &interderive.TimeoutError{Limit: opts.Timeout, Steps: n(1)}
	case "memory":
		return &interderive.MemoryError{Limit: opts.Memory, Live: interderive.LiveHeap(), Steps: n(1)}
	case "depth":
		return &interderive.DepthError{What: arg(1), Limit: n(2)}
	case "function":
		fe := s.lang.FunctionFailed(arg(1), arg(2), arg(3), n(4))
		fe.Reason = arg(5)
		return fe
	}
	return fmt.Errorf("the compiled engine: %s", strings.Join(f[1:], ": "))
}
