package workbench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A Peer is another tool that runs some programs of the suite, whose time the stages
// are compared with (bench --peer): its runtime (a command looked up on PATH) runs a
// script kept in the suite's directory, as
//
//	RUNTIME DIR/SCRIPT PROGRAM N VARIANT
//
// which prints a line per model it runs the program in:
//
//	MODEL CONTRACTIONS ANSWER SECONDS
//
// SECONDS being the time of the run alone (its runtime's start excluded). A program
// of the suite says at which sizes a peer runs it: -- peer NAME: 14, 20.
type Peer struct {
	Name    string
	Runtime string // the command, looked up on PATH
	Script  string // relative to the suite's directory
	Doc     string
}

// Peers are the peers bench knows.
var Peers = []Peer{
	{Name: "redex", Runtime: "racket", Script: filepath.Join("redex", "peer.rkt"),
		Doc: "PLT Redex models of the same rules (testdata/bench/redex: the cast calculus with its four semantics, and its typed call-by-value fragment)"},
}

// PeerNamed returns the peer of a name.
func PeerNamed(name string) (Peer, error) {
	for _, p := range Peers {
		if p.Name == name {
			return p, nil
		}
	}
	var names []string
	for _, p := range Peers {
		names = append(names, p.Name)
	}
	return Peer{}, fmt.Errorf("unknown peer %q in --peer (known: %s)", name, strings.Join(names, ", "))
}

// ErrNoRuntime says that a peer's runtime is not installed here: the comparison is
// skipped, and says so.
var ErrNoRuntime = errors.New("not installed")

// A PeerRun is one model's run of a program by a peer.
type PeerRun struct {
	Model        string
	Contractions int
	Answer       string
	Time         time.Duration
}

// Available reports whether the peer's runtime is on PATH (an error wrapping
// ErrNoRuntime if not).
func (p Peer) Available() error {
	if _, err := exec.LookPath(p.Runtime); err != nil {
		return fmt.Errorf("%s: %s is %w (not on PATH)", p.Name, p.Runtime, ErrNoRuntime)
	}
	return nil
}

// Run runs a program of the suite in dir at one size under one variant, in every
// model of the peer, within timeout (0 for none).
func (p Peer) Run(dir string, prog BenchProgram, size, variant string, timeout time.Duration) ([]PeerRun, error) {
	if err := p.Available(); err != nil {
		return nil, err
	}
	out, err := p.RunScript(filepath.Join(dir, p.Script), timeout, prog.Name, size, variant)
	if err != nil {
		return nil, err
	}
	return ParsePeerOutput(out)
}

// RunScript runs a script of the peer under its runtime with args, within timeout (0
// for none), and returns what it printed; an error says what it printed on standard
// error, or that it ran out of time.
func (p Peer) RunScript(script string, timeout time.Duration, args ...string) (string, error) {
	ctx := context.Background()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, p.Runtime, append([]string{script}, args...)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("%s timed out after %s", p.Name, timeout)
		}
		return "", fmt.Errorf("%s %s: %v: %s", p.Runtime, filepath.Base(script), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// ParsePeerOutput reads a peer's lines (MODEL CONTRACTIONS ANSWER SECONDS; the answer
// may hold spaces, as blame l does).
func ParsePeerOutput(out string) ([]PeerRun, error) {
	var runs []PeerRun
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 4 {
			return nil, fmt.Errorf("peer output %q: want MODEL CONTRACTIONS ANSWER SECONDS", line)
		}
		n, err1 := strconv.Atoi(f[1])
		secs, err2 := strconv.ParseFloat(f[len(f)-1], 64)
		if err1 != nil || err2 != nil || n < 0 || secs < 0 {
			return nil, fmt.Errorf("peer output %q: want MODEL CONTRACTIONS ANSWER SECONDS", line)
		}
		runs = append(runs, PeerRun{Model: f[0], Contractions: n, Answer: strings.Join(f[2:len(f)-1], " "), Time: time.Duration(secs * float64(time.Second))})
	}
	if len(runs) == 0 {
		return nil, errors.New("the peer printed no run")
	}
	return runs, nil
}

// PeerSizes are the sizes at which the program says a peer runs it (-- peer NAME: sizes).
func (p BenchProgram) PeerSizes(peer string) []string {
	return p.Peers[peer]
}

// parsePeerLine reads a -- peer NAME: sizes line into peers.
func parsePeerLine(rest string, peers map[string][]string) error {
	name, sizes, ok := strings.Cut(rest, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("want -- peer NAME: SIZES")
	}
	if _, err := PeerNamed(name); err != nil {
		return fmt.Errorf("-- peer %s: %w", name, err)
	}
	for _, s := range strings.Split(sizes, ",") {
		s = strings.TrimSpace(s)
		if n, err := strconv.Atoi(s); err != nil || n <= 0 {
			return fmt.Errorf("-- peer %s: %q is not a positive size", name, s)
		}
		if !slices.Contains(peers[name], s) {
			peers[name] = append(peers[name], s)
		}
	}
	return nil
}

// CheckSuite reports whether the suite in dir holds the peer's script.
func (p Peer) CheckSuite(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, p.Script)); err != nil {
		return fmt.Errorf("--peer %s: the suite has no %s: %w", p.Name, p.Script, err)
	}
	return nil
}
