//go:build unix

package driver

import (
	"os/exec"
	"runtime"
	"syscall"
)

// peakRSS runs cmd to completion and returns the peak resident set size of its
// process, in bytes.
func peakRSS(cmd *exec.Cmd) (uint64, error) {
	if err := cmd.Run(); err != nil {
		return 0, err
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, errNoRSS
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return uint64(ru.Maxrss), nil // bytes
	}
	return uint64(ru.Maxrss) * 1024, nil // kilobytes
}
