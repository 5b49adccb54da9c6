package workbench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"time"
)

// PeakRSS runs cmd to completion and returns the peak resident set size of its
// process, in bytes: the high-water mark VmHWM of its address space, which the kernel
// keeps in /proc/PID/status, read every millisecond while it runs (it only grows, so
// the last reading before the process exits is the peak, up to a millisecond's
// growth). getrusage's ru_maxrss is no use here: a child started by a Go program
// (vfork, then exec) inherits the parent's high-water mark, so every child of a large
// benchmark process would seem as large as its parent.
func PeakRSS(cmd *exec.Cmd) (uint64, error) {
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var peak uint64
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		if hwm, ok := readHWM(status); ok {
			peak = max(peak, hwm)
		}
		select {
		case err := <-done:
			if err != nil {
				return 0, err
			}
			if peak == 0 {
				return 0, ErrNoRSS
			}
			return peak, nil
		case <-tick.C:
		}
	}
}

// readHWM reads VmHWM (in kB) from a /proc/PID/status file.
func readHWM(path string) (uint64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	_, rest, ok := bytes.Cut(b, []byte("VmHWM:"))
	if !ok {
		return 0, false
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	kb, err := strconv.ParseUint(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(line), []byte("kB")))), 10, 64)
	if err != nil {
		return 0, false
	}
	return kb * 1024, true
}
