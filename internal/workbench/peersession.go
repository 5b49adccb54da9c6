package workbench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A PeerSession is a script of a peer running beside the caller, which times its
// own runs at the caller's request (bench --peer redex --model): the caller writes a
// number of milliseconds a line, and the script answers with a line "time SECONDS",
// the mean time of its runs repeated for that long. The caller times its own runs
// between two such rounds, so that both sides are timed in the same stretches of
// the machine's time.
type PeerSession struct {
	name   string
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Scanner
	stderr bytes.Buffer
	ctx    context.Context
	cancel context.CancelFunc
}

// StartScript starts a script of the peer under its runtime with args, for a
// session that must end within timeout (0 for none).
func (p Peer) StartScript(script string, timeout time.Duration, args ...string) (*PeerSession, error) {
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, timeout)
	}
	s := &PeerSession{name: p.Name, ctx: ctx, cancel: cancel}
	s.cmd = exec.CommandContext(ctx, p.Runtime, append([]string{script}, args...)...)
	s.cmd.Stderr = &s.stderr
	in, err := s.cmd.StdinPipe()
	if err != nil {
		cancel()
		return nil, err
	}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		cancel()
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		cancel()
		return nil, fmt.Errorf("%s %s: %v", p.Runtime, filepath.Base(script), err)
	}
	s.in, s.out = in, bufio.NewScanner(out)
	s.out.Buffer(nil, 1<<20) // an answer may be a long term
	return s, nil
}

// Line is the first line the script prints, from here on, that starts with prefix
// (the lines before it, a model's own tests' output, are skipped).
func (s *PeerSession) Line(prefix string) (string, error) {
	for s.out.Scan() {
		if line := s.out.Text(); strings.HasPrefix(line, prefix) {
			return line, nil
		}
	}
	return "", s.ended()
}

// Time asks the script for a round of d, and returns the mean time of its runs.
func (s *PeerSession) Time(d time.Duration) (time.Duration, error) {
	if _, err := fmt.Fprintf(s.in, "%d\n", d.Milliseconds()); err != nil {
		return 0, s.ended()
	}
	line, err := s.Line("time ")
	if err != nil {
		return 0, err
	}
	secs, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimPrefix(line, "time ")), 64)
	if err != nil || secs <= 0 {
		return 0, fmt.Errorf("%s printed %q: want time SECONDS", s.name, line)
	}
	return time.Duration(secs * float64(time.Second)), nil
}

// ended is the error of a script whose output ended before it answered: what it
// printed on standard error, or that it ran out of time.
func (s *PeerSession) ended() error {
	err := s.Close()
	switch {
	case errors.Is(s.ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%s timed out", s.name)
	case err != nil:
		return fmt.Errorf("%s: %v: %s", s.name, err, strings.TrimSpace(s.stderr.String()))
	}
	return fmt.Errorf("%s ended without answering: %s", s.name, strings.TrimSpace(s.stderr.String()))
}

// Close ends the session: the script's input closed, its end awaited.
func (s *PeerSession) Close() error {
	if s.in == nil {
		return nil
	}
	s.in.Close()
	s.in = nil
	err := s.cmd.Wait()
	s.cancel()
	return err
}
