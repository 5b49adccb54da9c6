//go:build !linux

package driver

import "os/exec"

// peakRSS is not available here: the space target reads /proc (Linux).
func peakRSS(*exec.Cmd) (uint64, error) { return 0, errNoRSS }
