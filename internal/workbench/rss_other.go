//go:build !linux

package workbench

import "os/exec"

// PeakRSS is not available here: the space target reads /proc (Linux).
func PeakRSS(*exec.Cmd) (uint64, error) { return 0, ErrNoRSS }
